#include "profiletimeline.h"

#include "profilesession.h"

#include <tpusim/provenance.h>

#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kAxisHeight = 18; // the time labels at the bottom, in pixels
constexpr double kBarGap = 2;

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

ProfileTimeline::ProfileTimeline(QQuickItem *parent) : ProfileView(parent)
{
    setAntialiasing(false);
}

void ProfileTimeline::reload()
{
    m_rowOfOp.clear();
    m_familyOfOp.clear();
    m_lanes = 1;
    m_depths = 1;
    const tpuprofile::OpTable *t = table();
    if (t && !t->device->timeline.empty()) {
        const auto &events = t->device->timeline;
        m_rowOfOp.assign(t->device->ops.size(), -1);
        m_familyOfOp.assign(t->device->ops.size(), 0);
        for (std::size_t i = 0; i < t->rows.size(); ++i) {
            m_rowOfOp[static_cast<std::size_t>(t->rows[i].op)] = static_cast<int>(i);
            m_familyOfOp[static_cast<std::size_t>(t->rows[i].op)] = static_cast<int>(t->rows[i].family);
        }
        std::int64_t end = 0;
        for (const tpuprofile::OpEvent &e : events) {
            end = std::max(end, e.start_ps + e.duration_ps);
            m_depths = std::max(m_depths, std::min(e.depth + 1, 4));
        }
        m_lanes = std::max<int>(1, static_cast<int>(t->device->lanes.size()));
        m_totalStart = static_cast<double>(events.front().start_ps);
        m_totalSpan = std::max(1.0, static_cast<double>(end) - m_totalStart);
    } else {
        m_totalStart = 0;
        m_totalSpan = 1;
    }
    lightRow(m_litRow);
    showAll();
}

void ProfileTimeline::lightRow(int row)
{
    const tpuprofile::OpTable *t = table();
    m_litOp = t && row >= 0 && row < static_cast<int>(t->rows.size()) ? t->rows[static_cast<std::size_t>(row)].op : -1;
}

QVariantList ProfileTimeline::familyColors() const
{
    QVariantList out;
    for (const QColor &c : m_familyColors)
        out.append(c);
    return out;
}

void ProfileTimeline::setFamilyColors(const QVariantList &colors)
{
    m_familyColors.clear();
    for (const QVariant &c : colors)
        m_familyColors.append(c.value<QColor>());
    emit styleChanged();
    update();
}

void ProfileTimeline::showAll()
{
    m_start = m_totalStart;
    m_span = m_totalSpan;
    emit viewChanged();
    update();
}

double ProfileTimeline::timeAt(double x) const
{
    return m_start + x / std::max(1.0, width()) * m_span;
}
double ProfileTimeline::xAt(double t) const
{
    return (t - m_start) / m_span * width();
}

void ProfileTimeline::zoomAt(double x, double factor)
{
    const double anchor = timeAt(x);
    // No closer than 100 ps across the whole width, no wider than everything.
    m_span = std::clamp(m_span / factor, 100.0, m_totalSpan);
    m_start =
        std::clamp(anchor - x / std::max(1.0, width()) * m_span, m_totalStart, m_totalStart + m_totalSpan - m_span);
    emit viewChanged();
    update();
}

void ProfileTimeline::panBy(double pixels)
{
    m_start = std::clamp(m_start - pixels / std::max(1.0, width()) * m_span, m_totalStart,
                         m_totalStart + m_totalSpan - m_span);
    emit viewChanged();
    update();
}

QString ProfileTimeline::windowText() const
{
    const double from = (m_start - m_totalStart) * 1e-12, to = (m_start + m_span - m_totalStart) * 1e-12;
    return qs(tpusim::format_time(from)) + QStringLiteral(" to ") + qs(tpusim::format_time(to)) +
           QStringLiteral(" of ") + qs(tpusim::format_time(m_totalSpan * 1e-12));
}

QColor ProfileTimeline::colourOf(int op) const
{
    if (m_familyColors.isEmpty())
        return m_ink;
    const int f =
        op >= 0 && op < static_cast<int>(m_familyOfOp.size()) ? m_familyOfOp[static_cast<std::size_t>(op)] : 0;
    return m_familyColors[f % m_familyColors.size()];
}

