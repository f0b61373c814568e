#include "labruns.h"
#include "course.h"

#include <algorithm>
#include "labs/evidence.h"
#include "labs/gates.h"
#include "labs/importer.h"

#include <progress/profiles.h>
#include <progress/runs.h>
#include <progress/store.h>
#include <storeguard.h>

#include <tpusim/bench.h>
#include <tpusim/chips.h>
#include <tpusim/error.h>
#include <tpusim/provenance.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}
QString stamp(std::int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

QVariantMap recordSummary(const progress::RunRecordRow &r)
{
    QVariantMap m{{"id", static_cast<qlonglong>(r.id)},
                  {"lab", qs(r.lab)},
                  {"kind", r.kind == "measured" ? QStringLiteral("measured") : QStringLiteral("verified")},
                  {"chip", qs(r.chip)},
                  {"dtype", qs(r.dtype)},
                  {"date", qs(r.measuredAt)},
                  {"correct", r.correct},
                  {"example", r.example},
                  {"file", qs(r.sourceFile)}};
    const QJsonObject shapes = QJsonDocument::fromJson(QByteArray::fromStdString(r.shapesJson)).object();
    QStringList parts;
    for (auto it = shapes.begin(); it != shapes.end(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value().toInteger());
    m.insert("shapes", parts.join(QLatin1Char(' ')));
    if (r.medianS)
        m.insert("medianS", *r.medianS);
    if (r.baselineMedianS)
        m.insert("baselineMedianS", *r.baselineMedianS);
    return m;
}

} // namespace

QString LabRuns::labsFolder() const
{
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString &dir : {QDir::cleanPath(bin.filePath(QStringLiteral(TPU_COURSE_LABS_FROM_BIN))),
                               QStringLiteral(TPU_COURSE_LABS_IN_SOURCE)})
        if (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("labs.json"))))
            return dir;
    return {};
}

LabRuns::LabRuns(progress::Store &store, QObject *parent)
    : QObject(parent), m_store(store), m_labs(LabCatalog::fromResources())
{
}

LabRuns *LabRuns::create(QQmlEngine *, QJSEngine *)
{
    return Course::madeByCourse<&Course::labRuns>();
}

std::vector<progress::GateAttempt> LabRuns::countedAttempts() const
{
    const progress::RunLedger ledger(m_store);
    auto attempts = ledger.gateAttempts();
    // The records (each with its JSON) are read only when a pass needs its
    // evidence checked: the stack reads the gate states on every change.
    if (std::none_of(attempts.begin(), attempts.end(), [](const progress::GateAttempt &a) { return a.passed; }))
        return attempts;
    return attemptsWithEvidence(attempts, ledger.runRecords(), m_labs, ledger);
}

QMap<QString, QString> LabRuns::gateStates() const
{
    return storeGuarded([&]() -> QMap<QString, QString> { return gateStatesFrom(countedAttempts()); });
}

QVariantList LabRuns::gateAttempts(const QString &gate) const
{
    return storeGuarded([&]() -> QVariantList {
        QVariantList out;
        for (const auto &a : countedAttempts()) {
            if (qs(a.gate) != gate)
                continue;
            QStringList reasons;
            for (const auto &r : a.reasons)
                reasons << qs(r);
            out.append(QVariantMap{{"id", static_cast<qlonglong>(a.id)},
                                   {"passed", a.passed},
                                   {"judgedAt", stamp(a.judgedAtMs)},
                                   {"reasons", reasons},
                                   {"record", static_cast<qlonglong>(a.runRecord)}});
        }
        return out;
    });
}

QVariantList LabRuns::labsOfChapter(int chapter) const
{
    return storeGuarded([&]() -> QVariantList {
        const auto records = progress::RunLedger(m_store).runRecords();
        QVariantList out;
        for (const LabInfo &lab : m_labs.labs()) {
            if (lab.chapter != chapter)
                continue;
            QVariantList runs;
            for (const auto &r : records)
                if (qs(r.lab) == lab.id)
                    runs.append(recordSummary(r));
            out.append(QVariantMap{{"id", lab.id},
                                   {"name", lab.name},
                                   {"script", lab.script},
                                   {"goal", lab.goal},
                                   {"commands", lab.commands},
                                   {"gate", lab.gate},
                                   {"checks", lab.checks},
                                   {"checksOnEveryRecord", m_labs.checksOnEveryRecord()},
                                   {"runs", runs},
                                   {"attempts", lab.gate.isEmpty() ? QVariantList() : gateAttempts(lab.gate)}});
        }
        return out;
    });
}

void LabRuns::importRun(const QString &pathOrUrl, const QString &tag)
{
    const QUrl url(pathOrUrl);
    const QString path = url.isLocalFile() ? url.toLocalFile() : pathOrUrl;
    // The file work (a slow disk, a large record, its profile) runs on the
    // pool; the store is written here, on the thread that owns it.
    auto *watcher = new QFutureWatcher<PreparedImport>(this);
    connect(watcher, &QFutureWatcher<PreparedImport>::finished, this, [this, watcher, tag] {
        watcher->deleteLater();
        ImportOutcome result;
        try {
            result = storePreparedImport(watcher->result(), m_store);
        } catch (const progress::StoreError &e) {
            StoreHealth::instance()->report(e);
            result.problems << QString::fromUtf8(e.what());
        }
        if (result.stored)
            emit progressMade();
        emit runImported(tag, {{"stored", result.stored},
                               {"summary", result.summary},
                               {"problems", result.problems},
                               {"judged", result.verdict.judged},
                               {"passed", result.verdict.passed},
                               {"gate", result.verdict.gate},
                               {"reasons", result.verdict.reasons}});
    });
    watcher->setFuture(QtConcurrent::run([path, labs = m_labs] { return prepareImport(path, labs); }));
}

