// The report as JSON, for machines; assets/report.schema.json describes it.
#include "progressreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

QJsonValue iso(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

QJsonObject chapterJson(const ProgressReport::Chapter &c)
{
    QJsonArray items;
    for (const auto &i : c.items)
        items.append(QJsonObject{{"id", i.id}, {"text", i.text}, {"done", i.done}});
    QJsonObject o{{"number", c.number},
                  {"title", c.title},
                  {"layer", c.layerName},
                  {"kind", c.isStage ? "stage" : "layer"},
                  {"state", chapterStateName(c.state)},
                  {"firstOpened", iso(c.firstOpened)},
                  {"itemsDone", c.itemsDone},
                  {"itemsTotal", c.itemsTotal},
                  {"mastery", items}};
    if (c.isStage)
        o.insert(
            "stage",
            QJsonObject{{"number", c.stageNumber}, {"gate", c.gate}, {"rule", c.gateRule}, {"state", c.gateState}});
    return o;
}

QJsonObject runJson(const ProgressReport::Run &x)
{
    QJsonObject shapes;
    for (auto it = x.shapes.begin(); it != x.shapes.end(); ++it)
        shapes.insert(it.key(), it.value());
    QJsonArray predictions;
    for (const auto &p : x.predictions)
        predictions.append(QJsonObject{{"provenance", "predicted"},
                                       {"label", p.label},
                                       {"floorS", p.floorS},
                                       {"flops", p.flops},
                                       {"bytes", p.bytes},
                                       {"bound", p.bound},
                                       {"measuredS", p.measuredS}});
    QJsonObject o{{"id", x.id},
                  {"lab", x.lab},
                  {"provenance", x.kind},
                  {"example", x.example},
                  {"counts", !x.example},
                  {"chip", x.chip},
                  {"deviceKind", x.deviceKind},
                  {"deviceCount", x.deviceCount},
                  {"dtype", x.dtype},
                  {"shapes", shapes},
                  {"shape", QJsonObject{{"text", x.shapeText}, {"axes", x.shapeAxes}}},
                  {"date", iso(x.date)},
                  {"correct", x.correct},
                  {"predictions", predictions}};
    if (x.medianS > 0)
        o.insert("medianS", x.medianS);
    if (x.baselineMedianS > 0)
        o.insert("baseline", QJsonObject{{"name", x.baselineName}, {"medianS", x.baselineMedianS}});
    return o;
}

QJsonObject rooflineJson(const ProgressReport::Roofline &roof)
{
    QJsonArray points;
    for (const auto &pt : roof.points)
        points.append(QJsonObject{{"label", pt.label}, {"intensity", pt.intensity}, {"flopsPerS", pt.flopsPerS}});
    return {{"chip", roof.chip},
            {"peakFlops", roof.peakFlops},
            {"bandwidth", roof.bandwidth},
            {"ridge", roof.peakFlops / roof.bandwidth},
            {"measuredPoints", points}};
}

} // namespace

QByteArray progressReportJson(const ProgressReport &r)
{
    QJsonArray chapters, attempts, runs, rooflines, kinds;
    for (const auto &c : r.chapters)
        chapters.append(chapterJson(c));
    for (const auto &a : r.attempts)
        attempts.append(QJsonObject{{"id", a.id},
                                    {"gate", a.gate},
                                    {"stage", a.stageTitle},
                                    {"passed", a.passed},
                                    {"judged", iso(a.judged)},
                                    {"record", a.record},
                                    {"timing", a.deviceTimed ? "device" : "host"},
                                    {"reasons", QJsonArray::fromStringList(a.reasons)}});
    for (const auto &x : r.runs)
        runs.append(runJson(x));
    for (const auto &roof : r.rooflines)
        rooflines.append(rooflineJson(roof));
    for (const auto &k : r.eventKinds)
        kinds.append(QJsonObject{{"kind", k.kind}, {"count", k.count}});
    QJsonArray drills;
    for (const auto &d : r.drills) {
        QJsonArray days;
        for (int n : d.perDay)
            days.append(n);
        drills.append(QJsonObject{{"id", d.id},
                                  {"name", d.name},
                                  {"chapter", d.chapter},
                                  {"reviews", d.reviews},
                                  {"correct", d.correct},
                                  {"accuracy", d.accuracy},
                                  {"retention", d.hasRetention ? QJsonValue(d.retention) : QJsonValue()},
                                  {"level", d.level},
                                  {"dueToday", d.due},
                                  {"reviewsPerDay", days}});
    }
    QJsonArray profiles;
    for (const auto &p : r.profiles) {
        QJsonArray ops;
        for (const auto &o : p.top)
            ops.append(QJsonObject{{"op", o.op},
                                   {"kind", o.kind},
                                   {"program", o.program},
                                   {"occurrences", o.occurrences},
                                   {"selfS", o.selfS},
                                   {"perCallS", o.perCallS},
                                   {"predictedS", o.predictedS >= 0 ? QJsonValue(o.predictedS) : QJsonValue()},
                                   {"model", o.model}});
        profiles.append(QJsonObject{{"id", p.id},
                                    {"provenance", "measured"},
                                    {"device", p.device},
                                    {"deviceType", p.deviceType},
                                    {"chip", p.chip},
                                    {"format", p.format},
                                    {"sourceFile", p.sourceFile},
                                    {"sha256", p.sha256},
                                    {"captured", iso(p.captured)},
                                    {"imported", iso(p.imported)},
                                    {"pricedBy", p.pricedBy},
                                    {"priced", iso(p.priced)},
                                    {"pricings", p.pricings},
                                    {"opEvents", p.opEvents},
                                    {"busyS", p.busyS},
                                    {"spanS", p.spanS},
                                    {"opCount", p.opCount},
                                    {"longestOps", ops}});
    }
    const QJsonObject summary{{"chapterCount", static_cast<int>(r.chapters.size())},
                              {"chaptersDone", r.chaptersDone},
                              {"chaptersStarted", r.chaptersStarted},
                              {"itemsDone", r.itemsDone},
                              {"itemsTotal", r.itemsTotal},
                              {"gateCount", r.gateCount},
                              {"gatesPassed", r.gatesPassed},
                              {"ownMeasuredRuns", r.ownMeasuredRuns},
                              {"ownVerifiedRuns", r.ownVerifiedRuns},
                              {"exampleRuns", r.exampleRuns},
                              {"historyVerifies", r.historyFinding.isEmpty()},
                              {"historyFinding", r.historyFinding}};
    const QJsonObject root{
        {"report", "tpu-course progress"},
        {"formatVersion", 2},
        {"appVersion", r.appVersion},
        {"generated", iso(r.generated)},
        {"learner", r.learner},
        {"database", r.database},
        {"summary", summary},
        {"chapters", chapters},
        {"gateAttempts", attempts},
        {"runs", runs},
        {"rooflines", rooflines},
        {"drills", drills},
        {"profiles", profiles},
        {"activity", QJsonObject{{"first", iso(r.firstActivity)},
                                 {"last", iso(r.lastActivity)},
                                 {"events", r.eventCount},
                                 {"byKind", kinds}}},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}
