#include "runprediction.h"
#include "labs/labshapes.h"
#include "labs/runrecord.h"
#include "reportformat.h"

#include <tpusim/attention.h>
#include <tpusim/bench.h>
#include <tpusim/chips.h>
#include <tpusim/decode_attention.h>
#include <tpusim/error.h>
#include <tpusim/layer_sharding.h>
#include <tpusim/quantized_matmul.h>
#include <tpusim/roofline.h>

#include <QJsonArray>

#include <stdexcept>

namespace {

ProgressReport::Prediction fromRoofline(const QString &label, const tpusim::Roofline &r, double measuredS)
{
    return {label, r.time_s, r.flops, r.bytes, measuredS, QString::fromStdString(r.resource)};
}

bool hasAll(const QMap<QString, qint64> &shapes, std::initializer_list<const char *> axes)
{
    for (const char *axis : axes)
        if (!shapes.contains(QLatin1String(axis)))
            return false;
    return true;
}

// L05 measures the landing bench rows; each row's cost is the bench's own.
QList<ProgressReport::Prediction> benchRows(const tpusim::Chip &chip, const QJsonObject &extra)
{
    QList<ProgressReport::Prediction> out;
    const auto rows = tpusim::landing_bench(chip);
    for (const QJsonValue &v : extra.value(QStringLiteral("rows")).toArray()) {
        QList<double> samples;
        for (const QJsonValue &x : v.toObject().value(QStringLiteral("samples")).toArray())
            samples << x.toDouble();
        const QString id = v.toObject().value(QStringLiteral("row")).toString();
        for (const auto &row : rows)
            if (QString::fromStdString(row.id) == id && !samples.isEmpty())
                out.append(fromRoofline(QString::fromStdString(row.label), row.result, median(samples)));
    }
    return out;
}

// L17 times one training step of an MLP block per sharding on the VM's
// chips. Each is priced as EX·14 prices it: its logical mesh (data, model)
// taken as the slice's axes, the block's matmuls and collectives alone.
QList<ProgressReport::Prediction> shardedSteps(const tpusim::Chip &chip, const ProgressReport::Run &run,
                                               const QJsonObject &extra, tpusim::DType dtype)
{
    QList<ProgressReport::Prediction> out;
    const auto &s = run.shapes;
    if (!hasAll(s, {"batch", "d_model", "d_ff"}))
        return out;
    for (const QJsonValue &v : extra.value(QStringLiteral("strategies")).toArray()) {
        const QJsonObject strategy = v.toObject();
        QList<double> samples;
        for (const QJsonValue &x : strategy.value(QStringLiteral("samples")).toArray())
            samples << x.toDouble();
        const QJsonObject mesh = strategy.value(QStringLiteral("mesh")).toObject();
        const QString name = strategy.value(QStringLiteral("name")).toString();
        if (samples.isEmpty() || mesh.isEmpty())
            continue;
        tpusim::LayerShardingSpec spec;
        spec.mesh = {mesh.value(QStringLiteral("data")).toInteger(1), mesh.value(QStringLiteral("model")).toInteger(1)};
        spec.roles = {tpusim::AxisRole::data, tpusim::AxisRole::model};
        spec.data_mode = name.startsWith(QLatin1String("fsdp")) ? tpusim::DataMode::fsdp : tpusim::DataMode::dp;
        spec.batch = s.value(QStringLiteral("batch"));
        spec.d_model = s.value(QStringLiteral("d_model"));
        spec.d_ff = s.value(QStringLiteral("d_ff"));
        spec.dtype = dtype;
        const tpusim::LayerShardingResult r = tpusim::shard_mlp_block(chip, spec);
        double flops = 0;
        for (const auto &m : r.matmuls)
            flops += m.flops;
        out.append({QStringLiteral("%1 step %2").arg(QString::fromStdString(r.strategy), run.shapeText), r.step_s,
                    flops, 0, median(samples), r.exposed_s > 0 ? QStringLiteral("ICI") : QStringLiteral("MXU")});
    }
    return out;
}

} // namespace

