#include "systolicmodel.h"
#include "variants.h"
#include "watchedmodel.h"

#include <tpusim/chips.h>
#include <tpusim/error.h>

#include <QtQml/qqml.h>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

using simqml::qs;

using simqml::grouped;
using simqml::percent;

namespace {

constexpr int activitySamples = 480;
// mxu_step's own ceiling: past it the closed form stands alone.
constexpr double steppable = 67108864.0;

tpusim::MxuMode modeOf(const QString &mode)
{
    return mode == QStringLiteral("no-overlap") ? tpusim::MxuMode::no_overlap : tpusim::MxuMode::overlapped;
}

QVariantMap closedForm(const tpusim::MxuRun &r)
{
    return {{"cycles", static_cast<double>(r.cycles)},
            {"cyclesText", grouped(r.cycles)},
            {"utilization", r.utilization},
            {"utilizationText", percent(r.utilization)}};
}

// A size as libtpusim takes it: whole, and its own sentence when it is not one.
std::int64_t whole(double v)
{
    return std::isfinite(v) ? static_cast<std::int64_t>(std::llround(v)) : 0;
}

} // namespace

SystolicModel::SystolicModel(QObject *parent)
    : QObject(parent),
      // A count stepped for inputs that have since changed is dropped: the
      // newest inputs are stepped next.
      m_step(
          this, simqml::LatestRun<StepJob>::Stale::dropped,
          [this]() -> std::variant<StepJob, QFuture<StepJob>> {
              return QtConcurrent::run(&SystolicModel::stepCycles, wantedStep());
          },
          [this](StepJob done) { stepped(done); }, [] {})
{
    connect(this, &SystolicModel::inputsChanged, this, &SystolicModel::recompute);
    connect(this, &SystolicModel::cycleChanged, this, &SystolicModel::rebuildFrame);
    recompute();
}

SystolicModel::~SystolicModel() = default;

// The stepped simulation's cycle count for a job, on a worker thread.
SystolicModel::StepJob SystolicModel::stepCycles(StepJob job)
{
    std::vector<float> x(static_cast<std::size_t>(job.m * job.k)), w(static_cast<std::size_t>(job.k * job.n));
    for (std::int64_t i = 0; i < job.m; ++i)
        for (std::int64_t j = 0; j < job.k; ++j)
            x[static_cast<std::size_t>(i * job.k + j)] = tpusim::mxu_sample_value(i, j, 1);
    for (std::int64_t i = 0; i < job.k; ++i)
        for (std::int64_t j = 0; j < job.n; ++j)
            w[static_cast<std::size_t>(i * job.n + j)] = tpusim::mxu_sample_value(i, j, 2);
    job.cycles = tpusim::mxu_step(x, w, job.m, job.k, job.n, job.array, job.mode).cycles;
    return job;
}

SystolicModel::StepJob SystolicModel::wantedStep() const
{
    return {m_timeline.m, m_timeline.k, m_timeline.n, m_timeline.array, m_timeline.mode, -1};
}

void SystolicModel::stepped(const StepJob &done)
{
    // Inputs that no longer step at all (invalid, or too many to step)
    // have said so already; a count of other inputs is not theirs.
    const StepJob now = wantedStep();
    if (m_stepped.value(QStringLiteral("state")).toString() != QStringLiteral("running") || done.m != now.m ||
        done.k != now.k || done.n != now.n || done.array != now.array || done.mode != now.mode)
        return;
    const bool agrees = m_valid && done.cycles == m_run.value(QStringLiteral("cycles")).toLongLong();
    m_stepped = {{"state", QStringLiteral("done")},
                 {"cycles", static_cast<double>(done.cycles)},
                 {"cyclesText", grouped(done.cycles)},
                 {"agrees", agrees}};
    emit steppedChanged();
}

int SystolicModel::arrayOf(const QString &chipId) const
{
    try {
        return static_cast<int>(tpusim::chip(chipId.toStdString()).mxu_size.value);
    } catch (const tpusim::InputError &) {
        return 0;
    }
}

