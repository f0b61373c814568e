#pragma once

#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <vector>

#include <tpusim/chips.h>
#include <tpusim/provenance.h>
#include <tpusim/roofline.h>

// libtpusim's value types as QVariant maps with the same names everywhere,
// so every QML page reads provenance the same way.
namespace simqml {

inline QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Numbers as a QVariantList, for QML arrays.
template <typename Number>
QVariantList list(const std::vector<Number> &values)
{
    QVariantList out;
    out.reserve(static_cast<qsizetype>(values.size()));
    for (Number v : values)
        out.append(v);
    return out;
}

// 262144 -> "262,144" (negatives with a minus sign).
QString grouped(std::int64_t v);
// 0.1234 -> "12.3 %"; under 1 % two decimals: "0.47 %".
QString percent(double fraction);

// A shape or an index as Python prints a tuple: "(256, 512)".
QString tupleText(const std::vector<std::int64_t> &values);

// {kind: predicted|verified|measured, label, chip, dtype, shapes, model, date,
//  assumptions: [..], details: one paragraph for a tooltip}
QVariantMap provenance(const tpusim::Provenance &p);

// {value (SI), text, unit, source, note, assumption, published}
QVariantMap fact(const tpusim::Fact &f);

// {timeS, time, computeS, memoryS, flops, bytes, intensity, ridge, bound,
//  resource, peakFlops, bandwidth, provenance}
QVariantMap roofline(const tpusim::Roofline &r);

} // namespace simqml
