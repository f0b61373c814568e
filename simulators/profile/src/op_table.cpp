// The op table: each op's measured self time beside the simulator's
// prediction for it. Predictions are per occurrence and on one device,
// each unit's time at the chip's peaks priced as the validation prices a
// published run (tpusim::fitted_device_time): at the attainable fractions
// fitted on published timings, plus the least time of an op:
//   - ops with FLOPs and bytes in the profile: the roofline on the chip,
//     MXU rate for matmuls and Pallas kernels, VPU rate otherwise;
//   - copies to or from host memory (memory space 5 [XLA-LAYOUT]): the
//     bytes over the chip's host link (PCIe) [SB-TPU];
//   - collectives: the simulator's collective over the groups the
//     instruction's replica_groups name, laid on the chip's links
//     (tpusim/collective_groups.h), plus the least time of a collective.
#include "tpuprofile/op_table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>

#include "nesting.h"
#include "op_table_detail.h"
#include "tpusim/collective.h"
#include "tpusim/collective_groups.h"
#include "tpusim/dtype.h"
#include "tpusim/error.h"
#include "tpusim/fusion.h"
#include "tpusim/ir.h"
#include "tpusim/mesh.h"
#include "tpusim/provenance.h"
#include "tpusim/roofline.h"
#include "tpusim/validation.h"

