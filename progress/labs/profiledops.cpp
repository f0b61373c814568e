#include "profiledops.h"

#include <progress/profiles.h>
#include <progress/store.h>
#include <tpusim/provenance.h>

#include <QDateTime>

#include <algorithm>

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString key(const QString &program, const QString &instruction)
{
    return program + QLatin1Char('\n') + instruction;
}

QVariantMap entryOf(const progress::ProfileImportRow &header, const progress::ProfileOpRow &op)
{
    const double meanS = static_cast<double>(op.selfPs) / 1e12 / static_cast<double>(op.occurrences);
    const QString date =
        header.capturedAt.empty()
            ? QDateTime::fromMSecsSinceEpoch(header.importedAtMs, Qt::UTC).toString(Qt::ISODate).left(10)
            : qs(header.capturedAt).left(10);
    const QString chipName = header.chip.empty() ? qs(header.deviceType) : qs(header.chip);
    return {
        {"meanS", meanS},
        {"time", qs(tpusim::format_time(meanS))},
        {"occurrences", static_cast<qlonglong>(op.occurrences)},
        {"device", qs(header.device)},
        {"deviceType", qs(header.deviceType)},
        {"chip", qs(header.chip)},
        {"file", qs(header.sourceFile)},
        {"date", date},
        {"details",
         QStringLiteral("measured · %1 · %2\n%3 of %4, self time, the mean of %5 runs\n%6 in your profile %7\ntaken %8")
             .arg(chipName, qs(op.kind), qs(op.op), qs(op.program))
             .arg(op.occurrences)
             .arg(qs(header.device), qs(header.sourceFile), date)}};
}

} // namespace

void ProfiledOps::refresh()
{
    const progress::ProfileLedger ledger(m_store);
    std::vector<progress::ProfileImportRow> headers = ledger.profiles();
    std::vector<std::int64_t> ids;
    for (const auto &h : headers)
        ids.push_back(h.id);
    std::sort(ids.begin(), ids.end());
    if (m_built && ids == m_imports)
        return;
    m_byOp.clear();
    m_programs.clear();
    // Oldest first, so that a newer import of the same op replaces it.
    std::sort(headers.begin(), headers.end(), [](const auto &a, const auto &b) {
        return a.importedAtMs < b.importedAtMs || (a.importedAtMs == b.importedAtMs && a.id < b.id);
    });
    for (const progress::ProfileImportRow &header : headers) {
        const auto profile = ledger.importedProfile(header.id);
        if (!profile)
            continue;
        for (const progress::ProfileOpRow &op : profile->ops) {
            m_programs.insert(qs(op.program));
            if (op.occurrences > 0)
                m_byOp.insert(key(qs(op.program), qs(op.op)), entryOf(header, op));
        }
    }
    m_imports = std::move(ids);
    m_built = true;
}

QVariantMap ProfiledOps::find(const QString &program, const QString &instruction)
{
    if (program.isEmpty() || instruction.isEmpty())
        return {};
    refresh();
    return m_byOp.value(key(program, instruction));
}

bool ProfiledOps::ran(const QString &program)
{
    if (program.isEmpty())
        return false;
    refresh();
    return m_programs.contains(program);
}
