#include "progressreport.h"

#include <progress/profiles.h>

#include <coursework/drills.h>
#include <progress/drills.h>
#include "../chapterprogress.h"
#include "labs/evidence.h"
#include "labs/gates.h"
#include "labs/labcatalog.h"
#include "reportformat.h"
#include "runprediction.h"

#include <chapters/chaptercatalog.h>
#include <progress/runs.h>
#include <progress/store.h>

#include <tpusim/chips.h>

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <iterator>
#include <set>

namespace {

QDateTime fromMs(std::int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Events the learner caused, for the date range; the store's own upkeep
// and earlier exports of this report are not activity.
bool isActivity(const std::string &kind)
{
    return kind != progress::event_kind::kSchemaMigrated && kind != "report-exported";
}

ProgressReport::ChapterState stateOf(const ChapterProgress &p, bool opened)
{
    if (p.done)
        return ProgressReport::ChapterState::Done;
    const bool attempted = !p.gateState.isEmpty() && p.gateState != QLatin1String("locked");
    return opened || p.itemsDone > 0 || attempted ? ProgressReport::ChapterState::InProgress
                                                  : ProgressReport::ChapterState::NotStarted;
}

void addChapters(ProgressReport &r, const course::ChapterCatalog &catalog, const progress::Store &store,
                 const std::vector<progress::GateAttempt> &attempts)
{
    const auto done = store.masteryItemsDone();
    const auto gates = gateStatesFrom(attempts);
    QMap<int, QDateTime> opened;
    for (const auto &s : store.chapterStates())
        if (s.firstOpenedMs)
            opened.insert(s.number, fromMs(*s.firstOpenedMs));
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
        c.firstOpened = opened.value(info.number);
        c.state = stateOf(p, c.firstOpened.isValid());
        for (const auto &item : info.mastery)
            c.items.append({item.id, item.text, done.count(item.id.toStdString()) > 0});
        r.chaptersDone += c.state == ProgressReport::ChapterState::Done ? 1 : 0;
        r.chaptersStarted += c.state != ProgressReport::ChapterState::NotStarted ? 1 : 0;
        r.itemsDone += c.itemsDone;
        r.itemsTotal += c.itemsTotal;
        r.chapters.append(c);
    }
}

ProgressReport::Run runFrom(const progress::RunRecordRow &row, const QJsonObject &record)
{
    ProgressReport::Run run;
    run.id = row.id;
    run.lab = qs(row.lab);
    run.kind = qs(row.kind);
    run.chip = qs(row.chip);
    run.deviceKind = record.value(QStringLiteral("deviceKind")).toString();
    run.deviceCount = record.value(QStringLiteral("deviceCount")).toInt(1);
    run.dtype = qs(row.dtype);
    const QJsonObject shapes = QJsonDocument::fromJson(QByteArray::fromStdString(row.shapesJson)).object();
    for (auto it = shapes.begin(); it != shapes.end(); ++it)
        run.shapes.insert(it.key(), it.value().toInteger());
    const reportformat::CompactShape shape = reportformat::compactShape(run.shapes);
    run.shapeText = shape.text;
    run.shapeAxes = shape.axes;
    run.date = QDateTime::fromString(qs(row.measuredAt), Qt::ISODate).toUTC();
    run.medianS = row.medianS.value_or(0);
    run.baselineMedianS = row.baselineMedianS.value_or(0);
    run.baselineName = record.value(QStringLiteral("baseline")).toObject().value(QStringLiteral("name")).toString();
    run.correct = row.correct;
    run.example = row.example;
    run.predictions = predictRun(run, record.value(QStringLiteral("extra")).toObject());
    return run;
}

// One roofline per chip the learner measured on, in the order first measured.
void addRooflines(ProgressReport &r)
{
    for (const auto &run : r.runs) {
        if (run.predictions.isEmpty())
            continue;
        auto it =
            std::find_if(r.rooflines.begin(), r.rooflines.end(), [&](const auto &x) { return x.chip == run.chip; });
        if (it == r.rooflines.end()) {
            const tpusim::Chip &chip = tpusim::chip(run.chip.toStdString());
            r.rooflines.append({run.chip, chip.peak_bf16.value, chip.hbm_bandwidth.value, {}});
            it = std::prev(r.rooflines.end());
        }
        for (const auto &p : run.predictions)
            if (p.bytes > 0 && p.measuredS > 0)
                it->points.append({QStringLiteral("%1 #%2 %3").arg(run.lab).arg(run.id).arg(p.label), p.flops / p.bytes,
                                   p.flops / p.measuredS});
    }
}

void addEvidence(ProgressReport &r, const progress::RunLedger &ledger,
                 const std::vector<progress::GateAttempt> &attempts)
{
    QMap<QString, QString> stageOfGate;
    for (const auto &c : r.chapters)
        if (c.isStage)
            stageOfGate.insert(c.gate, c.title);
    for (const auto &a : attempts) {
        QStringList reasons;
        for (const auto &x : a.reasons)
            reasons << qs(x);
        r.attempts.append({a.id, qs(a.gate), stageOfGate.value(qs(a.gate)), a.passed, fromMs(a.judgedAtMs), a.runRecord,
                           judgedOnDeviceTime(a), reasons});
    }
    for (const auto &row : ledger.runRecords()) {
        const QJsonObject record = QJsonDocument::fromJson(QByteArray::fromStdString(row.recordJson)).object();
        r.runs.append(runFrom(row, record));
        const auto &run = r.runs.constLast();
        r.exampleRuns += run.example ? 1 : 0;
        r.ownMeasuredRuns += !run.example && run.kind == QLatin1String("measured") ? 1 : 0;
        r.ownVerifiedRuns += !run.example && run.kind != QLatin1String("measured") ? 1 : 0;
    }
    addRooflines(r);
}

void addActivity(ProgressReport &r, const progress::Store &store)
{
    const progress::EventSummary summary = store.eventSummary();
    r.eventCount = static_cast<qint64>(summary.total);
    for (const auto &[kind, count] : summary.countByKind)
        r.eventKinds.append({qs(kind), static_cast<qint64>(count)});
    for (const auto &e : store.events()) {
        if (!isActivity(e.kind))
            continue;
        const QDateTime at = fromMs(e.atMs);
        if (!r.lastActivity.isValid() || at > r.lastActivity)
            r.lastActivity = at;
        if (!r.firstActivity.isValid() || at < r.firstActivity)
            r.firstActivity = at;
    }
}

} // namespace