QList<ProgressReport::Prediction> predictRun(const ProgressReport::Run &run, const QJsonObject &extra)
{
    if (run.example || run.kind != QLatin1String("measured"))
        return {};
    const bool sharded = run.lab == QLatin1String("L17");
    if (run.deviceCount != 1 && !sharded)
        return {};
    const auto &s = run.shapes;
    try {
        const tpusim::Chip &chip = tpusim::chip(run.chip.toStdString());
        const tpusim::DType dtype = tpusim::parse_dtype(run.dtype.toStdString());
        if (sharded)
            return shardedSteps(chip, run, extra, dtype);
        if (run.lab == QLatin1String("L05"))
            return benchRows(chip, extra);
        if (run.medianS <= 0)
            return {};
        if ((run.lab == QLatin1String("L01") || run.lab == QLatin1String("L07")) && hasAll(s, {"m", "k", "n"})) {
            tpusim::MatmulSpec spec;
            spec.m = s.value(QStringLiteral("m"));
            spec.k = s.value(QStringLiteral("k"));
            spec.n = s.value(QStringLiteral("n"));
            spec.in = spec.out = dtype;
            return {fromRoofline(QStringLiteral("matmul %1").arg(run.shapeText),
                                 tpusim::roofline(chip, tpusim::matmul_cost(spec)), run.medianS)};
        }
        if (run.lab == QLatin1String("L06") && hasAll(s, {"rows", "cols"})) {
            const auto cost = tpusim::elementwise_cost(
                {s.value(QStringLiteral("rows")), s.value(QStringLiteral("cols"))}, 2, 1, dtype);
            return {
                fromRoofline(QStringLiteral("add %1").arg(run.shapeText), tpusim::roofline(chip, cost), run.medianS)};
        }
        const auto attention = attentionShape(s, dtype);
        if ((run.lab == QLatin1String("L09") || run.lab == QLatin1String("L14")) && attention) {
            tpusim::AttentionSpec spec = *attention;
            const bool backward = run.lab == QLatin1String("L14");
            if (backward) {
                // L14 records its blocks; L09's prediction keeps the model's default blocks, as before.
                const QJsonObject blocks = extra.value(QStringLiteral("blocks")).toObject();
                spec.block_q = blocks.value(QStringLiteral("block_q")).toInteger(128);
                spec.block_k = blocks.value(QStringLiteral("block_k")).toInteger(128);
                spec.pass = tpusim::AttentionPass::forward_backward;
            }
            const tpusim::AttentionForm flash = tpusim::attention(chip, spec).flash;
            return {{(backward ? QStringLiteral("flash attention forward and backward %1")
                               : QStringLiteral("streaming attention %1"))
                         .arg(run.shapeText),
                     flash.time_s, flash.mxu_flops + flash.vpu_flops, flash.hbm_bytes, run.medianS,
                     QString::fromStdString(flash.bound)}};
        }
        if (run.lab == QLatin1String("L15") && hasAll(s, {"m", "k", "n"})) {
            tpusim::QuantizedMatmulSpec spec;
            spec.m = s.value(QStringLiteral("m"));
            spec.k = s.value(QStringLiteral("k"));
            spec.n = s.value(QStringLiteral("n"));
            spec.scheme = tpusim::parse_scheme(extra.value(QStringLiteral("scheme")).toString().toStdString());
            const tpusim::QuantizedMatmulResult r = tpusim::quantized_matmul(chip, spec);
            return {
                {QStringLiteral("%1 matmul %2").arg(extra.value(QStringLiteral("scheme")).toString(), run.shapeText),
                 r.time_s, r.flops, r.hbm_bytes, run.medianS, QString::fromStdString(r.bound)}};
        }
        if (run.lab == QLatin1String("L16") && hasAll(s, {"heads", "kv_heads"}) &&
            extra.contains(QStringLiteral("pageSize"))) {
            tpusim::DecodeAttentionSpec spec;
            for (const QJsonValue &v : extra.value(QStringLiteral("lengths")).toArray())
                spec.context.push_back(v.toInteger());
            spec.heads = s.value(QStringLiteral("heads"));
            spec.kv_heads = s.value(QStringLiteral("kv_heads"));
            spec.head_dim = extra.value(QStringLiteral("headDim")).toInteger(128);
            spec.page_size = extra.value(QStringLiteral("pageSize")).toInteger();
            spec.pages_per_block = 1; // the lab's kernel copies one page a step
            spec.full_grid = true;    // and walks every sequence's grid to the longest one's pages
            spec.kv_dtype = dtype;
            const tpusim::DecodeAttentionResult r = tpusim::decode_attention(chip, spec);
            return {{QStringLiteral("paged decode %1").arg(run.shapeText), r.time_s, r.useful_flops, r.hbm_bytes,
                     run.medianS, QString::fromStdString(r.bound)}};
        }
    } catch (const std::exception &) {
        // A chip, dtype or size the simulator refuses: no prediction.
    }
    return {};
}
