#include "meshview.h"
#include "watchedmodel.h"

#include <QtQml/qqml.h>
#include <QPainter>
#include <QQuickWindow>

#include <algorithm>
#include <cmath>

namespace {

int sign(int v)
{
    return (v > 0) - (v < 0);
}

} // namespace

MeshView::MeshView(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    connect(this, &MeshView::look, this, &MeshView::invalidate);
}

void MeshView::setModel(MeshModel *model)
{
    if (!simqml::watchModel(this, m_model, model,
                            [this](MeshModel *m) { connect(m, &MeshModel::viewChanged, this, &MeshView::invalidate); }))
        return;
    emit modelChanged();
    invalidate();
}

void MeshView::setTime(double time)
{
    if (time == m_time)
        return;
    m_time = time;
    emit timeChanged();
    update(); // the static layer stands; only the dots move
}

void MeshView::geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry)
{
    QQuickPaintedItem::geometryChange(newGeometry, oldGeometry);
    if (newGeometry.size() != oldGeometry.size())
        invalidate();
}

// The cached layer is drawn at the screen's pixel density.
void MeshView::itemChange(ItemChange change, const ItemChangeData &value)
{
    QQuickPaintedItem::itemChange(change, value);
    if (change == ItemDevicePixelRatioHasChanged || change == ItemSceneChange)
        invalidate();
}

void MeshView::invalidate()
{
    m_dirty = true;
    update();
}

QPointF MeshView::centre(int r, int c) const
{
    return {m_originX + (c + 0.5) * m_cell, m_originY + (r + 0.5) * m_cell};
}

// The two directions of a link run side by side, a quarter chip apart.
QPointF MeshView::offset(int r0, int r1, int direction) const
{
    const qreal o = (direction > 0 ? -1 : 1) * m_cell * 0.12;
    return r0 == r1 ? QPointF(0, o) : QPointF(o, 0);
}

int MeshView::segments(int r0, int c0, int r1, int c1, int direction, bool wrap, QLineF out[2]) const
{
    const QPointF o = offset(r0, r1, direction);
    const QPointF a = centre(r0, c0) + o, b = centre(r1, c1) + o;
    if (!wrap) {
        out[0] = QLineF(a, b);
        return 1;
    }
    // Out past one edge, in from the opposite one: the wrap runs away from
    // the direction of the far end as seen across the plane.
    const qreal reach = m_cell * 0.5 + m_margin * 0.7;
    const QPointF step(-sign(c1 - c0) * reach, -sign(r1 - r0) * reach);
    out[0] = QLineF(a, a + step);
    out[1] = QLineF(b - step, b);
    return 2;
}

void MeshView::layOut()
{
    m_dirty = false;
    const MeshModel *model = m_model.data();
    const int rows = model != nullptr ? model->picture().rows : 1;
    const int cols = model != nullptr ? model->picture().cols : 1;
    m_rows = rows > 1 ? rows : 1;
    m_cols = cols > 1 ? cols : 1;
    const qreal w = width(), h = height();
    m_cell = std::max<qreal>(4, std::min((w - 2 * m_margin) / m_cols, (h - 2 * m_margin) / m_rows));
    m_originX = (w - m_cell * m_cols) / 2;
    m_originY = (h - m_cell * m_rows) / 2;

    const qreal dpr = window() ? window()->effectiveDevicePixelRatio() : 1.0;
    const QSize pixels(static_cast<int>(std::ceil(w * dpr)), static_cast<int>(std::ceil(h * dpr)));
    if (pixels.isEmpty()) {
        m_static = {};
        return;
    }
    if (m_static.size() != pixels)
        m_static = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
    m_static.setDevicePixelRatio(dpr);
    m_static.fill(Qt::transparent);
    QPainter p(&m_static);
    p.setRenderHint(QPainter::Antialiasing);
    paintStatic(p);
}

void MeshView::paintStatic(QPainter &p) const
{
    if (const MeshModel *model = m_model.data(); model != nullptr) {
        const MeshPicture &picture = model->picture();
        QPen pen(m_idle, std::clamp<qreal>(m_cell * 0.08, 1, 4), Qt::SolidLine, Qt::RoundCap);
        QLineF lines[2];
        // Idle links first, so loaded ones draw on top.
        for (int pass = 0; pass < 2; ++pass) {
            for (const MeshPicture::Link &l : picture.links) {
                if ((l.bytes > 0) != (pass == 1))
                    continue;
                const double fraction = picture.maxBytes > 0 ? l.bytes / picture.maxBytes : 0;
                QColor colour = m_idle;
                if (fraction > 0) {
                    colour = m_load;
                    colour.setAlphaF(static_cast<float>(0.25 + 0.75 * fraction));
                }
                pen.setColor(colour);
                p.setPen(pen);
                const int n = segments(l.r0, l.c0, l.r1, l.c1, l.direction, l.wrap, lines);
                for (int i = 0; i < n; ++i)
                    p.drawLine(lines[i]);
            }
        }
    }
    const qreal chip = m_cell * 0.42;
    p.setPen(QPen(m_chipEdge, 1));
    p.setBrush(m_chip);
    for (int r = 0; r < m_rows; ++r)
        for (int c = 0; c < m_cols; ++c) {
            const QPointF at = centre(r, c);
            p.drawRect(QRectF(at.x() - chip / 2, at.y() - chip / 2, chip, chip));
        }
}

void MeshView::paint(QPainter *painter)
{
    if (m_dirty)
        layOut();
    m_chunksDrawn = 0;
    if (m_static.isNull())
        return;
    painter->drawImage(QPointF(0, 0), m_static);
    const MeshModel *model = m_model.data();
    if (model == nullptr)
        return;

    // Chunks on the wire at this instant.
    const MeshPicture &picture = model->picture();
    const qreal dot = std::clamp<qreal>(m_cell * 0.1, 2, 6);
    // One simulated line may stand for every line of the plane.
    const int copies = picture.repeat == MeshPicture::Repeat::rows   ? m_rows
                       : picture.repeat == MeshPicture::Repeat::cols ? m_cols
                                                                     : 1;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_chunk);
    QLineF lines[2];
    for (const MeshPicture::Hop &hop : picture.hops) {
        if (hop.startS > m_time || hop.startS + hop.durationS <= m_time)
            continue;
        const double f = (m_time - hop.startS) / hop.durationS;
        for (int k = 0; k < copies; ++k) {
            int r0 = hop.r0, c0 = hop.c0, r1 = hop.r1, c1 = hop.c1;
            if (picture.repeat == MeshPicture::Repeat::rows)
                r0 = r1 = k;
            else if (picture.repeat == MeshPicture::Repeat::cols)
                c0 = c1 = k;
            const int n = segments(r0, c0, r1, c1, hop.direction, hop.wrap, lines);
            // Along a wrap, the first half is the out stub, the second the in stub.
            const QLineF &line = n == 1 ? lines[0] : lines[f < 0.5 ? 0 : 1];
            const double g = n == 1 ? f : (f < 0.5 ? f * 2 : f * 2 - 1);
            painter->drawEllipse(line.pointAt(g), dot, dot);
            ++m_chunksDrawn;
        }
    }
}