void SystolicModel::recompute()
{
    const std::int64_t m = whole(m_m), k = whole(m_k), n = whole(m_n);
    const int array = arrayOf(m_chip);
    const tpusim::MxuMode mode = modeOf(m_mode);
    try {
        if (array <= 0)
            throw tpusim::InputError("\"" + m_chip.toStdString() + "\" is not a chip the simulator knows");
        m_timeline = tpusim::mxu_timeline(m, k, n, array, mode);
        const tpusim::MxuRun over = tpusim::mxu_cycles(m, k, n, array, tpusim::MxuMode::overlapped);
        const tpusim::MxuRun book = tpusim::mxu_cycles(m, k, n, array, tpusim::MxuMode::no_overlap);
        const tpusim::MxuScaleSimCount ss = tpusim::mxu_scalesim_count(m, k, n, array);
        const tpusim::MxuRun &now = mode == tpusim::MxuMode::overlapped ? over : book;
        tpusim::Provenance p = now.provenance;
        p.chip = m_chip.toStdString() + " (" + std::to_string(array) + "x" + std::to_string(array) + " MXU)";
        const std::int64_t s = array;
        const std::int64_t lastCols = n - (m_timeline.n_tiles - 1) * s;
        QString formula;
        if (mode == tpusim::MxuMode::overlapped)
            formula = QStringLiteral(
                          "S + (folds − 1) × max(M, S) + M + S + last tile's columns − 2 = %1 + %2 × %3 + %4 + %1 + %5 "
                          "− 2 = %6")
                          .arg(s)
                          .arg(m_timeline.folds - 1)
                          .arg(m_timeline.gap)
                          .arg(m)
                          .arg(lastCols)
                          .arg(grouped(over.cycles));
        else
            formula = QStringLiteral("folds × (3S + M − 2) = %1 × %2 = %3")
                          .arg(m_timeline.folds)
                          .arg(grouped(ss.cycles_per_fold))
                          .arg(grouped(book.cycles));
        m_run = {
            {"array", array},
            {"cycles", static_cast<double>(now.cycles)},
            {"cyclesText", grouped(now.cycles)},
            {"utilization", now.utilization},
            {"utilizationText", percent(now.utilization)},
            {"macsText", grouped(now.macs)},
            {"folds", static_cast<double>(m_timeline.folds)},
            {"kTiles", static_cast<double>(m_timeline.k_tiles)},
            {"nTiles", static_cast<double>(m_timeline.n_tiles)},
            {"exposedLoad", static_cast<double>(now.exposed_load_cycles)},
            {"firstStart", static_cast<double>(m_timeline.first_start)},
            {"fillEnd", static_cast<double>(m_timeline.fill_end)},
            {"drainStart", static_cast<double>(m_timeline.drain_start)},
            {"fills", m_timeline.fills},
            {"overlapped", closedForm(over)},
            {"noOverlap", closedForm(book)},
            {"scaleSim", QVariantMap{{"rowFolds", static_cast<double>(ss.row_folds)},
                                     {"colFolds", static_cast<double>(ss.col_folds)},
                                     {"folds", static_cast<double>(ss.folds)},
                                     {"perFold", static_cast<double>(ss.cycles_per_fold)},
                                     {"cycles", static_cast<double>(ss.cycles)},
                                     {"cyclesText", grouped(ss.cycles)},
                                     {"overallText", percent(ss.overall_utilization)},
                                     {"mappingText", percent(ss.mapping_efficiency)},
                                     {"computeText", percent(ss.compute_utilization)}}},
            {"formula", formula},
            {"provenance", simqml::provenance(p)},
        };
        m_activity.clear();
        const double cellsInArray = static_cast<double>(s * s);
        for (float v : tpusim::mxu_activity(m_timeline, activitySamples))
            m_activity.append(static_cast<double>(v) / cellsInArray);
        m_work = tpusim::mxu_cell_work(m_timeline);
        m_valid = true;
    } catch (const tpusim::InputError &e) {
        m_valid = false;
        m_run = {{"problem", QString::fromUtf8(e.what())}};
        m_activity.clear();
        m_cells.clear();
        m_work.clear();
    }
    emit runChanged();
    rebuildFrame();
    startStepping();
}

void SystolicModel::rebuildFrame()
{
    if (!m_valid) {
        m_frame = {};
        emit frameChanged();
        return;
    }
    const tpusim::MxuFrame f = tpusim::mxu_frame(m_timeline, whole(m_cycle), 8);
    m_cells = f.cells;
    QVariantList corner;
    corner.reserve(static_cast<qsizetype>(f.corner_cells.size()));
    for (const tpusim::MxuCornerCell &c : f.corner_cells)
        corner.append(QVariantMap{{"state", static_cast<int>(c.state)},
                                  {"hasWeight", c.has_weight},
                                  {"w", static_cast<double>(c.weight)},
                                  {"hasRow", c.has_row},
                                  {"row", static_cast<double>(c.row)},
                                  {"a", static_cast<double>(c.activation)},
                                  {"s", static_cast<double>(c.sum)}});
    const double cellsInArray = static_cast<double>(f.array) * f.array;
    m_frame = {
        {"cycle", static_cast<double>(f.cycle)},
        {"phase", qs(f.phase)},
        {"useful", static_cast<double>(f.useful_cells)},
        {"padding", static_cast<double>(f.padding_cells)},
        {"usefulText", grouped(f.useful_cells) + QStringLiteral(" of ") + grouped(f.array * f.array) +
                           QStringLiteral(" cells (") + percent(static_cast<double>(f.useful_cells) / cellsInArray) +
                           QStringLiteral(")")},
        {"fold", static_cast<double>(f.fold)},
        {"loadingFold", static_cast<double>(f.loading_fold)},
        {"loadingRows", static_cast<double>(f.loading_rows)},
        {"rowsEntered", static_cast<double>(f.rows_entered)},
        {"resultsDone", static_cast<double>(f.results_done)},
        {"resultsText", grouped(f.results_done) + QStringLiteral(" of ") + grouped(m_timeline.m * m_timeline.n)},
        {"cornerSize", f.corner},
        {"corner", corner},
    };
    emit frameChanged();
}

void SystolicModel::startStepping()
{
    if (!m_valid) {
        m_stepped = {};
        emit steppedChanged();
        return;
    }
    const double macs =
        static_cast<double>(m_timeline.m) * static_cast<double>(m_timeline.k) * static_cast<double>(m_timeline.n);
    if (macs > steppable) {
        m_stepped = {
            {"state", QStringLiteral("skipped")},
            {"why",
             QStringLiteral("over 2^26 multiply-accumulates: too many to step here; the closed form stands alone")}};
        emit steppedChanged();
        return;
    }
    m_stepped = {{"state", QStringLiteral("running")}};
    emit steppedChanged();
    m_step.start();
}
