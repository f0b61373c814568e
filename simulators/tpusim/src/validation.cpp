// Every published row predicted, the constants fitted on the rows the rule
// leaves in, the errors summarised per family. What the fitted constants
// price beyond the published rows is in validation_pricing.cpp.
#include "tpusim/validation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "tpusim/chips.h"
#include "validation_detail.h"

namespace tpusim {

using detail::RowCost;

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

double worst(const std::vector<double>& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

struct Costed {
    const PublishedRow* row;
    RowCost cost;
    bool trainable;  // expressible, not held out, not in doubt, not a pipeline row (those fix the pipeline's own fit)
};

// Each constant is the median of what the rows it dominates say it is:
// an attainable fraction from the long runs bound by that unit, a floor
// from the short runs whose time is mostly floor. Medians, so one odd
// row cannot drag a constant, and each constant names its rows.
enum class Unit { mxu, hbm, ici, link, flash, none };
constexpr double long_run_s = 50e-6;
constexpr double short_run_s = 20e-6;

// The unit that sets a row's time at the peaks, when one clearly does
// (`margin` times the next one), and that time.
std::pair<Unit, double> binding(const RowCost& cost, const DeviceConstants& k, double margin = 1.5) {
    double mxu = 0, hbm = 0, vpu = 0, flash = 0;
    for (const detail::Stage& s : cost.stages) {
        if (s.flash)
            flash += s.mxu_s + s.vpu_s;
        else
            mxu += s.mxu_s * (s.f32_mxu ? k.f32_over_bf16 : 1), vpu += s.vpu_s;
        hbm += s.hbm_s;
    }
    const std::pair<Unit, double> units[] = {
        {Unit::mxu, mxu}, {Unit::hbm, hbm}, {Unit::ici, cost.ici_s}, {Unit::link, cost.link_s}, {Unit::flash, flash}};
    std::pair<Unit, double> top{Unit::none, 0};
    double second = vpu;
    for (const auto& u : units) {
        if (u.second > top.second) {
            second = std::max(second, top.second);
            top = u;
        } else {
            second = std::max(second, u.second);
        }
    }
    if (top.second < margin * second) return {Unit::none, 0};
    return top;
}

// What the row's floors add to its compared time: the op floors, the
// collective floor and, for a call, dispatch.
double floors_of(const Costed& c, const DeviceConstants& k) {
    DeviceConstants none = k;
    none.op_floor_s = none.collective_floor_s = none.dispatch_s = 0;
    return detail::compared_time(*c.row, c.cost, k) - detail::compared_time(*c.row, c.cost, none);
}

struct ConstantFit {
    const char* key;
    const char* name;
    const char* unit;
    double DeviceConstants::*field;
};
constexpr ConstantFit efficiency_fits[] = {
    {"mxu_efficiency", "attainable MXU fraction", "", &DeviceConstants::mxu_efficiency},
    {"hbm_efficiency", "attainable HBM fraction", "", &DeviceConstants::hbm_efficiency},
    {"ici_efficiency", "attainable ICI fraction", "", &DeviceConstants::ici_efficiency},
    {"link_efficiency", "attainable host-link fraction", "", &DeviceConstants::link_efficiency},
    {"flash_efficiency", "attainable fraction of a flash kernel's compute", "", &DeviceConstants::flash_efficiency},
};
constexpr ConstantFit floor_fits[] = {
    {"op_floor_s", "least device time of an op", "s", &DeviceConstants::op_floor_s},
    {"collective_floor_s", "least device time of a collective", "s", &DeviceConstants::collective_floor_s},
    {"dispatch_s", "Python's share of a call", "s", &DeviceConstants::dispatch_s},
};

// The rows a constant is read from, and the value each of them gives.
struct Evidence {
    std::vector<const Costed*> rows;
    std::vector<double> values;
};

// Whether each flash kernel's work outlasts its steps' least time.
bool compute_sets_steps(const RowCost& cost, const DeviceConstants& k) {
    const double step = detail::flash_step_time(cost, k);
    for (const detail::Stage& s : cost.stages)
        if (s.flash && (s.mxu_s + s.vpu_s) / k.flash_efficiency < static_cast<double>(s.steps) * step) return false;
    return true;
}

Evidence efficiency_evidence(const std::vector<const Costed*>& rows, const DeviceConstants& k, int which) {
    const Unit unit = static_cast<Unit>(which);
    Evidence e;
    for (const Costed* c : rows) {
        // Matmul and memory rows fix the MXU and HBM fractions; a kernel of
        // its own kind (attention) is tested with them, not fitted.
        const Family f = c->row->family;
        if ((unit == Unit::mxu && f != Family::matmul) ||
            (unit == Unit::hbm && f != Family::memory && f != Family::matmul))
            continue;
        // f32 rows fix their own factor over bf16 (fit_passes), not the
        // MXU's fraction: their factor changes with the shape.
        if (unit == Unit::mxu &&
            std::any_of(c->cost.stages.begin(), c->cost.stages.end(), [](const detail::Stage& s) { return s.f32_mxu; }))
            continue;
        // The Unit enum lists the units in the order of efficiency_fits.
        const auto [bound, at_peak] = binding(c->cost, k);
        if (bound != unit) continue;
        const double left = c->row->published_s - floors_of(*c, k) - c->cost.fixed_s;
        // A flash kernel's compute must set its steps' time, and be most of
        // its predicted time.
        if (unit == Unit::flash && (!compute_sets_steps(c->cost, k) ||
                                    at_peak / k.flash_efficiency < 0.5 * detail::compared_time(*c->row, c->cost, k)))
            continue;
        // Long runs only: at least 50 µs of work at the peak, and the floors
        // a small part of the time.
        if (at_peak < long_run_s || left < 0.8 * c->row->published_s || left <= 0) continue;
        e.rows.push_back(c);
        e.values.push_back(std::min(1.0, at_peak / left));
    }
    return e;
}

Evidence floor_evidence(const std::vector<const Costed*>& rows, const DeviceConstants& k, int which) {
    Evidence e;
    for (const Costed* c : rows) {
        const bool host = c->row->timing == Timing::host;
        if (which == 2 && !host) continue;                         // dispatch: calls timed from Python
        if (which == 1 && !c->cost.collective) continue;           // the collective floor: collectives
        if (which == 0 && (c->cost.collective || host)) continue;  // the op floor: device timings of ops
        DeviceConstants without = k;
        without.*floor_fits[which].field = 0;
        const double rest = detail::compared_time(*c->row, c->cost, without);
        // Short runs only: under 20 µs of work at the peaks, and most of the
        // published time left for the floor.
        DeviceConstants bare = k;
        bare.op_floor_s = bare.collective_floor_s = bare.dispatch_s = 0;
        if (detail::device_time(c->cost, bare) > short_run_s || rest > 0.5 * c->row->published_s) continue;
        e.rows.push_back(c);
        e.values.push_back(std::max(0.0, c->row->published_s - rest));
    }
    return e;
}

// A flash step's least time, from the flash rows whose steps are most of
// their predicted time: what the published time leaves over the kernel's
// work, per step.
Evidence flash_step_evidence(const std::vector<const Costed*>& rows, const DeviceConstants& k) {
    Evidence e;
    for (const Costed* c : rows) {
        if (c->cost.flash_steps == 0) continue;
        // The steps' least time must set the kernel's time, over its work
        // and its copies, and be most of the predicted time.
        const double steps_s = detail::flash_steps_time(c->cost, k);
        const double step = detail::flash_step_time(c->cost, k);
        bool steps_set_it = true;
        for (const detail::Stage& s : c->cost.stages)
            if (s.flash && std::max((s.mxu_s + s.vpu_s) / k.flash_efficiency, s.hbm_s / k.hbm_efficiency) >
                               static_cast<double>(s.steps) * step)
                steps_set_it = false;
        const double predicted = detail::compared_time(*c->row, c->cost, k);
        if (!steps_set_it || steps_s < 0.5 * predicted) continue;
        const double rest = predicted - steps_s;
        const double left = c->row->published_s - rest;
        if (left <= 0) continue;
        e.rows.push_back(c);
        e.values.push_back(left / static_cast<double>(c->cost.flash_steps));
    }
    return e;
}

std::string chip_list(const std::vector<const Costed*>& rows) {
    std::vector<std::string> chips;
    for (const Costed* c : rows)
        if (std::find(chips.begin(), chips.end(), c->row->chip) == chips.end()) chips.push_back(c->row->chip);
    std::string out;
    for (const std::string& c : chips) out += (out.empty() ? "" : ", ") + c;
    return out;
}

std::vector<std::string> ids_of(const std::vector<const Costed*>& rows) {
    std::vector<std::string> ids;
    for (const Costed* c : rows) ids.push_back(c->row->id);
    return ids;
}

// Fits every constant of every chip: its own rows where two or more fix a
// constant, else every chip's rows, else the constant keeps its neutral
// value (the peak, no floor). Floors and fractions depend on each other a
// little; a few rounds settle them.
struct Fitted {
    std::map<std::string, DeviceConstants> per_chip;
    std::vector<FittedConstant> constants;
    std::vector<std::string> used;
};

Fitted fit_constants(const std::vector<const Costed*>& training) {
    Fitted out;
    std::map<std::string, std::vector<const Costed*>> by_chip;
    for (const Costed* c : training) by_chip[c->row->chip].push_back(c);
    DeviceConstants pooled;
    for (const Chip& chip : all_chips()) out.per_chip[chip.id] = pooled;

    const auto settle = [&](DeviceConstants& k, const std::vector<const Costed*>& rows, const DeviceConstants* fallback,
                            std::vector<FittedConstant>* report, const std::string& chip_id) {
        for (int round = 0; round < 4; ++round) {
            const bool last = round == 3;
            // A constant two or more rows fix takes their median (an op's or
            // a collective's floor, their least: what a row leaves over the
            // floor beyond the model is some other cost); else the
            // fallback's value, or its neutral one. The last round reports.
            const auto take = [&](const Evidence& e, double& field, double otherwise, const char* key, const char* name,
                                  const char* unit, const char* rows_are, bool least = false) {
                const bool own = e.rows.size() >= 2;
                field = !own    ? otherwise
                        : least ? *std::min_element(e.values.begin(), e.values.end())
                                : median(e.values);
                if (!last || !report) return;
                report->push_back(
                    {key, name, chip_id, field, unit, own ? ids_of(e.rows) : std::vector<std::string>{},
                     own ? (least ? "least of " : "median of ") + std::to_string(e.rows.size()) + " " + rows_are : ""});
            };
            for (int i = 0; i < 5; ++i) {
                const ConstantFit& c = efficiency_fits[i];
                take(efficiency_evidence(rows, k, i), k.*c.field, fallback ? (*fallback).*c.field : 1.0, c.key, c.name,
                     c.unit, "long runs bound by it");
            }
            take(flash_step_evidence(rows, k), k.flash_step_s, fallback ? fallback->flash_step_s : 0.0, "flash_step_s",
                 "least time of a flash grid step", "s", "flash runs their steps dominate");
            for (int i = 0; i < 3; ++i) {
                const ConstantFit& c = floor_fits[i];
                take(floor_evidence(rows, k, i), k.*c.field, fallback ? (*fallback).*c.field : 0.0, c.key, c.name,
                     c.unit, "short runs it dominates", c.field != &DeviceConstants::dispatch_s);
            }
        }
    };
    // Every chip's rows together first: the fallback for a chip short of rows.
    std::vector<FittedConstant> pooled_report;
    settle(pooled, training, nullptr, nullptr, "all");
    const auto fit_passes = [](const std::vector<const Costed*>& rows, DeviceConstants& k, const std::string& chip_id) {
        // f32 at default precision: how much longer the MXU takes over the
        // long f32 rows than at the bf16 rate. Not a whole number of passes:
        // published f32 runs take 0.8 to 2 times their bf16 twins' time and
        // fall in two groups by shape (about 1x and about 2x on v6e). A
        // median would sit on one group and miss the other by half, so the
        // value is the geometric middle of the range, which bounds the
        // error either way. The MXU need only lead: f32 doubles the bytes.
        std::vector<double> ratios;
        std::vector<const Costed*> used_rows;
        for (const Costed* c : rows) {
            if (c->row->family != Family::matmul || c->cost.stages.empty() || !c->cost.stages[0].f32_mxu) continue;
            DeviceConstants one = k;
            one.f32_over_bf16 = 1;
            const auto [bound, at_peak] = binding(c->cost, one, 1.0);
            if (bound != Unit::mxu || at_peak < long_run_s) continue;
            const double left = c->row->published_s - floors_of(*c, one);
            if (left < 0.5 * c->row->published_s) continue;
            ratios.push_back(std::max(1.0, left * k.mxu_efficiency / at_peak));
            used_rows.push_back(c);
        }
        FittedConstant f{"f32_over_bf16", "f32 matmul time over bf16's", chip_id, k.f32_over_bf16, "", {}, ""};
        if (ratios.size() < 2) return f;
        const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
        k.f32_over_bf16 = std::sqrt(*lo * *hi);
        f.value = k.f32_over_bf16;
        f.fitted_on = ids_of(used_rows);
        f.how = "the geometric middle of " + std::to_string(ratios.size()) + " long f32 runs, which span " +
                format_fixed(*lo, 2) + "x to " + format_fixed(*hi, 2) + "x with the shape";
        return f;
    };
    const FittedConstant pooled_passes = fit_passes(training, pooled, "all");
    settle(pooled, training, nullptr, &pooled_report, "all");
    // The values every chip short of rows takes, with the rows they came from.
    for (FittedConstant f : pooled_report) {
        if (f.fitted_on.empty()) continue;
        std::vector<const Costed*> rows;
        for (const Costed* c : training)
            if (std::find(f.fitted_on.begin(), f.fitted_on.end(), c->row->id) != f.fitted_on.end()) rows.push_back(c);
        f.how += " (" + chip_list(rows) + ")";
        out.constants.push_back(std::move(f));
    }
    if (!pooled_passes.fitted_on.empty()) out.constants.push_back(pooled_passes);
    const auto pooled_rows = [&](const std::string& key) {
        if (key == "f32_over_bf16") return pooled_passes.fitted_on;
        for (const FittedConstant& f : pooled_report)
            if (f.key == key) return f.fitted_on;
        return std::vector<std::string>{};
    };
    for (auto& [chip_id, k] : out.per_chip) {
        k = pooled;
        std::vector<FittedConstant> report;
        settle(k, by_chip[chip_id], &pooled, &report, chip_id);
        FittedConstant passes = fit_passes(by_chip[chip_id], k, chip_id);
        if (passes.fitted_on.empty()) {
            k.f32_over_bf16 = pooled.f32_over_bf16;
            passes.value = pooled.f32_over_bf16;
            passes.how = pooled_passes.fitted_on.empty()
                             ? "no long f32 row: left at 1"
                             : "fewer than two " + chip_id + " f32 rows fix it: every chip's value";
        } else {
            settle(k, by_chip[chip_id], &pooled, nullptr, chip_id);  // the fractions again, with its own passes
        }
        report.push_back(std::move(passes));
        for (FittedConstant& f : report) {
            // A constant this chip's rows do not fix takes every chip's value;
            // the rows that fixed that are named once, under every chip.
            const std::vector<std::string> borrowed =
                f.how.empty() || f.key == "f32_over_bf16" ? pooled_rows(f.key) : std::vector<std::string>{};
            if (f.how.empty())
                f.how = !borrowed.empty()            ? "fewer than two " + chip_id + " rows fix it: every chip's value"
                        : f.key == "flash_step_s"    ? "no row fixes it: the chip's grid-step overhead"
                        : f.unit == std::string("s") ? "no row fixes it: left at 0"
                                                     : "no row fixes it: left at the peak";
            if (f.fitted_on.empty())
                for (const std::string& id : borrowed) out.used.push_back(id);
            if (!by_chip[chip_id].empty() || !borrowed.empty() || !f.fitted_on.empty()) {
                for (const std::string& id : f.fitted_on) out.used.push_back(id);
                out.constants.push_back(std::move(f));
            }
        }
    }
    return out;
}

Validation build() {
    Validation v;
    std::vector<Costed> costed;
    for (const PublishedRow& r : published_rows()) {
        RowCost cost = detail::cost_of(r);
        const bool trainable = cost.expressible && !cost.pipeline && !held_out_by_rule(r.id) && r.doubt.empty();
        costed.push_back({&r, std::move(cost), trainable});
    }
    std::vector<const Costed*> training;
    for (const Costed& c : costed)
        if (c.trainable) training.push_back(&c);

    Fitted fitted = fit_constants(training);
    v.constants = std::move(fitted.constants);
    v.per_chip = fitted.per_chip;
    const std::set<std::string> used(fitted.used.begin(), fitted.used.end());
    const std::map<std::string, DeviceConstants>& per_chip = fitted.per_chip;

    // The pipeline model's own fit: two rows (fit_pipeline_constants).
    const PipelineFit pipeline = fit_pipeline_constants();

    for (const Costed& c : costed) {
        ValidationRow row;
        row.row = c.row;
        row.expressible = c.cost.expressible;
        row.not_expressible = c.cost.why_not;
        row.held_out = held_out_by_rule(c.row->id);
        row.model = c.cost.model;
        row.grid_steps = c.cost.grid_steps;
        if (c.cost.expressible) {
            const DeviceConstants& k = per_chip.at(c.row->chip);
            row.device_s = detail::device_time(c.cost, k);
            row.call_s = detail::call_time(c.cost, k);
            row.predicted_s = detail::compared_time(*c.row, c.cost, k);
            row.error = row.predicted_s / c.row->published_s - 1;
            row.fitted = c.cost.pipeline ? (c.row->id == pipeline.many_steps_row || c.row->id == pipeline.few_steps_row)
                                         : used.count(c.row->id) > 0;
            row.provenance = c.cost.provenance;
        }
        v.rows.push_back(std::move(row));
    }

    for (const Family family : all_families()) {
        FamilyErrors e;
        e.family = family;
        std::vector<double> held, fit, doubted, every;
        for (const ValidationRow& r : v.rows) {
            if (r.row->family != family || !(r.row->published_s > 0)) continue;
            ++e.rows;
            if (std::find(e.chips.begin(), e.chips.end(), r.row->chip) == e.chips.end()) e.chips.push_back(r.row->chip);
            if (!r.expressible) continue;
            ++e.expressible;
            every.push_back(std::abs(r.error));
            if (r.fitted) fit.push_back(std::abs(r.error));
            if (r.held_out) held.push_back(std::abs(r.error));
            if (!r.row->doubt.empty()) doubted.push_back(std::abs(r.error));
        }
        if (e.rows == 0) continue;
        e.fitted = static_cast<int>(fit.size());
        e.held_out = static_cast<int>(held.size());
        e.held_out_median = median(held);
        e.held_out_worst = worst(held);
        e.in_doubt = static_cast<int>(doubted.size());
        e.in_doubt_median = median(doubted);
        e.in_doubt_worst = worst(doubted);
        e.fitted_median = median(fit);
        e.fitted_worst = worst(fit);
        e.all_median = median(every);
        v.families.push_back(std::move(e));
    }
    return v;
}

}  // namespace

const Validation& validation() {
    static const Validation v = build();
    return v;
}

}  // namespace tpusim
