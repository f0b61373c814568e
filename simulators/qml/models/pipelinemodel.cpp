#include "pipelinemodel.h"
#include "variants.h"

#include <tpusim/chips.h>
#include <tpusim/error.h>
#include <tpusim/provenance.h>
#include <tpusim/trace.h>

#include <QtQml/qqml.h>
#include <QDir>
#include <QSaveFile>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

using simqml::qs;

using simqml::grouped;
using simqml::percent;

namespace {

QString timeText(double s)
{
    return qs(tpusim::format_time(s));
}

// A size as libtpusim takes it: whole; anything else is its own sentence.
std::int64_t whole(double v)
{
    return std::isfinite(v) ? static_cast<std::int64_t>(std::llround(v)) : 0;
}

QString tuple(const std::vector<std::int64_t> &g)
{
    QStringList parts;
    for (std::int64_t v : g)
        parts << QString::number(v);
    return QStringLiteral("(") + parts.join(QStringLiteral(", ")) + QStringLiteral(")");
}

struct Inputs
{
    std::string chip, order;
    std::int64_t m = 0, k = 0, n = 0, bm = 0, bk = 0, bn = 0;
};

std::shared_ptr<const PipelineModel::Computed> compute(const Inputs &in)
{
    auto c = std::make_shared<PipelineModel::Computed>();
    c->inputs = QStringLiteral("%1 × %2 × %3, blocks %4 × %5 × %6, grid order %7 · %8")
                    .arg(in.m)
                    .arg(in.k)
                    .arg(in.n)
                    .arg(in.bm)
                    .arg(in.bk)
                    .arg(in.bn)
                    .arg(qs(in.order), qs(in.chip));
    try {
        if (in.m < 1 || in.k < 1 || in.n < 1 || in.bm < 1 || in.bk < 1 || in.bn < 1)
            throw tpusim::InputError(
                "M, K, N and the blocks bm, bk, bn must be positive integers (got M=" + std::to_string(in.m) +
                " K=" + std::to_string(in.k) + " N=" + std::to_string(in.n) + ", bm=" + std::to_string(in.bm) +
                " bk=" + std::to_string(in.bk) + " bn=" + std::to_string(in.bn) + ")");
        tpusim::BlockedMatmul s;
        s.m = in.m;
        s.k = in.k;
        s.n = in.n;
        s.bm = in.bm;
        s.bk = in.bk;
        s.bn = in.bn;
        s.order = in.order;
        c->kernel = tpusim::blocked_matmul(s);
        tpusim::PipelineOptions o;
        o.schedule = true;
        c->result = tpusim::simulate(tpusim::chip(in.chip), c->kernel, o);
        const tpusim::Provenance &p = c->result.provenance;
        c->timeDetails = qs(tpusim::describe(tpusim::with_working(p, tpusim::time_working(c->result))));
        c->hbmDetails = qs(tpusim::describe(tpusim::with_working(p, tpusim::hbm_working(c->result))));
        c->vmemDetails =
            qs(tpusim::describe(tpusim::with_working(p, tpusim::vmem_working(tpusim::chip(in.chip), c->kernel))));
        for (int core = 0; core < c->result.cores; ++core)
            c->overview.push_back(
                tpusim::aggregate_schedule(c->result, core, 0, c->result.time_s, PipelineModel::overviewBuckets));
    } catch (const tpusim::InputError &e) {
        c->problem = QString::fromUtf8(e.what());
        c->result = {};
        c->overview.clear();
    }
    return c;
}

} // namespace

PipelineModel::PipelineModel(QObject *parent)
    : QObject(parent),
      m_latest(
          this, simqml::LatestRun<std::shared_ptr<const Computed>>::Stale::shown,
          [this]() -> std::variant<std::shared_ptr<const Computed>, QFuture<std::shared_ptr<const Computed>>> {
              Inputs in{m_chip.toStdString(), m_order.toStdString(), whole(m_m),  whole(m_k),
                        whole(m_n),           whole(m_bm),           whole(m_bk), whole(m_bn)};
              return QtConcurrent::run([in] { return compute(in); });
          },
          [this](std::shared_ptr<const Computed> c) { publish(std::move(c)); }, [this] { emit busyChanged(); })
{
    connect(this, &PipelineModel::inputsChanged, this, [this] { m_latest.start(); });
    m_latest.start();
}

PipelineModel::~PipelineModel() = default;

