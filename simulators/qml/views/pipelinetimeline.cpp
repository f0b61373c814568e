#include "pipelinetimeline.h"
#include "watchedmodel.h"

#include <QtQml/qqml.h>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

PipelineTimeline::PipelineTimeline(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    setAcceptHoverEvents(true);
    setAcceptedMouseButtons(Qt::LeftButton);
    setActiveFocusOnTab(true);
    connect(this, &PipelineTimeline::look, this, [this] { update(); });
    connect(this, &PipelineTimeline::pickedChanged, this, [this] { update(); });
    connect(&m_job, &QFutureWatcherBase::finished, this, [this] {
        Buckets b = m_job.result();
        if (m_run && b.run == m_run.get())
            m_buckets = std::move(b);
        update();
    });
}

PipelineTimeline::~PipelineTimeline()
{
    m_job.waitForFinished();
}

void PipelineTimeline::setModel(PipelineModel *model)
{
    if (!simqml::watchModel(this, m_model, model, [this](PipelineModel *m) {
            connect(m, &PipelineModel::runChanged, this, &PipelineTimeline::runChanged);
        }))
        return;
    emit modelChanged();
    runChanged();
}

int PipelineTimeline::cores() const
{
    return m_run && m_run->problem.isEmpty() ? m_run->result.cores : 0;
}

void PipelineTimeline::runChanged()
{
    std::shared_ptr<const PipelineModel::Computed> next;
    if (PipelineModel *model = m_model.data())
        next = model->computed();
    m_run = next;
    m_buckets = {};
    if (m_picked >= 0 && (!m_run || static_cast<std::size_t>(m_picked) >= m_run->result.schedule.size())) {
        m_picked = -1;
        emit pickedChanged();
    }
    if (m_hovered >= 0) {
        m_hovered = -1;
        emit hoveredChanged();
    }
    // A new run opens whole: the time axis of the last one means nothing for it.
    setView(0, m_run && m_run->problem.isEmpty() ? m_run->result.time_s : 0);
}

void PipelineTimeline::setView(double t0, double t1)
{
    const double end = m_run && m_run->problem.isEmpty() ? m_run->result.time_s : 0;
    if (end <= 0) {
        m_t0 = m_t1 = 0;
    } else {
        // At least a nanosecond in view; never past either end of the call.
        double span = std::clamp(t1 - t0, std::min(1e-9, end), end);
        t0 = std::clamp(t0, 0.0, end - span);
        m_t0 = t0;
        m_t1 = t0 + span;
    }
    emit viewChanged();
    update();
}

void PipelineTimeline::showAll()
{
    setView(0, m_run && m_run->problem.isEmpty() ? m_run->result.time_s : 0);
}

void PipelineTimeline::showSteps(int first, int count)
{
    if (!m_run || !m_run->problem.isEmpty() || m_run->result.schedule.empty())
        return;
    const tpusim::CoreSteps c = tpusim::core_steps(m_run->result, 0);
    const std::size_t n = c.end - c.begin;
    const std::size_t a = std::min<std::size_t>(static_cast<std::size_t>(std::max(0, first)), n - 1);
    const std::size_t b = std::min<std::size_t>(a + static_cast<std::size_t>(std::max(1, count)), n);
    const double t0 = a == 0 ? c.start_s : m_run->result.schedule[c.begin + a].start_s;
    const double t1 = b == n ? c.end_s : m_run->result.schedule[c.begin + b - 1].end_s;
    setView(t0, t1);
}

void PipelineTimeline::zoomAt(double fx, double factor)
{
    if (!(factor > 0) || m_t1 <= m_t0)
        return;
    const double at = m_t0 + std::clamp(fx, 0.0, 1.0) * (m_t1 - m_t0);
    const double span = (m_t1 - m_t0) / factor;
    setView(at - (at - m_t0) / factor, at - (at - m_t0) / factor + span);
}

void PipelineTimeline::pan(double fraction)
{
    const double shift = fraction * (m_t1 - m_t0);
    setView(m_t0 + shift, m_t1 + shift);
}

double PipelineTimeline::xOf(double t) const
{
    return m_t1 > m_t0 ? (t - m_t0) / (m_t1 - m_t0) * width() : 0;
}

int PipelineTimeline::coreAtY(qreal y) const
{
    const int n = cores();
    if (n <= 0)
        return -1;
    const qreal block = 3 * m_lane + m_coreGap;
    return std::clamp(static_cast<int>(y / block), 0, n - 1);
}

void PipelineTimeline::hoverAt(QPointF p)
{
    if (!m_model || cores() <= 0 || width() <= 0) {
        return;
    }
    const double t = m_t0 + std::clamp(p.x() / width(), 0.0, 1.0) * (m_t1 - m_t0);
    const int step = m_model->stepAt(coreAtY(p.y()), t);
    if (step != m_hovered || m_hoveredX != p.x()) {
        m_hovered = step;
        m_hoveredX = p.x();
        emit hoveredChanged();
    }
}

