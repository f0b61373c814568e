#include "coverageview.h"
#include "blockspecmodel.h"

#include <QtQml/qqml.h>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <QPen>

#include <algorithm>

CoverageView::CoverageView(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    setAntialiasing(true);     // cells can be a fraction of a pixel wide
    setActiveFocusOnTab(true); // the arrows move the current cell
    connect(this, &CoverageView::look, this, [this] { update(); });
    connect(this, &CoverageView::currentChanged, this, [this] { update(); });
}

void CoverageView::setSource(BlockSpecModel *source)
{
    if (source == m_source)
        return;
    if (m_source)
        disconnect(m_source, nullptr, this, nullptr);
    m_source = source;
    if (source)
        connect(source, &BlockSpecModel::reportChanged, this, &CoverageView::readCells);
    emit sourceChanged();
    readCells();
}

void CoverageView::readCells()
{
    const QVariantList cells = m_source ? m_source->coverageCells() : QVariantList();
    m_cells.clear();
    m_cells.reserve(static_cast<std::size_t>(cells.size()));
    m_maxWrites = 1;
    for (const QVariant &v : cells) {
        const QVariantMap c = v.toMap();
        Cell cell;
        cell.row = c.value(QStringLiteral("row")).toInt();
        cell.col = c.value(QStringLiteral("col")).toInt();
        cell.writes = c.value(QStringLiteral("writes")).toInt();
        cell.missing = c.value(QStringLiteral("missing")).toBool();
        cell.race = c.value(QStringLiteral("race")).toBool();
        cell.scattered = c.value(QStringLiteral("scattered")).toBool();
        m_maxWrites = std::max(m_maxWrites, cell.writes);
        m_cells.push_back(cell);
    }
    emit cellsChanged();
    update();
}

void CoverageView::paint(QPainter *painter)
{
    const qreal s = m_cell;
    if (s <= 0 || m_cells.empty())
        return;
    const qreal gap = s >= 8 ? 1 : 0;
    const bool counted = s >= m_textMinCell;
    QFont font(m_font);
    font.setPixelSize(std::max(1, m_fontSize));
    const QFontMetrics metrics(font);
    // The count sits where a canvas puts text aligned "center" and "middle".
    const int baselineDown = metrics.ascent() - (metrics.ascent() / 2 + metrics.descent());
    painter->setFont(font);
    QPen outline(m_outline);
    outline.setWidthF(1);

    for (const Cell &c : m_cells) {
        const QRectF box(c.col * s + gap, c.row * s + gap, s - 2 * gap, s - 2 * gap);
        QColor fill;
        if (c.missing)
            fill = m_missing;
        else if (c.race)
            fill = m_race;
        else {
            fill = m_write;
            fill.setAlphaF(static_cast<float>(0.35 + 0.65 * c.writes / m_maxWrites));
        }
        painter->fillRect(box, fill);
        if (c.missing || c.scattered) {
            painter->setPen(outline);
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (counted && c.writes > 0) {
            const QString text = QString::number(c.writes);
            const qreal x = (c.col + 0.5) * s - metrics.horizontalAdvance(text) / 2;
            painter->setPen(c.race ? m_raceText : m_text); // dark on the light cells
            painter->drawText(QPointF(x, (c.row + 0.5) * s + baselineDown), text);
        }
    }
    if (m_current >= 0 && static_cast<std::size_t>(m_current) < m_cells.size()) {
        const Cell &c = m_cells[static_cast<std::size_t>(m_current)];
        QPen focus(m_focus);
        focus.setWidthF(2);
        painter->setPen(focus);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(QRectF(c.col * s + 1, c.row * s + 1, s - 2, s - 2));
    }
}
