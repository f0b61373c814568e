#include "blockspecmodel.h"
#include "variants.h"

#include <tpusim/blockspec_sandbox.h>
#include <tpusim/error.h>
#include <tpusim/layout.h>

#include <QtQml/qqml.h>
#include <QtConcurrent/QtConcurrentRun>

using simqml::qs;

// One verification, carried off the GUI thread and back.
struct SandboxRun
{
    quint64 generation = 0;
    tpusim::SandboxInputs inputs;
    QVariantMap answer;
};

namespace {

// The grid point a step of the row-major walk stands at, for the hover text.
std::vector<std::int64_t> gridPoint(std::int64_t step, const std::vector<std::int64_t> &grid)
{
    std::vector<std::int64_t> g(grid.size());
    for (std::size_t a = grid.size(); a-- > 0;) {
        g[a] = step % grid[a];
        step /= grid[a];
    }
    return g;
}

QVariantList convertCoverageCells(const tpusim::Coverage &c, const std::vector<std::int64_t> &grid)
{
    QVariantList cells;
    const qint64 shownRows = c.window_shape.size() == 2 ? c.window_shape[0] : 0;
    const qint64 shownCols = c.window_shape.size() == 2 ? c.window_shape[1] : 0;
    for (qint64 r = 0; r < shownRows; ++r)
        for (qint64 col = 0; col < shownCols; ++col) {
            const tpusim::BlockVisit &v = c.visits[static_cast<std::size_t>(r * shownCols + col)];
            cells.append(QVariantMap{{"row", r},
                                     {"col", col},
                                     {"writes", qlonglong(v.writes)},
                                     {"firstStep", qlonglong(v.first_step)},
                                     {"lastStep", qlonglong(v.last_step)},
                                     {"first", v.writes ? simqml::tupleText(gridPoint(v.first_step, grid)) : QString()},
                                     {"last", v.writes ? simqml::tupleText(gridPoint(v.last_step, grid)) : QString()},
                                     {"race", v.race},
                                     {"scattered", v.non_consecutive},
                                     {"missing", v.writes == 0}});
        }
    return cells;
}

QVariantMap convertCoverage(const tpusim::Coverage &c, qint64 rows, qint64 cols)
{
    const qint64 shownRows = c.window_shape.size() == 2 ? c.window_shape[0] : 0;
    const qint64 shownCols = c.window_shape.size() == 2 ? c.window_shape[1] : 0;
    QVariantList problems;
    for (const auto &p : c.problems)
        problems << qs(p);
    return {{"ok", c.ok},
            {"blocks", qlonglong(c.blocks)},
            {"blocksWritten", qlonglong(c.blocks_written)},
            {"writes", qlonglong(c.writes)},
            {"race", c.race},
            {"nonConsecutive", c.non_consecutive},
            {"problems", problems},
            {"rows", rows},
            {"cols", cols},
            {"shownRows", shownRows},
            {"shownCols", shownCols},
            {"capped", shownRows < rows || shownCols < cols}};
}

QVariantMap convertVerification(const tpusim::SandboxVerification &v)
{
    const tpusim::Verification &r = v.result;
    return {{"passed", r.passed},
            {"reason", qs(r.reason)},
            {"maxAbsError", r.max_abs_error},
            {"tolerance", r.tolerance},
            {"mismatches", qlonglong(r.mismatches)},
            {"elements", qlonglong(r.elements)},
            {"steps", qlonglong(r.steps)},
            {"shrunk", v.shrunk},
            {"ran", qs(v.ran)},
            {"provenance", simqml::provenance(r.provenance)}};
}

std::shared_ptr<SandboxRun> runVerification(std::shared_ptr<SandboxRun> run)
{
    try {
        run->answer = convertVerification(tpusim::verify_sandbox(run->inputs));
    } catch (const tpusim::InputError &e) {
        run->answer = {{"error", QString::fromUtf8(e.what())}};
    }
    return run;
}

} // namespace

BlockSpecModel::BlockSpecModel(QObject *parent)
    : QObject(parent),
      m_judge(
          this, simqml::LatestRun<std::shared_ptr<SandboxReportMaps>>::Stale::dropped, [this] { return launch(); },
          [this](std::shared_ptr<SandboxReportMaps> r) { apply(r); }, [this] { emit busyChanged(); })
{
    connect(this, &BlockSpecModel::inputsChanged, this, &BlockSpecModel::invalidate);
    connect(this, &BlockSpecModel::inputsChanged, this, [this] { m_judge.schedule(); });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        const std::shared_ptr<SandboxRun> run = m_watcher.result();
        // An answer for inputs the learner has since changed is not shown.
        if (run->generation == m_generation)
            m_verification = run->answer;
        else
            m_verification.clear();
        emit verificationChanged();
    });
    recompute();
}

