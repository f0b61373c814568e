#include "tpusim/layer_sharding.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "tpusim/error.h"
#include "tpusim/mesh.h"
#include "tpusim/roofline.h"

namespace tpusim {

std::string_view axis_role_name(AxisRole role) {
    return role == AxisRole::data ? "data" : "model";
}

AxisRole parse_axis_role(std::string_view text) {
    if (text == "data") return AxisRole::data;
    if (text == "model") return AxisRole::model;
    throw InputError("\"" + std::string(text) + "\" is not an axis role: each mesh axis is data or model");
}

std::string_view data_mode_name(DataMode mode) {
    return mode == DataMode::dp ? "DP" : "FSDP";
}

DataMode parse_data_mode(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "dp") return DataMode::dp;
    if (lower == "fsdp") return DataMode::fsdp;
    throw InputError("\"" + std::string(text) +
                     "\" is not a data mode: dp keeps whole weights on every data "
                     "device, fsdp a shard of them");
}

namespace {

// The four matmuls, in run order.
enum Slot { fwd_in = 0, fwd_out = 1, bwd_out = 2, bwd_in = 3 };

void check_spec(const LayerShardingSpec& s, std::int64_t x, std::int64_t y) {
    if (s.roles.size() != s.mesh.size())
        throw InputError("give one role per mesh axis: the mesh has " + std::to_string(s.mesh.size()) + " axes and " +
                         std::to_string(s.roles.size()) + " roles were given");
    if (s.batch < 1 || s.d_model < 1 || s.d_ff < 1)
        throw InputError("the batch, d_model and d_ff must each be at least 1");
    if (s.batch % x != 0)
        throw InputError("the batch of " + std::to_string(s.batch) + " rows does not split evenly over the " +
                         std::to_string(x) + " data devices");
    if (s.d_ff % y != 0 || s.d_model % y != 0)
        throw InputError("TP over " + std::to_string(y) + " devices must divide both d_ff (" + std::to_string(s.d_ff) +
                         ") and d_model (" + std::to_string(s.d_model) + ")");
}

// A PartitionSpec entry for the axes of one role: None, "data", or ("data0", "data1").
std::string spec_entry(const std::vector<std::string>& names) {
    if (names.empty()) return "None";
    if (names.size() == 1) return "\"" + names.front() + "\"";
    std::string t = "(";
    for (std::size_t i = 0; i < names.size(); ++i) t += (i ? ", \"" : "\"") + names[i] + "\"";
    return t + ")";
}

std::string partition_spec(const std::string& rows, const std::string& cols) {
    if (rows == "None" && cols == "None") return "P()";
    return "P(" + rows + ", " + cols + ")";
}

// Both directions of a wrapped axis's links, one of an unwrapped one's:
// what a collective over those axes moves per second per device.
double axes_bandwidth(const Mesh& mesh, const std::vector<int>& axes) {
    double w = 0;
    for (int a : axes) {
        const MeshAxis& axis = mesh.axes[static_cast<std::size_t>(a)];
        if (axis.size < 2) continue;
        w += (axis.wraps && axis.size > 2 ? 2.0 : 1.0) * mesh.link_bandwidth;
    }
    return w;
}

// Lays each matmul's transfers on its time: transfers on the same links run
// one after another from the matmul's start, data and model links at once.
// A transfer's exposed part is whatever ends past the matmul; a matmul's
// exposure is the later of its two link groups.
double place_under_matmuls(std::vector<ShardedCollective>& cs, const std::vector<ShardedMatmul>& ms) {
    double exposed = 0;
    for (std::size_t m = 0; m < ms.size(); ++m) {
        double worst = 0;
        for (AxisRole role : {AxisRole::data, AxisRole::model}) {
            double end = 0;
            for (ShardedCollective& c : cs) {
                if (c.under != static_cast<int>(m) || c.role != role) continue;
                const double start = end;
                end += c.time_s;
                c.exposed_s = std::max(0.0, end - std::max(start, ms[m].time_s));
            }
            worst = std::max(worst, std::max(0.0, end - ms[m].time_s));
        }
        exposed += worst;
    }
    return exposed;
}

// Start times on one step: a matmul starts once the one before it and that
// one's transfers are done; a critical-path collective runs alone, in the
// order the block needs it (gathers before their matmul, reductions after).
void lay_out_timeline(LayerShardingResult& r) {
    double now = 0;
    auto run_critical = [&](bool before, int matmul) {
        for (ShardedCollective& c : r.collectives) {
            if (c.under >= 0) continue;
            const bool gather = c.kind == CollectiveKind::all_gather;
            const bool forward = c.pass == "forward";
            const bool at = gather ? before && matmul == (forward ? fwd_in : bwd_out)
                                   : !before && matmul == (forward ? fwd_out : bwd_in);
            if (!at) continue;
            c.start_s = now;
            now += c.time_s;
        }
    };
    for (std::size_t m = 0; m < r.matmuls.size(); ++m) {
        run_critical(true, static_cast<int>(m));
        r.matmuls[m].start_s = now;
        double end = now + r.matmuls[m].time_s;
        for (AxisRole role : {AxisRole::data, AxisRole::model}) {
            double lane = now;
            for (ShardedCollective& c : r.collectives) {
                if (c.under != static_cast<int>(m) || c.role != role) continue;
                c.start_s = lane;
                lane += c.time_s;
            }
            end = std::max(end, lane);
        }
        now = end;
        run_critical(false, static_cast<int>(m));
    }
}

std::string shapes_text(const LayerShardingSpec& s) {
    return "B=" + std::to_string(s.batch) + " D=" + std::to_string(s.d_model) + " F=" + std::to_string(s.d_ff) +
           " on a " +
           [&] {
               std::string t;
               for (std::size_t i = 0; i < s.mesh.size(); ++i) t += (i ? "x" : "") + std::to_string(s.mesh[i]);
               return t;
           }() +
           " mesh";
}

// 2189 -> "2,189", as the chapters write counts.
std::string rows_text(double rows) {
    return format_count(rows);
}

std::string verdict(const LayerShardingResult& r, const LayerShardingSpec& s) {
    if (r.collectives.empty()) return "Nothing to exchange: one device does the whole block.";
    const double share = r.step_s > 0 ? r.exposed_s / r.step_s : 0;
    if (r.exposed_s <= 0)
        return "Compute-bound: every collective finishes under a matmul, and the step is its matmuls' " +
               format_time(r.compute_s) + ".";
    std::string v = (share < 0.001 ? std::string("Under 0.1%") : format_fixed(100 * share, share < 0.1 ? 1 : 0) + "%") +
                    " of the step (" + format_time(r.exposed_s) + ") is transfer no matmul covers.";
    double critical = 0, data_exposed = 0;
    for (const ShardedCollective& c : r.collectives) {
        if (c.under < 0)
            critical += c.time_s;
        else if (c.role == AxisRole::data)
            data_exposed += c.exposed_s;
    }
    if (critical > 0)
        v += " TP's collectives wait on the critical path (" + format_time(critical) +
             "): run them as collective matmuls, or use fewer model devices.";
    if (data_exposed > 0 && r.data_threshold_rows > 0)
        v += " The data axes hide their transfers above about " + rows_text(r.data_threshold_rows) +
             " rows per device; this has " + rows_text(static_cast<double>(r.rows_per_device)) + ".";
    if (s.overlap_tp && r.model_threshold > 0 && critical == 0 &&
        static_cast<double>(s.d_ff / r.model_ways) < r.model_threshold)
        v += " F / Y = " + rows_text(static_cast<double>(s.d_ff / r.model_ways)) + " is below the " +
             rows_text(r.model_threshold) + " TP needs to hide its collectives.";
    return v;
}

}  // namespace

