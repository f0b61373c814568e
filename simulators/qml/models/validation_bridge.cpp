// The validation table for QML: every published timing of a real TPU run
// against the model's prediction for it, and each model's errors. Thin:
// libtpusim computes; this only formats and labels.
#include "simbridge.h"
#include "variants.h"

#include <tpusim/validation.h>

#include <algorithm>
#include <cmath>
#include <map>

using simqml::grouped;
using simqml::qs;

namespace {

QString percent(double magnitude)
{
    return qs(tpusim::format_fixed(100 * magnitude, 1)) + QStringLiteral(" %");
}

QString shapeText(const tpusim::PublishedRow &r)
{
    // The matmul's dims as M×K×N; the rest key=value, as the table has them.
    if (r.has("m") && r.has("k") && r.has("n"))
        return QStringLiteral("%1×%2×%3").arg(qs(r.text("m")), qs(r.text("k")), qs(r.text("n")));
    QStringList parts;
    for (const auto &[key, value] : r.shape)
        if (key != "impl")
            parts << qs(key) + QLatin1Char('=') + qs(value);
    return parts.join(QLatin1Char(' '));
}

QString blocksText(const tpusim::PublishedRow &r)
{
    if (r.has("bm"))
        return QStringLiteral("in %1×%2×%3").arg(qs(r.text("bm")), qs(r.text("bk")), qs(r.text("bn")));
    const std::string impl = r.text("impl");
    return impl.empty() ? QString() : qs(impl);
}

// A published figure is a measurement on a real chip, but not the
// learner's: it says so, and where it was printed, in the provenance form
// the badges' cards read ("kind · chip · dtype", then one fact a line).
QString publishedDetails(const tpusim::PublishedRow &r)
{
    QString shape;
    for (const auto &[key, value] : r.shape)
        shape += (shape.isEmpty() ? QString() : QStringLiteral(" ")) + qs(key) + QLatin1Char('=') + qs(value);
    const QString timed =
        r.timing == tpusim::Timing::device ? QStringLiteral("on the device") : QStringLiteral("from Python");
    QString text =
        QStringLiteral(
            "published · %1 · %2\n%3\nmeasured on a real chip by others, not by you\nsource: %4\ntimed %5: %6")
            .arg(qs(r.chip), qs(r.dtype), shape, qs(r.source), timed, qs(r.timing_how));
    if (!r.quote.empty())
        text += QStringLiteral("\nprinted as: ") + qs(r.quote);
    if (!r.doubt.empty())
        text += QStringLiteral("\nin doubt, so no fit uses it: ") + qs(r.doubt);
    return text;
}

QVariantMap rowMap(const tpusim::ValidationRow &v)
{
    const tpusim::PublishedRow &r = *v.row;
    return {
        {"id", qs(r.id)},
        {"family", qs(std::string(tpusim::family_key(r.family)))},
        {"what", qs(r.what)},
        {"chip", qs(r.chip)},
        {"dtype", qs(r.dtype)},
        {"shape", shapeText(r)},
        {"blocks", blocksText(r)},
        {"gridSteps", static_cast<qint64>(v.grid_steps)},
        {"gridStepsText", v.grid_steps > 0 ? grouped(v.grid_steps) : QStringLiteral("—")},
        {"timedOnDevice", r.timing == tpusim::Timing::device},
        {"publishedS", r.published_s},
        {"published", qs(tpusim::format_time(r.published_s))},
        {"publishedDetails", publishedDetails(r)},
        {"expressible", v.expressible},
        {"notExpressible", qs(v.not_expressible)},
        {"model", qs(v.model)},
        {"predictedS", v.predicted_s},
        {"predicted", v.expressible ? qs(tpusim::format_time(v.predicted_s)) : QStringLiteral("—")},
        {"predictedDetails", v.expressible ? qs(tpusim::describe(v.provenance)) : QString()},
        {"deviceS", v.device_s},
        {"callS", v.call_s},
        {"error", v.error},
        {"errorText", v.expressible ? qs(tpusim::format_error(v.error)) : QStringLiteral("—")},
        {"fitted", v.fitted},
        {"heldOut", v.held_out},
        {"doubt", qs(r.doubt)},
        {"timing", qs(r.timing_how)},
        {"source", qs(r.source)},
    };
}

QVariantMap familyMap(const tpusim::FamilyErrors &e)
{
    QStringList chips;
    for (const std::string &c : e.chips)
        chips << qs(c);
    return {
        {"family", qs(std::string(tpusim::family_key(e.family)))},
        {"title", qs(std::string(tpusim::family_title(e.family)))},
        {"rows", e.rows},
        {"expressible", e.expressible},
        {"chips", chips},
        {"heldOut", e.held_out},
        {"heldOutMedian", e.held_out_median},
        {"heldOutMedianText", e.held_out > 0 ? percent(e.held_out_median) : QStringLiteral("—")},
        {"heldOutWorst", e.held_out_worst},
        {"heldOutWorstText", e.held_out > 0 ? percent(e.held_out_worst) : QStringLiteral("—")},
        {"inDoubt", e.in_doubt},
        {"inDoubtMedianText", e.in_doubt > 0 ? percent(e.in_doubt_median) : QStringLiteral("—")},
        {"inDoubtWorstText", e.in_doubt > 0 ? percent(e.in_doubt_worst) : QStringLiteral("—")},
        {"fitted", e.fitted},
        {"fittedMedian", e.fitted_median},
        {"fittedMedianText", e.fitted > 0 ? percent(e.fitted_median) : QStringLiteral("—")},
        {"fittedWorst", e.fitted_worst},
        {"fittedWorstText", e.fitted > 0 ? percent(e.fitted_worst) : QStringLiteral("—")},
        {"allMedianText", e.expressible > 0 ? percent(e.all_median) : QStringLiteral("—")},
    };
}

QVariantMap constantMap(const tpusim::FittedConstant &c)
{
    QString value;
    if (c.unit == "s")
        value = qs(tpusim::format_time(c.value));
    else if (c.key == "f32_over_bf16")
        value = QString::number(c.value, 'f', 2) + QStringLiteral("×");
    else
        value = percent(c.value);
    QStringList on;
    for (const std::string &id : c.fitted_on)
        on << qs(id);
    return {{"key", qs(c.key)},   {"name", qs(c.name)}, {"chip", qs(c.chip)}, {"value", c.value},
            {"valueText", value}, {"how", qs(c.how)},   {"fittedOn", on}};
}

// The distinct values `of` gives the rows with a published time (the
// rows the page lists), each with how many give it, the commonest first.
template <typename Of>
QVariantList counted(const tpusim::Validation &v, Of of)
{
    std::map<std::string, int> counts;
    for (const tpusim::ValidationRow &r : v.rows)
        if (r.row->published_s > 0)
            ++counts[of(*r.row)];
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    QVariantList out;
    for (const auto &[text, rows] : sorted)
        out.append(QVariantMap{{"text", qs(text)}, {"rows", rows}});
    return out;
}

QVariantMap buildValidation()
{
    const tpusim::Validation &v = tpusim::validation();
    QVariantList rows;
    for (const tpusim::ValidationRow &r : v.rows)
        if (r.row->published_s > 0)
            rows << rowMap(r);
    QVariantList families;
    for (const tpusim::FamilyErrors &e : v.families)
        families << familyMap(e);
    QVariantList constants;
    for (const tpusim::FittedConstant &c : v.constants)
        constants << constantMap(c);
    return {{"rows", rows},
            {"families", families},
            {"constants", constants},
            {"sources", counted(v, [](const tpusim::PublishedRow &r) { return tpusim::source_document(r.source); })},
            {"timings", counted(v, [](const tpusim::PublishedRow &r) { return r.timing_how; })}};
}

} // namespace

QVariantMap SimBridge::validation() const
{
    // The table and the chip table are fixed for the life of the process.
    static const QVariantMap table = buildValidation();
    return table;
}
