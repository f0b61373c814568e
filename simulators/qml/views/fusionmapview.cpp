#include "fusionmapview.h"
#include "variants.h"
#include "watchedmodel.h"

#include <QtQml/qqml.h>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

using simqml::qs;
namespace fu = tpusim::fusion;

FusionMapView::FusionMapView(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    setAcceptedMouseButtons(Qt::LeftButton);
    setFlag(QQuickItem::ItemIsFocusScope, false);
    setActiveFocusOnTab(true);
    setAntialiasing(true);
    connect(this, &FusionMapView::look, this, [this] { update(); });
}

void FusionMapView::setModel(FusionMapModel *model)
{
    if (!simqml::watchModel(this, m_model, model, [this](FusionMapModel *m) {
            connect(m, &FusionMapModel::look, this, [this] { update(); });
            connect(m, &FusionMapModel::loaded, this, [this] {
                m_fitted = false;
                fit();
            });
        }))
        return;
    emit modelChanged();
    fit();
}

QPointF FusionMapView::toGraph(QPointF p) const
{
    return (p - m_offset) / m_zoom;
}

const FusionLayout *FusionMapView::currentLayout() const
{
    const FusionMapModel *model = m_model.data();
    return model != nullptr ? model->layout() : nullptr;
}

void FusionMapView::fit()
{
    const FusionLayout *layout = currentLayout();
    if (!layout || width() <= 0 || height() <= 0)
        return;
    const QRectF b = layout->bounds.adjusted(-12, -12, 12, 12);
    // Small graphs fit whole; a big one opens at a readable scale at its top.
    const double whole = std::min(width() / b.width(), height() / b.height());
    m_zoom = std::clamp(std::max(whole, 0.35), 0.05, 1.6);
    const double drawnW = b.width() * m_zoom;
    m_offset = QPointF(
        drawnW < width() ? (width() - drawnW) / 2 - b.left() * m_zoom : -b.left() * m_zoom + 12,
        b.height() * m_zoom < height() ? (height() - b.height() * m_zoom) / 2 - b.top() * m_zoom : -b.top() * m_zoom);
    m_fitted = true;
    emit viewChanged();
    update();
}

void FusionMapView::zoomBy(double factor)
{
    const QPointF c(width() / 2, height() / 2);
    const QPointF g = toGraph(c);
    m_zoom = std::clamp(m_zoom * factor, 0.03, 4.0);
    m_offset = c - g * m_zoom;
    emit viewChanged();
    update();
}

void FusionMapView::panBy(double dx, double dy)
{
    m_offset += QPointF(dx, dy);
    emit viewChanged();
    update();
}

void FusionMapView::centerOn(int node)
{
    const FusionLayout *layout = currentLayout();
    if (!layout || node < 0 || node >= static_cast<int>(layout->nodes.size()) ||
        layout->nodes[static_cast<std::size_t>(node)].isNull())
        return;
    m_zoom = std::max(m_zoom, 0.6);
    m_offset = QPointF(width() / 2, height() / 2) - layout->nodes[static_cast<std::size_t>(node)].center() * m_zoom;
    emit viewChanged();
    update();
}

QPointF FusionMapView::nodeCenter(int node) const
{
    const FusionLayout *layout = currentLayout();
    if (!layout || node < 0 || node >= static_cast<int>(layout->nodes.size()))
        return {-1, -1};
    return m_offset + layout->nodes[static_cast<std::size_t>(node)].center() * m_zoom;
}

void FusionMapView::geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry)
{
    QQuickPaintedItem::geometryChange(newGeometry, oldGeometry);
    if (!m_fitted || newGeometry.size() != oldGeometry.size())
        fit();
}

