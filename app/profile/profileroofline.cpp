#include "profileroofline.h"

#include "profilesession.h"

#include <tpusim/chips.h>
#include <tpusim/provenance.h>
#include <tpusim/validation.h>

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kMostOps = 12;                                      // the longest ops with FLOPs and bytes
constexpr double kLabelled = 6;                                   // of which the first few are named in place
constexpr double kLeft = 56, kBottom = 28, kTop = 8, kRight = 12; // margins for the axes' labels, px

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString decade(double v, const char *unit)
{
    return qs(tpusim::format_rate(v, unit));
}

// An axis label: a power of ten in few characters ("100T", "1P", "0.01", "10k").
QString tick(double v, bool prefixed)
{
    if (!prefixed) {
        if (v >= 1000)
            return QString::number(v / 1000, 'g', 3) + QLatin1Char('k');
        return QString::number(v, 'g', 3);
    }
    static const char *prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (v >= 1000 && i < 6) {
        v /= 1000;
        ++i;
    }
    return QString::number(v, 'g', 3) + QLatin1String(prefixes[i]);
}

} // namespace

ProfileRoofline::ProfileRoofline(QQuickItem *parent) : ProfileView(parent)
{
    setAntialiasing(true);
}

void ProfileRoofline::reload()
{
    m_points.clear();
    m_leftOut.clear();
    m_peak = m_vpu = m_bandwidth = m_attainablePeak = m_attainableBandwidth = 0;
    const tpuprofile::OpTable *t = table();
    if (t && t->chip) {
        const double fraction = tpusim::device_fraction(*t->chip);
        m_peak = t->chip->peak_bf16.value * fraction;
        m_vpu = t->chip->vpu_flops_per_core.value * t->chip->tensorcores.value * fraction;
        m_bandwidth = t->chip->hbm_bandwidth.value * fraction;
        // The rates the predictions take: the fractions of the peaks long
        // runs reach, as the validation fits them.
        const tpusim::DeviceConstants &k = tpusim::validation().per_chip.at(t->chip->id);
        m_attainablePeak = m_peak * k.mxu_efficiency;
        m_attainableBandwidth = m_bandwidth * k.hbm_efficiency;
    } else if (t) {
        m_peak = t->device->peak_flops;
        m_bandwidth = t->device->peak_hbm_bandwidth;
    }
    int without = 0;
    if (t) {
        for (std::size_t i = 0; i < t->rows.size() && static_cast<int>(m_points.size()) < kMostOps; ++i) {
            const tpuprofile::OpRow &r = t->rows[i];
            const tpuprofile::Op &op = t->device->ops[static_cast<std::size_t>(r.op)];
            if (r.self_per_call_s <= 0)
                continue;
            if (!(op.flops > 0 && op.bytes_accessed > 0 && r.family != tpuprofile::Family::async_start &&
                  r.family != tpuprofile::Family::host_transfer)) {
                ++without;
                continue;
            }
            Point p;
            p.row = static_cast<int>(i);
            p.intensity = static_cast<double>(op.flops) / static_cast<double>(op.bytes_accessed);
            p.measured = static_cast<double>(op.flops) / r.self_per_call_s;
            p.predicted = r.predicted.available && r.predicted.time_s > 0
                              ? static_cast<double>(op.flops) / r.predicted.time_s
                              : 0;
            p.label = qs(tpuprofile::display_name(op));
            m_points.push_back(p);
        }
    }
    if (without > 0)
        m_leftOut = QStringLiteral(
                        "%1 of the longer ops are not on it: they do no arithmetic (copies, transfers, "
                        "starts) or the profile gives no FLOPs for them.")
                        .arg(without);
    // Axes: decades around the ops and the roof.
    double xLo = 1e-1, xHi = 1e3, yLo = 1e10, yHi = std::max(1e12, m_peak * 2);
    for (const Point &p : m_points) {
        xLo = std::min(xLo, p.intensity / 2);
        xHi = std::max(xHi, p.intensity * 2);
        yLo = std::min(yLo, p.measured / 3);
    }
    if (m_peak > 0 && m_bandwidth > 0)
        xHi = std::max(xHi, m_peak / m_bandwidth * 10);
    m_xMin = std::pow(10, std::floor(std::log10(xLo)));
    m_xMax = std::pow(10, std::ceil(std::log10(xHi)));
    m_yMin = std::pow(10, std::floor(std::log10(yLo)));
    m_yMax = std::pow(10, std::ceil(std::log10(yHi)));
    emit contentChanged();
}

