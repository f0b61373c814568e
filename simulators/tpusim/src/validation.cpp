// Each published row predicted by the model it validates, the errors
// summarised per model, and the fit of the pipeline model's two constants.
#include "tpusim/validation.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "tpusim/dtype.h"
#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/roofline.h"

namespace tpusim {

namespace {

struct Prediction {
    double seconds = 0;
    std::int64_t grid_steps = 0;
    Provenance provenance;
};

Prediction predict(const Measurement& m, const PipelineOptions& options = {}) {
    const Chip& c = chip(m.chip);
    const DType dtype = parse_dtype(m.dtype);
    if (m.model == ValidatedModel::roofline) {
        MatmulSpec spec;
        spec.m = m.m;
        spec.k = m.k;
        spec.n = m.n;
        spec.in = spec.out = dtype;
        const Roofline r = roofline(c, matmul_cost(spec));
        return {r.time_s, 0, r.provenance};
    }
    BlockedMatmul spec;
    spec.m = m.m;
    spec.k = m.k;
    spec.n = m.n;
    spec.bm = m.bm;
    spec.bk = m.bk;
    spec.bn = m.bn;
    spec.in = spec.out = dtype;
    const PipelineResult r = simulate(c, blocked_matmul(spec), options);
    return {r.time_s, r.steps, r.provenance};
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

double worst(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

}  // namespace

std::string_view model_name(ValidatedModel model) {
    return model == ValidatedModel::pipeline ? "pipeline" : "roofline";
}

Validation validate() {
    Validation v;
    for (const Measurement& m : published_measurements()) {
        Prediction p = predict(m);
        v.rows.push_back({&m, p.grid_steps, p.seconds, p.seconds / m.published_s - 1, std::move(p.provenance)});
    }
    for (const ValidatedModel model : {ValidatedModel::pipeline, ValidatedModel::roofline}) {
        std::vector<double> held_out, fitted;
        for (const ValidationRow& r : v.rows)
            if (r.measurement->model == model)
                (r.measurement->fitted ? fitted : held_out).push_back(std::abs(r.error));
        ModelErrors e;
        e.model = model;
        e.held_out = static_cast<int>(held_out.size());
        e.fitted = static_cast<int>(fitted.size());
        e.held_out_median = median(held_out);
        e.held_out_worst = worst(held_out);
        e.fitted_median = median(fitted);
        e.fitted_worst = worst(fitted);
        v.models.push_back(e);
    }
    return v;
}

PipelineFit fit_pipeline_constants() {
    // The fitted row with the most grid steps fixes the step time; the one
    // with the fewest, the launch cost. Each barely moves the other's row, so
    // a few alternations settle both.
    const Measurement* many = nullptr;
    const Measurement* few = nullptr;
    std::int64_t most = 0, fewest = INT64_MAX;
    for (const Measurement& m : published_measurements()) {
        if (!m.fitted || m.model != ValidatedModel::pipeline) continue;
        const std::int64_t steps = predict(m).grid_steps;
        if (steps > most) {
            most = steps;
            many = &m;
        }
        if (steps < fewest) {
            fewest = steps;
            few = &m;
        }
    }
    if (!many || many == few) throw InputError("the pipeline fit needs two fitted rows with different grids");
    PipelineFit fit;
    PipelineOptions o;
    for (int round = 0; round < 3; ++round) {
        o.launch_s = fit.launch_s;
        double lo = 0, hi = 1e-4;  // the step time: a prediction grows with it
        for (int i = 0; i < 40; ++i) {
            o.step_overhead_s = (lo + hi) / 2;
            (predict(*many, o).seconds > many->published_s ? hi : lo) = *o.step_overhead_s;
        }
        fit.step_s = (lo + hi) / 2;
        o.step_overhead_s = fit.step_s;
        o.launch_s = 0;
        fit.launch_s = few->published_s - predict(*few, o).seconds;
    }
    if (fit.launch_s < 0) throw InputError("the fitted rows need a negative launch cost: the model does not fit them");
    return fit;
}

}  // namespace tpusim
