// The validation table for QML: every published timing of a real TPU run
// against the model's prediction for it, and each model's errors. Thin:
// libtpusim computes; this only formats and labels.
#include "simbridge.h"
#include "variants.h"

#include <tpusim/validation.h>

#include <cmath>

using simqml::grouped;
using simqml::qs;

namespace {

QString signedPercent(double error)
{
    return (error >= 0 ? QStringLiteral("+") : QString()) + qs(tpusim::format_fixed(100 * error, 1)) + QStringLiteral(" %");
}

QString percent(double magnitude) { return qs(tpusim::format_fixed(100 * magnitude, 1)) + QStringLiteral(" %"); }

QString dims(std::int64_t a, std::int64_t b, std::int64_t c)
{
    return QStringLiteral("%1×%2×%3").arg(a).arg(b).arg(c);
}

// A published figure is a measurement on a real chip, but not the
// learner's: it says so, and where it was printed, in the provenance form
// the badges' cards read ("kind · chip · dtype", then one fact a line).
QString publishedDetails(const tpusim::Measurement &m, const QString &shapes)
{
    return QStringLiteral("published · %1 · %2\n%3\nmeasured on a real chip by others, not by you\nsource: %4\ntimed: %5")
        .arg(qs(m.chip), qs(m.dtype), shapes, qs(m.source), qs(m.timing));
}

QVariantMap rowMap(const tpusim::ValidationRow &r)
{
    const tpusim::Measurement &m = *r.measurement;
    const bool blocked = m.bm > 0;
    const QString shape = dims(m.m, m.k, m.n);
    const QString blocks = blocked ? dims(m.bm, m.bk, m.bn) : QString();
    return {
        {"id", qs(m.id)},
        {"model", qs(std::string(tpusim::model_name(m.model)))},
        {"what", qs(m.what)},
        {"chip", qs(m.chip)},
        {"dtype", qs(m.dtype)},
        {"shape", shape},
        {"blocks", blocks},
        {"gridSteps", static_cast<qint64>(r.grid_steps)},
        {"gridStepsText", r.grid_steps > 0 ? grouped(r.grid_steps) : QStringLiteral("—")},
        {"publishedS", m.published_s},
        {"published", qs(tpusim::format_time(m.published_s))},
        {"publishedDetails", publishedDetails(m, blocked ? shape + QStringLiteral(" in ") + blocks + QStringLiteral(" blocks") : shape)},
        {"predictedS", r.predicted_s},
        {"predicted", qs(tpusim::format_time(r.predicted_s))},
        {"predictedDetails", qs(tpusim::describe(r.provenance))},
        {"error", r.error},
        {"errorText", signedPercent(r.error)},
        {"fitted", m.fitted},
        {"timing", qs(m.timing)},
        {"source", qs(m.source)},
    };
}

QVariantMap modelMap(const tpusim::ModelErrors &e, const tpusim::Validation &v)
{
    QStringList fittedOn;
    for (const tpusim::ValidationRow &r : v.rows)
        if (r.measurement->model == e.model && r.measurement->fitted)
            fittedOn << qs(r.measurement->id);
    return {
        {"model", qs(std::string(tpusim::model_name(e.model)))},
        {"heldOut", e.held_out},
        {"heldOutMedian", e.held_out_median},
        {"heldOutMedianText", percent(e.held_out_median)},
        {"heldOutWorst", e.held_out_worst},
        {"heldOutWorstText", percent(e.held_out_worst)},
        {"fitted", e.fitted},
        {"fittedMedian", e.fitted_median},
        {"fittedMedianText", e.fitted > 0 ? percent(e.fitted_median) : QStringLiteral("—")},
        {"fittedWorst", e.fitted_worst},
        {"fittedWorstText", e.fitted > 0 ? percent(e.fitted_worst) : QStringLiteral("—")},
        {"fittedOn", fittedOn},
    };
}

QVariantMap buildValidation()
{
    const tpusim::Validation v = tpusim::validate();
    QVariantList rows;
    for (const tpusim::ValidationRow &r : v.rows)
        rows << rowMap(r);
    QVariantList models;
    for (const tpusim::ModelErrors &e : v.models)
        models << modelMap(e, v);
    return {{"rows", rows}, {"models", models}};
}

} // namespace

QVariantMap SimBridge::validation() const
{
    // The table and the chip table are fixed for the life of the process.
    static const QVariantMap table = buildValidation();
    return table;
}
