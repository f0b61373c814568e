#include "runrecord.h"
#include "labcatalog.h"
#include "plausibility.h"

#include <tpusim/chips.h>

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace {

const QStringList kRequired{"schema",     "schemaVersion", "lab",         "kind",       "platform",
                            "deviceKind", "chip",          "deviceCount", "jaxVersion", "jaxlibVersion",
                            "dtype",      "shapes",        "timing",      "baseline",   "correctness",
                            "date",       "host",          "script",      "extra"};
const QStringList kDtypes{"bf16", "f32", "f16", "int8", "fp8"};
// Bounds no lab's record comes near: one sample per call of a kernel of
// micro- to milliseconds, at most a few hundred of them; a slice of up to
// 4096 chips; warm-up calls by the dozen.
constexpr double kLongestSampleS = 3600;
constexpr int kMaxSamples = 100000;
constexpr int kMaxDevices = 4096;
constexpr int kMaxWarmup = 1000000;

// Checks one value at a time and keeps every problem, so a learner fixing a
// hand-edited file sees them all at once.
class Checker
{
public:
    QStringList problems;

    void fail(const QString &s) { problems << s; }

    QString text(const QJsonObject &o, const char *key, const QString &where)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isString() || v.toString().trimmed().isEmpty()) {
            fail(QStringLiteral("%1 \"%2\" must be a non-empty string.").arg(where, QLatin1String(key)));
            return {};
        }
        return v.toString();
    }

    double number(const QJsonObject &o, const char *key, const QString &where, double min)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(d) || d < min) {
            fail(QStringLiteral("%1 \"%2\" must be a number of at least %3.").arg(where, QLatin1String(key)).arg(min));
            return min;
        }
        return d;
    }

    // A whole number in [min, max]; a count, not a measurement.
    int whole(const QJsonObject &o, const char *key, const QString &where, int min, int max)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d) || d < min || d > max) {
            fail(QStringLiteral("%1 \"%2\" must be a whole number from %3 to %4.")
                     .arg(where, QLatin1String(key))
                     .arg(min)
                     .arg(max));
            return min;
        }
        return static_cast<int>(d);
    }

    QList<double> samples(const QJsonValue &v, const QString &where)
    {
        QList<double> out;
        if (!v.isArray() || v.toArray().isEmpty()) {
            fail(QStringLiteral("%1 must list at least one sample.").arg(where));
            return out;
        }
        if (v.toArray().size() > kMaxSamples) {
            fail(QStringLiteral("%1 lists %2 samples; no lab takes more than %3.")
                     .arg(where)
                     .arg(v.toArray().size())
                     .arg(kMaxSamples));
            return out;
        }
        for (const QJsonValue &s : v.toArray()) {
            const double d = s.toDouble(-1);
            if (!s.isDouble() || !std::isfinite(d) || d <= 0 || d > kLongestSampleS) {
                fail(QStringLiteral("%1 has a sample that is not a positive number of seconds up to %2 (an hour).")
                         .arg(where)
                         .arg(kLongestSampleS));
                return {};
            }
            out << d;
        }
        return out;
    }
};

} // namespace