BlockSpecModel::~BlockSpecModel()
{
    m_watcher.waitForFinished();
}

void BlockSpecModel::invalidate()
{
    ++m_generation;
    if (!m_verification.isEmpty()) {
        m_verification.clear();
        emit verificationChanged();
    }
}

namespace {

tpusim::SandboxInputs sandboxInputs(const QString &dtype, int m, int k, int n, int bm, int bk, int bn,
                                    const QStringList &semantics, const QString &x, const QString &y,
                                    const QString &out, int reductionAxis)
{
    tpusim::SandboxInputs in;
    in.dtype = tpusim::parse_dtype(dtype.toStdString());
    in.m = m, in.k = k, in.n = n, in.bm = bm, in.bk = bk, in.bn = bn;
    in.semantics.clear();
    for (const QString &s : semantics)
        in.semantics.push_back(s == QStringLiteral("parallel") ? tpusim::Semantics::parallel
                                                               : tpusim::Semantics::arbitrary);
    in.x_map = x.toStdString();
    in.y_map = y.toStdString();
    in.out_map = out.toStdString();
    in.reduction_axis = reductionAxis;
    return in;
}

} // namespace

tpusim::SandboxInputs BlockSpecModel::currentInputs() const
{
    tpusim::SandboxInputs in =
        sandboxInputs(m_dtype, m_m, m_k, m_n, m_bm, m_bk, m_bn, m_semantics, m_xMap, m_yMap, m_outMap, m_reductionAxis);
    in.grid.clear();
    if (m_followBlocks)
        in.grid = tpusim::sandbox_grid(in, m_order.toStdString());
    else
        for (const QVariant &g : m_grid)
            in.grid.push_back(g.toLongLong());
    return in;
}

// Everything the piece shows for one set of inputs, converted on whichever
// thread computed it.
struct SandboxReportMaps
{
    QVariantList gridUsed;
    QVariantList operands;
    QVariantMap coverage;
    QVariantList coverageCells;
    QVariantMap vmem;
    QVariantMap prediction;
    bool sound = false;
    bool broken = false;
    QString error;
};

namespace {

struct Evaluation
{
    QString chip;
    tpusim::SandboxInputs inputs;
    std::int64_t window = 64;
};

std::shared_ptr<SandboxReportMaps> evaluate(const Evaluation &e)
{
    auto out = std::make_shared<SandboxReportMaps>();
    for (std::int64_t g : e.inputs.grid)
        out->gridUsed << qlonglong(g);
    try {
        const tpusim::SandboxInputs &in = e.inputs;
        const tpusim::SandboxReport r = tpusim::evaluate_sandbox(tpusim::chip(e.chip.toStdString()), in, e.window);
        for (const tpusim::SandboxOperand &op : r.operands) {
            QVariantList notes;
            for (const auto &note : op.legality.notes)
                notes << qs(note);
            out->operands.append(QVariantMap{{"name", qs(op.name)},
                                             {"array", simqml::tupleText(op.array)},
                                             {"block", simqml::tupleText(op.block)},
                                             {"legal", op.legality.legal},
                                             {"reason", qs(op.legality.reason)},
                                             {"notes", notes},
                                             {"mapError", qs(op.map_error)},
                                             {"mapText", op.map_error.empty() ? qs(op.map.text()) : QString()}});
        }
        if (r.coverage) {
            out->coverage = convertCoverage(*r.coverage, (in.m + in.bm - 1) / in.bm, (in.n + in.bn - 1) / in.bn);
            out->coverageCells = convertCoverageCells(*r.coverage, in.grid);
        } else
            out->coverage = {{"error", qs(r.coverage_error)}};
        out->vmem = {{"used", r.vmem_bytes},
                     {"usedText", qs(tpusim::format_bytes(r.vmem_bytes))},
                     {"limit", r.vmem_limit_bytes},
                     {"limitText", qs(tpusim::format_bytes(r.vmem_limit_bytes))},
                     {"fraction", r.vmem_bytes / r.vmem_limit_bytes},
                     {"fits", r.vmem_bytes <= r.vmem_limit_bytes},
                     {"provenance", simqml::provenance(r.vmem_provenance)}};
        if (r.prediction) {
            const tpusim::PipelineResult &p = *r.prediction;
            out->prediction = {
                {"timeS", p.time_s},
                {"time", qs(tpusim::format_time(p.time_s))},
                // The time a Python caller sees, launch included, and the device's share of it.
                {"launch", qs(tpusim::format_time(p.launch_s))},
                {"device", qs(tpusim::format_time(p.time_s - p.launch_s))},
                {"utilization", p.utilization},
                {"utilizationText", qs(tpusim::format_fixed(p.utilization * 100, 1)) + QStringLiteral(" %")},
                {"hbmBytes", p.hbm_bytes},
                {"hbm", qs(tpusim::format_bytes(p.hbm_bytes))},
                {"floorS", p.floor_s},
                {"floor", qs(tpusim::format_time(p.floor_s))},
                {"steps", qlonglong(p.steps)},
                {"cores", p.cores},
                {"provenance", simqml::provenance(p.provenance)}};
        } else {
            out->prediction = {{"error", qs(r.prediction_error)}};
        }
        out->sound = r.sound;
        out->broken = r.broken;
    } catch (const tpusim::InputError &error) {
        out->error = QString::fromUtf8(error.what());
    }
    return out;
}

// Grids up to this many steps are judged on the GUI thread (a few hundred
// microseconds); larger ones off it, so a scrub never stalls the window.
constexpr double inlineSteps = 4096;

} // namespace

