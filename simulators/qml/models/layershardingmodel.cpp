#include "layershardingmodel.h"
#include "variants.h"

#include <QStringList>
#include <QtConcurrent/QtConcurrentRun>

#include <tpusim/chips.h>
#include <tpusim/error.h>
#include <tpusim/layer_sharding.h>
#include <tpusim/mesh.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using simqml::qs;

namespace {

std::vector<std::int64_t> meshShape(const QString &text)
{
    std::vector<std::int64_t> shape;
    for (const QString &part : text.split(QLatin1Char('x'))) {
        bool ok = false;
        const qlonglong v = part.toLongLong(&ok);
        if (!ok || v < 1)
            throw tpusim::InputError("\"" + text.toStdString() + "\" is not a mesh such as 16x16");
        shape.push_back(v);
    }
    return shape;
}

// Stretches of the step where no matmul runs, each with the transfers it
// waits on: what the timeline hatches.
QVariantList idleStretches(const tpusim::LayerShardingResult &r)
{
    QVariantList out;
    double at = 0;
    auto gap = [&](double from, double to) {
        if (to - from <= 1e-12 * std::max(1.0, r.step_s) || to - from <= 0)
            return;
        QStringList waiting;
        for (const tpusim::ShardedCollective &c : r.collectives)
            if (c.start_s < to && c.start_s + c.time_s > from)
                waiting << qs(c.what);
        out << QVariantMap{{"startS", from},
                           {"timeS", to - from},
                           {"time", qs(tpusim::format_time(to - from))},
                           {"waiting", waiting.join(QStringLiteral(", "))}};
    };
    for (const tpusim::ShardedMatmul &m : r.matmuls) {
        gap(at, m.start_s);
        at = m.start_s + m.time_s;
    }
    gap(at, r.step_s);
    return out;
}

// Inside a bar of the timeline: "x @ W_in", "∂W_out".
QString shortName(const tpusim::ShardedMatmul &m)
{
    if (m.pass == "forward")
        return qs(m.name);
    return m.name.find("W_out") != std::string::npos ? QStringLiteral("∂W_out") : QStringLiteral("∂W_in");
}

} // namespace

LayerShardingModel::LayerShardingModel(QObject *parent)
    : QObject(parent),
      m_run(
          this, simqml::LatestRun<QVariantMap>::Stale::shown, [this] { return launch(); },
          [this](QVariantMap plan) {
              m_plan = std::move(plan);
              emit planChanged();
          },
          [this] { emit busyChanged(); })
{
    connect(this, &LayerShardingModel::inputsChanged, this, &LayerShardingModel::recompute);
    m_run.start();
}

void LayerShardingModel::setChip(const QString &id)
{
    if (id == m_chip)
        return;
    m_chip = id;
    emit chipChanged();
    emit inputsChanged();
}

int LayerShardingModel::torusAxes() const
{
    try {
        return tpusim::torus_rank(tpusim::chip(m_chip.toStdString()));
    } catch (const tpusim::InputError &) {
        return 2; // an unknown chip: the flat torus of most
    }
}

// Everything the plan needs, copied so a worker thread can price it.
struct LayerShardingModel::Inputs
{
    std::string chip;
    QString mesh;
    QStringList roles;
    QString dataMode;
    double batch = 0, dModel = 0, dFf = 0;
    bool overlapTp = false;
};

