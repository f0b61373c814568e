// The profile session's side in the progress store: an opened profile kept
// as measured runs, one per device, and the profiles kept before, each with
// its ops' measured time beside the prediction made when it was read.
#include "profilesession.h"
#include "profilesession_detail.h"

#include <progress/profiles.h>
#include <progress/store.h>
#include <tpusim/provenance.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace profiledetail;

namespace {

std::string lastPathKey(const QString &sha256)
{
    return "profile.lastPath." + sha256.toStdString();
}

std::string lastOpenedKey(const QString &sha256)
{
    return "profile.lastOpenedMs." + sha256.toStdString();
}

// Who a pricing names: this build, by its version.
std::string thisBuild()
{
    const QString version = QCoreApplication::applicationVersion();
    return (QStringLiteral("tpu-course") + (version.isEmpty() ? QString() : QLatin1Char(' ') + version)).toStdString();
}

// A day as a person writes it, in the learner's own time.
QString dayOf(std::int64_t ms)
{
    static const QLocale english(QLocale::English, QLocale::UnitedKingdom);
    return english.toString(QDateTime::fromMSecsSinceEpoch(ms).date(), QStringLiteral("d MMM yyyy"));
}

// When the predictions beside an import's ops were made, and by which build.
QString pricedWhen(const progress::ProfileImportRow &row)
{
    const QString by = row.pricedBy.empty() ? QString() : QStringLiteral(" by ") + qs(row.pricedBy);
    if (row.pricings <= 1)
        return QStringLiteral("predicted when imported, %1%2").arg(dayOf(row.pricedAtMs), by);
    return QStringLiteral("predicted again %1%2, priced %3 times").arg(dayOf(row.pricedAtMs), by).arg(row.pricings);
}

} // namespace

void ProfileSession::storeImport()
{
    m_stored.clear();
    if (!g_store || !m_profile) {
        emit storedChanged();
        return;
    }
    if (m_sha256.isEmpty()) {
        m_stored = QStringLiteral("Not kept in your progress: the file could not be read again to fingerprint it.");
        emit storedChanged();
        return;
    }
    int added = 0, present = 0, repriced = 0;
    try {
        progress::ProfileLedger ledger(*g_store);
        for (std::size_t i = 0; i < m_profile->devices.size(); ++i) {
            const tpuprofile::Device &d = m_profile->devices[i];
            if (d.ops.empty())
                continue;
            const tpuprofile::OpTable &t = m_tables[i];
            progress::ProfileImportRow row;
            row.fileSha256 = m_sha256.toStdString();
            row.device = d.plane;
            row.deviceType = d.device_type;
            row.chip = d.chip;
            row.format = m_profile->format;
            row.sourceFile = m_path.toStdString();
            row.capturedAt = capturedAt(*m_profile).toStdString();
            row.opEvents = t.summary.op_events;
            row.busyPs = t.summary.busy_ps;
            row.spanPs = t.summary.span_ps;
            row.pricedBy = thisBuild();
            for (const tpuprofile::OpRow &r : t.rows) {
                const tpuprofile::Op &op = d.ops[static_cast<std::size_t>(r.op)];
                progress::ProfileOpRow o;
                o.program = programName(*m_profile, t, op).toStdString();
                o.programId = op.has_program_id ? std::to_string(op.program_id) : std::string();
                o.op = tpuprofile::display_name(op);
                o.kind = r.kind;
                o.occurrences = op.occurrences;
                o.selfPs = op.self_ps;
                o.totalPs = std::max(op.total_ps, op.self_ps);
                if (op.flops >= 0)
                    o.flops = op.flops;
                if (op.bytes_accessed >= 0)
                    o.bytesAccessed = op.bytes_accessed;
                if (r.predicted.available)
                    o.predictedS = r.predicted.time_s;
                o.model = r.predicted.available ? r.predicted.model : r.predicted.reason;
                row.ops.push_back(std::move(o));
            }
            const progress::AddedProfile kept = ledger.addProfile(row);
            (kept.alreadyPresent ? present : added) += 1;
            repriced += kept.repriced ? 1 : 0;
        }
        // Its imports keep the path it was first read from; where it was
        // read from last, and when, is what opening it again needs.
        if (added + present > 0 && !g_store->writesRefused()) {
            g_store->setSetting(lastPathKey(m_sha256), m_path.toStdString());
            g_store->setSetting(lastOpenedKey(m_sha256), std::to_string(g_store->nowMs()));
        }
    } catch (const std::exception &e) {
        m_stored = QStringLiteral("Not kept in your progress: ") + QString::fromUtf8(e.what());
        emit storedChanged();
        return;
    }
    if (added > 0)
        m_stored = QStringLiteral("Kept in your progress as measured runs: %1 device%2, fingerprint %3…")
                       .arg(added)
                       .arg(added == 1 ? "" : "s")
                       .arg(m_sha256.left(12));
    else if (repriced > 0)
        m_stored = QStringLiteral(
                       "Already in your progress: this file (%1…) was imported before. This build predicts "
                       "its ops differently: its predictions are kept beside the earlier ones and shown "
                       "from now on.")
                       .arg(m_sha256.left(12));
    else if (present > 0)
        m_stored =
            QStringLiteral("Already in your progress: this file (%1…) was imported before.").arg(m_sha256.left(12));
    emit storedChanged();
}