QString chapterStateName(ProgressReport::ChapterState state)
{
    switch (state) {
        case ProgressReport::ChapterState::NotStarted:
            return QStringLiteral("not started");
        case ProgressReport::ChapterState::InProgress:
            return QStringLiteral("in progress");
        case ProgressReport::ChapterState::Done:
            return QStringLiteral("done");
    }
    return {};
}

// The drills with a generator: their reviews from the store.
static void addDrills(ProgressReport &r, const course::ChapterCatalog &catalog, const progress::Store &store)
{
    const progress::DrillLedger drills(store);
    const QDateTime now = QDateTime::currentDateTime();
    const std::int64_t today = QDateTime(now.date(), QTime(0, 0)).toMSecsSinceEpoch();
    const auto lastDue = drills.lastDueByKind();
    const std::set<int> opened = progress::openedChapters(store);
    for (const std::string &id : coursework::drills::drill_ids()) {
        ProgressReport::Drill d;
        d.id = QString::fromStdString(id);
        for (const auto &c : catalog.chapters())
            for (const auto &p : c.pieces)
                if (p.id == d.id) {
                    d.name = p.name;
                    d.chapter = c.number;
                }
        const auto kinds = coursework::drills::card_kinds(id);
        const auto s = drills.stats(id, kinds, today, 14);
        d.reviews = s.reviews;
        d.correct = s.correct;
        d.accuracy = s.accuracy;
        d.hasRetention = s.retention.has_value();
        d.retention = s.retention.value_or(0);
        d.level = s.level;
        // Ahead of the learner's path, nothing is due, as the app says.
        d.due = progress::aheadOfPath(lastDue, kinds, opened.count(d.chapter) > 0) ? 0 : s.due();
        for (const auto &day : s.perDay)
            d.perDay.append(day.reviews);
        r.drills.append(d);
    }
}

// The longest ops kept for each profiled device: enough to say where its
// time went, few enough for a page.
constexpr int kProfileOpsShown = 8;

void addProfiles(ProgressReport &r, const progress::Store &store)
{
    const progress::ProfileLedger ledger(const_cast<progress::Store &>(store));
    for (const auto &row : ledger.profiles()) {
        const auto whole = ledger.importedProfile(row.id);
        if (!whole)
            continue;
        ProgressReport::Profile p;
        p.id = row.id;
        p.device = QString::fromStdString(row.device);
        p.deviceType = QString::fromStdString(row.deviceType);
        p.chip = QString::fromStdString(row.chip);
        p.format = QString::fromStdString(row.format);
        p.sourceFile = QString::fromStdString(row.sourceFile);
        p.sha256 = QString::fromStdString(row.fileSha256);
        p.captured = QDateTime::fromString(QString::fromStdString(row.capturedAt), Qt::ISODate);
        p.imported = QDateTime::fromMSecsSinceEpoch(row.importedAtMs, Qt::UTC);
        p.pricedBy = QString::fromStdString(whole->pricedBy);
        p.priced = QDateTime::fromMSecsSinceEpoch(whole->pricedAtMs, Qt::UTC);
        p.pricings = whole->pricings;
        p.opEvents = row.opEvents;
        p.busyS = static_cast<double>(row.busyPs) * 1e-12;
        p.spanS = static_cast<double>(row.spanPs) * 1e-12;
        p.opCount = static_cast<int>(whole->ops.size());
        for (const auto &o : whole->ops) {
            if (p.top.size() >= kProfileOpsShown)
                break;
            ProgressReport::Profile::Op op;
            op.op = QString::fromStdString(o.op);
            op.kind = QString::fromStdString(o.kind);
            op.program = QString::fromStdString(o.program);
            op.occurrences = o.occurrences;
            op.selfS = static_cast<double>(o.selfPs) * 1e-12;
            op.perCallS = o.occurrences > 0 ? op.selfS / static_cast<double>(o.occurrences) : 0;
            op.predictedS = o.predictedS.value_or(-1);
            op.model = QString::fromStdString(o.model);
            p.top.append(op);
        }
        r.profiles.append(p);
    }
}

ProgressReport buildProgressReport(const course::ChapterCatalog &catalog, const progress::Store &store,
                                   const QString &learner)
{
    ProgressReport r;
    r.appVersion = QCoreApplication::applicationVersion();
    r.generated = QDateTime::currentDateTimeUtc();
    r.learner = learner;
    r.database = QString::fromStdString(store.file().string());
    r.historyFinding = QString::fromStdString(store.historyFinding());
    const progress::RunLedger ledger(const_cast<progress::Store &>(store));
    static const LabCatalog labs = LabCatalog::fromResources();
    const auto attempts = attemptsWithEvidence(ledger.gateAttempts(), ledger.runRecords(), labs, ledger);
    addChapters(r, catalog, store, attempts);
    addEvidence(r, ledger, attempts);
    addDrills(r, catalog, store);
    addProfiles(r, store);
    addActivity(r, store);
    return r;
}
