#include "loggrid.h"

#include <QPainter>

#include <cmath>

LogGrid::LogGrid(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    connect(this, &LogGrid::changed, this, [this] { update(); });
}

LogGrid::Lines LogGrid::linesFor(double lo, double hi)
{
    Lines lines;
    if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi))
        return lines;
    const double l0 = std::log10(lo), span = std::log10(hi) - l0;
    const auto at = [&](double value) { return (std::log10(value) - l0) / span; };
    // From the decade at or below lo to the one at or above hi.
    for (int decade = int(std::floor(l0)); decade <= int(std::ceil(l0 + span)); ++decade) {
        const double base = std::pow(10.0, decade);
        if (base >= lo && base <= hi)
            lines.major.push_back(at(base));
        for (int m = 2; m <= 9; ++m)
            if (const double v = m * base; v > lo && v < hi)
                lines.minor.push_back(at(v));
    }
    return lines;
}

void LogGrid::paint(QPainter *painter)
{
    const QRectF area(0, 0, width(), height());
    if (area.isEmpty())
        return;
    painter->fillRect(area, m_ground);
    const Lines across = linesFor(m_xMin, m_xMax), up = linesFor(m_yMin, m_yMax);
    // Snapped to whole pixels and drawn 1 px wide, without antialiasing:
    // crisp, and the raster engine's fast path.
    const auto draw = [&](const std::vector<double> &xs, const std::vector<double> &ys, const QColor &colour) {
        painter->setPen(QPen(colour, 0));
        for (const double f : xs) {
            const double x = std::round(f * (area.width() - 1)) + 0.5;
            painter->drawLine(QPointF(x, 0), QPointF(x, area.height()));
        }
        for (const double f : ys) {
            const double y = std::round((1 - f) * (area.height() - 1)) + 0.5;
            painter->drawLine(QPointF(0, y), QPointF(area.width(), y));
        }
    };
    draw(across.minor, up.minor, m_minor);
    draw(across.major, up.major, m_major);
}
