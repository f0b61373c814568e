#include "plausibility.h"
#include "labshapes.h"

#include <tpusim/attention.h>
#include <tpusim/bench.h>
#include <tpusim/chips.h>
#include <tpusim/error.h>
#include <tpusim/provenance.h>
#include <tpusim/published.h>
#include <tpusim/roofline.h>
#include <tpusim/validation.h>

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace {

// A baseline is XLA's own version of the lab's work; slower than its floor
// by more than this is a baseline slowed on purpose, not a measurement.
constexpr double kBaselineAboveFloor = 20.0;
// Fewer samples than this may repeat by chance at the timer's resolution.
constexpr int kSamplesForSpread = 3;

struct Floor
{
    QString what;       // "matmul 4096×4096×4096"
    double seconds = 0; // the chip's roofline: peak rates, every byte once
    tpusim::Family family = tpusim::Family::matmul;
};

QString us(double s)
{
    return QString::fromStdString(tpusim::format_time(s));
}

// How far below the roofline a published run of this family came, at
// worst: the simulator's held-out error, which bounds what a real chip has
// been seen to beat the model by.
double tolerance(tpusim::Family family)
{
    for (const auto &f : tpusim::validation().families)
        if (f.family == family)
            return std::clamp(f.held_out_worst, 0.1, 0.9);
    return 0.5;
}

std::optional<Floor> floorOf(const RunRecord &r, const tpusim::Chip &chip, tpusim::DType dtype)
{
    const auto has = [&](std::initializer_list<const char *> axes) {
        return std::all_of(axes.begin(), axes.end(),
                           [&](const char *a) { return r.shapes.contains(QLatin1String(a)); });
    };
    const auto dim = [&](const char *a) { return r.shapes.value(QLatin1String(a)); };
    if ((r.lab == QLatin1String("L01") || r.lab == QLatin1String("L07") || r.lab == QLatin1String("L13")) &&
        has({"m", "k", "n"})) {
        tpusim::MatmulSpec spec;
        spec.m = dim("m");
        spec.k = dim("k");
        spec.n = dim("n");
        spec.in = spec.out = dtype;
        return Floor{QStringLiteral("matmul %1×%2×%3").arg(spec.m).arg(spec.k).arg(spec.n),
                     tpusim::roofline(chip, tpusim::matmul_cost(spec)).time_s, tpusim::Family::matmul};
    }
    if (r.lab == QLatin1String("L06") && has({"rows", "cols"})) {
        const auto cost = tpusim::elementwise_cost({dim("rows"), dim("cols")}, 2, 1, dtype);
        return Floor{QStringLiteral("add %1×%2").arg(dim("rows")).arg(dim("cols")), tpusim::roofline(chip, cost).time_s,
                     tpusim::Family::memory};
    }
    const auto attention = attentionShape(r.shapes, dtype);
    if (r.lab == QLatin1String("L09") && attention) {
        const auto a = tpusim::attention(chip, *attention);
        // Only the useful matmul work at peak, and the flash form's one pass over HBM.
        const double mxu = a.flash.mxu_flops > 0 ? a.flash.mxu_s * a.useful_flops / a.flash.mxu_flops : 0;
        return Floor{QStringLiteral("attention %1×%2×%3×%4")
                         .arg(attention->batch)
                         .arg(attention->heads)
                         .arg(attention->seq_q)
                         .arg(attention->head_dim),
                     std::max(mxu, a.flash.memory_s), tpusim::Family::attention_fwd};
    }
    if (r.lab == QLatin1String("L14") && attention) {
        tpusim::AttentionSpec spec = *attention;
        spec.pass = tpusim::AttentionPass::forward_backward;
        const auto a = tpusim::attention(chip, spec);
        // The forward's useful matmuls and the backward's least four (dP, dV, dQ, dK: two forwards) at peak.
        const double mxu = a.useful_flops * 3 / tpusim::peak_flops(chip, dtype).value;
        return Floor{QStringLiteral("attention forward and backward %1×%2×%3×%4")
                         .arg(spec.batch)
                         .arg(spec.heads)
                         .arg(spec.seq_q)
                         .arg(spec.head_dim),
                     std::max(mxu, a.flash.memory_s), tpusim::Family::attention_fwdbwd};
    }
    if (r.lab == QLatin1String("L15") && has({"m", "k", "n"})) {
        // The fastest MXU path the chip publishes and each int8 operand read once: no scheme beats both.
        double peak = 0;
        for (const tpusim::Fact *f : {&chip.peak_bf16, &chip.peak_int8, &chip.peak_fp8})
            peak = std::max(peak, f->value);
        const double m = dim("m"), k = dim("k"), n = dim("n");
        return Floor{QStringLiteral("int8 matmul %1×%2×%3").arg(dim("m")).arg(dim("k")).arg(dim("n")),
                     std::max(2 * m * k * n / peak, (m * k + k * n + 2 * m * n) / chip.hbm_bandwidth.value),
                     tpusim::Family::matmul};
    }
    if (r.lab == QLatin1String("L16") && has({"kv_heads", "seq"})) {
        // Every sequence's own K and V, in bf16, read once at HBM peak (the longest alone when the
        // record lists no lengths).
        double tokens = 0;
        for (const QJsonValue &v : r.extra.value(QStringLiteral("lengths")).toArray())
            tokens += v.toDouble();
        tokens = std::max(tokens, static_cast<double>(dim("seq"))); // seq: the longest sequence
        const double headDim = r.extra.value(QStringLiteral("headDim")).toDouble(128);
        const double bytes = 2.0 * tokens * dim("kv_heads") * headDim * 2;
        return Floor{QStringLiteral("paged decode over %1 tokens").arg(tokens), bytes / chip.hbm_bandwidth.value,
                     tpusim::Family::memory};
    }
    return std::nullopt;
}

void belowFloor(QStringList &out, const QString &what, double medianS, double floorS, tpusim::Family family,
                const QString &chip)
{
    const double tol = tolerance(family);
    if (medianS > 0 && floorS > 0 && medianS < floorS * (1 - tol))
        out << QStringLiteral(
                   "Impossible timing: the median %1 for %2 is below what a %3 can do; its roofline floor "
                   "is %4, and even allowing the simulator's worst error on published %5 runs (%6%), no "
                   "run is under %7.")
                   .arg(us(medianS), what, chip, us(floorS),
                        QString::fromStdString(std::string(tpusim::family_title(family))))
                   .arg(qRound(tol * 100))
                   .arg(us(floorS * (1 - tol)));
}

void noSpread(QStringList &out, const QList<double> &samples, const QString &which)
{
    if (samples.size() >= kSamplesForSpread && QSet<double>(samples.begin(), samples.end()).size() == 1)
        out << QStringLiteral(
                   "Implausible timing: all %1 %2 samples are exactly %3; repeated runs of a real chip never "
                   "time identically.")
                   .arg(samples.size())
                   .arg(which, us(samples.first()));
}

} // namespace