double median(QList<double> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

QString RunRecord::shapesText() const
{
    QStringList parts;
    for (auto it = shapes.begin(); it != shapes.end(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
    return parts.join(QLatin1Char(' '));
}

QString exampleFingerprint(const QJsonObject &record)
{
    const QJsonObject correctness = record.value(QStringLiteral("correctness")).toObject();
    const QJsonArray measured{record.value(QStringLiteral("lab")),
                              record.value(QStringLiteral("timing")).toObject().value(QStringLiteral("samples")),
                              record.value(QStringLiteral("baseline")).toObject().value(QStringLiteral("samples")),
                              correctness.value(QStringLiteral("maxAbsError")),
                              correctness.value(QStringLiteral("maxRelError"))};
    return QString::fromLatin1(
        QCryptographicHash::hash(QJsonDocument(measured).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256)
            .toHex());
}

QString chipForDeviceKind(const QString &deviceKind)
{
    static const QList<QPair<QString, QString>> table{
        {"tpu v4", "v4"},       {"tpu v5 lite", "v5e"}, {"tpu v5e", "v5e"}, {"tpu v5", "v5p"}, {"tpu v5p", "v5p"},
        {"tpu v6 lite", "v6e"}, {"tpu v6e", "v6e"},     {"tpu7x", "v7"},    {"tpu v7", "v7"},  {"tpu v7x", "v7"}};
    const QString key = deviceKind.simplified().toLower();
    for (const auto &[kind, chip] : table)
        if (key == kind)
            return chip;
    return {};
}

RecordCheck checkRunRecord(const QByteArray &bytes, const LabCatalog &labs, const QDateTime &now,
                           bool requireShippedScript)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return {std::nullopt,
                {QStringLiteral("The file is not valid JSON: %1 at byte %2.")
                     .arg(parseError.errorString())
                     .arg(parseError.offset)}};
    if (!doc.isObject())
        return {std::nullopt, {QStringLiteral("The file is JSON, but not a run record (it is not an object).")}};
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("schema")).toString() != QLatin1String("tpu-course/run-record"))
        return {std::nullopt,
                {QStringLiteral(
                    "The file is not a tpu-course run record (its \"schema\" is not \"tpu-course/run-record\").")}};
    const int version = o.value(QStringLiteral("schemaVersion")).toInt(-1);
    if (version != 1)
        return {
            std::nullopt,
            {version > 1
                 ? QStringLiteral(
                       "The record was written by a newer lab script (schema version %1); this app reads version 1.")
                       .arg(version)
                 : QStringLiteral("The record's \"schemaVersion\" must be 1.")}};

    Checker c;
    for (const QString &key : kRequired)
        if (!o.contains(key))
            c.fail(QStringLiteral("The record has no \"%1\".").arg(key));
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!kRequired.contains(it.key()))
            c.fail(QStringLiteral("The record has an unknown field \"%1\".").arg(it.key()));
    if (!c.problems.isEmpty())
        return {std::nullopt, c.problems};

    const QString top = QStringLiteral("The record's");
    RunRecord r;
    r.lab = c.text(o, "lab", top);
    const LabInfo *lab = labs.lab(r.lab);
    if (!r.lab.isEmpty() && !lab)
        c.fail(QStringLiteral("\"%1\" is not one of this course's labs.").arg(r.lab));
    r.kind = c.text(o, "kind", top);
    if (!r.kind.isEmpty() && r.kind != QLatin1String("measured") && r.kind != QLatin1String("verified-off-chip"))
        c.fail(QStringLiteral("The kind \"%1\" is neither \"measured\" nor \"verified-off-chip\".").arg(r.kind));
    r.platform = c.text(o, "platform", top);
    r.deviceKind = c.text(o, "deviceKind", top);
    r.chip = c.text(o, "chip", top);
    r.deviceCount = c.whole(o, "deviceCount", top, 1, kMaxDevices);
    r.jaxVersion = c.text(o, "jaxVersion", top);
    r.jaxlibVersion = c.text(o, "jaxlibVersion", top);
    r.dtype = c.text(o, "dtype", top);
    if (!r.dtype.isEmpty() && !kDtypes.contains(r.dtype))
        c.fail(QStringLiteral("The dtype \"%1\" is not one of %2.").arg(r.dtype, kDtypes.join(QStringLiteral(", "))));
    r.host = c.text(o, "host", top);

    const QJsonObject shapes = o.value(QStringLiteral("shapes")).toObject();
    if (shapes.isEmpty())
        c.fail(QStringLiteral("The record's \"shapes\" must name at least one size."));
    for (auto it = shapes.begin(); it != shapes.end(); ++it) {
        const double d = it.value().toDouble(-1);
        if (!it.value().isDouble() || d < 1 || d != std::floor(d) || d > 9.0e15)
            c.fail(QStringLiteral("The shape \"%1\" must be a whole number of at least 1.").arg(it.key()));
        else
            r.shapes.insert(it.key(), static_cast<qint64>(d));
    }

    const QJsonValue timing = o.value(QStringLiteral("timing"));
    if (timing.isObject()) {
        const QJsonObject t = timing.toObject();
        r.timingMethod = c.text(t, "method", QStringLiteral("The timing's"));
        r.warmup = c.whole(t, "warmup", QStringLiteral("The timing's"), 0, kMaxWarmup);
        r.samples = c.samples(t.value(QStringLiteral("samples")), QStringLiteral("The timing"));
    } else if (!timing.isNull()) {
        c.fail(QStringLiteral("The record's \"timing\" must be an object or null."));
    }
    const QJsonValue baseline = o.value(QStringLiteral("baseline"));
    if (baseline.isObject()) {
        r.baselineName = c.text(baseline.toObject(), "name", QStringLiteral("The baseline's"));
        r.baselineSamples =
            c.samples(baseline.toObject().value(QStringLiteral("samples")), QStringLiteral("The baseline"));
    } else if (!baseline.isNull()) {
        c.fail(QStringLiteral("The record's \"baseline\" must be an object or null."));
    }

    const QJsonObject corr = o.value(QStringLiteral("correctness")).toObject();
    const QString cw = QStringLiteral("The correctness");
    r.reference = c.text(corr, "reference", cw);
    r.maxAbsError = c.number(corr, "maxAbsError", cw, 0);
    r.maxRelError = c.number(corr, "maxRelError", cw, 0);
    const QJsonObject tol = corr.value(QStringLiteral("tolerance")).toObject();
    r.tolAbs = c.number(tol, "abs", QStringLiteral("The tolerance's"), 0);
    r.tolRel = c.number(tol, "rel", QStringLiteral("The tolerance's"), 0);
    if (!corr.value(QStringLiteral("passed")).isBool())
        c.fail(QStringLiteral("The correctness \"passed\" must be true or false."));
    r.correct = corr.value(QStringLiteral("passed")).toBool();

    static const QRegularExpression isoUtc(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$"));
    const QString date = c.text(o, "date", top);
    r.date = QDateTime::fromString(date, Qt::ISODateWithMs);
    if (!date.isEmpty() && (!isoUtc.match(date).hasMatch() || !r.date.isValid()))
        c.fail(
            QStringLiteral("The date \"%1\" is not an ISO 8601 time in UTC such as 2026-11-29T10:00:00Z.").arg(date));
    else if (r.date.isValid() && r.date > now.addSecs(300))
        c.fail(QStringLiteral("The date %1 is in the future.").arg(date));

    const QJsonObject script = o.value(QStringLiteral("script")).toObject();
    r.scriptName = c.text(script, "name", QStringLiteral("The script's"));
    r.scriptSha256 = c.text(script, "sha256", QStringLiteral("The script's"));
    if (lab && !r.scriptName.isEmpty() && r.scriptName != lab->script)
        c.fail(QStringLiteral("Lab %1 is run by %2, not %3.").arg(lab->id, lab->script, r.scriptName));
    else if (requireShippedScript && lab && !r.scriptSha256.isEmpty() && r.scriptSha256 != lab->scriptSha256())
        c.fail(QStringLiteral("The script that wrote this record is not the %1 shipped with this course (its SHA-256 "
                              "differs); run the shipped script.")
                   .arg(lab->script));

    if (!o.value(QStringLiteral("extra")).isObject())
        c.fail(QStringLiteral("The record's \"extra\" must be an object."));
    r.extra = o.value(QStringLiteral("extra")).toObject();
    r.example = r.extra.value(QStringLiteral("example")).toBool(false) ||
                labs.exampleFingerprints().contains(exampleFingerprint(o));
    // L05's rows each carry samples of their own, held to the same rules.
    if (r.lab == QLatin1String("L05"))
        for (const QJsonValue &row : r.extra.value(QStringLiteral("rows")).toArray())
            c.samples(
                row.toObject().value(QStringLiteral("samples")),
                QStringLiteral("The bench row \"%1\"").arg(row.toObject().value(QStringLiteral("row")).toString()));

    // Consistency: what the kind claims must fit where the run happened.
    if (r.measured()) {
        if (r.platform != QLatin1String("tpu"))
            c.fail(
                QStringLiteral("A measured record must come from a TPU, but this one ran on \"%1\".").arg(r.platform));
        const bool known =
            std::any_of(tpusim::all_chips().begin(), tpusim::all_chips().end(),
                        [&](const tpusim::Chip &chip) { return QString::fromStdString(chip.id) == r.chip; });
        if (!r.chip.isEmpty() && !known)
            c.fail(
                QStringLiteral("The chip \"%1\" is not one the simulator knows (v4, v5e, v5p, v6e, v7).").arg(r.chip));
        else if (!r.deviceKind.isEmpty() && chipForDeviceKind(r.deviceKind) != r.chip)
            c.fail(QStringLiteral("The device kind \"%1\" is not a %2.").arg(r.deviceKind, r.chip));
        if (!timing.isObject())
            c.fail(QStringLiteral("A measured record must carry its timing samples."));
    } else if (r.kind == QLatin1String("verified-off-chip")) {
        if (!timing.isNull() || !baseline.isNull())
            c.fail(QStringLiteral(
                "An off-chip verification makes no timing claims: its \"timing\" and \"baseline\" must be null."));
    }

    if (!c.problems.isEmpty())
        return {std::nullopt, c.problems};
    if (const QStringList impossible = implausibilities(r); !impossible.isEmpty())
        return {std::nullopt, impossible};
    r.canonicalJson = QJsonDocument(o).toJson(QJsonDocument::Compact);
    r.sha256 = QString::fromLatin1(QCryptographicHash::hash(r.canonicalJson, QCryptographicHash::Sha256).toHex());
    return {r, {}};
}