void PipelineTimeline::hoverMoveEvent(QHoverEvent *event)
{
    hoverAt(event->position());
}

void PipelineTimeline::hoverLeaveEvent(QHoverEvent *)
{
    if (m_hovered >= 0) {
        m_hovered = -1;
        emit hoveredChanged();
    }
}

void PipelineTimeline::wheelEvent(QWheelEvent *event)
{
    // The page scrolls with the wheel; Ctrl+wheel zooms the timeline.
    if (!(event->modifiers() & Qt::ControlModifier) || width() <= 0) {
        event->ignore();
        return;
    }
    const int dy = event->angleDelta().y();
    if (dy != 0)
        zoomAt(event->position().x() / width(), dy > 0 ? 1.5 : 1 / 1.5);
    event->accept();
}

void PipelineTimeline::mousePressEvent(QMouseEvent *event)
{
    forceActiveFocus(Qt::MouseFocusReason);
    m_dragging = false;
    m_dragX = event->position().x();
    m_dragT0 = m_t0;
    m_dragT1 = m_t1;
    event->accept();
}

void PipelineTimeline::mouseMoveEvent(QMouseEvent *event)
{
    const qreal dx = event->position().x() - m_dragX;
    if (!m_dragging && std::abs(dx) < 4)
        return;
    m_dragging = true;
    setKeepMouseGrab(true);
    const double dt = -dx / std::max<qreal>(1, width()) * (m_dragT1 - m_dragT0);
    setView(m_dragT0 + dt, m_dragT1 + dt);
}

void PipelineTimeline::mouseReleaseEvent(QMouseEvent *event)
{
    setKeepMouseGrab(false);
    if (!m_dragging) { // a click picks the step under the pointer
        hoverAt(event->position());
        if (m_hovered >= 0 && m_hovered != m_picked) {
            m_picked = m_hovered;
            emit pickedChanged();
        }
    }
    m_dragging = false;
}

const std::vector<std::vector<tpusim::ScheduleBucket>> *PipelineTimeline::bucketsFor(int w)
{
    if (!m_run || !m_run->problem.isEmpty() || w <= 0 || m_t1 <= m_t0)
        return nullptr;
    const PipelineModel::Computed *run = m_run.get();
    if (m_buckets.run == run && m_buckets.t0 == m_t0 && m_buckets.t1 == m_t1 && m_buckets.width == w)
        return &m_buckets.lanes;
    const tpusim::PipelineResult &r = run->result;
    // The whole call: the run's own overview, summed into pixels.
    if (m_t0 == 0 && m_t1 == r.time_s && w <= PipelineModel::overviewBuckets) {
        Buckets b{run, m_t0, m_t1, w, {}};
        const int n = PipelineModel::overviewBuckets;
        for (const auto &lane : run->overview) {
            std::vector<tpusim::ScheduleBucket> px(static_cast<std::size_t>(w));
            std::vector<int> counts(static_cast<std::size_t>(w), 0);
            for (int i = 0; i < n; ++i) {
                const auto p = static_cast<std::size_t>(static_cast<std::int64_t>(i) * w / n);
                tpusim::ScheduleBucket &o = px[p];
                const tpusim::ScheduleBucket &s = lane[static_cast<std::size_t>(i)];
                o.compute_s += s.compute_s;
                o.overhead_s += s.overhead_s;
                o.exposed_s += s.exposed_s;
                o.dma_in_s += s.dma_in_s;
                o.dma_out_s += s.dma_out_s;
                o.launch_s += s.launch_s;
                o.prologue_s += s.prologue_s;
                o.epilogue_s += s.epilogue_s;
                if (s.first_step >= 0 && o.first_step < 0)
                    o.first_step = s.first_step;
                if (s.last_step >= 0)
                    o.last_step = s.last_step;
                ++counts[p];
            }
            // Each pixel's times as if it spanned exactly span / w.
            for (std::size_t p = 0; p < px.size(); ++p) {
                const double scale = counts[p] > 0 ? static_cast<double>(n) / w / counts[p] : 0;
                tpusim::ScheduleBucket &o = px[p];
                for (double tpusim::ScheduleBucket::*f :
                     {&tpusim::ScheduleBucket::compute_s, &tpusim::ScheduleBucket::overhead_s,
                      &tpusim::ScheduleBucket::exposed_s, &tpusim::ScheduleBucket::dma_in_s,
                      &tpusim::ScheduleBucket::dma_out_s, &tpusim::ScheduleBucket::launch_s,
                      &tpusim::ScheduleBucket::prologue_s, &tpusim::ScheduleBucket::epilogue_s})
                    o.*f *= scale;
            }
            b.lanes.push_back(std::move(px));
        }
        m_buckets = std::move(b);
        return &m_buckets.lanes;
    }
    // Few steps in view: bucketed here, at once.
    const std::int64_t a = tpusim::step_at(r, 0, m_t0), z = tpusim::step_at(r, 0, m_t1);
    auto make = [](std::shared_ptr<const PipelineModel::Computed> c, double from, double to, int columns) {
        Buckets b{c.get(), from, to, columns, {}};
        for (int core = 0; core < c->result.cores; ++core)
            b.lanes.push_back(tpusim::aggregate_schedule(c->result, core, from, to, columns));
        return b;
    };
    if (z - a <= 20000) {
        m_buckets = make(m_run, m_t0, m_t1, w);
        return &m_buckets.lanes;
    }
    // Many: off the GUI thread; the last picture of this run stays meanwhile.
    if (!m_job.isRunning())
        m_job.setFuture(QtConcurrent::run(make, m_run, m_t0, m_t1, w));
    return m_buckets.run == run ? &m_buckets.lanes : nullptr;
}

