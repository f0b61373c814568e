#include "gaphatch.h"

#include <QPainter>
#include <QPainterPath>
#include <QPen>

GapHatch::GapHatch(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    connect(this, &GapHatch::look, this, [this] { update(); });
}

void GapHatch::paint(QPainter *painter)
{
    const qreal w = width(), h = height();
    if (w <= 0 || h <= 0 || m_spacing <= 0 || m_line.alpha() == 0)
        return;
    QPen pen(m_line);
    pen.setWidthF(1);
    // Lines at 45 degrees rising to the right, each one spacing further
    // along; the first starts left of the item so the lower-left corner is
    // hatched too. Unsmoothed and half a pixel left, they fall on the very
    // pixels the canvas this replaces drew.
    QPainterPath lines;
    for (qreal x = -h - 0.5; x < w; x += m_spacing) {
        lines.moveTo(x, h);
        lines.lineTo(x + h, 0);
    }
    painter->strokePath(lines, pen);
}