void PipelineModel::publish(std::shared_ptr<const Computed> c)
{
    m_computed = c;
    m_shownInputs = c->inputs;
    if (!c->problem.isEmpty()) {
        m_run = {{"problem", c->problem}};
        emit runChanged();
        return;
    }
    const tpusim::PipelineResult &r = c->result;
    // What holds each step: its compute, its copies, or its fixed time.
    std::int64_t byCompute = 0, byDma = 0, byFloor = 0;
    double stepIdle = 0, stepTime = 0;
    for (const tpusim::ScheduleStep &s : r.schedule) {
        const double len = s.end_s - s.start_s, dma = s.dma_in_s + s.dma_out_s;
        if (dma > std::max(s.compute_s, r.step_floor_s))
            ++byDma;
        else if (s.compute_s >= r.step_floor_s)
            ++byCompute;
        else
            ++byFloor;
        if (s.core == 0) {
            stepIdle += std::max(0.0, len - s.compute_s);
            stepTime += len;
        }
    }
    QVariantList coreSteps;
    int slowest = 0;
    double slowestEnd = -1;
    for (int core = 0; core < r.cores; ++core) {
        const tpusim::CoreSteps cs = tpusim::core_steps(r, core);
        coreSteps.append(static_cast<double>(cs.end - cs.begin));
        if (cs.end_s > slowestEnd) {
            slowestEnd = cs.end_s;
            slowest = core;
        }
    }
    // The slowest core's copies, as the model counts its exposed DMA: all of
    // them, less what no compute or step time covered.
    double copies = r.prologue_s + r.epilogue_s;
    for (const tpusim::ScheduleStep &s : r.schedule)
        if (s.core == slowest)
            copies += s.dma_in_s + s.dma_out_s;
    const double hidden = std::max(0.0, copies - r.exposed_dma_s);
    // K must be the innermost axis for an output block's visits to be consecutive.
    // (the arbitrary axis of the blocked matmul is its contraction)
    const auto &sem = c->kernel.semantics;
    const std::size_t kAxis =
        static_cast<std::size_t>(std::find(sem.begin(), sem.end(), tpusim::Semantics::arbitrary) - sem.begin());
    bool revisits = false;
    if (kAxis < c->kernel.grid.size() && c->kernel.grid[kAxis] > 1)
        for (std::size_t a = kAxis + 1; a < c->kernel.grid.size(); ++a)
            revisits = revisits || c->kernel.grid[a] > 1;
    const double idle = r.time_s - r.compute_s;
    QString verdict;
    if (byDma > byCompute && byDma > byFloor)
        verdict = QStringLiteral(
            "Copies hold most steps: the MXU waits on HBM between blocks. Grow bm and bn to cut the traffic.");
    else if (byFloor > byCompute)
        verdict = QStringLiteral(
            "The fixed time of a step holds most steps: the blocks are too small for the work to cover it. Grow the "
            "blocks for fewer, longer steps.");
    else if (r.launch_s > 0.5 * r.time_s)
        verdict = QStringLiteral(
            "Compute holds the steps, but the launch is most of the call: the problem is small for one kernel.");
    else
        verdict = QStringLiteral("Compute holds most steps: the copies hide under the MXU's work.");
    tpusim::Provenance p = r.provenance;
    m_run = {
        {"timeS", r.time_s},
        {"timeText", timeText(r.time_s)},
        {"steps", static_cast<double>(r.steps)},
        {"stepsText", grouped(r.steps)},
        {"cores", r.cores},
        {"coreSteps", coreSteps},
        {"grid", tuple(c->kernel.grid)},
        {"vmemText", qs(tpusim::format_bytes(r.vmem_bytes))},
        {"vmemLimitText", qs(tpusim::format_bytes(r.vmem_limit_bytes))},
        {"hbmText", qs(tpusim::format_bytes(r.hbm_bytes))},
        {"utilization", r.utilization},
        {"utilizationText", percent(r.utilization)},
        {"floorText", timeText(r.floor_s)},
        {"computeText", timeText(r.compute_s)},
        {"overheadText", timeText(r.overhead_s)},
        // Under a picosecond is rounding, not a wait.
        {"exposedText",
         timeText(r.exposed_dma_s - r.prologue_s - r.epilogue_s > 1e-12 ? r.exposed_dma_s - r.prologue_s - r.epilogue_s
                                                                        : 0.0)},
        {"prologueText", timeText(r.prologue_s)},
        {"epilogueText", timeText(r.epilogue_s)},
        {"launchText", timeText(r.launch_s)},
        {"dmaText", QStringLiteral("%1 hidden · %2 exposed").arg(timeText(hidden), timeText(r.exposed_dma_s))},
        {"stepFloorText", timeText(r.step_floor_s)},
        {"idleText", timeText(idle)},
        {"idleShare", r.time_s > 0 ? idle / r.time_s : 0.0},
        {"idleShareText", percent(r.time_s > 0 ? idle / r.time_s : 0.0)},
        {"stepBubbleShare", stepTime > 0 ? stepIdle / stepTime : 0.0},
        {"stepBubbleText", percent(stepTime > 0 ? stepIdle / stepTime : 0.0)},
        {"byCompute", static_cast<double>(byCompute)},
        {"byDma", static_cast<double>(byDma)},
        {"byFloor", static_cast<double>(byFloor)},
        {"heldText", QStringLiteral("%1 by compute · %2 by copies · %3 by the fixed step time")
                         .arg(grouped(byCompute), grouped(byDma), grouped(byFloor))},
        {"inputCopies", static_cast<double>(r.input_copies)},
        {"outputCopies", static_cast<double>(r.output_copies)},
        {"revisits", revisits},
        {"verdict", verdict},
        {"provenance", simqml::provenance(p)},
        {"timeDetails", c->timeDetails},
        {"hbmDetails", c->hbmDetails},
        {"vmemDetails", c->vmemDetails},
    };
    emit runChanged();
}