double ProfileTimeline::laneTop(int lane, int depth) const
{
    const double usable = height() - kAxisHeight;
    const double laneHeight = usable / m_lanes;
    const double barHeight = laneHeight / m_depths;
    return lane * laneHeight + std::min(depth, m_depths - 1) * barHeight;
}

void ProfileTimeline::paint(QPainter *p)
{
    const double w = width(), h = height();
    p->fillRect(QRectF(0, 0, w, h), m_ground);
    const tpuprofile::OpTable *t = table();
    if (!t || t->device->timeline.empty() || w < 2)
        return;
    const auto &events = t->device->timeline;
    const double barHeight = (h - kAxisHeight) / m_lanes / m_depths - kBarGap;
    const double laneHeight = (h - kAxisHeight) / m_lanes;

    // Idle first: hatched across the lanes, under the bars.
    p->fillRect(QRectF(0, 0, w, h - kAxisHeight), QBrush(m_idle, Qt::BDiagPattern));

    const double viewEnd = m_start + m_span;
    const auto firstAfter = [&](double time) {
        return std::lower_bound(events.begin(), events.end(), time, [](const tpuprofile::OpEvent &e, double v) {
            return static_cast<double>(e.start_ps) < v;
        });
    };
    // Events that began before the view may still cover its left edge:
    // step back over the longest plausible span (events are few there).
    auto begin = firstAfter(m_start);
    for (int back = 0; begin != events.begin() && back < 64; ++back)
        --begin;
    const auto end = firstAfter(viewEnd);
    const std::ptrdiff_t inView = end - begin;
    const double psPerPixel = m_span / w;

    if (inView <= 20000) {
        for (auto it = begin; it != end; ++it) {
            const double x0 = xAt(static_cast<double>(it->start_ps));
            const double x1 = xAt(static_cast<double>(it->start_ps + it->duration_ps));
            if (x1 < 0 || x0 > w)
                continue;
            const QRectF bar(std::max(0.0, x0), laneTop(it->lane, it->depth),
                             std::max(1.0, std::min(w, x1) - std::max(0.0, x0)), barHeight);
            p->fillRect(bar.adjusted(0, 0, 0, 0), m_ground);
            p->fillRect(bar, it->op == m_litOp ? m_lit : colourOf(it->op));
            if (bar.width() > 60 && m_fontSize > 0) {
                const QFont f = font();
                p->setFont(f);
                p->setPen(m_ground);
                p->drawText(bar.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine,
                            QFontMetrics(f).elidedText(qs(t->device->ops[static_cast<std::size_t>(it->op)].name),
                                                       Qt::ElideRight, static_cast<int>(bar.width() - 8)));
            }
        }
    } else {
        // One column a pixel: the event covering the column's start, or the
        // first that starts inside it.
        for (int lane = 0; lane < m_lanes; ++lane) {
            for (int px = 0; px < static_cast<int>(w); ++px) {
                const double t0 = m_start + px * psPerPixel, t1 = t0 + psPerPixel;
                auto it = firstAfter(t0);
                const tpuprofile::OpEvent *hit = nullptr;
                if (it != events.begin()) {
                    const auto prev = std::prev(it);
                    if (static_cast<double>(prev->start_ps + prev->duration_ps) > t0)
                        hit = &*prev;
                }
                if (!hit && it != events.end() && static_cast<double>(it->start_ps) < t1)
                    hit = &*it;
                if (!hit || (m_lanes > 1 && hit->lane != lane))
                    continue;
                p->fillRect(QRectF(px, lane * laneHeight, 1, barHeight),
                            hit->op == m_litOp ? m_lit : colourOf(hit->op));
            }
        }
    }

    // The time axis: the view's start and end, and its span.
    p->setFont(font());
    p->setPen(m_ink);
    const QRectF axis(0, h - kAxisHeight, w, kAxisHeight);
    p->drawText(axis, Qt::AlignLeft | Qt::AlignBottom, qs(tpusim::format_time((m_start - m_totalStart) * 1e-12)));
    p->drawText(axis, Qt::AlignRight | Qt::AlignBottom, qs(tpusim::format_time((viewEnd - m_totalStart) * 1e-12)));
    p->drawText(axis, Qt::AlignHCenter | Qt::AlignBottom,
                QStringLiteral("%1 shown · wheel to zoom, drag to pan").arg(qs(tpusim::format_time(m_span * 1e-12))));
}

