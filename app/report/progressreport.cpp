#include "progressreport.h"
#include "../chapterprogress.h"
#include "../labs/gates.h"

#include <chapters/chaptercatalog.h>
#include <progress/store.h>

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
        {"events", QJsonObject{{"count", r.eventCount}, {"first", iso(r.firstEvent)},
                               {"last", iso(r.lastEvent)}, {"byKind", kinds}, {"recent", recent}}},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}
