#include "devicetiming.h"

#include <tpuprofile/read.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace {

QList<double> runsOf(const tpuprofile::Device &d, const QString &module)
{
    QList<double> out;
    for (const tpuprofile::Span &s : d.modules)
        if (QString::fromStdString(s.name) == module && s.duration_ps > 0)
            out << static_cast<double>(s.duration_ps) * 1e-12;
    return out;
}

} // namespace

DeviceTiming deviceTimingFor(const RunRecord &record, const QString &recordPath)
{
    DeviceTiming t;
    const QJsonObject profile = record.extra.value(QStringLiteral("profile")).toObject();
    if (profile.isEmpty() || !record.measured())
        return t;
    const QString dir = profile.value(QStringLiteral("dir")).toString();
    const QString timed = profile.value(QStringLiteral("timedModule")).toString();
    const QString baseline = profile.value(QStringLiteral("baselineModule")).toString();
    const QString hostTiming = QStringLiteral(" Judged on the host's timing, dispatch included.");
    if (dir.isEmpty() || timed.isEmpty()) {
        t.note = QStringLiteral("The record's profile entry names no folder or no program.") + hostTiming;
        return t;
    }
    // The folder as written (on the TPU VM), else the one of that name beside the record.
    QString found = QFileInfo(dir).isDir() ? dir : QString();
    if (found.isEmpty()) {
        const QString beside = QFileInfo(recordPath).absoluteDir().filePath(QFileInfo(dir).fileName());
        if (QFileInfo(beside).isDir())
            found = beside;
    }
    if (found.isEmpty()) {
        t.note = QStringLiteral(
                     "The record names a profile in %1, which is not here nor beside the record; copy the folder "
                     "next to the record to judge it on device time.")
                     .arg(dir) +
                 hostTiming;
        return t;
    }
    tpuprofile::Profile p;
    try {
        p = tpuprofile::read_profile(found.toStdString());
    } catch (const tpuprofile::ProfileError &e) {
        t.note =
            QStringLiteral("The record's profile cannot be read: %1").arg(QString::fromUtf8(e.what())) + hostTiming;
        return t;
    }
    for (const tpuprofile::Device &d : p.devices) {
        if (d.kind != tpuprofile::DeviceKind::tensor_core)
            continue;
        const QList<double> runs = runsOf(d, timed);
        if (runs.isEmpty())
            continue;
        if (QString::fromStdString(d.chip) != record.chip) {
            t.note = QStringLiteral("The record's profile was taken on a %1, not the record's %2.")
                         .arg(QString::fromStdString(d.device_type), record.chip) +
                     hostTiming;
            return t;
        }
        const QList<double> base = baseline.isEmpty() ? QList<double>{} : runsOf(d, baseline);
        if (!record.baselineSamples.isEmpty() && base.isEmpty()) {
            t.note = QStringLiteral(
                         "The profile has runs of %1 but none of its baseline %2, and a ratio of device time "
                         "to host time would mean nothing.")
                         .arg(timed, baseline) +
                     hostTiming;
            return t;
        }
        // L11 sets its kernel against a compute-only one as well: device
        // time for both, or host time for both.
        if (record.extra.contains(QStringLiteral("computeOnlySamples"))) {
            const QString compute =
                profile.value(QStringLiteral("modules")).toObject().value(QStringLiteral("compute only")).toString();
            t.computeOnlySamples = compute.isEmpty() ? QList<double>{} : runsOf(d, compute);
            if (t.computeOnlySamples.isEmpty()) {
                t.note =
                    QStringLiteral("The profile has no run of the compute-only program to set %1 against.").arg(timed) +
                    hostTiming;
                return t;
            }
        }
        // L05 times three bench rows, each its own program: device time for
        // every row, or host time for all of them.
        const QJsonArray rows = record.extra.value(QStringLiteral("rows")).toArray();
        if (!rows.isEmpty()) {
            const QJsonObject modules = profile.value(QStringLiteral("modules")).toObject();
            QStringList programs;
            for (const QJsonValue &row : rows) {
                const QString name = row.toObject().value(QStringLiteral("row")).toString();
                const QString module = modules.value(name).toString();
                const QList<double> rowRuns = module.isEmpty() ? QList<double>{} : runsOf(d, module);
                if (rowRuns.isEmpty()) {
                    t.rowSamples.clear();
                    t.note = QStringLiteral(
                                 "The profile has no runs of row %1's program%2, so the rows are judged alike on "
                                 "the host.")
                                 .arg(name, module.isEmpty() ? QStringLiteral(" (the record names none)")
                                                             : QStringLiteral(" %1").arg(module)) +
                             hostTiming;
                    return t;
                }
                if (programs.contains(module)) {
                    t.rowSamples.clear();
                    t.note = QStringLiteral(
                                 "Two rows name the same program, %1, so the profile cannot tell their runs apart.")
                                 .arg(module) +
                             hostTiming;
                    return t;
                }
                programs << module;
                t.rowSamples.insert(name, rowRuns);
            }
        }
        t.used = true;
        t.samples = runs;
        t.baselineSamples = base;
        if (!t.rowSamples.isEmpty()) {
            QStringList each;
            for (auto it = t.rowSamples.cbegin(); it != t.rowSamples.cend(); ++it)
                each << QStringLiteral("%1 %2 runs").arg(it.key()).arg(it.value().size());
            t.note = QStringLiteral(
                         "Judged on device time from the profile in %1, each row on its own program's runs (%2) "
                         "on %3 (%4), each run the program's span on the XLA Modules line.")
                         .arg(QDir::toNativeSeparators(found), each.join(QStringLiteral(", ")),
                              QString::fromStdString(d.plane), QString::fromStdString(d.device_type));
            return t;
        }
        t.note =
            QStringLiteral(
                "Judged on device time from the profile in %1: %2 runs of %3%4 on %5 (%6), each the "
                "program's span on the XLA Modules line.")
                .arg(QDir::toNativeSeparators(found))
                .arg(runs.size())
                .arg(timed, base.isEmpty() ? QString() : QStringLiteral(" and %1 of %2").arg(base.size()).arg(baseline),
                     QString::fromStdString(d.plane), QString::fromStdString(d.device_type));
        return t;
    }
    t.note = QStringLiteral("The profile in %1 has no run of %2 on a TPU.").arg(found, timed) + hostTiming;
    return t;
}
