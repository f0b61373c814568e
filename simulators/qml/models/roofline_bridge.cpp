// The roofline playground's questions to the simulator (EX·01): one op's
// roofline, the roof itself, and flash attention placed on the same axes.
// Thin: parse the inputs, call libtpusim, turn its answers into maps.
#include "simbridge.h"
#include "variants.h"

#include <tpusim/attention.h>
#include <tpusim/bench.h>
#include <tpusim/error.h>

#include <QRegularExpression>

#include <algorithm>

using simqml::qs;

namespace {

QVariantMap failure(const std::exception &e)
{
    return {{"error", QString::fromUtf8(e.what())}};
}

// The texts every op readout shows, next to the values they format, beyond
// the intensity and ridge texts simqml::roofline writes. The attained rate
// is the op's FLOPs over its predicted time: where its point sits.
void addReadouts(QVariantMap &m, double flops, double timeS, double peak)
{
    const double attained = timeS > 0 ? flops / timeS : 0;
    m.insert("attained", attained);
    m.insert("attainedText", qs(tpusim::format_rate(attained, "FLOP/s")));
    m.insert("peakFraction", peak > 0 ? attained / peak : 0);
    m.insert("percentOfPeak", qs(tpusim::format_fixed(peak > 0 ? 100 * attained / peak : 0, 1)) + "%");
    m.insert("peakText", qs(tpusim::format_rate(peak, "FLOP/s")));
}

QVariantMap opPoint(const tpusim::Roofline &r)
{
    QVariantMap m = simqml::roofline(r);
    addReadouts(m, r.flops, r.time_s, r.peak_flops);
    return m;
}

} // namespace

QVariantMap SimBridge::rooflineMatmul(const QString &chipId, qint64 m, qint64 k, qint64 n, const QString &dtype) const
{
    try {
        tpusim::MatmulSpec spec;
        spec.m = m;
        spec.k = k;
        spec.n = n;
        spec.in = spec.out = tpusim::parse_dtype(dtype.toStdString());
        return opPoint(tpusim::roofline(tpusim::chip(chipId.toStdString()), tpusim::matmul_cost(spec)));
    } catch (const tpusim::InputError &e) {
        return failure(e);
    }
}

QVariantMap SimBridge::rooflineElementwise(const QString &chipId, qint64 rows, qint64 cols, int inputs,
                                           const QString &dtype, double flopsPerElement) const
{
    try {
        const auto cost = tpusim::elementwise_cost({rows, cols}, inputs, 1, tpusim::parse_dtype(dtype.toStdString()),
                                                   flopsPerElement);
        return opPoint(tpusim::roofline(tpusim::chip(chipId.toStdString()), cost));
    } catch (const tpusim::InputError &e) {
        return failure(e);
    }
}

QVariantMap SimBridge::rooflineAttention(const QString &chipId, qint64 seq, qint64 headDim, qint64 block,
                                         const QString &dtype) const
{
    try {
        const auto &chip = tpusim::chip(chipId.toStdString());
        tpusim::AttentionSpec spec;
        spec.seq_q = spec.seq_kv = seq;
        spec.head_dim = headDim;
        spec.block_q = spec.block_k = block;
        spec.dtype = tpusim::parse_dtype(dtype.toStdString());
        const auto result = tpusim::attention(chip, spec);
        const auto &flash = result.flash;
        const double peak = tpusim::peak_flops(chip, spec.dtype).value;
        const double intensity = flash.hbm_bytes > 0 ? flash.mxu_flops / flash.hbm_bytes : 0;
        const double ridge = tpusim::ridge_point(chip, spec.dtype);
        QVariantMap m{
            {"timeS", flash.time_s},
            {"time", qs(tpusim::format_time(flash.time_s))},
            {"computeS", std::max(flash.mxu_s, flash.vpu_s)},
            {"memoryS", flash.memory_s},
            {"flops", flash.mxu_flops},
            {"bytes", flash.hbm_bytes},
            {"intensity", intensity},
            {"intensityText", qs(tpusim::format_intensity(intensity))},
            {"ridge", ridge},
            {"ridgeText", qs(tpusim::format_intensity(ridge))},
            {"bound", flash.bound == "HBM" ? QStringLiteral("memory") : QStringLiteral("compute")},
            {"resource", qs(flash.bound)},
            {"peakFlops", peak},
            {"bandwidth", chip.hbm_bandwidth.value},
            {"provenance", simqml::provenance(result.provenance)},
        };
        addReadouts(m, flash.mxu_flops, flash.time_s, peak);
        return m;
    } catch (const tpusim::InputError &e) {
        return failure(e);
    }
}

