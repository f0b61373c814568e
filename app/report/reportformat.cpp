#include "reportformat.h"

#include <QLocale>

#include <QStringList>

#include <algorithm>

namespace reportformat {

namespace {

const QChar kTimes(0x00D7);
const QChar kNoBreakSpace(0x00A0);

int axisRank(const QString &axis)
{
    static const QStringList order{"batch", "heads", "seq", "head_dim", "m",    "k",    "n",
                                   "t",     "d",     "f",   "h",        "rows", "cols", "devices"};
    const qsizetype i = order.indexOf(axis);
    return i < 0 ? int(order.size()) : int(i);
}

QString withUnit(double value, int decimals, const char *unit)
{
    return QString::number(value, 'f', decimals) + kNoBreakSpace + QString::fromUtf8(unit);
}

} // namespace

CompactShape compactShape(const QMap<QString, qint64> &shapes)
{
    QStringList whole, perDevice;
    for (auto it = shapes.keyBegin(); it != shapes.keyEnd(); ++it)
        (it->contains(QLatin1String("per_device")) ? perDevice : whole) << *it;
    auto byRank = [](const QString &a, const QString &b) {
        return axisRank(a) != axisRank(b) ? axisRank(a) < axisRank(b) : a < b;
    };
    std::sort(whole.begin(), whole.end(), byRank);
    std::sort(perDevice.begin(), perDevice.end(), byRank);
    CompactShape out;
    for (const QStringList &group : {whole, perDevice}) {
        if (group.isEmpty())
            continue;
        QStringList values;
        for (const QString &axis : group)
            values << QString::number(shapes.value(axis));
        const QString sep = out.text.isEmpty() ? QString() : QStringLiteral(" ");
        out.text += sep + values.join(kTimes);
        out.axes += sep + QStringList(group).join(kTimes);
    }
    return out;
}

QString duration(double seconds)
{
    if (seconds <= 0)
        return QStringLiteral("—");
    if (seconds < 1e-3)
        return withUnit(seconds * 1e6, 1, "µs");
    if (seconds < 1)
        return withUnit(seconds * 1e3, 2, "ms");
    return withUnit(seconds, 2, "s");
}

// As a person writes a date ("4 Dec 2026"), in English whatever the
// locale, as the rest of the report is; the JSON keeps ISO 8601.
QString day(const QDateTime &t)
{
    static const QLocale english(QLocale::English, QLocale::UnitedKingdom);
    return t.isValid() ? english.toString(t.toUTC().date(), QStringLiteral("d MMM yyyy"))
                             .replace(QLatin1Char(' '), kNoBreakSpace)
                       : QStringLiteral("—");
}

QString minute(const QDateTime &t)
{
    return t.isValid() ? day(t) + QStringLiteral(", ") + t.toUTC().toString(QStringLiteral("HH:mm")) + kNoBreakSpace +
                             QStringLiteral("UTC")
                       : QStringLiteral("—");
}

QString ratio(double measured, double floor)
{
    return floor > 0 && measured > 0 ? QString::number(measured / floor, 'f', 2) + kTimes : QStringLiteral("—");
}

QString flopRate(double flopsPerS)
{
    if (flopsPerS >= 1e12)
        return withUnit(flopsPerS / 1e12, flopsPerS >= 1e14 ? 0 : 1, "TFLOP/s");
    return withUnit(flopsPerS / 1e9, 1, "GFLOP/s");
}

} // namespace reportformat
