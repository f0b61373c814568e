#include "attentionmodel.h"
#include "variants.h"

#include <tpusim/attention.h>
#include <tpusim/error.h>
#include <tpusim/online_softmax.h>

#include <QtQml/qqml.h>
#include <QVariantList>

#include <algorithm>
#include <cmath>
#include <cstdio>

using simqml::qs;

namespace {

// A row-major matrix as one list per row.
QVariantList rows(const std::vector<double> &v, std::int64_t width)
{
    QVariantList out;
    for (std::size_t r = 0; r + static_cast<std::size_t>(width) <= v.size(); r += static_cast<std::size_t>(width))
        out.append(QVariant(simqml::list(std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(r),
                                                             v.begin() + static_cast<std::ptrdiff_t>(r) + width))));
    return out;
}

QVariantMap snapshot(const tpusim::OnlineSoftmaxStepper &s)
{
    const std::int64_t d = s.problem().head_dim;
    return {{"done", qlonglong(s.blocks_done())}, {"m", simqml::list(s.m())}, {"l", simqml::list(s.l())},
            {"alpha", simqml::list(s.alpha())},   {"acc", rows(s.acc(), d)},  {"output", rows(s.output(), d)}};
}

QVariantList figures(const std::vector<tpusim::Figure> &list, bool asTime)
{
    QVariantList out;
    for (const auto &f : list)
        out.append(QVariantMap{{"name", qs(f.name)},
                               {"value", f.value},
                               {"text", qs(asTime ? tpusim::format_time(f.value) : tpusim::format_bytes(f.value))}});
    return out;
}

QVariantMap form(const tpusim::AttentionForm &f)
{
    return {{"timeS", f.time_s},
            {"time", qs(tpusim::format_time(f.time_s))},
            {"bound", qs(f.bound)},
            {"boundText", f.bound == "grid steps" ? QStringLiteral("set by its grid steps") : qs(f.bound + "-bound")},
            {"peakS", f.peak_s},
            {"gridSteps", qlonglong(f.grid_steps)},
            {"hbmBytes", f.hbm_bytes},
            {"hbmBytesText", qs(tpusim::format_bytes(f.hbm_bytes))},
            {"bytes", figures(f.bytes, false)},
            {"stages", figures(f.stages, true)}};
}

QVariantMap error(const std::exception &e)
{
    return {{"error", QString::fromUtf8(e.what())}};
}

} // namespace

QVariantMap AttentionModel::stream(int seqQ, int seqKv, int headDim, int blockK, bool causal, int seed) const
{
    try {
        tpusim::OnlineSoftmaxStepper stepper(tpusim::random_attention_problem(
            seqQ, seqKv, headDim, seqQ, blockK, causal, static_cast<std::uint64_t>(std::max(seed, 0))));
        QVariantList steps{snapshot(stepper)};
        while (stepper.step())
            steps.append(snapshot(stepper));

        const std::vector<double> got = stepper.output();
        const std::vector<double> want = tpusim::attention_reference(stepper.problem());
        double worst = 0;
        for (std::size_t i = 0; i < got.size(); ++i)
            worst = std::max(worst, std::abs(got[i] - want[i]));
        char text[32];
        std::snprintf(text, sizeof text, "%.1e", worst);

        const QString shapes = QStringLiteral("Sq=%1 Skv=%2 D=%3 block_q=%1 block_k=%4%5 seed=%6")
                                   .arg(seqQ)
                                   .arg(seqKv)
                                   .arg(headDim)
                                   .arg(blockK)
                                   .arg(causal ? QStringLiteral(" causal") : QString())
                                   .arg(seed);
        tpusim::Provenance state;
        state.kind = tpusim::Kind::verified_off_chip;
        state.chip = "host CPU";
        state.dtype = "f64";
        state.shapes = shapes.toStdString();
        state.model = "online-softmax stepper: the flash-attention recurrence run on numbers";
        state.assumptions = {"Q, K and V are seeded values in [-1, 1); scores are scaled by 1/sqrt(head_dim).",
                             "The arithmetic runs in float64 on the host, not in a TPU's bf16 and f32."};
        tpusim::Provenance check = state;
        check.model = "max |stepper output - softmax(QK^T)V computed directly| over every element";
        // Both sides run in float64: they agree to rounding (about 1e-16 here),
        // so anything past 1e-9 would be a wrong recurrence, not rounding.
        constexpr double kAgreement = 1e-9;

        return {{"seqQ", seqQ},
                {"seqKv", seqKv},
                {"headDim", headDim},
                {"blockK", blockK},
                {"blocks", qlonglong(stepper.kv_blocks())},
                {"causal", causal},
                {"seed", seed},
                {"steps", steps},
                {"reference", rows(want, headDim)},
                {"check", QVariantMap{{"maxAbsError", worst},
                                      {"passed", worst < kAgreement},
                                      {"text", QString::fromLatin1(text)},
                                      {"provenance", simqml::provenance(check)}}},
                {"provenance", simqml::provenance(state)}};
    } catch (const tpusim::InputError &e) {
        return error(e);
    }
}

QVariantMap AttentionModel::costs(const QString &chipId, int batch, int heads, int seq, int headDim, int blockQ,
                                  int blockK, const QString &dtype, bool causal, const QString &pass) const
{
    try {
        tpusim::AttentionSpec s;
        s.batch = batch;
        s.heads = heads;
        s.seq_q = s.seq_kv = seq;
        s.head_dim = headDim;
        s.block_q = blockQ;
        s.block_k = blockK;
        s.causal = causal;
        s.dtype = tpusim::parse_dtype(dtype.toStdString());
        if (pass == QLatin1String("both"))
            s.pass = tpusim::AttentionPass::forward_backward;
        else if (pass != QLatin1String("forward"))
            return {{"error", QStringLiteral("the pass must be forward or both, not %1").arg(pass)}};
        const tpusim::AttentionResult r = tpusim::attention(tpusim::chip(chipId.toStdString()), s);
        // The score matrix the naive form writes to HBM, at its full size.
        const double score = r.score_bytes;
        return {
            {"naive", form(r.naive)},
            {"flash", form(r.flash)},
            {"scoreBytes", score},
            {"scoreBytesText", qs(tpusim::format_bytes(score))},
            {"speedup", r.speedup},
            {"speedupText", qs(tpusim::format_fixed(r.speedup, 1)) + QStringLiteral("×")},
            // Streaming can lose when its steps cost more than the naive ops' traffic.
            {"comparisonText",
             r.speedup >= 1 ? QStringLiteral("streaming %1× faster").arg(qs(tpusim::format_fixed(r.speedup, 1)))
                            : QStringLiteral("streaming %1× slower").arg(qs(tpusim::format_fixed(1 / r.speedup, 1)))},
            {"kvBlocks", qlonglong(r.kv_blocks)},
            {"tiles", qlonglong(r.tiles_computed)},
            {"provenance", simqml::provenance(r.provenance)}};
    } catch (const tpusim::InputError &e) {
        return error(e);
    }
}