void FusionMapView::paint(QPainter *p)
{
    p->fillRect(QRectF(0, 0, width(), height()), m_ground);
    const FusionMapModel *model = m_model.data();
    const FusionLayout *layout = model ? model->layout() : nullptr;
    const fu::FusionMap *map = model ? model->map() : nullptr;
    if (!layout || !map)
        return;
    p->setRenderHint(QPainter::Antialiasing, true);
    p->save();
    p->translate(m_offset);
    p->scale(m_zoom, m_zoom);
    const QRectF visible =
        QRectF(toGraph(QPointF(0, 0)), toGraph(QPointF(width(), height()))).adjusted(-40, -40, 40, 40);
    const double px = 1.0 / m_zoom; // one device pixel in graph points

    // Fusion regions: filled when fused, a dashed outline when split.
    for (std::size_t gi = 0; gi < layout->groups.size(); ++gi) {
        const QRectF r = layout->groups[gi];
        if (!r.intersects(visible))
            continue;
        const bool on = map->enabled(static_cast<int>(gi));
        QColor fill = m_fused;
        fill.setAlphaF(on ? 0.22 : 0.0);
        QPen pen(m_fused, (on ? 1.5 : 1.2) * px, on ? Qt::SolidLine : Qt::DashLine);
        p->setPen(pen);
        p->setBrush(fill);
        p->drawRoundedRect(r, 6, 6);
    }
    if (layout->groups.empty()) {
        const auto &members = map->group_of();
        for (std::size_t i = 0; i < layout->nodes.size(); ++i) {
            const int g = members[i];
            const QRectF r = layout->nodes[i];
            if (g < 0 || r.isNull() || !r.intersects(visible))
                continue;
            const bool on = map->enabled(g);
            QColor fill = m_fused;
            fill.setAlphaF(on ? 0.35 : 0.0);
            p->setPen(QPen(m_fused, 1.5 * px, on ? Qt::SolidLine : Qt::DashLine));
            p->setBrush(fill);
            p->drawRoundedRect(r.adjusted(-4, -4, 4, 4), 5, 5);
        }
    }
    // Edges: inside an enabled fusion faint, through HBM bright.
    const auto &kernelOf = map->kernel_of();
    const auto &groupOf = map->group_of();
    QColor faint = m_muted;
    faint.setAlphaF(0.45);
    for (const auto &e : layout->edges) {
        if (!e.path.boundingRect().intersects(visible))
            continue;
        const int gf = groupOf[static_cast<std::size_t>(e.from)], gt = groupOf[static_cast<std::size_t>(e.to)];
        const bool fused = gf >= 0 && gf == gt && map->enabled(gf);
        const bool sameKernel = kernelOf[static_cast<std::size_t>(e.from)] >= 0 &&
                                kernelOf[static_cast<std::size_t>(e.from)] == kernelOf[static_cast<std::size_t>(e.to)];
        const bool hbm = !(fused && sameKernel);
        p->setPen(QPen(hbm ? m_hbm : faint, (hbm ? 1.4 : 1.0) * px));
        p->setBrush(Qt::NoBrush);
        if (e.path.size() >= 4 && (e.path.size() - 1) % 3 == 0) {
            QPainterPath curve(e.path[0]);
            for (int k = 1; k + 2 < e.path.size(); k += 3)
                curve.cubicTo(e.path[k], e.path[k + 1], e.path[k + 2]);
            p->drawPath(curve);
        } else {
            p->drawPolyline(e.path);
        }
    }
    // Ops.
    QFont font(m_font);
    font.setPixelSize(std::max(1, static_cast<int>(std::lround(m_fontSize * px))));
    p->setFont(font);
    const QFontMetricsF fm(font);
    const bool labels = m_zoom * 26.0 >= m_fontSize; // a box tall enough for a line
    const auto &nodes = map->graph().nodes();
    std::vector<char> match(nodes.size(), 0);
    for (int id : model->matches())
        match[static_cast<std::size_t>(id)] = 1;
    for (std::size_t i = 0; i < layout->nodes.size(); ++i) {
        const QRectF r = layout->nodes[i];
        if (r.isNull() || !r.intersects(visible))
            continue;
        const bool selected = static_cast<int>(i) == model->selected();
        const bool param = nodes[i].cls == fu::OpClass::parameter;
        QPen pen(selected ? m_select : match[i] ? m_match : m_muted, (selected || match[i] ? 2.5 : 1.0) * px);
        p->setPen(pen);
        p->setBrush(param ? m_ground : m_op);
        p->drawRoundedRect(r, 3, 3);
        if (labels) {
            p->setPen(m_text);
            const QString label = qs(nodes[i].opcode == "parameter" ? nodes[i].name : nodes[i].opcode);
            p->drawText(r.adjusted(4, 0, -4, 0), Qt::AlignCenter, fm.elidedText(label, Qt::ElideRight, r.width() - 8));
        }
    }
    p->restore();
}

void FusionMapView::mousePressEvent(QMouseEvent *event)
{
    forceActiveFocus(Qt::MouseFocusReason);
    m_pressAt = event->position();
    m_pressOffset = m_offset;
    m_dragged = false;
    event->accept();
}

void FusionMapView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF moved = event->position() - m_pressAt;
    if (!m_dragged && std::hypot(moved.x(), moved.y()) < 4)
        return;
    m_dragged = true;
    m_offset = m_pressOffset + moved;
    emit viewChanged();
    update();
}

void FusionMapView::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_dragged && m_model)
        emit nodeClicked(m_model->nodeAt(toGraph(event->position())));
    m_dragged = false;
}

void FusionMapView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (m_model)
        emit nodeDoubleClicked(m_model->nodeAt(toGraph(event->position())));
}

void FusionMapView::wheelEvent(QWheelEvent *event)
{
    // The wheel zooms with Ctrl, or once the map has been clicked; before
    // that it goes on to the page, so the reader scrolls past an inline map.
    if (!(event->modifiers() & Qt::ControlModifier) && !hasActiveFocus()) {
        event->ignore();
        return;
    }
    const QPointF at = event->position();
    const QPointF g = toGraph(at);
    if (event->modifiers() & Qt::ControlModifier || event->angleDelta().x() == 0) {
        const double steps = event->angleDelta().y() / 120.0;
        m_zoom = std::clamp(m_zoom * std::pow(1.2, steps), 0.03, 4.0);
        m_offset = at - g * m_zoom;
    } else {
        m_offset += QPointF(event->angleDelta().x(), event->angleDelta().y()) / 2.0;
    }
    emit viewChanged();
    update();
    event->accept();
}

void FusionMapView::keyPressEvent(QKeyEvent *event)
{
    const double step = 60;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomBy(1.25);
            break;
        case Qt::Key_Minus:
            zoomBy(0.8);
            break;
        case Qt::Key_0:
            fit();
            break;
        case Qt::Key_Left:
            panBy(step, 0);
            break;
        case Qt::Key_Right:
            panBy(-step, 0);
            break;
        case Qt::Key_Up:
            panBy(0, step);
            break;
        case Qt::Key_Down:
            panBy(0, -step);
            break;
        default:
            event->ignore();
            return;
    }
    event->accept();
}
