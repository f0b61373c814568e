// The report's two charts: a chip's roofline with the learner's measured
// points, and each measured run against the simulator's predicted floor.
#include "reportfigures.h"
#include "reportformat.h"
#include "reporttheme.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

using namespace reporttheme;

namespace {

constexpr double kAxisGutterPt = 34; // room for the value labels left of a plot
constexpr double kAxisFootPt = 24;   // room for the labels and title below a plot
constexpr double kMarker = 3.2;
constexpr double kRooflinePlotShare = 0.6; // of the figure's width; the key takes the rest

double decadeBelow(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}
double decadeAbove(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

// Maps a value on a log axis between lo and hi to a coordinate between a and b.
double logMap(double v, double lo, double hi, double a, double b)
{
    return a + (b - a) * (std::log10(v / lo) / std::log10(hi / lo));
}

QString decadeLabel(double v)
{
    const int e = int(std::round(std::log10(v)));
    return e >= -1 && e <= 3 ? QString::number(v, 'g', 4) : QStringLiteral("1e%1").arg(e);
}

// A decade of time as people say it: "10 µs", "1 ms".
QString decadeDuration(double seconds)
{
    const QChar space(0x00A0);
    if (seconds < 1e-3)
        return QString::number(seconds * 1e6, 'g', 3) + space + QStringLiteral("µs");
    if (seconds < 1)
        return QString::number(seconds * 1e3, 'g', 3) + space + QStringLiteral("ms");
    return QString::number(seconds, 'g', 3) + space + QStringLiteral("s");
}

void drawGridLine(QPainter &p, QPointF a, QPointF b)
{
    p.setPen(QPen(kHairline, 0.6));
    p.drawLine(a, b);
}

} // namespace

void paintRoofline(QPainter &p, const ProgressReport::Roofline &roof, const QSizeF &size)
{
    const double ridge = roof.peakFlops / roof.bandwidth;
    double xLo = 1, xHi = ridge * 10, yLo = roof.bandwidth * 1;
    for (const auto &pt : roof.points) {
        xLo = std::min(xLo, pt.intensity);
        xHi = std::max(xHi, pt.intensity * 2);
        yLo = std::min(yLo, pt.flopsPerS);
    }
    xLo = decadeBelow(xLo);
    xHi = decadeAbove(xHi);
    yLo = decadeBelow(std::min(yLo, roof.bandwidth * xLo));
    const double yHi = decadeAbove(roof.peakFlops * 1.5);

    const double top = 26; // the title and the roof's figures above the plot
    const QRectF plot(kAxisGutterPt, top, size.width() * kRooflinePlotShare - kAxisGutterPt,
                      size.height() - top - kAxisFootPt);
    auto X = [&](double v) { return logMap(std::clamp(v, xLo, xHi), xLo, xHi, plot.left(), plot.right()); };
    auto Y = [&](double v) { return logMap(std::clamp(v, yLo, yHi), yLo, yHi, plot.bottom(), plot.top()); };

    p.setPen(kInk);
    p.setFont(figurepaint::font(p, kSans, kSmallPt, QFont::DemiBold));
    p.drawText(QRectF(0, 0, size.width(), 12), Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("%1 · your measured runs on its predicted roofline").arg(roof.chip));
    p.setPen(kPredicted);
    p.setFont(figurepaint::font(p, kSans, kTinyPt));
    p.drawText(QRectF(0, 12, size.width(), 10), Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("predicted roof: bf16 MXU %1, HBM %2 GB/s, ridge %3 FLOP/B")
                   .arg(reportformat::flopRate(roof.peakFlops), QString::number(roof.bandwidth / 1e9, 'f', 0),
                        QString::number(ridge, 'f', 0)));

    const QFont axisFont = figurepaint::font(p, kMono, kTinyPt);
    p.setFont(axisFont);
    for (double v = xLo; v <= xHi * 1.001; v *= 10) {
        drawGridLine(p, {X(v), plot.top()}, {X(v), plot.bottom()});
        p.setPen(kMuted);
        p.drawText(QRectF(X(v) - 20, plot.bottom() + 2, 40, 10), Qt::AlignHCenter | Qt::AlignTop, decadeLabel(v));
    }
    for (double v = yLo; v <= yHi * 1.001; v *= 10) {
        drawGridLine(p, {plot.left(), Y(v)}, {plot.right(), Y(v)});
        p.setPen(kMuted);
        p.drawText(QRectF(0, Y(v) - 5, plot.left() - 3, 10), Qt::AlignRight | Qt::AlignVCenter, decadeLabel(v));
    }
    p.setFont(figurepaint::font(p, kSans, kTinyPt));
    p.drawText(QRectF(plot.left(), plot.bottom() + 12, plot.width(), 10), Qt::AlignHCenter | Qt::AlignTop,
               QStringLiteral("FLOP per HBM byte (log)"));
    p.save();
    p.translate(6, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -5, plot.height(), 10), Qt::AlignCenter, QStringLiteral("FLOP/s (log)"));
    p.restore();