LayerShardingResult shard_mlp_block(const Chip& chip, const LayerShardingSpec& s) {
    const Mesh mesh = make_mesh(chip, s.mesh);
    LayerShardingResult r;
    std::vector<int> data_axes, model_axes;
    std::vector<std::string> data_names, model_names;
    for (std::size_t i = 0; i < s.roles.size() && i < s.mesh.size(); ++i)
        (s.roles[i] == AxisRole::data ? data_axes : model_axes).push_back(static_cast<int>(i));
    for (int a : data_axes) {
        r.data_ways *= s.mesh[static_cast<std::size_t>(a)];
        data_names.push_back(data_axes.size() == 1 ? "data" : "data" + std::to_string(data_names.size()));
    }
    for (int a : model_axes) {
        r.model_ways *= s.mesh[static_cast<std::size_t>(a)];
        model_names.push_back(model_axes.size() == 1 ? "model" : "model" + std::to_string(model_names.size()));
    }
    check_spec(s, r.data_ways, r.model_ways);
    for (std::size_t i = 0, d = 0, m = 0; i < s.roles.size(); ++i)
        r.axis_names.push_back(s.roles[i] == AxisRole::data ? data_names[d++] : model_names[m++]);

    const bool has_data = r.data_ways > 1, has_model = r.model_ways > 1;
    const bool fsdp = has_data && s.data_mode == DataMode::fsdp;
    r.strategy = has_data && has_model ? std::string(data_mode_name(s.data_mode)) + " + TP"
                 : has_data            ? std::string(data_mode_name(s.data_mode))
                 : has_model           ? "TP"
                                       : "one device";

    const std::string d_entry = spec_entry(data_names), m_entry = spec_entry(model_names);
    r.x_spec = partition_spec(d_entry, m_entry);
    r.w_in_spec = partition_spec(fsdp ? d_entry : "None", m_entry);
    r.w_out_spec = partition_spec(m_entry, fsdp ? d_entry : "None");

    const std::int64_t b = s.batch / r.data_ways, f = s.d_ff / r.model_ways, d = s.d_model;
    r.rows_per_device = b;
    const double elem = bytes(s.dtype);
    const double weight_shard = static_cast<double>(d) * static_cast<double>(f) * elem;  // one weight's model shard
    const double activations = static_cast<double>(b) * static_cast<double>(d) * elem;   // x of one data group
    r.weight_bytes_per_device = 2 * weight_shard / static_cast<double>(fsdp ? r.data_ways : 1);
    r.gathered_weight_bytes = fsdp ? weight_shard : 0;

    auto matmul = [&](std::string name, std::string pass, std::int64_t m, std::int64_t k, std::int64_t n) {
        MatmulSpec spec;
        spec.m = m, spec.k = k, spec.n = n;
        spec.in = spec.out = s.dtype;
        const bool backward = pass == "backward";
        const Roofline rf =
            roofline_sequence(chip, matmul_pass_costs(spec, backward ? MatmulPass::backward : MatmulPass::forward));
        r.matmuls.push_back({std::move(name), std::move(pass), m, k, n, rf.flops, rf.time_s});
    };
    matmul("x @ W_in", "forward", b, d, f);
    matmul("h @ W_out", "forward", b, f, d);
    matmul("backward of W_out (dh, dW_out)", "backward", b, f, d);
    matmul("backward of W_in (dx, dW_in)", "backward", b, d, f);

    CollectiveOptions quiet;
    quiet.link_loads = false;
    // A block repeats the same few collectives (FSDP gathers one weight's
    // shard four times): each distinct one is simulated once.
    struct Priced {
        CollectiveKind kind;
        AxisRole role;
        double bytes;
        double time_s;
    };
    std::vector<Priced> priced;
    auto add = [&](std::string what, std::string pass, CollectiveKind kind, AxisRole role, double v, int under) {
        ShardedCollective c;
        c.what = std::move(what), c.pass = std::move(pass), c.kind = kind, c.role = role;
        c.axes = role == AxisRole::data ? data_axes : model_axes;
        c.bytes = v, c.under = under;
        const auto same = std::find_if(priced.begin(), priced.end(), [&](const Priced& p) {
            return p.kind == kind && p.role == role && p.bytes == v;
        });
        if (same != priced.end()) {
            c.time_s = same->time_s;
        } else {
            CollectiveSpec spec;
            spec.kind = kind, spec.axes = c.axes, spec.bytes = v;
            c.time_s = collective(mesh, spec, quiet).time_s;
            priced.push_back({kind, role, v, c.time_s});
        }
        r.collectives.push_back(std::move(c));
    };
    using K = CollectiveKind;
    const int tp_fwd_in = s.overlap_tp ? fwd_in : -1, tp_fwd_out = s.overlap_tp ? fwd_out : -1;
    const int tp_bwd_out = s.overlap_tp ? bwd_out : -1, tp_bwd_in = s.overlap_tp ? bwd_in : -1;
    if (has_model) add("all-gather x", "forward", K::all_gather, AxisRole::model, activations, tp_fwd_in);
    if (fsdp) {
        add("all-gather W_out", "forward", K::all_gather, AxisRole::data, weight_shard, fwd_in);
        add("all-gather W_in (next block)", "forward", K::all_gather, AxisRole::data, weight_shard, fwd_out);
    }
    if (has_model) {
        add("reduce-scatter y", "forward", K::reduce_scatter, AxisRole::model, activations, tp_fwd_out);
        add("all-gather dy", "backward", K::all_gather, AxisRole::model, activations, tp_bwd_out);
    }
    if (fsdp) {
        add("all-gather W_in", "backward", K::all_gather, AxisRole::data, weight_shard, bwd_out);
        add("reduce-scatter dW_in (block above)", "backward", K::reduce_scatter, AxisRole::data, weight_shard, bwd_out);
        add("reduce-scatter dW_out", "backward", K::reduce_scatter, AxisRole::data, weight_shard, bwd_in);
        add("all-gather W_out (block below)", "backward", K::all_gather, AxisRole::data, weight_shard, bwd_in);
    } else if (has_data) {
        add("all-reduce dW_in (block above)", "backward", K::all_reduce, AxisRole::data, weight_shard, bwd_out);
        add("all-reduce dW_out", "backward", K::all_reduce, AxisRole::data, weight_shard, bwd_in);
    }
    if (has_model) add("reduce-scatter dx", "backward", K::reduce_scatter, AxisRole::model, activations, tp_bwd_in);

    for (const ShardedMatmul& m : r.matmuls) r.compute_s += m.time_s;
    double critical = 0;
    for (ShardedCollective& c : r.collectives) {
        r.collective_s += c.time_s;
        if (c.under < 0) {
            c.exposed_s = c.time_s;
            critical += c.time_s;
        }
    }
    r.exposed_s = critical + place_under_matmuls(r.collectives, r.matmuls);
    r.step_s = r.compute_s + r.exposed_s;
    lay_out_timeline(r);

    const double c_peak = peak_flops(chip, s.dtype).value;
    // A matmul of b rows does 2·b·D·F/Y FLOPs against D·F/Y weight bytes per
    // transfer: rows per device must pass C·elem / (2·W).
    if (has_data) r.data_threshold_rows = c_peak * elem / (2 * axes_bandwidth(mesh, data_axes));
    if (has_model) r.model_threshold = c_peak * elem / (2 * axes_bandwidth(mesh, model_axes));
    r.verdict = verdict(r, s);

    Provenance& p = r.provenance;
    p.chip = chip.id;
    p.dtype = std::string(name(s.dtype)) + " weights and activations, f32 accumulation";
    p.shapes = shapes_text(s);
    p.model =
        "the scaling book's collectives per strategy [SB-TRAIN], each priced hop by hop on the links; "
        "matmuls by the roofline";
    p.assumptions = {
        "One block of a stack of identical blocks in steady state: the next block's gathers and the "
        "block above's reductions cost what this block's do.",
        "A transfer overlaps only the matmul it is scheduled under; the activation function, the loss "
        "and the optimizer are not priced.",
        "Transfers on the same axes share their links and run one after another; data and model axes "
        "use different links and run at once.",
        "The forward's gathered activations are kept for the backward, so TP gathers x once.",
        s.overlap_tp ? "TP's collectives run under their matmuls, as chapter 14's collective matmul does."
                     : "TP's collectives are on the critical path: the matmul waits for the gathered "
                       "operand, the next op for the reduced output.",
    };
    return r;
}

}  // namespace tpusim
