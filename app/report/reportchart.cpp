#include "reportchart.h"

#include <QFont>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace {

// Report colours: printed on white, so darker than the app's.
const QColor kInk(0x11, 0x15, 0x1d);
const QColor kGrid(0xd3, 0xcd, 0xc2);
const QColor kRoof(0x8a, 0x5b, 0x00);    // predicted: amber, darkened for paper
const QColor kMeasured(0x2f, 0x7d, 0x3e); // measured: green

constexpr double kMinIntensity = 0.1;
constexpr double kMaxIntensity = 10000;

} // namespace

QImage drawRooflineChart(const RooflineChart &chart, int width, int height)
{
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const double scale = width / 900.0;
    QFont font(QStringLiteral("Inter"));
    font.setPixelSize(std::max(10, int(13 * scale)));
    p.setFont(font);

    const QRectF plot(70 * scale, 20 * scale, width - 100 * scale, height - 70 * scale);
    const double yMax = std::pow(10.0, std::ceil(std::log10(std::max(chart.peakFlops, 1.0)) + 0.2));
    const double yMin = yMax / 1e6;
    auto x = [&](double i) { return plot.left() + plot.width() * (std::log10(i / kMinIntensity) / std::log10(kMaxIntensity / kMinIntensity)); };
    auto y = [&](double f) { return plot.bottom() - plot.height() * (std::log10(std::max(f, yMin) / yMin) / std::log10(yMax / yMin)); };

    // Grid and axes, one line a decade.
    p.setPen(QPen(kGrid, 1));
    for (double i = kMinIntensity; i <= kMaxIntensity * 1.001; i *= 10) {
        p.drawLine(QPointF(x(i), plot.top()), QPointF(x(i), plot.bottom()));
        p.setPen(kInk);
        p.drawText(QRectF(x(i) - 40 * scale, plot.bottom() + 4 * scale, 80 * scale, 18 * scale), Qt::AlignCenter,
                   QString::number(i, 'g', 3));
        p.setPen(QPen(kGrid, 1));
    }
    for (double f = yMin; f <= yMax * 1.001; f *= 10) {
        p.drawLine(QPointF(plot.left(), y(f)), QPointF(plot.right(), y(f)));
        p.setPen(kInk);
        p.drawText(QRectF(0, y(f) - 9 * scale, plot.left() - 6 * scale, 18 * scale), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("1e%1").arg(int(std::round(std::log10(f)))));
        p.setPen(QPen(kGrid, 1));
    }
    p.setPen(kInk);
    p.drawText(QRectF(plot.left(), height - 24 * scale, plot.width(), 20 * scale), Qt::AlignCenter,
               QStringLiteral("arithmetic intensity (FLOP per HBM byte)"));
    p.save();
    p.translate(14 * scale, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -10 * scale, plot.height(), 20 * scale), Qt::AlignCenter, QStringLiteral("FLOP/s"));
    p.restore();

    // The predicted roof: bandwidth x intensity up to the ridge, then the peak.
    if (chart.peakFlops > 0 && chart.bandwidth > 0) {
        const double ridge = chart.peakFlops / chart.bandwidth;
        QPainterPath roof;
        roof.moveTo(x(kMinIntensity), y(chart.bandwidth * kMinIntensity));
        roof.lineTo(x(ridge), y(chart.peakFlops));
        roof.lineTo(x(kMaxIntensity), y(chart.peakFlops));
        p.setPen(QPen(kRoof, 2.5 * scale));
        p.drawPath(roof);
        p.drawText(QPointF(x(ridge) + 6 * scale, y(chart.peakFlops) - 6 * scale),
                   QStringLiteral("predicted roof · %1 · ridge %2 FLOP/B").arg(chart.chip).arg(ridge, 0, 'f', 0));
    }

    // The learner's measured points.
    p.setPen(QPen(kMeasured, 1.5 * scale));
    p.setBrush(kMeasured);
    for (const auto &pt : chart.points) {
        const QPointF c(x(std::clamp(pt.intensity, kMinIntensity, kMaxIntensity)), y(pt.flopsPerS));
        p.drawEllipse(c, 4.5 * scale, 4.5 * scale);
        p.drawText(c + QPointF(7 * scale, 4 * scale), pt.label);
    }
    if (chart.points.isEmpty()) {
        p.setPen(kInk);
        p.drawText(plot.adjusted(0, plot.height() * 0.6, 0, 0), Qt::AlignCenter,
                   QStringLiteral("no measured runs yet: import a lab's run record to place it here"));
    }
    return image;
}
