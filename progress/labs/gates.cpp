#include "gates.h"

#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace {

// Pass conditions, from the course's gate table.
constexpr double kG0Tolerance = 0.25; // every prediction within 25% of the measurement
constexpr double kG1Ratio = 1.10;     // no slower than 1.1x XLA
constexpr qint64 kG3MinSeq = 4096;
constexpr int kG4MinChips = 4;
constexpr double kG4Ratio = 1.15; // communication hidden: <= 1.15x compute-only

QString pct(double x)
{
    return QString::number(x * 100.0, 'f', 1) + QLatin1Char('%');
}
QString us(double s)
{
    return QString::number(s * 1e6, 'f', 1) + QStringLiteral(" µs");
}

QList<double> numbers(const QJsonValue &v)
{
    QList<double> out;
    for (const QJsonValue &x : v.toArray())
        if (x.isDouble() && x.toDouble() > 0)
            out << x.toDouble();
    return out;
}

void requireCorrect(const RunRecord &r, GateVerdict &v)
{
    if (r.correct) {
        v.reasons << QStringLiteral("Correct against %1 (max abs error %2, max rel error %3).")
                         .arg(r.reference)
                         .arg(r.maxAbsError, 0, 'g', 3)
                         .arg(r.maxRelError, 0, 'g', 3);
    } else {
        v.passed = false;
        v.reasons << QStringLiteral("Not correct against %1: max abs error %2, max rel error %3, beyond the tolerance.")
                         .arg(r.reference)
                         .arg(r.maxAbsError, 0, 'g', 3)
                         .arg(r.maxRelError, 0, 'g', 3);
    }
}

void judgeG0(const RunRecord &r, const std::vector<progress::Prediction> &predictions, GateVerdict &v)
{
    std::map<QString, QList<double>> measured;
    for (const QJsonValue &row : r.extra.value(QStringLiteral("rows")).toArray())
        measured[row.toObject().value(QStringLiteral("row")).toString()] =
            numbers(row.toObject().value(QStringLiteral("samples")));
    const qint64 measuredAt = r.date.toMSecsSinceEpoch();
    for (const QString &row : g0Rows()) {
        const auto it = measured.find(row);
        if (it == measured.end() || it->second.isEmpty()) {
            v.passed = false;
            v.reasons << QStringLiteral("The record has no measurement of %1.").arg(row);
            continue;
        }
        const double m = median(it->second);
        // The latest prediction entered before the measurement is the one that counts.
        const progress::Prediction *counted = nullptr;
        bool late = false;
        for (const auto &p : predictions) {
            if (QString::fromStdString(p.subject) != row)
                continue;
            if (p.enteredAtMs < measuredAt)
                counted = &p;
            else
                late = true;
        }
        if (!counted) {
            v.passed = false;
            v.reasons << (late ? QStringLiteral(
                                     "%1: the prediction was entered after the measurement, so it does not count.")
                                     .arg(row)
                               : QStringLiteral("%1: no prediction was entered before the measurement.").arg(row));
            continue;
        }
        const double err = std::abs(counted->value - m) / m;
        if (err <= kG0Tolerance) {
            v.reasons << QStringLiteral("%1: predicted %2, measured %3 (median), off by %4: within 25%.")
                             .arg(row, us(counted->value), us(m), pct(err));
        } else {
            v.passed = false;
            v.reasons << QStringLiteral("%1: predicted %2, measured %3 (median), off by %4: more than 25%.")
                             .arg(row, us(counted->value), us(m), pct(err));
        }
    }
}

void judgeAgainstBaseline(const RunRecord &r, double ratioLimit, bool strict, GateVerdict &v)
{
    if (r.baselineSamples.isEmpty()) {
        v.passed = false;
        v.reasons << QStringLiteral("The record has no XLA baseline to compare against.");
        return;
    }
    const double mine = median(r.samples);
    const double xla = median(r.baselineSamples);
    const double ratio = mine / xla;
    const bool ok = strict ? ratio < ratioLimit : ratio <= ratioLimit;
    if (!ok)
        v.passed = false;
    v.reasons << QStringLiteral("Median %1 against %2's %3: %4x (the gate needs %5 %6x).")
                     .arg(us(mine), r.baselineName, us(xla), QString::number(ratio, 'f', 3),
                          strict ? QStringLiteral("below") : QStringLiteral("at most"),
                          QString::number(ratioLimit, 'f', 2));
}

void judgeG2(const RunRecord &r, GateVerdict &v)
{
    const QString hlo = r.extra.value(QStringLiteral("hloText")).toString();
    const QJsonObject answers = r.extra.value(QStringLiteral("answers")).toObject();
    if (hlo.isEmpty() || answers.isEmpty()) {
        v.passed = false;
        v.reasons << QStringLiteral("The record carries no dump or no answers to check.");
        return;
    }
    try {
        const auto module = tpusim::ir::parse_hlo(hlo.toStdString());
        int fusions = 0;
        for (const auto &op : module.entry().ops)
            fusions += op.name == "fusion" ? 1 : 0;
        const int said = answers.value(QStringLiteral("fusionCount")).toInt(-1);
        if (said == fusions) {
            v.reasons << QStringLiteral("Fusion count %1: right.").arg(fusions);
        } else {
            v.passed = false;
            v.reasons << QStringLiteral("Fusion count: you said %1, the dump has %2.").arg(said).arg(fusions);
        }
        std::multiset<std::pair<std::vector<std::int64_t>, double>> truth, claimed;
        for (const auto &d : tpusim::ir::find_dots(module))
            truth.insert({d.output_shape, d.flops});
        for (const QJsonValue &d : answers.value(QStringLiteral("dots")).toArray()) {
            std::vector<std::int64_t> shape;
            for (const QJsonValue &x : d.toObject().value(QStringLiteral("outputShape")).toArray())
                shape.push_back(static_cast<std::int64_t>(x.toDouble()));
            claimed.insert({shape, d.toObject().value(QStringLiteral("flops")).toDouble()});
        }
        if (claimed == truth) {
            v.reasons << QStringLiteral("All %1 contractions: output shapes and FLOPs right.").arg(truth.size());
        } else {
            v.passed = false;
            v.reasons << QStringLiteral(
                             "Contractions: the dump has %1; your answers list %2, and they do not all match in output "
                             "shape and FLOPs.")
                             .arg(truth.size())
                             .arg(claimed.size());
        }
    } catch (const std::exception &e) {
        v.passed = false;
        v.reasons << QStringLiteral("The dump in the record cannot be read: %1").arg(QString::fromUtf8(e.what()));
    }
}