    QPainterPath roofPath;
    roofPath.moveTo(X(xLo), Y(roof.bandwidth * xLo));
    roofPath.lineTo(X(ridge), Y(roof.peakFlops));
    roofPath.lineTo(X(xHi), Y(roof.peakFlops));
    p.setPen(QPen(kPredicted, 1.6));
    p.setBrush(Qt::NoBrush);
    p.drawPath(roofPath);

    p.setFont(figurepaint::font(p, kMono, kTinyPt, QFont::DemiBold));
    QList<QRectF> placed; // numbers already drawn: a point on top of another gets its number below theirs
    for (int i = 0; i < roof.points.size(); ++i) {
        const QPointF c(X(roof.points[i].intensity), Y(roof.points[i].flopsPerS));
        p.setPen(QPen(Qt::white, 0.8));
        p.setBrush(kMeasured);
        p.drawEllipse(c, kMarker, kMarker);
        QRectF label(c + QPointF(kMarker + 1.5, -kMarker - 7),
                     QSizeF(p.fontMetrics().horizontalAdvance(QString::number(i + 1)) + 1, 8));
        while (std::any_of(placed.begin(), placed.end(), [&](const QRectF &r) { return r.intersects(label); }))
            label.translate(0, label.height());
        placed << label;
        p.setPen(kMeasured);
        p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, QString::number(i + 1));
    }

    // The key beside the plot: each point, by number.
    const QRectF key(plot.right() + 10, plot.top(), size.width() - plot.right() - 10, plot.height() + kAxisFootPt);
    double y = key.top();
    for (int i = 0; i < roof.points.size(); ++i) {
        const auto &pt = roof.points[i];
        p.setPen(kMeasured);
        p.setFont(figurepaint::font(p, kMono, kTinyPt, QFont::DemiBold));
        p.drawText(QRectF(key.left(), y, 12, 10), Qt::AlignLeft | Qt::AlignTop, QString::number(i + 1));
        p.setPen(kInk);
        p.setFont(figurepaint::font(p, kSans, kTinyPt));
        const QRectF entry(key.left() + 12, y, key.width() - 12, 9);
        p.drawText(entry, Qt::AlignLeft | Qt::AlignTop,
                   p.fontMetrics().elidedText(pt.label, Qt::ElideRight, int(entry.width())));
        p.setPen(kMuted);
        const QString figures = QStringLiteral("%1 at %2 FLOP/B")
                                    .arg(reportformat::flopRate(pt.flopsPerS),
                                         QString::number(pt.intensity, 'f', pt.intensity < 10 ? 2 : 0));
        p.drawText(entry.translated(0, 8.5), Qt::AlignLeft | Qt::AlignTop,
                   p.fontMetrics().elidedText(figures, Qt::ElideRight, int(entry.width())));
        y += 19;
        if (y > key.bottom() - 19 && i + 1 < roof.points.size()) {
            p.drawText(QRectF(key.left(), y, key.width(), 9), Qt::AlignLeft | Qt::AlignTop,
                       QStringLiteral("points %1–%2: see the run table").arg(i + 2).arg(roof.points.size()));
            break;
        }
    }
}