namespace {

QVariantMap planFor(const LayerShardingModel::Inputs &in)
{
    try {
        tpusim::LayerShardingSpec s;
        s.mesh = meshShape(in.mesh);
        for (const QString &role : in.roles)
            s.roles.push_back(tpusim::parse_axis_role(role.toStdString()));
        s.data_mode = tpusim::parse_data_mode(in.dataMode.toStdString());
        s.batch = static_cast<std::int64_t>(in.batch);
        s.d_model = static_cast<std::int64_t>(in.dModel);
        s.d_ff = static_cast<std::int64_t>(in.dFf);
        s.overlap_tp = in.overlapTp;
        const tpusim::Chip &chip = tpusim::chip(in.chip);
        const tpusim::LayerShardingResult r = tpusim::shard_mlp_block(chip, s);
        const tpusim::Mesh mesh = tpusim::make_mesh(chip, s.mesh);
        QVariantList axes;
        for (std::size_t i = 0; i < s.mesh.size(); ++i)
            axes << QVariantMap{{"name", qs(r.axis_names[i])},
                                {"size", double(s.mesh[i])},
                                {"role", qs(std::string(tpusim::axis_role_name(s.roles[i])))},
                                {"wraps", mesh.axes[i].wraps}};
        QVariantList matmuls;
        for (const tpusim::ShardedMatmul &m : r.matmuls)
            matmuls << QVariantMap{{"name", qs(m.name)}, {"short", shortName(m)},
                                   {"pass", qs(m.pass)}, {"time", qs(tpusim::format_time(m.time_s))},
                                   {"timeS", m.time_s},  {"startS", m.start_s}};
        QVariantList collectives;
        for (const tpusim::ShardedCollective &c : r.collectives)
            collectives << QVariantMap{
                {"what", qs(c.what)},
                {"pass", qs(c.pass)},
                {"kind", qs(std::string(tpusim::collective_name(c.kind)))},
                {"role", qs(std::string(tpusim::axis_role_name(c.role)))},
                {"bytes", qs(tpusim::format_bytes(c.bytes))},
                {"time", qs(tpusim::format_time(c.time_s))},
                {"timeS", c.time_s},
                {"startS", c.start_s},
                {"under", c.under < 0 ? QString() : qs(r.matmuls[static_cast<std::size_t>(c.under)].name)},
                {"exposedS", c.exposed_s},
                {"exposed", qs(tpusim::format_time(c.exposed_s))},
            };
        return QVariantMap{
            {"strategy", qs(r.strategy)},
            {"axes", axes},
            {"xSpec", qs(r.x_spec)},
            {"wInSpec", qs(r.w_in_spec)},
            {"wOutSpec", qs(r.w_out_spec)},
            {"rowsPerDevice", double(r.rows_per_device)},
            {"weightBytes", qs(tpusim::format_bytes(r.weight_bytes_per_device))},
            {"gatheredBytes",
             r.gathered_weight_bytes > 0 ? qs(tpusim::format_bytes(r.gathered_weight_bytes)) : QString()},
            {"matmuls", matmuls},
            {"idle", idleStretches(r)},
            {"collectives", collectives},
            {"compute", qs(tpusim::format_time(r.compute_s))},
            {"computeS", r.compute_s},
            {"exposed", qs(tpusim::format_time(r.exposed_s))},
            {"exposedS", r.exposed_s},
            {"exposedShare", r.step_s > 0 ? r.exposed_s / r.step_s : 0.0},
            {"step", qs(tpusim::format_time(r.step_s))},
            {"stepS", r.step_s},
            {"dataThreshold", r.data_threshold_rows},
            {"modelThreshold", r.model_threshold},
            {"fPerModel", double(s.d_ff / r.model_ways)},
            {"verdict", qs(r.verdict)},
            {"provenance", simqml::provenance(r.provenance)},
        };
    } catch (const tpusim::InputError &e) {
        return QVariantMap{{"problem", QString::fromUtf8(e.what())}};
    }
}

// Slices up to this many chips price in a fraction of a millisecond
// (bench_ex14); larger ones go to a worker thread.
constexpr std::int64_t inlineChips = 256;

} // namespace

LayerShardingModel::~LayerShardingModel() = default;

// Several inputs change together (a new slice resets the roles): price once.
void LayerShardingModel::recompute()
{
    m_run.schedule();
}

std::variant<QVariantMap, QFuture<QVariantMap>> LayerShardingModel::launch() const
{
    Inputs in{m_chip.toStdString(), m_mesh, m_roles, m_dataMode, m_batch, m_dModel, m_dFf, m_overlapTp};
    std::int64_t chips = 1;
    for (const QString &part : m_mesh.split(QLatin1Char('x')))
        chips *= std::max<qlonglong>(1, part.toLongLong());
    if (chips <= inlineChips)
        return planFor(in);
    return QtConcurrent::run(planFor, in);
}