int ProfileTimeline::eventAt(double x, double y) const
{
    const tpuprofile::OpTable *t = table();
    if (!t || t->device->timeline.empty() || y > height() - kAxisHeight)
        return -1;
    const auto &events = t->device->timeline;
    const double laneHeight = (height() - kAxisHeight) / m_lanes;
    const int lane = std::clamp(static_cast<int>(y / laneHeight), 0, m_lanes - 1);
    const int depth = std::clamp(static_cast<int>((y - lane * laneHeight) / (laneHeight / m_depths)), 0, m_depths - 1);
    // A pixel's worth of slack, so a sliver of an event can be pointed at.
    const double t0 = timeAt(x - 1), t1 = timeAt(x + 1);
    auto it = std::lower_bound(events.begin(), events.end(), t1, [](const tpuprofile::OpEvent &e, double v) {
        return static_cast<double>(e.start_ps) < v;
    });
    int best = -1;
    for (int back = 0; it != events.begin() && back < 256; ++back) {
        --it;
        if (static_cast<double>(it->start_ps + it->duration_ps) < t0)
            continue;
        if (it->lane != lane && m_lanes > 1)
            continue;
        if (std::min(it->depth, m_depths - 1) == depth)
            return static_cast<int>(it - events.begin());
        if (best < 0)
            best = static_cast<int>(it - events.begin());
    }
    return best;
}

void ProfileTimeline::point(double x, double y)
{
    QString text;
    const tpuprofile::OpTable *t = table();
    if (t && !t->device->timeline.empty()) {
        const int i = eventAt(x, y);
        if (i >= 0) {
            const tpuprofile::OpEvent &e = t->device->timeline[static_cast<std::size_t>(i)];
            const tpuprofile::Op &op = t->device->ops[static_cast<std::size_t>(e.op)];
            text = qs(op.name) + QStringLiteral(" · ") + qs(tpusim::format_time(e.duration_ps * 1e-12)) +
                   QStringLiteral(" at ") +
                   qs(tpusim::format_time((static_cast<double>(e.start_ps) - m_totalStart) * 1e-12)) +
                   (op.category.empty() ? QString() : QStringLiteral(" · ") + qs(op.category));
        } else if (y <= height() - kAxisHeight) {
            // Idle: how long the device waited here.
            const auto &events = t->device->timeline;
            const double at = timeAt(x);
            auto next = std::lower_bound(events.begin(), events.end(), at, [](const tpuprofile::OpEvent &e, double v) {
                return static_cast<double>(e.start_ps) < v;
            });
            double prevEnd = m_totalStart;
            for (auto it = events.begin() + std::max<std::ptrdiff_t>(0, (next - events.begin()) - 256); it != next;
                 ++it)
                prevEnd = std::max(prevEnd, static_cast<double>(it->start_ps + it->duration_ps));
            if (next != events.end() && prevEnd < at)
                text = QStringLiteral("idle for %1: no op ran on the device (it waited on the host)")
                           .arg(qs(tpusim::format_time((static_cast<double>(next->start_ps) - prevEnd) * 1e-12)));
        }
    }
    setPointed(text);
}

void ProfileTimeline::wheelEvent(QWheelEvent *event)
{
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) {
        event->ignore();
        return;
    }
    zoomAt(event->position().x(), std::pow(1.25, notches));
    event->accept();
}

void ProfileTimeline::mousePressEvent(QMouseEvent *event)
{
    m_dragging = true;
    m_dragX = m_pressX = event->position().x();
    event->accept();
}

void ProfileTimeline::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragging) {
        panBy(event->position().x() - m_dragX);
        m_dragX = event->position().x();
    }
    point(event->position().x(), event->position().y());
}

void ProfileTimeline::mouseReleaseEvent(QMouseEvent *event)
{
    m_dragging = false;
    if (std::abs(event->position().x() - m_pressX) < 3) { // a click, not a drag
        const tpuprofile::OpTable *t = table();
        const int i = eventAt(event->position().x(), event->position().y());
        if (t && i >= 0) {
            const int op = t->device->timeline[static_cast<std::size_t>(i)].op;
            emit picked(m_rowOfOp[static_cast<std::size_t>(op)]);
        }
    }
}

void ProfileTimeline::hoverMoveEvent(QHoverEvent *event)
{
    point(event->position().x(), event->position().y());
}

void ProfileTimeline::hoverLeaveEvent(QHoverEvent *)
{
    setPointed(QString());
}