QRectF ProfileRoofline::plot() const
{
    return QRectF(kLeft, kTop, std::max(10.0, width() - kLeft - kRight), std::max(10.0, height() - kTop - kBottom));
}

QPointF ProfileRoofline::at(double intensity, double flops) const
{
    const QRectF r = plot();
    const double fx = (std::log10(intensity) - std::log10(m_xMin)) / (std::log10(m_xMax) - std::log10(m_xMin));
    const double fy = (std::log10(flops) - std::log10(m_yMin)) / (std::log10(m_yMax) - std::log10(m_yMin));
    return {r.left() + fx * r.width(), r.bottom() - fy * r.height()};
}

QString ProfileRoofline::roofKey() const
{
    if (!(m_peak > 0 && m_bandwidth > 0))
        return {};
    QStringList roofs{QStringLiteral("solid, the peaks")};
    if (m_vpu > 0)
        roofs << QStringLiteral("dashed, the vector unit's peak");
    if (m_attainablePeak > 0 && m_attainableBandwidth > 0)
        roofs << QStringLiteral(
            "dotted, the rates long runs reach (fitted on published timings), which the "
            "predictions take");
    return QStringLiteral("roofs: ") + roofs.join(QStringLiteral(" · "));
}

void ProfileRoofline::paint(QPainter *p)
{
    p->fillRect(QRectF(0, 0, width(), height()), m_ground);
    const QRectF r = plot();
    p->setFont(font());
    // Decades.
    p->setPen(QPen(m_grid, 1));
    for (double x = m_xMin; x <= m_xMax * 1.0001; x *= 10) {
        const double px = at(x, m_yMin).x();
        p->drawLine(QPointF(px, r.top()), QPointF(px, r.bottom()));
    }
    for (double y = m_yMin; y <= m_yMax * 1.0001; y *= 10) {
        const double py = at(m_xMin, y).y();
        p->drawLine(QPointF(r.left(), py), QPointF(r.right(), py));
    }
    p->setPen(m_ink);
    for (double x = m_xMin; x <= m_xMax * 1.0001; x *= 10)
        p->drawText(QRectF(at(x, m_yMin).x() - 30, r.bottom() + 2, 60, kBottom / 2), Qt::AlignHCenter | Qt::AlignTop,
                    tick(x, false));
    p->drawText(QRectF(r.left(), r.bottom() + kBottom / 2, r.width(), kBottom / 2), Qt::AlignHCenter | Qt::AlignTop,
                QStringLiteral("FLOPs per HBM byte"));
    for (double y = m_yMin; y <= m_yMax * 1.0001; y *= 10)
        p->drawText(QRectF(0, at(m_xMin, y).y() - 8, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter, tick(y, true));
    p->drawText(QRectF(r.left() + 4, r.top() + 2, r.width(), 16), Qt::AlignLeft | Qt::AlignTop,
                QStringLiteral("FLOP/s"));

    p->save();
    p->setClipRect(r);
    // The roofs: min(peak, intensity x bandwidth).
    auto roof = [&](double peak, double bandwidth, Qt::PenStyle style) {
        if (!(peak > 0 && bandwidth > 0))
            return;
        QPainterPath path;
        const double ridge = peak / bandwidth;
        path.moveTo(at(m_xMin, m_xMin * bandwidth));
        path.lineTo(at(ridge, peak));
        path.lineTo(at(m_xMax, peak));
        p->setPen(QPen(m_roof, 1.5, style));
        p->drawPath(path);
    };
    roof(m_peak, m_bandwidth, Qt::SolidLine);
    roof(m_vpu, m_bandwidth, Qt::DashLine);
    roof(m_attainablePeak, m_attainableBandwidth, Qt::DotLine);

    // Ops: predicted ring, measured dot, the line between.
    const double radius = dotRadius();
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const Point &pt = m_points[i];
        const bool lit = pt.row == m_litRow;
        const QPointF m = at(pt.intensity, pt.measured);
        if (pt.predicted > 0) {
            const QPointF q = at(pt.intensity, pt.predicted);
            p->setPen(QPen(lit ? m_lit : m_predicted, 1, Qt::DotLine));
            p->drawLine(m, q);
            p->setPen(QPen(lit ? m_lit : m_predicted, 1.5));
            p->setBrush(Qt::NoBrush);
            p->drawEllipse(q, radius, radius);
        }
        p->setPen(Qt::NoPen);
        p->setBrush(lit ? m_lit : m_measured);
        p->drawEllipse(m, radius, radius);
    }
    for (const Label &label : placeLabels()) {
        if (label.over) // the lit one's, over the others, on the chart's ground
            p->fillRect(label.box.adjusted(-2, 0, 2, 0), m_ground);
        p->setPen(label.lit ? m_lit : m_ink);
        p->drawText(label.box, Qt::AlignLeft | Qt::AlignVCenter, label.text);
    }
    p->restore();
    if (m_points.empty()) {
        p->setPen(m_ink);
        p->drawText(r, Qt::AlignCenter | Qt::TextWordWrap,
                    QStringLiteral("None of this device's longer ops does arithmetic the profile counts."));
    }
}

