// libFuzzer target for the run-record checks (progress/labs/runrecord.h): any
// bytes a learner imports are either refused, each problem a sentence, or
// read into a record whose stored form, checked again, is the same record.
// A crash, a sanitizer report, an empty refusal or a stored form that reads
// differently is a bug.
#include "labcatalog.h"
#include "runrecord.h"

#include <QDateTime>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const LabCatalog labs = LabCatalog::fromFolder(QStringLiteral(LABS_DIR));
    if (!labs.problem().isEmpty()) std::abort();
    // A fixed "now" after the shipped examples, so a run is judged the same on every day.
    static const QDateTime now = QDateTime(QDate(2030, 1, 1), QTime(0, 0), Qt::UTC);
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    // The script's hash is left out, or nearly every mutation would stop there.
    const RecordCheck check = checkRunRecord(bytes, labs, now, false);
    if (!check.record) {
        if (check.problems.isEmpty()) std::abort();
        for (const QString& problem : check.problems)
            if (problem.trimmed().isEmpty()) std::abort();
        return 0;
    }
    if (!check.problems.isEmpty()) std::abort();
    const RecordCheck again = checkRunRecord(check.record->canonicalJson, labs, now, false);
    if (!again.record || again.record->sha256 != check.record->sha256 || again.record->example != check.record->example)
        std::abort();
    return 0;
}
