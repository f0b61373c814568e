#include "simbridge.h"
#include "variants.h"

#include <tpusim/bench.h>
#include <tpusim/error.h>

using simqml::qs;

QVariantList SimBridge::chips() const
{
    QVariantList out;
    for (const auto &c : tpusim::all_chips())
        out.append(QVariantMap{{"id", qs(c.id)}, {"name", qs(c.name)}});
    return out;
}

QVariantList SimBridge::chipSheet(const QString &chipId) const
{
    QVariantList out;
    try {
        const auto &c = tpusim::chip(chipId.toStdString());
        for (const auto &row : tpusim::fact_rows(c))
            out.append(
                QVariantMap{{"group", qs(row.group)}, {"label", qs(row.label)}, {"fact", simqml::fact(row.fact)}});
    } catch (const tpusim::InputError &e) {
        out.append(QVariantMap{{"error", QString::fromUtf8(e.what())}});
    }
    return out;
}

QVariantList SimBridge::bench(const QString &chipId, bool full) const
{
    QVariantList out;
    try {
        const auto &c = tpusim::chip(chipId.toStdString());
        for (const auto &row : full ? tpusim::full_bench(c) : tpusim::landing_bench(c)) {
            // An opened row also shows its two times, which no scrubbed
            // roofline needs written.
            QVariantMap roofline = simqml::roofline(row.result);
            roofline.insert("computeTime", qs(tpusim::format_time(row.result.compute_s)));
            roofline.insert("memoryTime", qs(tpusim::format_time(row.result.memory_s)));
            out.append(QVariantMap{{"id", qs(row.id)},
                                   {"group", qs(row.group)},
                                   {"label", qs(row.label)},
                                   {"shapes", qs(row.cost.shapes)},
                                   {"dtype", qs(row.cost.dtype_text)},
                                   {"roofline", roofline}});
        }
    } catch (const tpusim::InputError &e) {
        out.append(QVariantMap{{"error", QString::fromUtf8(e.what())}});
    }
    return out;
}