namespace tpuprofile {

namespace op_detail {

// The op's result type (with its layout): the profile's shape_with_layout,
// else the instruction text after its name.
std::string result_shape_of(const Op& op) {
    if (!op.shape_with_layout.empty()) return op.shape_with_layout;
    const auto eq = op.hlo_text.find(" = ");
    return eq == std::string::npos ? std::string() : op.hlo_text.substr(eq + 3);
}

// The start op an asynchronous done waits for: its last operand,
// "copy-done((...) %copy-start.4)" -> "copy-start.4".
std::string start_of(const Op& op) {
    if (!std::string_view(op.opcode).ends_with("-done")) return {};
    const auto at = op.hlo_text.rfind('%');
    if (at == std::string::npos || at == 0) return {};
    std::size_t end = at + 1;
    while (end < op.hlo_text.size() && op.hlo_text[end] != ')' && op.hlo_text[end] != ',' && op.hlo_text[end] != ' ')
        ++end;
    return op.hlo_text.substr(at + 1, end - at - 1);
}

// Signed error of a prediction against a measurement, or NaN where both are
// under a microsecond: there a done's bookkeeping and the profiler's own
// resolution are the size of the values, and a ratio says nothing.
double relative_error(double predicted_s, double measured_s) {
    if (measured_s <= 0 || std::max(predicted_s, measured_s) < 1e-6) return std::numeric_limits<double>::quiet_NaN();
    return (predicted_s - measured_s) / measured_s;
}

}  // namespace op_detail

using namespace op_detail;

namespace {

bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}
bool ends_with(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool is_collective_opcode(std::string_view op) {
    for (std::string_view c : {"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
                               "ragged-all-to-all", "collective-broadcast"})
        if (op.substr(0, c.size()) == c) return true;
    return false;
}

// Host memory is memory space 5 [XLA-LAYOUT]: "S(5)" in a layout.
bool touches_host(const Op& op) {
    return contains(op.hlo_text, "S(5)") || contains(op.shape_with_layout, "S(5)");
}

Family classify(const Op& op, DeviceKind kind) {
    if (kind == DeviceKind::gpu) return Family::gpu_kernel;
    const std::string& c = op.category;
    const std::string& o = op.opcode;
    if (o == "custom-call") return op.custom_call_target == "tpu_custom_call" ? Family::pallas : Family::custom_call;
    if (ends_with(o, "-start") || o == "send" || o == "recv") return Family::async_start;
    if (is_collective_opcode(o) || contains(c, "all-reduce") || contains(c, "all-gather") ||
        contains(c, "reduce-scatter") || contains(c, "all-to-all") || contains(c, "collective"))
        return Family::collective;
    if (o == "copy-done" || o == "copy" || contains(c, "copy") || c == "data formatting") {
        return touches_host(op) ? Family::host_transfer : Family::copy;
    }
    if (o == "dot" || o == "convolution" || contains(c, "convolution")) return Family::matmul;
    if (o == "fusion" || contains(c, "fusion")) return Family::fusion;
    if (o == "while" || o == "conditional" || o == "call") return Family::control;
    return Family::other;
}

std::string kind_text(const Op& op, Family f) {
    switch (f) {
        case Family::pallas:
            return "Pallas kernel";
        case Family::host_transfer:
            if (op.opcode == "copy-done") {
                // The result's layout says where the data went.
                return contains(result_shape_of(op), "S(5)") ? "copy-done, HBM→host" : "copy-done, host→HBM";
            }
            return (op.opcode.empty() ? std::string("copy") : op.opcode) + " (host memory)";
        default:
            break;
    }
    if (f == Family::gpu_kernel) return "kernel " + op.name;
    if (!op.category.empty()) return op.category;
    if (!op.opcode.empty()) return op.opcode;
    return std::string(family_name(f));
}

// Any element type the rates do not name (s32, pred, ...) is priced as f32.
tpusim::DType dtype_of(const std::string& element) {
    return tpusim::ir::element_dtype(element).value_or(tpusim::DType::f32);
}

Prediction not_predicted(std::string reason) {
    Prediction p;
    p.reason = std::move(reason);
    return p;
}

// What the fitted constants did to a prediction, for its assumptions.
std::string at_fitted_fractions(double at_peaks_s, double fitted_s) {
    return "At the peaks it would take " + tpusim::format_time(at_peaks_s) +
           "; priced as the validation page prices published runs of the chip, it takes " +
           tpusim::format_time(fitted_s) + ".";
}

Prediction predict_collective(const Op& op, const tpusim::Chip& chip, int devices) {
    using tpusim::CollectiveKind;
    CollectiveKind kind;
    const std::string& o = op.opcode.empty() ? op.category : op.opcode;
    if (o.rfind("all-reduce", 0) == 0)
        kind = CollectiveKind::all_reduce;
    else if (o.rfind("all-gather", 0) == 0)
        kind = CollectiveKind::all_gather;
    else if (o.rfind("reduce-scatter", 0) == 0)
        kind = CollectiveKind::reduce_scatter;
    else if (o.rfind("all-to-all", 0) == 0)
        kind = CollectiveKind::all_to_all;
    else if (o.rfind("collective-permute", 0) == 0)
        kind = CollectiveKind::permute;
    else
        return not_predicted("The simulator has no model of " + o + ".");
    tpusim::DeviceGroups groups = tpusim::device_groups(op.hlo_text);
    if (groups.size == 0) groups.size = groups.devices = devices;  // no groups: every device
    if (groups.size < 2) return not_predicted("Its group holds one device, so nothing crosses a link.");
    // The whole array V of collective.h: the result for all-gather and
    // all-reduce, the operand for reduce-scatter (the result times G).
    const double result = shape_bytes(result_shape_of(op));
    if (result <= 0) return not_predicted("The profile does not give the op's array size.");
    const double bytes = kind == CollectiveKind::reduce_scatter ? result * static_cast<double>(groups.size) : result;
    const auto placed = tpusim::group_collective(chip, kind, groups, bytes);
    if (!placed)
        return not_predicted("The collective model cannot lay its group of " + std::to_string(groups.size) +
                             " chips on " + chip.name + "'s links.");
    tpusim::OpAtPeaks at_peaks;
    at_peaks.ici_s = placed->time_s;
    at_peaks.collective = true;
    const tpusim::DeviceConstants& k = tpusim::validation().per_chip.at(chip.id);
    const tpusim::FittedTime fitted = tpusim::fitted_device_time(chip.id, at_peaks);
    Prediction p;
    p.available = true;
    p.time_s = fitted.time_s;
    p.model = placed->how;
    p.bound = fitted.bound;
    p.assumptions = placed->assumptions;
    p.assumptions.push_back(at_fitted_fractions(placed->time_s, p.time_s) + " It runs at " +
                            tpusim::format_fixed(100 * k.ici_efficiency, 0) +
                            "% of the links' peak, and its launch and the chips' synchronisation take the least "
                            "time of a collective, " +
                            tpusim::format_time(k.collective_floor_s) + ".");
    p.assumptions.push_back("The reduction's arithmetic is not counted.");
    return p;
}

Prediction predict(const Op& op, Family f, const tpusim::Chip& chip, int devices) {
    using namespace tpusim;
    if (f == Family::async_start)
        return not_predicted(
            "A start op only issues an asynchronous transfer; the transfer's time is "
            "predicted on its done.");
    if (f == Family::control)
        return not_predicted("A loop or call is the ops inside it; their own rows carry the time.");
    const double fraction = device_fraction(chip);
    if (f == Family::host_transfer) {
        if (!chip.host_link_bandwidth.published())
            return not_predicted("No host link bandwidth is published for " + chip.name + ".");
        const double bytes =
            op.bytes_accessed > 0 ? static_cast<double>(op.bytes_accessed) : shape_bytes(result_shape_of(op));
        if (bytes <= 0) return not_predicted("The profile does not give the bytes copied.");
        OpAtPeaks at_peaks;
        at_peaks.link_s = bytes / chip.host_link_bandwidth.value;
        const DeviceConstants& k = validation().per_chip.at(chip.id);
        const FittedTime fitted = fitted_device_time(chip.id, at_peaks);
        Prediction p;
        p.available = true;
        p.time_s = fitted.time_s;
        p.model = "host link: bytes / attainable PCIe bandwidth";
        p.bound = fitted.bound;
        p.assumptions = {"The array crosses the host link once, at " + format_fixed(100 * k.link_efficiency, 0) +
                             "% of its " + format_rate(chip.host_link_bandwidth.value, "B/s") + " one way " +
                             chip.host_link_bandwidth.source + ".",
                         at_fitted_fractions(at_peaks.link_s, p.time_s),
                         "The done waits for the whole transfer: whatever part of it ran behind earlier ops is "
                         "not taken off."};
        return p;
    }
    if (f == Family::collective) return predict_collective(op, chip, devices);
    if (op.flops < 0 || op.bytes_accessed < 0) return not_predicted("The profile gives no FLOPs or bytes for this op.");
    const bool mxu = f == Family::matmul || f == Family::pallas;
    const std::string element = element_of(result_shape_of(op));
    try {
        OpCost cost = generic_cost(static_cast<double>(op.flops), static_cast<double>(op.bytes_accessed),
                                   dtype_of(element), mxu ? Engine::mxu : Engine::vpu);
        cost.dtype_text = element.empty() ? "" : element;
        const Roofline r = roofline(chip, cost);
        // The device's share of the chip's units, as one TensorCore of a
        // chip whose cores are devices of their own.
        OpAtPeaks at_peaks;
        (mxu ? at_peaks.mxu_s : at_peaks.vpu_s) = r.compute_s / fraction;
        at_peaks.hbm_s = r.memory_s / fraction;
        at_peaks.f32_mxu = mxu && cost.compute_dtype == DType::f32;
        const DeviceConstants& k = validation().per_chip.at(chip.id);
        const FittedTime fitted = fitted_device_time(chip.id, at_peaks);
        Prediction p;
        p.available = true;
        p.time_s = fitted.time_s;
        p.model = "roofline on the profile's FLOPs and bytes, at the attainable fractions";
        p.bound = fitted.bound;
        p.assumptions = r.provenance.assumptions;
        p.assumptions.insert(p.assumptions.begin(),
                             "FLOPs and bytes are XLA's own cost analysis, as the profile records them.");
        p.assumptions.push_back(
            at_fitted_fractions(r.time_s / fraction, p.time_s) +
            (k.op_floor_s > 0 ? " That adds the least time of an op, " + format_time(k.op_floor_s) + "." : ""));
        return p;
    } catch (const InputError& e) {
        return not_predicted(e.what());
    }
}

std::string percent(double share) {
    return tpusim::format_fixed(100 * share, share < 0.1 ? 1 : 0) + "%";
}

void summarize(const Device& d, const Profile& profile, OpTable& t) {
    DeviceSummary& s = t.summary;
    s.op_events = static_cast<std::int64_t>(d.timeline.size());
    std::int64_t first = -1, last_end = -1, covered_end = -1;
    std::int32_t last_op = -1;
    std::vector<Gap> gaps;
    for (const OpEvent& e : d.timeline) {
        const std::int64_t end = e.start_ps + e.duration_ps;
        if (first < 0) {
            first = e.start_ps;
            covered_end = end;
            s.busy_ps += e.duration_ps;
            last_op = e.op;
            last_end = end;
            continue;
        }
        if (e.start_ps > covered_end) {
            gaps.push_back({covered_end, e.start_ps - covered_end, last_op, e.op});
            s.busy_ps += e.duration_ps;
            covered_end = end;
        } else if (end > covered_end) {
            s.busy_ps += end - covered_end;
            covered_end = end;
        }
        last_op = e.op;
        last_end = std::max(last_end, end);
    }
    if (first >= 0) s.span_ps = last_end - first;
    s.idle_ps = s.span_ps - s.busy_ps;
    const std::size_t keep = std::min<std::size_t>(5, gaps.size());
    std::partial_sort(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(keep), gaps.end(),
                      [](const Gap& a, const Gap& b) { return a.duration_ps > b.duration_ps; });
    gaps.resize(keep);
    s.largest_gaps = std::move(gaps);

    std::map<std::uint64_t, ProgramSummary> programs;
    for (const Span& m : d.modules) {
        ProgramSummary& p = programs[m.program_id];
        p.id = m.program_id;
        p.name = m.name;
        ++p.runs;
        p.total_ps = saturating_add(p.total_ps, m.duration_ps);
    }
    for (const Op& op : d.ops) {
        if (!op.has_program_id) continue;
        ProgramSummary& p = programs[op.program_id];
        p.id = op.program_id;
        if (p.name.empty()) {
            const Program* prog = profile.program(op.program_id);
            p.name = prog ? prog->name : std::to_string(op.program_id);
        }
        p.op_self_ps = saturating_add(p.op_self_ps, op.self_ps);
    }
    for (auto& [id, p] : programs) s.programs.push_back(p);
    std::sort(s.programs.begin(), s.programs.end(),
              [](const ProgramSummary& a, const ProgramSummary& b) { return a.op_self_ps > b.op_self_ps; });
}

// What took the time, from the table: the family with the most self time,
// how fast its ops ran against the chip, and how idle the device was.
std::string finding(const OpTable& t) {
    if (t.rows.empty()) return "The device ran no ops in the profile.";
    std::map<Family, double> by_family;
    double total = 0;
    for (const OpRow& r : t.rows) {
        by_family[r.family] += r.self_total_s;
        total += r.self_total_s;
    }
    Family top = t.rows.front().family;
    for (const auto& [f, sec] : by_family)
        if (sec > by_family[top]) top = f;
    const double share = total > 0 ? by_family[top] / total : 0;
    std::string text = std::string(family_plural(top)) + " took " + percent(share) + " of the device's op time";
    double bytes = 0, seconds = 0;
    for (const OpRow& r : t.rows)
        if (r.family == top && r.bytes_per_s > 0) {
            // Transfers are timed start to done, so rows of one family may
            // overlap; the rate is each row's own, weighted by its time.
            const double sec = r.transfer_s > 0 ? r.transfer_s : r.self_per_call_s;
            const double n = r.self_per_call_s > 0 ? r.self_total_s / r.self_per_call_s : 0;
            bytes += r.bytes_per_s * sec * n;
            seconds += sec * n;
        }
    const double rate = seconds > 0 ? bytes / seconds : 0;
    if (top == Family::host_transfer && !t.summary.host_link.empty()) {
        std::vector<std::string> moved, shares;
        for (const HostLinkUse& u : t.summary.host_link) {
            if (u.busy_s <= 0) continue;
            const double r = u.bytes / u.busy_s;
            moved.push_back(tpusim::format_bytes(u.bytes) + " " +
                            (u.direction == "host to HBM" ? "toward HBM" : "toward the host") + " at " +
                            tpusim::format_rate(r, "B/s"));
            if (t.chip && t.chip->host_link_bandwidth.published())
                shares.push_back(percent(r / t.chip->host_link_bandwidth.value));
        }
        if (!moved.empty()) {
            text += ": it waited on PCIe, moving " + moved[0] + (moved.size() > 1 ? " and " + moved[1] : "");
            if (!shares.empty())
                text += ", " + shares[0] + (shares.size() > 1 ? " and " + shares[1] : "") + " of the link's " +
                        tpusim::format_rate(t.chip->host_link_bandwidth.value, "B/s") + " each way";
        }
    } else if (t.chip && rate > 0 && top != Family::collective) {
        const double hbm = t.chip->hbm_bandwidth.value * tpusim::device_fraction(*t.chip);
        text += ", reading and writing HBM at " + tpusim::format_rate(rate, "B/s") + " (" + percent(rate / hbm) +
                " of its " + tpusim::format_rate(hbm, "B/s") + ")";
    }
    text += ".";
    const DeviceSummary& s = t.summary;
    if (s.span_ps > 0) {
        const double idle = static_cast<double>(s.idle_ps) / static_cast<double>(s.span_ps);
        text += " Between its first op and its last, the device sat idle " + percent(idle) + " of the time (" +
                tpusim::format_time(static_cast<double>(s.idle_ps) * 1e-12) + ")";
        text += idle > 0.2 ? ": time it waited on the host (dispatch, Python, input)." : ".";
    }
    return text;
}

// libtpusim's cost of every kernel of a program's HLO, by instruction name.
struct ProgramCosts {
    std::map<std::string, const tpusim::fusion::HloKernel*> by_name;
    tpusim::fusion::HloCost cost;
    std::string reason;  // why there are none
};

std::unique_ptr<ProgramCosts> cost_program(const Program* program, const tpusim::Chip& chip) {
    auto out = std::make_unique<ProgramCosts>();
    if (!program || program->hlo_text.empty()) {
        out->reason = program && !program->hlo_error.empty() ? program->hlo_error
                                                             : "The profile carries no HLO for this program.";
        return out;
    }
    try {
        const tpusim::ir::Module m = tpusim::ir::parse_hlo(program->hlo_text);
        out->cost = tpusim::fusion::cost_hlo_kernels(m, chip);
        for (const auto& k : out->cost.kernels) out->by_name.emplace(k.name, &k);
    } catch (const tpusim::InputError& e) {
        out->reason = std::string("The program's HLO cannot be costed: ") + e.what();
    }
    return out;
}

}  // namespace

OpTable op_table(const Profile& profile, std::size_t index, const std::string& chip_override) {
    OpTable t;
    const Device& d = profile.devices.at(index);
    t.device = &d;
    const std::string chip_id = chip_override.empty() ? d.chip : chip_override;
    if (d.kind == DeviceKind::gpu) {
        t.chip_note = "GPU kernels have no TPU prediction.";
    } else if (chip_id.empty()) {
        t.chip_note = "No prediction: the simulator does not know " +
                      (d.device_type.empty() ? std::string("this device") : "a \"" + d.device_type + "\"") + ".";
    } else {
        try {
            t.chip = &tpusim::chip(chip_id);
        } catch (const tpusim::InputError& e) {
            t.chip_note = e.what();
        }
    }
    int tpu_devices = 0;
    for (const Device& other : profile.devices) tpu_devices += other.kind == DeviceKind::tensor_core;

    summarize(d, profile, t);
    const double busy = static_cast<double>(t.summary.busy_ps) * 1e-12;
    std::map<std::uint64_t, std::unique_ptr<ProgramCosts>> costs;
    for (std::size_t i = 0; i < d.ops.size(); ++i) {
        const Op& op = d.ops[i];
        OpRow r;
        r.op = static_cast<std::int32_t>(i);
        r.family = classify(op, d.kind);
        r.kind = kind_text(op, r.family);
        r.self_total_s = static_cast<double>(op.self_ps) * 1e-12;
        r.self_per_call_s = op.occurrences > 0 ? r.self_total_s / static_cast<double>(op.occurrences) : 0;
        r.share = busy > 0 ? r.self_total_s / busy : 0;
        r.dtype = element_of(result_shape_of(op));
        if (r.self_per_call_s > 0 && r.family != Family::async_start) {
            if (op.flops >= 0) r.flops_per_s = static_cast<double>(op.flops) / r.self_per_call_s;
            if (op.bytes_accessed >= 0) r.bytes_per_s = static_cast<double>(op.bytes_accessed) / r.self_per_call_s;
        }
        if (op.flops >= 0 && op.bytes_accessed > 0)
            r.intensity = static_cast<double>(op.flops) / static_cast<double>(op.bytes_accessed);
        if (t.chip)
            r.predicted = predict(op, r.family, *t.chip, tpu_devices);
        else
            r.predicted = not_predicted(t.chip_note);
        if (r.predicted.available) r.error = relative_error(r.predicted.time_s, r.self_per_call_s);
        // Kernels that compute: copies, transfers, collectives and starts
        // move bytes the HLO cost model would price as HBM traffic, which
        // their own predictions above already do better.
        const bool computes = r.family == Family::fusion || r.family == Family::matmul || r.family == Family::pallas ||
                              r.family == Family::custom_call || r.family == Family::other;
        if (t.chip && op.has_program_id && d.kind == DeviceKind::tensor_core && computes) {
            auto& c = costs[op.program_id];
            if (!c) c = cost_program(profile.program(op.program_id), *t.chip);
            const auto k = c->by_name.find(op.name);
            if (k != c->by_name.end() && k->second->uncosted) {
                // Its work is not in the HLO: say so rather than price it at 0 FLOPs.
                r.tpusim_cost.reason = "libtpusim cannot cost it from the HLO: " + k->second->uncosted_reason + ".";
            } else if (k != c->by_name.end()) {
                r.tpusim_cost.available = true;
                r.tpusim_cost.flops = k->second->flops;
                r.tpusim_cost.bytes = k->second->bytes_read + k->second->bytes_written;
                r.tpusim_cost.time_s = k->second->time_s / tpusim::device_fraction(*t.chip);
                r.tpusim_cost.bound = k->second->bound == tpusim::Bound::memory  ? "HBM"
                                      : k->second->engine == tpusim::Engine::mxu ? "MXU"
                                                                                 : "VPU";
            } else {
                r.tpusim_cost.reason = c->reason.empty()
                                           ? "libtpusim's HLO cost model does not count this instruction as a kernel."
                                           : c->reason;
            }
        }
        t.rows.push_back(std::move(r));
    }
    pair_async(d, t);
    std::stable_sort(t.rows.begin(), t.rows.end(),
                     [](const OpRow& a, const OpRow& b) { return a.self_total_s > b.self_total_s; });
    t.summary.finding = finding(t);
    return t;
}

}  // namespace tpuprofile