QVariantList ProfileSession::storedProfiles() const
{
    QVariantList out;
    if (!g_store)
        return out;
    try {
        const progress::ProfileLedger ledger(*g_store);
        const auto all = ledger.profiles();
        QSet<QString> files; // fingerprints listed so far: a file's newest device offers to open it again
        for (auto it = all.rbegin(); it != all.rend(); ++it) {
            const auto whole = ledger.importedProfile(it->id);
            if (!whole)
                continue;
            QVariantList ops;
            std::vector<double> errors;
            for (const auto &o : whole->ops) {
                const double perCall =
                    o.occurrences > 0 ? static_cast<double>(o.selfPs) * 1e-12 / static_cast<double>(o.occurrences) : 0;
                QVariant error;
                if (o.predictedS && std::max(*o.predictedS, perCall) >= 1e-6 && perCall > 0) {
                    const double e = (*o.predictedS - perCall) / perCall;
                    error = e;
                    errors.push_back(std::fabs(e));
                }
                if (!o.predictedS)
                    continue; // the rows the simulator made a prediction for
                ops.append(QVariantMap{
                    {"op", qs(o.op)},
                    {"kind", qs(o.kind)},
                    {"measured", qs(tpusim::format_time(perCall))},
                    {"predicted", qs(tpusim::format_time(*o.predictedS))},
                    {"error", error},
                    {"errorText", qs(tpusim::format_error(error.isValid() ? error.toDouble() : std::nan("")))},
                    {"model", qs(o.model)}});
            }
            QString summary = QStringLiteral("%1 of %2 ops predicted").arg(ops.size()).arg(whole->ops.size());
            if (!errors.empty()) {
                std::sort(errors.begin(), errors.end());
                const double median = errors.size() % 2
                                          ? errors[errors.size() / 2]
                                          : (errors[errors.size() / 2 - 1] + errors[errors.size() / 2]) / 2;
                summary +=
                    QStringLiteral(" · median |error| %1 %, worst %2 %")
                        .arg(QString::number(100 * median, 'f', 1), QString::number(100 * errors.back(), 'f', 1));
            }
            const QString sha = qs(it->fileSha256);
            const bool firstOfFile = !files.contains(sha);
            files.insert(sha);
            const std::string last = g_store->setting(lastPathKey(sha));
            const QString path = qs(last.empty() ? it->sourceFile : last);
            const QString captured = it->capturedAt.empty() ? QStringLiteral("date not in the profile")
                                                            : QStringLiteral("taken ") + qs(it->capturedAt);
            out.append(QVariantMap{
                {"title", qs(it->device) + QStringLiteral(" · ") + qs(it->deviceType) +
                              (it->chip.empty() ? QString() : QStringLiteral(" (") + qs(it->chip) + QLatin1Char(')'))},
                {"details",
                 QStringLiteral("measured · %1 · %2 · sha256 %3…")
                     .arg(captured, QFileInfo(qs(it->sourceFile)).fileName(), qs(it->fileSha256.substr(0, 12)))},
                {"summary", summary},
                {"priced", pricedWhen(*whole)},
                {"path", path},
                {"exists", QFileInfo::exists(path)},
                {"firstOfFile", firstOfFile},
                {"ops", ops}});
        }
    } catch (const std::exception &) {
        return {}; // a store that cannot be read shows no rows; the shell reports store problems
    }
    return out;
}

QVariantList ProfileSession::openedBefore(int most) const
{
    if (!g_store || most <= 0)
        return {};
    struct File
    {
        QString path;
        QString chip;
        std::int64_t openedMs = 0;
        int devices = 0;
        int latest = 0; // its newest import's place among the imports: breaks a tie of the same millisecond
    };
    QStringList order; // each file's fingerprint
    QList<File> files;
    try {
        const progress::ProfileLedger ledger(*g_store);
        int imports = 0;
        for (const progress::ProfileImportRow &row : ledger.profiles()) {
            const QString sha = qs(row.fileSha256);
            qsizetype at = order.indexOf(sha);
            if (at < 0) {
                at = order.size();
                order << sha;
                const std::string last = g_store->setting(lastPathKey(sha));
                const std::string when = g_store->setting(lastOpenedKey(sha));
                files << File{qs(last.empty() ? row.sourceFile : last),
                              qs(row.chip.empty() ? row.deviceType : row.chip),
                              std::max<std::int64_t>(row.importedAtMs, std::strtoll(when.c_str(), nullptr, 10)), 0};
            }
            files[at].devices += 1;
            files[at].openedMs = std::max(files[at].openedMs, row.importedAtMs);
            files[at].latest = imports++;
        }
    } catch (const std::exception &) {
        return {}; // a store that cannot be read lists nothing; the shell reports store problems
    }
    // Newest first; imports within one millisecond in the order they were made.
    std::sort(files.begin(), files.end(), [](const File &a, const File &b) {
        return a.openedMs != b.openedMs ? a.openedMs > b.openedMs : a.latest > b.latest;
    });
    // As a person writes it, in the learner's own time.
    static const QLocale english(QLocale::English, QLocale::UnitedKingdom);
    QVariantList out;
    for (const File &f : files.mid(0, most))
        out << QVariantMap{
            {"path", f.path},
            {"name", QFileInfo(f.path).fileName()},
            {"chip", f.chip},
            {"when", english.toString(QDateTime::fromMSecsSinceEpoch(f.openedMs), QStringLiteral("d MMM yyyy, HH:mm"))},
            {"devices", f.devices},
            {"exists", QFileInfo::exists(f.path)}};
    return out;
}