void judgeG5(const RunRecord &r, GateVerdict &v)
{
    static const QRegularExpression url(QStringLiteral(
        "^https://(github\\.com/[^/\\s]+/[^/\\s]+/pull/\\d+|gitlab\\.com/[^\\s]+/-/merge_requests/\\d+)$"));
    static const QRegularExpression commit(QStringLiteral("^[0-9a-f]{40}$"));
    const QJsonObject up = r.extra.value(QStringLiteral("upstream")).toObject();
    const QString u = up.value(QStringLiteral("url")).toString();
    const QString c = up.value(QStringLiteral("commit")).toString();
    if (!url.match(u).hasMatch() || !commit.match(c).hasMatch()) {
        v.passed = false;
        v.reasons << QStringLiteral(
            "The record must name the merged change (a pull or merge request address) and its 40-hex-digit commit.");
        return;
    }
    v.reasons << QStringLiteral(
                     "Merged change %1 at commit %2. This app works offline and cannot confirm the merge; the address "
                     "and commit are in the report for anyone to check.")
                     .arg(u, c);
}

} // namespace

QMap<QString, QString> gateStatesFrom(const std::vector<progress::GateAttempt> &attempts)
{
    QMap<QString, QString> states;
    for (const auto &a : attempts) {
        const QString gate = QString::fromStdString(a.gate);
        if (a.passed)
            states[gate] = QStringLiteral("passed");
        else if (states.value(gate) != QLatin1String("passed"))
            states[gate] = QStringLiteral("attempted");
    }
    return states;
}

QStringList g0Rows()
{
    return {QStringLiteral("matmul_nnn"), QStringLiteral("matmul_skinny"), QStringLiteral("elementwise_add")};
}

QString gateForLab(const QString &lab)
{
    static const std::map<QString, QString> gates{{"L05", "G0"}, {"L07", "G1"}, {"L12", "G2"},
                                                  {"L09", "G3"}, {"L11", "G4"}, {"L13", "G5"}};
    const auto it = gates.find(lab);
    return it == gates.end() ? QString() : it->second;
}

GateVerdict judgeGate(const RunRecord &r, const std::vector<progress::Prediction> &predictions)
{
    GateVerdict v;
    v.gate = gateForLab(r.lab);
    if (v.gate.isEmpty() || !r.measured() || r.example)
        return v; // not a gate run: no attempt
    v.judged = true;
    v.passed = true;
    v.reasons << QStringLiteral("Measured on %1 (%2), %3, %4, %5.")
                     .arg(r.chip, r.deviceKind, r.dtype, r.shapesText(), r.date.toString(Qt::ISODate));
    if (v.gate == QLatin1String("G0")) {
        judgeG0(r, predictions, v);
    } else if (v.gate == QLatin1String("G1")) {
        const bool shapes = r.dtype == QLatin1String("bf16") && r.shapes.value("m") == 4096 &&
                            r.shapes.value("k") == 4096 && r.shapes.value("n") == 4096;
        if (!shapes) {
            v.passed = false;
            v.reasons << QStringLiteral("G1 is judged on bf16 4096x4096x4096; this run is %1 %2.")
                             .arg(r.dtype, r.shapesText());
        }
        requireCorrect(r, v);
        judgeAgainstBaseline(r, kG1Ratio, false, v);
    } else if (v.gate == QLatin1String("G2")) {
        judgeG2(r, v);
    } else if (v.gate == QLatin1String("G3")) {
        if (r.shapes.value("seq") < kG3MinSeq) {
            v.passed = false;
            v.reasons
                << QStringLiteral("G3 needs a sequence of at least 4096; this run has %1.").arg(r.shapes.value("seq"));
        }
        requireCorrect(r, v);
        judgeAgainstBaseline(r, 1.0, true, v);
    } else if (v.gate == QLatin1String("G4")) {
        if (r.deviceCount < kG4MinChips) {
            v.passed = false;
            v.reasons << QStringLiteral("G4 needs at least 4 chips; this run used %1.").arg(r.deviceCount);
        }
        requireCorrect(r, v);
        const QList<double> computeOnly = numbers(r.extra.value(QStringLiteral("computeOnlySamples")));
        if (computeOnly.isEmpty()) {
            v.passed = false;
            v.reasons << QStringLiteral("The record has no compute-only time to compare against.");
        } else {
            const double ratio = median(r.samples) / median(computeOnly);
            if (ratio > kG4Ratio)
                v.passed = false;
            v.reasons << QStringLiteral("Median %1 against %2 compute-only: %3x (the gate needs at most 1.15x).")
                             .arg(us(median(r.samples)), us(median(computeOnly)), QString::number(ratio, 'f', 3));
        }
    } else if (v.gate == QLatin1String("G5")) {
        requireCorrect(r, v);
        judgeG5(r, v);
    }
    return v;
}