QVariantMap PipelineModel::stepDetail(int index) const
{
    const auto c = m_computed;
    if (!c || !c->problem.isEmpty() || index < 0 || static_cast<std::size_t>(index) >= c->result.schedule.size())
        return {};
    const tpusim::StepDetail d = tpusim::step_detail(c->kernel, c->result, index);
    std::vector<std::int64_t> g(d.grid_index.begin(), d.grid_index.end());
    const QString grid = tuple(g);
    const QString held = d.exposed_s > 0 ? QStringLiteral("waits on copies for %1").arg(timeText(d.exposed_s))
                         : d.overhead_s > 0
                             ? QStringLiteral("idles %1 for the step's fixed time").arg(timeText(d.overhead_s))
                             : QStringLiteral("busy the whole step");
    QStringList lines;
    lines
        << QStringLiteral("predicted · %1").arg(m_chip)
        << QStringLiteral("starts at %1, lasts %2").arg(timeText(d.start_s), timeText(d.end_s - d.start_s))
        << (d.copies_in == "-"
                ? QStringLiteral("DMA in: none (the next step reuses these blocks)")
                : QStringLiteral("DMA in: %1 · %2 (the next step's blocks)").arg(timeText(d.dma_in_s), qs(d.copies_in)))
        << QStringLiteral("compute: %1 on the MXU").arg(timeText(d.compute_s))
        << (d.copies_out == "-" ? QStringLiteral("DMA out: none (no output block finished the step before)")
                                : QStringLiteral("DMA out: %1 · %2 (the block finished the step before)")
                                      .arg(timeText(d.dma_out_s), qs(d.copies_out)))
        << QStringLiteral("the MXU %1").arg(held);
    return {{"index", static_cast<double>(d.index)},
            {"step", static_cast<double>(d.step)},
            {"core", d.core},
            {"grid", grid},
            {"heading", QStringLiteral("step %1 %2%3")
                            .arg(grouped(d.step), grid,
                                 c->result.cores > 1 ? QStringLiteral(" · TensorCore %1").arg(d.core) : QString())},
            {"startS", d.start_s},
            {"endS", d.end_s},
            {"computeText", timeText(d.compute_s)},
            {"dmaInText", timeText(d.dma_in_s)},
            {"dmaOutText", timeText(d.dma_out_s)},
            {"copiesIn", qs(d.copies_in)},
            {"copiesOut", qs(d.copies_out)},
            {"overheadS", d.overhead_s},
            {"exposedS", d.exposed_s},
            {"bubble", d.overhead_s + d.exposed_s > 0},
            {"text", lines.join(QLatin1Char('\n'))}};
}

int PipelineModel::stepAt(int core, double t) const
{
    const auto c = m_computed;
    if (!c || !c->problem.isEmpty() || core < 0 || core >= c->result.cores)
        return -1;
    return static_cast<int>(tpusim::step_at(c->result, core, t));
}

QVariantMap PipelineModel::coreSpan(int core) const
{
    const auto c = m_computed;
    if (!c || !c->problem.isEmpty() || core < 0 || core >= c->result.cores)
        return {};
    const tpusim::CoreSteps s = tpusim::core_steps(c->result, core);
    return {{"begin", static_cast<double>(s.begin)}, {"end", static_cast<double>(s.end)}, {"startS", s.start_s},
            {"stepsStartS", s.steps_start_s},        {"stepsEndS", s.steps_end_s},        {"endS", s.end_s}};
}

QString PipelineModel::exportTrace(const QString &pathOrUrl) const
{
    const auto c = m_computed;
    if (!c)
        return QStringLiteral("There is no schedule yet to export.");
    if (!c->problem.isEmpty())
        return QStringLiteral("There is no schedule to export: %1.").arg(c->problem);
    QString path = pathOrUrl.trimmed();
    if (path.startsWith(QStringLiteral("file:")))
        path = QUrl(path).toLocalFile();
    if (path.isEmpty())
        return QStringLiteral("Give a file to write the trace to.");
    std::string json;
    try {
        json = tpusim::chrome_trace_json(tpusim::schedule_trace(c->kernel, c->result, traceStepCap));
    } catch (const tpusim::InputError &e) {
        return QStringLiteral("The trace could not be made: %1.").arg(QString::fromUtf8(e.what()));
    }
    // Whole or not at all: written beside the target, then renamed over it.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("Could not write %1: %2.").arg(QDir::toNativeSeparators(path), file.errorString());
    if (file.write(json.data(), static_cast<qint64>(json.size())) != static_cast<qint64>(json.size())) {
        const QString why = file.errorString();
        file.cancelWriting();
        return QStringLiteral("Could not write %1: %2.").arg(QDir::toNativeSeparators(path), why);
    }
    if (!file.commit())
        return QStringLiteral("Could not write %1: %2.").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
}
