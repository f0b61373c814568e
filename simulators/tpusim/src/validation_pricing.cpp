// What the fitted constants price beyond the published rows: one op of a
// profile on its chip, at the constants the validation fitted for it; and
// the pipeline model's step time and launch cost, fitted on two Pallas rows.
#include <algorithm>
#include <iterator>

#include "tpusim/chips.h"
#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/validation.h"
#include "validation_detail.h"

namespace tpusim {

FittedTime fitted_device_time(const std::string& chip_id, const OpAtPeaks& op) {
    const auto k = validation().per_chip.find(chip_id);
    if (k == validation().per_chip.end()) throw InputError("no fitted constants for the chip '" + chip_id + "'");
    const DeviceConstants& c = k->second;
    detail::RowCost cost;
    detail::Stage stage;
    stage.mxu_s = op.mxu_s;
    stage.vpu_s = op.vpu_s;
    stage.hbm_s = op.hbm_s;
    stage.f32_mxu = op.f32_mxu;
    cost.stages.push_back(stage);
    cost.ici_s = op.ici_s;
    cost.link_s = op.link_s;
    cost.collective = op.collective;
    FittedTime out;
    out.time_s = detail::device_time(cost, c);
    // Each unit at its fitted rate, as device_time takes them; HBM first, so
    // that it names a tie.
    const std::pair<const char*, double> units[] = {
        {"HBM", op.hbm_s / c.hbm_efficiency},
        {"MXU", op.mxu_s * (op.f32_mxu ? c.f32_over_bf16 : 1) / c.mxu_efficiency},
        {"VPU", op.vpu_s},
        {"ICI", op.ici_s / c.ici_efficiency},
        {"PCIe", op.link_s / c.link_efficiency}};
    const auto* longest = std::max_element(std::begin(units), std::end(units),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
    out.bound = longest->first;
    return out;
}

PipelineFit fit_pipeline_constants() {
    // Of the Pallas matmul rows the rule leaves in, the one with the most
    // grid steps fixes the step time and the one with the fewest the launch
    // cost. Each barely moves the other's row, so a few alternations settle
    // both.
    struct Candidate {
        const PublishedRow* row;
        std::int64_t steps;
    };
    const Candidate* many = nullptr;
    const Candidate* few = nullptr;
    std::vector<Candidate> candidates;
    for (const PublishedRow& r : published_rows()) {
        if (r.family != Family::matmul || r.text("impl") != "pallas" || r.timing != Timing::host ||
            held_out_by_rule(r.id) || !r.doubt.empty())
            continue;
        const detail::RowCost cost = detail::cost_of(r);
        if (cost.expressible) candidates.push_back({&r, cost.grid_steps});
    }
    for (const Candidate& c : candidates) {
        if (!many || c.steps > many->steps) many = &c;
        if (!few || c.steps < few->steps) few = &c;
    }
    if (!many || many->steps == few->steps)
        throw InputError("the pipeline fit needs two Pallas rows with different grids");
    const auto predict = [](const PublishedRow& r, const PipelineOptions& o) {
        return simulate(chip(r.chip), blocked_matmul(detail::pallas_matmul_of(r)), o).time_s;
    };
    PipelineFit fit;
    fit.many_steps_row = many->row->id;
    fit.few_steps_row = few->row->id;
    PipelineOptions o;
    for (int round = 0; round < 3; ++round) {
        o.launch_s = fit.launch_s;
        double lo = 0, hi = 1e-4;  // the step time: a prediction grows with it
        for (int i = 0; i < 40; ++i) {
            o.step_overhead_s = (lo + hi) / 2;
            (predict(*many->row, o) > many->row->published_s ? hi : lo) = *o.step_overhead_s;
        }
        fit.step_s = (lo + hi) / 2;
        o.step_overhead_s = fit.step_s;
        o.launch_s = 0;
        fit.launch_s = few->row->published_s - predict(*few->row, o);
    }
    if (fit.launch_s < 0) throw InputError("the fitted rows need a negative launch cost: the model does not fit them");
    return fit;
}

}  // namespace tpusim
