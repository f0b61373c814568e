#include "importer.h"
#include "devicetiming.h"
#include "labcatalog.h"
#include "runrecord.h"

#include <progress/runs.h>
#include <progress/store.h>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <filesystem>
#include <optional>
#include <system_error>

namespace {

// No lab writes a record near this size; a larger file is not one of ours.
constexpr qint64 kMaxRecordBytes = 32 * 1024 * 1024;

std::vector<std::string> toStd(const QStringList &list)
{
    std::vector<std::string> out;
    for (const QString &s : list)
        out.push_back(s.toStdString());
    return out;
}

} // namespace

PreparedImport prepareImport(const QString &path, const LabCatalog &labs)
{
    PreparedImport out;
    std::error_code error;
    const auto status = std::filesystem::status(path.toStdString(), error);
    if (status.type() == std::filesystem::file_type::not_found) {
        out.problems << QStringLiteral("%1 does not exist.").arg(path);
        return out;
    }
    // A device (/dev/zero) never ends and a FIFO blocks the reader until a
    // writer comes: neither is a record a lab wrote.
    if (error || status.type() != std::filesystem::file_type::regular) {
        out.problems << QStringLiteral("%1 is not a regular file, so it is not a run record a lab wrote.").arg(path);
        return out;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.problems << QStringLiteral("%1 cannot be read (%2).").arg(path, file.errorString());
        return out;
    }
    // Read no more than the cap, whatever size the file claims.
    const QByteArray bytes = file.read(kMaxRecordBytes + 1);
    if (bytes.size() > kMaxRecordBytes) {
        out.problems
            << QStringLiteral("%1 is too large to be a run record (over %2 MiB).").arg(path).arg(kMaxRecordBytes >> 20);
        return out;
    }
    if (!labs.problem().isEmpty()) {
        out.problems << QStringLiteral("Records cannot be checked: %1").arg(labs.problem());
        return out;
    }
    RecordCheck check = checkRunRecord(bytes, labs, QDateTime::currentDateTimeUtc());
    if (!check.record) {
        out.problems = check.problems;
        return out;
    }
    out.absolutePath = QFileInfo(path).absoluteFilePath();
    out.device = deviceTimingFor(*check.record, out.absolutePath);
    out.record = std::move(check.record);
    return out;
}

ImportOutcome importRunRecord(const QString &path, progress::Store &store, const LabCatalog &labs)
{
    return storePreparedImport(prepareImport(path, labs), store);
}

ImportOutcome storePreparedImport(const PreparedImport &prepared, progress::Store &store)
{
    ImportOutcome out;
    if (!prepared.record) {
        out.problems = prepared.problems;
        return out;
    }
    const RunRecord &r = *prepared.record;
    out.lab = r.lab;

    progress::RunLedger ledger(store);
    progress::RunRecordRow row;
    row.recordSha256 = r.sha256.toStdString();
    row.lab = r.lab.toStdString();
    row.kind = r.kind.toStdString();
    row.chip = r.chip.toStdString();
    row.dtype = r.dtype.toStdString();
    QJsonObject shapes;
    for (auto it = r.shapes.begin(); it != r.shapes.end(); ++it)
        shapes.insert(it.key(), static_cast<double>(it.value()));
    row.shapesJson = QJsonDocument(shapes).toJson(QJsonDocument::Compact).toStdString();
    row.measuredAt = r.date.toString(Qt::ISODateWithMs).toStdString();
    if (!r.samples.isEmpty())
        row.medianS = median(r.samples);
    if (!r.baselineSamples.isEmpty())
        row.baselineMedianS = median(r.baselineSamples);
    row.correct = r.correct;
    row.example = r.example;
    row.sourceFile = prepared.absolutePath.toStdString();
    row.recordJson = r.canonicalJson.toStdString();

    // Judge first, then keep the record and its attempt in one transaction.
    // A record that names the profile its lab wrote is judged on the
    // device's own time, when that profile is at hand; the verdict says
    // which timing it used.
    const QString gate = gateForLab(r.lab);
    const DeviceTiming &device = prepared.device;
    RunRecord judged = r;
    if (device.used) {
        judged.samples = device.samples;
        judged.baselineSamples = device.baselineSamples;
        if (!device.rowSamples.isEmpty()) {
            QJsonArray rows = judged.extra.value(QStringLiteral("rows")).toArray();
            for (qsizetype i = 0; i < rows.size(); ++i) {
                QJsonObject bench = rows[i].toObject();
                QJsonArray samples;
                for (double s : device.rowSamples.value(bench.value(QStringLiteral("row")).toString()))
                    samples.append(s);
                bench.insert(QStringLiteral("samples"), samples);
                rows[i] = bench;
            }
            judged.extra.insert(QStringLiteral("rows"), rows);
        }
        if (!device.computeOnlySamples.isEmpty()) {
            QJsonArray compute;
            for (double s : device.computeOnlySamples)
                compute.append(s);
            judged.extra.insert(QStringLiteral("computeOnlySamples"), compute);
        }
    }
    GateVerdict verdict = judgeGate(
        judged, gate.isEmpty() ? std::vector<progress::Prediction>{} : ledger.predictions(gate.toStdString()));
    if (verdict.judged && !device.note.isEmpty())
        verdict.reasons.prepend(device.note);
    std::optional<progress::NewAttempt> attempt;
    if (verdict.judged)
        attempt = progress::NewAttempt{gate.toStdString(), verdict.passed, toStd(verdict.reasons)};
    const progress::AddedRecord added = ledger.addRunRecord(row, attempt);
    out.stored = true;
    out.alreadyPresent = added.alreadyPresent;
    const QString what = QStringLiteral("%1 %2 run of %3 on %4")
                             .arg(r.example ? QStringLiteral("example") : QString(), r.kind, r.lab, r.chip)
                             .simplified();
    if (added.alreadyPresent) {
        out.summary =
            QStringLiteral("Already imported: this %1 is record %2; nothing changed.").arg(what).arg(added.id);
        return out;
    }
    out.summary = QStringLiteral("Imported the %1 as record %2.").arg(what).arg(added.id);
    out.verdict = verdict;
    if (verdict.judged) {
        out.summary += QStringLiteral(" Gate %1: %2.")
                           .arg(gate, verdict.passed ? QStringLiteral("passed")
                                                     : QStringLiteral("not passed; the attempt is kept"));
    } else if (!gate.isEmpty()) {
        out.summary += r.example ? QStringLiteral(" Example records never count toward gate %1.").arg(gate)
                                 : QStringLiteral(" Only a measured run can attempt gate %1.").arg(gate);
    }
    return out;
}