void PipelineTimeline::paint(QPainter *painter)
{
    const int w = static_cast<int>(std::floor(width()));
    const auto *lanes = bucketsFor(w);
    const int n = cores();
    const qreal block = 3 * m_lane + m_coreGap;
    for (int core = 0; core < std::max(n, 1); ++core)
        for (int l = 0; l < 3; ++l)
            painter->fillRect(QRectF(0, core * block + l * m_lane, width(), m_lane - 1), m_laneBg);
    if (lanes == nullptr || n <= 0)
        return;
    const double px = (m_t1 - m_t0) / w; // seconds per pixel
    // A stacked column: each share of the lane's height from its bottom.
    auto column = [&](int x, qreal top, std::initializer_list<std::pair<double, const QColor *>> parts) {
        qreal bottom = top + m_lane - 1;
        for (const auto &[secs, colour] : parts) {
            const qreal h = std::min<qreal>(bottom - top, (m_lane - 1) * std::clamp(secs / px, 0.0, 1.0));
            if (h <= 0)
                continue;
            painter->fillRect(QRectF(x, bottom - h, 1, h), *colour);
            bottom -= h;
        }
    };
    for (int core = 0; core < n && core < static_cast<int>(lanes->size()); ++core) {
        const auto &lane = (*lanes)[static_cast<std::size_t>(core)];
        const qreal y = core * block;
        for (int x = 0; x < w && x < static_cast<int>(lane.size()); ++x) {
            const tpusim::ScheduleBucket &b = lane[static_cast<std::size_t>(x)];
            column(x, y, {{b.dma_in_s, &m_dmaIn}, {b.prologue_s, &m_exposed}});
            column(x, y + m_lane,
                   {{b.compute_s, &m_compute},
                    {b.overhead_s, &m_overhead},
                    {b.exposed_s + b.prologue_s + b.epilogue_s, &m_exposed},
                    {b.launch_s, &m_fixed}});
            column(x, y + 2 * m_lane, {{b.dma_out_s, &m_dmaOut}, {b.epilogue_s, &m_exposed}});
        }
    }
    const tpusim::PipelineResult &r = m_run->result;
    // Zoomed in far enough: a hairline where each step starts.
    for (int core = 0; core < n; ++core) {
        const tpusim::CoreSteps c = tpusim::core_steps(r, core);
        const std::int64_t a = tpusim::step_at(r, core, m_t0), z = tpusim::step_at(r, core, m_t1);
        if (a < 0 || (z - a + 1) * 6 > w)
            continue;
        painter->setPen(QPen(m_line, 1));
        for (std::int64_t i = a; i <= z && static_cast<std::size_t>(i) < c.end; ++i) {
            const qreal x = std::round(xOf(r.schedule[static_cast<std::size_t>(i)].start_s)) + 0.5;
            painter->drawLine(QPointF(x, core * block), QPointF(x, core * block + 3 * m_lane - 1));
        }
    }
    // The picked step, outlined across its core's lanes.
    if (m_picked >= 0 && static_cast<std::size_t>(m_picked) < r.schedule.size()) {
        const tpusim::ScheduleStep &s = r.schedule[static_cast<std::size_t>(m_picked)];
        const qreal x0 = xOf(s.start_s), x1 = std::max(xOf(s.end_s), x0 + 2);
        if (x1 >= 0 && x0 <= width()) {
            QPen pen(m_pick);
            pen.setWidthF(m_pickWidth);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(QRectF(x0, s.core * block + m_pickWidth / 2, x1 - x0, 3 * m_lane - 1 - m_pickWidth));
        }
    }
}