QDateTime labsFirstShipped()
{
    return QDateTime(QDate(2026, 11, 29), QTime(0, 0), Qt::UTC);
}

QStringList implausibilities(const RunRecord &r)
{
    QStringList out;
    if (r.date.isValid() && r.date < labsFirstShipped())
        out << QStringLiteral("The date %1 is before the labs first shipped (%2).")
                   .arg(r.date.toString(Qt::ISODate), labsFirstShipped().date().toString(Qt::ISODate));

    // Correctness that contradicts itself: every error within the absolute
    // tolerance passes numpy.allclose, and a pass needs every output finite
    // and each error within abs + rel x |reference|.
    if (!r.correct && r.maxAbsError <= r.tolAbs)
        out << QStringLiteral(
                   "The correctness block contradicts itself: its worst error %1 is within the absolute "
                   "tolerance %2, yet it says the check failed.")
                   .arg(r.maxAbsError)
                   .arg(r.tolAbs);
    if (r.correct && r.maxAbsError > r.tolAbs + r.tolRel * kLargestLabOutput)
        out << QStringLiteral(
                   "The correctness block contradicts itself: a worst error of %1 cannot pass a tolerance of "
                   "%2 + %3 x |reference| when no lab's output exceeds %4.")
                   .arg(r.maxAbsError)
                   .arg(r.tolAbs)
                   .arg(r.tolRel)
                   .arg(kLargestLabOutput);

    if (!r.measured())
        return out;
    noSpread(out, r.samples, QStringLiteral("timing"));
    noSpread(out, r.baselineSamples, QStringLiteral("baseline"));
    try {
        const tpusim::Chip &chip = tpusim::chip(r.chip.toStdString());
        const tpusim::DType dtype = tpusim::parse_dtype(r.dtype.toStdString());
        if (r.deviceCount == 1)
            if (const auto floor = floorOf(r, chip, dtype)) {
                belowFloor(out, floor->what, median(r.samples), floor->seconds, floor->family, r.chip);
                const double baseline = median(r.baselineSamples);
                if (baseline > floor->seconds * kBaselineAboveFloor)
                    out << QStringLiteral(
                               "Implausible baseline: %1 takes %2, more than %3× the %4 floor of %5; XLA's "
                               "own version is not that slow.")
                               .arg(r.baselineName, us(baseline))
                               .arg(kBaselineAboveFloor)
                               .arg(floor->what, us(floor->seconds));
            }
        // L05 times the landing bench's rows, each against its own floor.
        if (r.lab == QLatin1String("L05"))
            for (const QJsonValue &v : r.extra.value(QStringLiteral("rows")).toArray()) {
                QList<double> samples;
                for (const QJsonValue &x : v.toObject().value(QStringLiteral("samples")).toArray())
                    samples << x.toDouble();
                const QString id = v.toObject().value(QStringLiteral("row")).toString();
                noSpread(out, samples, QStringLiteral("row %1").arg(id));
                for (const auto &row : tpusim::full_bench(chip))
                    if (QString::fromStdString(row.id) == id)
                        belowFloor(out, QString::fromStdString(row.label), median(samples), row.result.time_s,
                                   row.result.resource == "HBM" ? tpusim::Family::memory : tpusim::Family::matmul,
                                   r.chip);
            }
    } catch (const std::exception &) {
        // A chip or dtype the simulator does not model has no floor to hold it to.
    }
    return out;
}
