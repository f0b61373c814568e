#include "variants.h"

#include <QStringList>
#include <QVariantList>

namespace simqml {

QVariantMap provenance(const tpusim::Provenance &p)
{
    QVariantList assumptions;
    for (const auto &a : p.assumptions)
        assumptions << qs(a);
    const QString kind = p.kind == tpusim::Kind::measured            ? QStringLiteral("measured")
                         : p.kind == tpusim::Kind::verified_off_chip ? QStringLiteral("verified")
                                                                     : QStringLiteral("predicted");
    return {
        {"kind", kind},
        {"label", qs(std::string(tpusim::kind_name(p.kind)))},
        {"chip", qs(p.chip)},
        {"dtype", qs(p.dtype)},
        {"shapes", qs(p.shapes)},
        {"model", qs(p.model)},
        {"date", qs(p.date)},
        {"assumptions", assumptions},
        {"details", qs(tpusim::describe(p))},
    };
}

QVariantMap fact(const tpusim::Fact &f)
{
    return {
        {"value", f.value},           {"text", qs(tpusim::format_fact(f))},
        {"unit", qs(f.unit)},         {"source", qs(f.source)},
        {"note", qs(f.note)},         {"assumption", f.assumption},
        {"published", f.published()},
    };
}

QVariantMap roofline(const tpusim::Roofline &r)
{
    return {
        {"timeS", r.time_s},
        {"time", qs(tpusim::format_time(r.time_s))},
        {"computeS", r.compute_s},
        {"memoryS", r.memory_s},
        {"flops", r.flops},
        {"bytes", r.bytes},
        {"intensity", r.intensity},
        {"intensityText", qs(tpusim::format_intensity(r.intensity))},
        {"ridge", r.ridge},
        {"ridgeText", qs(tpusim::format_intensity(r.ridge))},
        {"bound", qs(std::string(tpusim::bound_name(r.bound)))},
        {"resource", qs(r.resource)},
        {"peakFlops", r.peak_flops},
        {"bandwidth", r.bandwidth},
        {"attainableS", r.attainable_s},
        {"attainableTime", qs(tpusim::format_time(r.attainable_s))},
        {"provenance", provenance(tpusim::with_working(r.provenance, tpusim::roofline_working(r)))},
    };
}

QString grouped(std::int64_t v)
{
    QString digits = QString::number(v < 0 ? -v : v);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return v < 0 ? QStringLiteral("−") + digits : digits;
}

QString percent(double fraction)
{
    const double p = fraction * 100.0;
    return QString::number(p, 'f', p < 1.0 ? 2 : 1) + QStringLiteral(" %");
}

QString tupleText(const std::vector<std::int64_t> &values)
{
    QStringList parts;
    for (std::int64_t x : values)
        parts << QString::number(x);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

} // namespace simqml