void BlockSpecModel::recompute()
{
    m_judge.start();
}

std::variant<std::shared_ptr<SandboxReportMaps>, QFuture<std::shared_ptr<SandboxReportMaps>>> BlockSpecModel::launch()
{
    Evaluation e;
    e.chip = m_chip;
    e.window = m_window;
    double steps = 1;
    try {
        e.inputs = currentInputs();
        for (std::int64_t g : e.inputs.grid)
            steps *= static_cast<double>(g);
    } catch (const tpusim::InputError &error) {
        auto failed = std::make_shared<SandboxReportMaps>();
        failed->error = QString::fromUtf8(error.what());
        return failed;
    }
    if (steps <= inlineSteps)
        return evaluate(e);
    return QtConcurrent::run(evaluate, e);
}

void BlockSpecModel::apply(const std::shared_ptr<SandboxReportMaps> &r)
{
    m_report = r;
    emit reportChanged();
}

void BlockSpecModel::verify()
{
    if (m_watcher.isRunning())
        return;
    auto run = std::make_shared<SandboxRun>();
    run->generation = m_generation;
    try {
        run->inputs = currentInputs();
    } catch (const tpusim::InputError &e) {
        m_verification = {{"error", QString::fromUtf8(e.what())}};
        emit verificationChanged();
        return;
    }
    m_verification = {{"running", true}};
    m_watcher.setFuture(QtConcurrent::run(runVerification, run));
    emit verificationChanged();
}

QVariantList BlockSpecModel::gridUsed() const
{
    return m_report ? m_report->gridUsed : QVariantList();
}
QVariantList BlockSpecModel::operands() const
{
    return m_report ? m_report->operands : QVariantList();
}
QVariantMap BlockSpecModel::coverage() const
{
    return m_report ? m_report->coverage : QVariantMap();
}
QVariantList BlockSpecModel::coverageCells() const
{
    return m_report ? m_report->coverageCells : QVariantList();
}
QVariantMap BlockSpecModel::coverageCell(int index) const
{
    if (!m_report || index < 0 || index >= m_report->coverageCells.size())
        return {};
    return m_report->coverageCells.at(index).toMap();
}
QVariantMap BlockSpecModel::vmem() const
{
    return m_report ? m_report->vmem : QVariantMap();
}
QVariantMap BlockSpecModel::prediction() const
{
    return m_report ? m_report->prediction : QVariantMap();
}
bool BlockSpecModel::sound() const
{
    return m_report && m_report->sound;
}
bool BlockSpecModel::broken() const
{
    return m_report && m_report->broken;
}
QString BlockSpecModel::error() const
{
    return m_report ? m_report->error : QString();
}

namespace {

tpusim::Tiling nativeTilingOf(const QString &dtype)
{
    try {
        return tpusim::native_tiling(tpusim::parse_dtype(dtype.toStdString()));
    } catch (const tpusim::InputError &) {
        return {}; // an unknown dtype is refused by the report; snap to f32's tile meanwhile
    }
}

} // namespace

int BlockSpecModel::tileRows() const
{
    return int(nativeTilingOf(m_dtype).rows);
}
int BlockSpecModel::tileLanes() const
{
    return int(nativeTilingOf(m_dtype).cols);
}
