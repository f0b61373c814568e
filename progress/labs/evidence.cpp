#include "evidence.h"
#include "gates.h"
#include "labcatalog.h"
#include "runrecord.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QHash>
#include <QMutex>

#include <algorithm>

namespace {

// The predictions the attempt was judged against: those entered by then.
std::vector<progress::Prediction> predictionsBefore(const progress::RunLedger &ledger,
                                                    const progress::GateAttempt &attempt)
{
    std::vector<progress::Prediction> before = ledger.predictions(attempt.gate);
    std::erase_if(before, [&](const progress::Prediction &p) { return p.enteredAtMs > attempt.judgedAtMs; });
    return before;
}

// Why a passed attempt does not stand, or "" when its evidence holds.
QString missingEvidence(const progress::GateAttempt &attempt, const std::vector<progress::RunRecordRow> &records,
                        const LabCatalog &labs, const progress::RunLedger &ledger)
{
    const progress::RunRecordRow *record = nullptr;
    for (const auto &r : records)
        if (r.id == attempt.runRecord)
            record = &r;
    if (!record)
        return QStringLiteral("the run record it names is not in the store");
    const QByteArray json = QByteArray::fromStdString(record->recordJson);
    if (QCryptographicHash::hash(json, QCryptographicHash::Sha256).toHex() !=
        QByteArray::fromStdString(record->recordSha256))
        return QStringLiteral("its run record was edited after it was imported");
    // Checked as of its import, so "in the future" means then, not now.
    const QDateTime imported = QDateTime::fromMSecsSinceEpoch(record->importedAtMs, Qt::UTC);
    const RecordCheck check = checkRunRecord(json, labs, imported, false);
    if (!check.record)
        return QStringLiteral("its run record no longer passes the checks: %1").arg(check.problems.value(0));
    if (check.record->example || !check.record->measured())
        return QStringLiteral("its run record is an example or not measured");
    if (gateForLab(check.record->lab) != QString::fromStdString(attempt.gate))
        return QStringLiteral("its run record is of lab %1, which gate %2 does not judge")
            .arg(check.record->lab, QString::fromStdString(attempt.gate));
    if (!judgedOnDeviceTime(attempt) && !judgeGate(*check.record, predictionsBefore(ledger, attempt)).passed)
        return QStringLiteral("judging its run record again does not pass");
    return {};
}

} // namespace

bool judgedOnDeviceTime(const progress::GateAttempt &attempt)
{
    return std::any_of(attempt.reasons.begin(), attempt.reasons.end(), [](const std::string &reason) {
        return QString::fromStdString(reason).startsWith(QStringLiteral("Judged on device time"));
    });
}

std::vector<progress::GateAttempt> attemptsWithEvidence(const std::vector<progress::GateAttempt> &attempts,
                                                        const std::vector<progress::RunRecordRow> &records,
                                                        const LabCatalog &labs, const progress::RunLedger &ledger)
{
    // Each verdict is worked out once per attempt and record text: the
    // counts are read on every redraw of the stack.
    static QMutex mutex;
    static QHash<QString, QString> known;
    std::vector<progress::GateAttempt> out = attempts;
    for (auto &a : out) {
        if (!a.passed)
            continue;
        QString key = QString::number(a.id) + QLatin1Char(':') + QString::number(a.runRecord);
        for (const auto &r : records)
            if (r.id == a.runRecord)
                key += QLatin1Char(':') + QString::fromStdString(r.recordSha256) +
                       QString::number(qHash(QByteArray::fromStdString(r.recordJson)));
        for (const auto &p : predictionsBefore(ledger, a))
            key += QStringLiteral(":%1=%2").arg(QString::fromStdString(p.subject)).arg(p.value, 0, 'g', 17);
        QString why;
        {
            QMutexLocker lock(&mutex);
            const auto it = known.constFind(key);
            if (it != known.constEnd()) {
                why = *it;
            } else {
                lock.unlock();
                why = missingEvidence(a, records, labs, ledger);
                lock.relock();
                known.insert(key, why);
            }
        }
        if (!why.isEmpty()) {
            a.passed = false;
            const QString reason = QStringLiteral("Not counted: %1.").arg(why);
            // First among the reasons: appended, then rotated to the front.
            a.reasons.push_back(reason.toStdString());
            std::rotate(a.reasons.rbegin(), a.reasons.rbegin() + 1, a.reasons.rend());
        }
    }
    return out;
}
