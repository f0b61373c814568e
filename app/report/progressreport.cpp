#include "progressreport.h"
#include "../chapterprogress.h"
#include "../labs/gates.h"

#include <chapters/chaptercatalog.h>
#include <progress/runs.h>
#include <progress/store.h>

#include "../labs/runrecord.h"

#include <tpusim/bench.h>
#include <tpusim/chips.h>
#include <tpusim/roofline.h>

#include <optional>

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

QDateTime fromMs(std::int64_t ms) { return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC); }
QString iso(const QDateTime &t) { return t.isValid() ? t.toString(Qt::ISODateWithMs) : QString(); }
QString qs(const std::string &s) { return QString::fromStdString(s); }

constexpr std::size_t kRecentEvents = 25;

} // namespace

namespace {

// What a measured run did per second against what its shape asks of HBM:
// the point it makes on the roofline. Only shapes the cost model knows.
std::optional<RooflinePoint> pointOf(const ProgressReport::Run &run, const QJsonObject &record)
{
    if (run.example || run.kind != QLatin1String("measured") || run.medianS <= 0)
        return std::nullopt;
    const QJsonObject shapes = record.value(QStringLiteral("shapes")).toObject();
    if (!shapes.contains(QStringLiteral("m")) || !shapes.contains(QStringLiteral("k")) || !shapes.contains(QStringLiteral("n")))
        return std::nullopt;
    try {
        tpusim::MatmulSpec spec;
        spec.m = shapes.value(QStringLiteral("m")).toInteger();
        spec.k = shapes.value(QStringLiteral("k")).toInteger();
        spec.n = shapes.value(QStringLiteral("n")).toInteger();
        spec.in = spec.out = tpusim::parse_dtype(run.dtype.toStdString());
        const tpusim::OpCost cost = tpusim::matmul_cost(spec);
        return RooflinePoint{QStringLiteral("%1 #%2").arg(run.lab).arg(run.id), cost.flops / cost.bytes, cost.flops / run.medianS};
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

void addRowPoints(const ProgressReport::Run &run, const QJsonObject &record, QList<RooflinePoint> &points)
{
    // L05 measures the bench rows; their costs are the bench's own.
    if (run.example || run.lab != QLatin1String("L05"))
        return;
    try {
        const auto rows = tpusim::landing_bench(tpusim::chip(run.chip.toStdString()));
        for (const QJsonValue &v : record.value(QStringLiteral("extra")).toObject().value(QStringLiteral("rows")).toArray()) {
            QList<double> samples;
            for (const QJsonValue &x : v.toObject().value(QStringLiteral("samples")).toArray())
                samples << x.toDouble();
            const QString id = v.toObject().value(QStringLiteral("row")).toString();
            for (const auto &row : rows)
                if (QString::fromStdString(row.id) == id && !samples.isEmpty())
                    points.append({QStringLiteral("%1 #%2").arg(id).arg(run.id), row.cost.flops / row.cost.bytes,
                                   row.cost.flops / median(samples)});
        }
    } catch (const std::exception &) {
    }
}

void addEvidence(ProgressReport &r, const progress::Store &store)
{
    progress::RunLedger ledger(const_cast<progress::Store &>(store));
    for (const auto &a : ledger.gateAttempts()) {
        QStringList reasons;
        for (const auto &x : a.reasons)
            reasons << qs(x);
        r.attempts.append({a.id, qs(a.gate), a.passed, fromMs(a.judgedAtMs), a.runRecord, reasons});
    }
    QString latestChip;
    for (const auto &row : ledger.runRecords()) {
        const QJsonObject record = QJsonDocument::fromJson(QByteArray::fromStdString(row.recordJson)).object();
        ProgressReport::Run run;
        run.id = row.id;
        run.lab = qs(row.lab);
        run.kind = qs(row.kind);
        run.chip = qs(row.chip);
        run.deviceKind = record.value(QStringLiteral("deviceKind")).toString();
        run.dtype = qs(row.dtype);
        QStringList parts;
        const QJsonObject shapes = record.value(QStringLiteral("shapes")).toObject();
        for (auto it = shapes.begin(); it != shapes.end(); ++it)
            parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value().toInteger());
        run.shapes = parts.join(QLatin1Char(' '));
        run.date = qs(row.measuredAt);
        run.medianS = row.medianS.value_or(0);
        run.baselineMedianS = row.baselineMedianS.value_or(0);
        run.correct = row.correct;
        run.example = row.example;
        r.runs.append(run);
        if (run.kind == QLatin1String("measured") && !run.example)
            latestChip = run.chip;
    }
    r.chart.chip = latestChip.isEmpty() ? QStringLiteral("v5e") : latestChip;
    const tpusim::Chip &chip = tpusim::chip(r.chart.chip.toStdString());
    r.chart.peakFlops = chip.peak_bf16.value;
    r.chart.bandwidth = chip.hbm_bandwidth.value;
    for (const auto &run : r.runs) {
        if (run.chip != r.chart.chip)
            continue;
        const QJsonObject record = QJsonDocument::fromJson(QByteArray::fromStdString(ledger.runRecord(run.id)->recordJson)).object();
        if (auto pt = pointOf(run, record))
            r.chart.points.append(*pt);
        addRowPoints(run, record, r.chart.points);
    }
}

} // namespace

ProgressReport buildProgressReport(const course::ChapterCatalog &catalog, const progress::Store &store)
{
    ProgressReport r;
    r.appVersion = QCoreApplication::applicationVersion();
    r.generated = QDateTime::currentDateTimeUtc();
    r.database = QString::fromStdString(store.file().string());

    const auto done = store.masteryItemsDone();
    const auto gates = gateStatesFrom(progress::RunLedger(const_cast<progress::Store &>(store)).gateAttempts());
    for (const auto &info : catalog.chapters()) {
        const ChapterProgress p = chapterProgress(info, done, gates);
        ProgressReport::Chapter c;
        c.number = info.number;
        c.title = info.title;
        c.layerName = info.layerName;
        c.isStage = info.isStage();
        if (info.stage) {
            c.stageNumber = info.stage->number;
            c.gate = info.stage->gate;
            c.gateRule = info.stage->rule;
            c.gateState = p.gateState;
            ++r.gateCount;
            r.gatesPassed += p.gateState == QLatin1String("passed") ? 1 : 0;
        }
        c.itemsDone = p.itemsDone;
        c.itemsTotal = p.itemsTotal;
        c.done = p.done;
        r.chaptersDone += p.done ? 1 : 0;
        for (const auto &item : info.mastery)
            c.items.append({item.id, item.text, done.count(item.id.toStdString()) > 0});
        r.chapters.append(c);
    }

    const progress::EventSummary summary = store.eventSummary();
    r.eventCount = static_cast<qint64>(summary.total);
    if (summary.firstAtMs)
        r.firstEvent = fromMs(*summary.firstAtMs);
    if (summary.lastAtMs)
        r.lastEvent = fromMs(*summary.lastAtMs);
    for (const auto &[kind, count] : summary.countByKind)
        r.eventKinds.append({qs(kind), static_cast<qint64>(count)});
    for (const auto &e : store.events(kRecentEvents))
        r.recentEvents.append({fromMs(e.atMs), qs(e.kind), qs(e.subject), qs(e.detail)});
    addEvidence(r, store);
    return r;
}

QByteArray progressReportJson(const ProgressReport &r)
{
    QJsonArray chapters;
    for (const auto &c : r.chapters) {
        QJsonArray items;
        for (const auto &i : c.items)
            items.append(QJsonObject{{"id", i.id}, {"text", i.text}, {"done", i.done}});
        QJsonObject o{{"number", c.number}, {"title", c.title}, {"layer", c.layerName},
                      {"kind", c.isStage ? "stage" : "layer"}, {"itemsDone", c.itemsDone},
                      {"itemsTotal", c.itemsTotal}, {"done", c.done}, {"mastery", items}};
        if (c.isStage)
            o.insert("stage", QJsonObject{{"number", c.stageNumber}, {"gate", c.gate},
                                          {"rule", c.gateRule}, {"state", c.gateState}});
        chapters.append(o);
    }
    QJsonArray kinds;
    for (const auto &k : r.eventKinds)
        kinds.append(QJsonObject{{"kind", k.kind}, {"count", k.count}});
    QJsonArray recent;
    for (const auto &e : r.recentEvents)
        recent.append(QJsonObject{{"time", iso(e.when)}, {"kind", e.kind}, {"subject", e.subject}, {"detail", e.detail}});
    QJsonArray attempts;
    for (const auto &a : r.attempts)
        attempts.append(QJsonObject{{"id", a.id}, {"gate", a.gate}, {"passed", a.passed}, {"judged", iso(a.judged)},
                                    {"record", a.record}, {"reasons", QJsonArray::fromStringList(a.reasons)}});
    QJsonArray runs;
    for (const auto &x : r.runs) {
        QJsonObject o{{"id", x.id}, {"lab", x.lab}, {"kind", x.kind}, {"chip", x.chip}, {"deviceKind", x.deviceKind},
                      {"dtype", x.dtype}, {"shapes", x.shapes}, {"date", x.date}, {"correct", x.correct}, {"example", x.example}};
        if (x.medianS > 0)
            o.insert("medianS", x.medianS);
        if (x.baselineMedianS > 0)
            o.insert("baselineMedianS", x.baselineMedianS);
        runs.append(o);
    }
    QJsonArray points;
    for (const auto &pt : r.chart.points)
        points.append(QJsonObject{{"label", pt.label}, {"intensity", pt.intensity}, {"flopsPerS", pt.flopsPerS}});
    const QJsonObject root{
        {"report", "tpu-course progress"},
        {"formatVersion", 1},
        {"appVersion", r.appVersion},
        {"generated", iso(r.generated)},
        {"database", r.database},
        {"chaptersDone", r.chaptersDone},
        {"chapterCount", static_cast<int>(r.chapters.size())},
        {"gatesPassed", r.gatesPassed},
        {"gateCount", r.gateCount},
        {"chapters", chapters},
        {"gateAttempts", attempts},
        {"runs", runs},
        {"roofline", QJsonObject{{"chip", r.chart.chip}, {"peakFlops", r.chart.peakFlops}, {"bandwidth", r.chart.bandwidth},
                                 {"measuredPoints", points}}},
        {"events", QJsonObject{{"count", r.eventCount}, {"first", iso(r.firstEvent)},
                               {"last", iso(r.lastEvent)}, {"byKind", kinds}, {"recent", recent}}},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}
