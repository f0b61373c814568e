#pragma once

#include <QDateTime>
#include <QMap>
#include <QString>

// How the report writes shapes, times and dates, the same in every format.
// Numbers keep their unit with a no-break space, so no line ever splits one.
namespace reportformat {

struct CompactShape
{
    QString text; // "4096×4096×4096", per-device sizes after a space: "4096×4096×32768 1024×8192"
    QString axes; // what the numbers are, in the same order: "m×k×n m_per_device×n_per_device"
};

// Axes in the order people write them (batch, heads, seq, head_dim; m, k, n;
// rows, cols), then any other axis by name; per-device sizes as a group of their own.
CompactShape compactShape(const QMap<QString, qint64> &shapes);

QString duration(double seconds);             // "758.2 µs", "1.58 ms", "2.10 s"
QString day(const QDateTime &t);              // "29 Nov 2026", in UTC
QString minute(const QDateTime &t);           // "29 Nov 2026, 12:00 UTC"
QString ratio(double measured, double floor); // "1.09×"
QString flopRate(double flopsPerS);           // "180 TFLOP/s"

} // namespace reportformat