double ProfileRoofline::dotRadius() const
{
    return std::max(3.0, m_fontSize * 0.4);
}

std::vector<ProfileRoofline::Label> ProfileRoofline::placeLabels() const
{
    // The first few ops are named beside their dots, and the lit one
    // whatever its rank. Ops whose dots sit together (fusions of one shape,
    // timed alike) share one label that counts the others; a label that
    // would run into one already placed is left out: pointing at its dot
    // names it below the chart.
    const QFontMetricsF metrics(font());
    const double radius = dotRadius();
    std::vector<Label> placed;
    std::vector<bool> named(m_points.size(), false);
    auto place = [&](std::size_t i) {
        const QPointF m = at(m_points[i].intensity, m_points[i].measured);
        std::vector<std::size_t> together;
        for (std::size_t j = 0; j < m_points.size(); ++j)
            if (QLineF(m, at(m_points[j].intensity, m_points[j].measured)).length() < radius)
                together.push_back(j);
        const auto others = static_cast<int>(together.size()) - 1;
        Label label{m_points[i].label + (others > 0 ? QStringLiteral(" and %1 more").arg(others) : QString()),
                    {},
                    m_points[i].row == m_litRow,
                    false};
        label.box = QRectF(m.x() + radius + 3, m.y() - metrics.height() / 2, metrics.horizontalAdvance(label.text),
                           metrics.height());
        label.over =
            std::any_of(placed.begin(), placed.end(), [&](const Label &l) { return l.box.intersects(label.box); });
        if (label.over && !label.lit)
            return;
        placed.push_back(label);
        for (std::size_t j : together)
            named[j] = true;
    };
    for (std::size_t i = 0; i < m_points.size() && static_cast<double>(i) < kLabelled; ++i)
        if (!named[i] && m_points[i].row != m_litRow)
            place(i);
    for (std::size_t i = 0; i < m_points.size(); ++i)
        if (m_points[i].row == m_litRow)
            place(i);
    return placed;
}

QStringList ProfileRoofline::labels() const
{
    QStringList texts;
    for (const Label &l : placeLabels())
        texts << l.text;
    return texts;
}

int ProfileRoofline::pointAt(QPointF pos) const
{
    const double reach = std::max(6.0, m_fontSize * 0.6);
    for (const Point &pt : m_points) {
        if (QLineF(pos, at(pt.intensity, pt.measured)).length() <= reach)
            return pt.row;
        if (pt.predicted > 0 && QLineF(pos, at(pt.intensity, pt.predicted)).length() <= reach)
            return pt.row;
    }
    return -1;
}

void ProfileRoofline::hoverMoveEvent(QHoverEvent *event)
{
    QString text;
    const int row = pointAt(event->position());
    for (const Point &pt : m_points) {
        if (pt.row != row)
            continue;
        text = pt.label + QStringLiteral(": measured ") + decade(pt.measured, "FLOP/s") +
               (pt.predicted > 0 ? QStringLiteral(", predicted ") + decade(pt.predicted, "FLOP/s") : QString()) +
               QStringLiteral(" at ") + QString::number(pt.intensity, 'g', 3) + QStringLiteral(" FLOP/B");
    }
    setPointed(text);
}

void ProfileRoofline::mousePressEvent(QMouseEvent *event)
{
    const int row = pointAt(event->position());
    if (row >= 0)
        emit picked(row);
    event->setAccepted(row >= 0);
}