void paintPredictedVsMeasured(QPainter &p, const ProgressReport &r, const QSizeF &size)
{
    struct Row
    {
        QString label;
        double floorS;
        double measuredS;
    };
    QList<Row> rows;
    double lo = 1e9, hi = 0;
    for (const auto &run : r.runs)
        for (const auto &pr : run.predictions) {
            rows.append({QStringLiteral("%1 #%2 · %3 · %4").arg(run.lab).arg(run.id).arg(run.chip, pr.label), pr.floorS,
                         pr.measuredS});
            lo = std::min({lo, pr.floorS, pr.measuredS});
            hi = std::max({hi, pr.floorS, pr.measuredS});
        }
    if (rows.isEmpty())
        return;
    lo = decadeBelow(lo);
    hi = decadeAbove(hi * 1.01);
    const double labelWidth = size.width() * 0.36;
    const double ratioWidth = 44;
    const double rowHeight = (size.height() - kAxisFootPt - 10) / rows.size();
    const QRectF plot(labelWidth, 10, size.width() - labelWidth - ratioWidth, rowHeight * rows.size());
    auto X = [&](double v) { return logMap(v, lo, hi, plot.left(), plot.right()); };

    p.setFont(figurepaint::font(p, kMono, kTinyPt));
    for (double v = lo; v <= hi * 1.001; v *= 10) {
        drawGridLine(p, {X(v), plot.top()}, {X(v), plot.bottom()});
        p.setPen(kMuted);
        p.drawText(QRectF(X(v) - 24, plot.bottom() + 2, 48, 10), Qt::AlignHCenter | Qt::AlignTop, decadeDuration(v));
    }
    p.setFont(figurepaint::font(p, kSans, kTinyPt));
    p.setPen(kMuted);
    p.drawText(QRectF(plot.left(), 0, plot.width(), 10), Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("time per call (log) · amber bar: predicted floor · green dot: measured median"));
    p.drawText(QRectF(plot.right(), 0, ratioWidth, 10), Qt::AlignRight | Qt::AlignTop, QStringLiteral("ratio"));

    for (int i = 0; i < rows.size(); ++i) {
        const Row &row = rows[i];
        const double cy = plot.top() + rowHeight * (i + 0.5);
        p.setPen(kInk);
        p.setFont(figurepaint::font(p, kSans, kTinyPt));
        p.drawText(QRectF(0, cy - 6, labelWidth - 6, 12), Qt::AlignRight | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(row.label, Qt::ElideMiddle, int(labelWidth - 6)));
        p.setPen(QPen(kRule, 1));
        p.drawLine(QPointF(X(row.floorS), cy), QPointF(X(row.measuredS), cy));
        p.setPen(Qt::NoPen);
        p.setBrush(kPredicted);
        p.drawRect(QRectF(X(row.floorS) - 1, cy - 4.5, 2, 9));
        p.setPen(QPen(Qt::white, 0.8));
        p.setBrush(kMeasured);
        p.drawEllipse(QPointF(X(row.measuredS), cy), kMarker, kMarker);
        p.setPen(kInk);
        p.setFont(figurepaint::font(p, kMono, kTinyPt, QFont::DemiBold));
        p.drawText(QRectF(plot.right(), cy - 6, ratioWidth, 12), Qt::AlignRight | Qt::AlignVCenter,
                   reportformat::ratio(row.measuredS, row.floorS));
    }
    p.setPen(kMuted);
    p.setFont(figurepaint::font(p, kSans, kTinyPt));
    p.drawText(
        QRectF(0, plot.bottom() + 12, size.width(), 10), Qt::AlignRight | Qt::AlignTop,
        QStringLiteral("1.00× is a run at the roofline: the floor moves each byte once and never lets the MXU wait"));
}