QVariantMap LabRuns::predictions(const QString &gate) const
{
    return storeGuarded([&]() -> QVariantMap {
        QVariantMap latest;
        for (const auto &p : progress::RunLedger(m_store).predictions(gate.toStdString()))
            latest.insert(qs(p.subject), QVariantMap{{"seconds", p.value}, {"enteredAt", stamp(p.enteredAtMs)}});
        return latest;
    });
}

bool LabRuns::enterPrediction(const QString &gate, const QString &row, double seconds)
{
    if (!(seconds > 0) || row.isEmpty())
        return false;
    try {
        progress::RunLedger(m_store).addPrediction(gate.toStdString(), row.toStdString(), seconds, "s");
    } catch (const std::exception &e) {
        emit problem(QString::fromUtf8(e.what()));
        return false;
    }
    emit progressMade();
    return true;
}

QVariantMap LabRuns::measuredBench(const QString &chip) const
{
    return storeGuarded([&]() -> QVariantMap {
        QVariantMap rows;
        for (const auto &r : progress::RunLedger(m_store).runRecords()) {
            if (r.lab != "L05" || r.kind != "measured" || r.example || qs(r.chip) != chip)
                continue;
            const QJsonObject record = QJsonDocument::fromJson(QByteArray::fromStdString(r.recordJson)).object();
            for (const QJsonValue &row :
                 record.value(QStringLiteral("extra")).toObject().value(QStringLiteral("rows")).toArray()) {
                QList<double> samples;
                for (const QJsonValue &s : row.toObject().value(QStringLiteral("samples")).toArray())
                    samples << s.toDouble();
                if (samples.isEmpty())
                    continue;
                rows.insert(row.toObject().value(QStringLiteral("row")).toString(),
                            QVariantMap{{"medianS", median(samples)},
                                        {"date", qs(r.measuredAt)},
                                        {"record", static_cast<qlonglong>(r.id)},
                                        {"dtype", qs(r.dtype)},
                                        {"deviceKind", record.value(QStringLiteral("deviceKind")).toString()}});
            }
        }
        // An op of an imported profile is a bench row when XLA's own count of
        // its FLOPs and bytes is the row's, exactly: the same op on the same
        // shapes and dtypes. Its device time fills a row no L05 run has filled.
        std::vector<tpusim::BenchRow> bench;
        try {
            bench = tpusim::full_bench(tpusim::chip(chip.toStdString()));
        } catch (const tpusim::InputError &) {
            return rows;
        }
        const progress::ProfileLedger ledger(m_store);
        for (const progress::ProfileImportRow &header : ledger.profiles()) {
            if (qs(header.chip) != chip)
                continue;
            const auto profile = ledger.importedProfile(header.id);
            if (!profile)
                continue;
            for (const progress::ProfileOpRow &op : profile->ops) {
                if (!op.flops || !op.bytesAccessed || op.occurrences <= 0 || op.selfPs <= 0)
                    continue;
                for (const tpusim::BenchRow &row : bench) {
                    const QString id = qs(row.id);
                    if (rows.contains(id) || std::llround(row.cost.flops) != *op.flops ||
                        std::llround(row.cost.bytes) != *op.bytesAccessed)
                        continue;
                    const double meanS = static_cast<double>(op.selfPs) / 1e12 / static_cast<double>(op.occurrences);
                    const QString date =
                        header.capturedAt.empty()
                            ? QDateTime::fromMSecsSinceEpoch(header.importedAtMs, Qt::UTC).toString(Qt::ISODate)
                            : qs(header.capturedAt);
                    rows.insert(
                        id, QVariantMap{
                                {"medianS", meanS},
                                {"date", date.left(10)},
                                {"record", 0},
                                {"dtype", qs(row.cost.dtype_text)},
                                {"deviceKind", qs(header.deviceType)},
                                {"fromProfile", true},
                                {"details",
                                 QStringLiteral("device time of %1 in your profile %2 (%3), the mean self time of %4 "
                                                "occurrences; XLA counts its FLOPs and bytes as this row's")
                                     .arg(qs(op.op), qs(header.sourceFile), qs(header.device))
                                     .arg(op.occurrences)}});
                }
            }
        }
        return rows;
    });
}

QVariantMap LabRuns::measuredInstruction(const QString &program, const QString &instruction) const
{
    return storeGuarded([&]() -> QVariantMap { return m_profiledOps.find(program, instruction); });
}

bool LabRuns::profiledProgram(const QString &program) const
{
    return storeGuarded([&]() -> bool { return m_profiledOps.ran(program); });
}