QVariantMap SimBridge::rooflineCurve(const QString &chipId, const QString &dtype, const QString &engine,
                                     double minIntensity, double maxIntensity) const
{
    try {
        const auto &chip = tpusim::chip(chipId.toStdString());
        const auto type = tpusim::parse_dtype(dtype.toStdString());
        const auto unit = engine == QLatin1String("vpu") ? tpusim::Engine::vpu : tpusim::Engine::mxu;
        // The roof at intensity x is what an op of x FLOPs per byte attains.
        auto at = [&](double x) { return tpusim::roofline(chip, tpusim::generic_cost(x, 1, type, unit)); };
        // A roof is straight on log axes but for its corner at the ridge:
        // three points draw it.
        const auto roofPoints = [&](double corner, auto timeOf) {
            QVariantList out;
            for (double x : {minIntensity, corner, maxIntensity}) {
                if (x < minIntensity || x > maxIntensity)
                    continue;
                const auto r = at(x);
                out.append(QVariantMap{{"x", x}, {"y", r.flops / timeOf(r)}});
            }
            return out;
        };
        const double ridge = at(1).ridge;
        const QVariantList points = roofPoints(ridge, [](const tpusim::Roofline &r) { return r.time_s; });
        // The attainable roof: the same at the fractions of the peaks that
        // published runs reach on this chip.
        const auto peakRoof = at(ridge);
        const double attainableRidge = peakRoof.attainable_peak_flops / peakRoof.attainable_bandwidth;
        const QVariantList attainablePoints =
            roofPoints(attainableRidge, [](const tpusim::Roofline &r) { return r.attainable_s; });
        auto roof = at(ridge);
        roof.provenance.shapes = "any op: attainable FLOP/s = min(intensity × HBM bandwidth, peak)";
        QVariantMap m{
            {"points", points},
            {"ridge", ridge},
            {"ridgeText", qs(tpusim::format_intensity(ridge))},
            {"peakFlops", roof.peak_flops},
            {"peakText", qs(tpusim::format_rate(roof.peak_flops, "FLOP/s"))},
            {"bandwidth", roof.bandwidth},
            {"bandwidthText", qs(tpusim::format_rate(roof.bandwidth, "B/s"))},
            {"resource", unit == tpusim::Engine::vpu ? QStringLiteral("VPU") : QStringLiteral("MXU")},
            {"provenance", simqml::provenance(roof.provenance)},
            {"attainablePoints", attainablePoints},
            {"attainablePeakFlops", peakRoof.attainable_peak_flops},
            {"attainablePeakText", qs(tpusim::format_rate(peakRoof.attainable_peak_flops, "FLOP/s"))},
            {"attainableBandwidth", peakRoof.attainable_bandwidth},
            {"attainableBandwidthText", qs(tpusim::format_rate(peakRoof.attainable_bandwidth, "B/s"))},
            {"attainableText", QStringLiteral("attainable %1 · HBM %2, fitted on published runs")
                                   .arg(qs(tpusim::format_rate(peakRoof.attainable_peak_flops, "FLOP/s")),
                                        qs(tpusim::format_rate(peakRoof.attainable_bandwidth, "B/s")))},
            {"attainableDetails",
             QStringLiteral("predicted · %1\n%2 of the MXU peak (%3)\n%4 of HBM bandwidth (%5)")
                 .arg(qs(chip.id), qs(tpusim::format_fact(chip.mxu_attainable)), qs(chip.mxu_attainable.source),
                      qs(tpusim::format_fact(chip.hbm_attainable)), qs(chip.hbm_attainable.source))},
        };
        return m;
    } catch (const tpusim::InputError &e) {
        return failure(e);
    }
}

QVariantList SimBridge::rooflinePresets(const QString &chipId) const
{
    QVariantList out;
    try {
        // The bench keeps its shapes as text; read the sizes back from it so
        // a preset sets exactly the shapes the bench row costs.
        static const QRegularExpression matmulDims(QStringLiteral("M=(\\d+) K=(\\d+) N=(\\d+)"));
        static const QRegularExpression elementwiseDims(QStringLiteral("^(\\d+)x(\\d+), (\\d+) in"));
        for (const auto &row : tpusim::landing_bench(tpusim::chip(chipId.toStdString()))) {
            const QString shapes = qs(row.cost.shapes);
            QVariantMap preset{{"id", qs(row.id)},
                               {"label", qs(row.label)},
                               {"shapes", shapes},
                               {"dtype", qs(std::string(tpusim::name(row.cost.compute_dtype)))},
                               {"roofline", simqml::roofline(row.result)}};
            if (const auto mm = matmulDims.match(shapes); mm.hasMatch()) {
                preset.insert("op", QStringLiteral("matmul"));
                preset.insert("m", mm.captured(1).toLongLong());
                preset.insert("k", mm.captured(2).toLongLong());
                preset.insert("n", mm.captured(3).toLongLong());
            } else if (const auto ew = elementwiseDims.match(shapes); ew.hasMatch()) {
                preset.insert("op", QStringLiteral("elementwise"));
                preset.insert("rows", ew.captured(1).toLongLong());
                preset.insert("cols", ew.captured(2).toLongLong());
                preset.insert("inputs", ew.captured(3).toInt());
            }
            out.append(preset);
        }
    } catch (const tpusim::InputError &e) {
        out.append(failure(e));
    }
    return out;
}
