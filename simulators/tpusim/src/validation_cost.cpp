// The cost of each published run at the chip's peaks, family by family,
// and the fitted constants that turn it into device and call times.
#include <algorithm>
#include <cmath>

#include "tpusim/attention.h"
#include "tpusim/collective.h"
#include "tpusim/dtype.h"
#include "tpusim/error.h"
#include "tpusim/mesh.h"
#include "tpusim/pipeline.h"
#include "validation_detail.h"

namespace tpusim::detail {

namespace {

RowCost refused(std::string why) {
    RowCost c;
    c.expressible = false;
    c.why_not = std::move(why);
    return c;
}

Provenance predicted(const PublishedRow& row, std::string model, std::vector<std::string> assumptions) {
    Provenance p;
    p.kind = Kind::predicted;
    p.chip = row.chip;
    p.dtype = row.dtype;
    for (const auto& [key, value] : row.shape) p.shapes += (p.shapes.empty() ? "" : " ") + key + "=" + value;
    p.model = std::move(model);
    p.assumptions = std::move(assumptions);
    p.assumptions.push_back(
        "Attainable fractions of the peaks and the floors of a small op are fitted on "
        "published rows of the same chip (the validation page names them).");
    return p;
}

// The row's dtype, which sets its bytes and its MXU rate. A source that
// states none leaves the row out rather than have a guess predicted.
DType stated_dtype(const PublishedRow& row) {
    if (row.dtype.empty()) throw InputError("the source does not state the dtype, which sets the bytes and the rate");
    return parse_dtype(row.dtype);
}

double mxu_peak(const Chip& c, DType dtype) {
    return peak_flops(c, dtype).value;
}

// A run on one JAX device of a chip whose TensorCores are devices of their
// own (TPU7x: two a chip [JAX-INFO]) has that core's share of the chip's
// MXUs and HBM bandwidth. A megacore chip (v4, v5p) shows both as one.
constexpr const char* core_assumption =
    "Timed on one TensorCore of the chip: half its MXU peak and half its HBM bandwidth.";
double core_share(const PublishedRow& row, const Chip& c) {
    const std::int64_t cores = row.dim("cores", 0);
    if (cores <= 0 || c.megacore || c.tensorcores.value <= 1) return 1;
    return std::min(1.0, static_cast<double>(cores) / c.tensorcores.value);
}

RowCost matmul(const PublishedRow& row, const Chip& c) {
    const DType dtype = stated_dtype(row);
    const std::int64_t m = row.dim("m"), k = row.dim("k"), n = row.dim("n"), batch = row.dim("batch", 1);
    if (m < 1 || k < 1 || n < 1 || batch < 1) return refused("the row does not give m, k and n");
    RowCost cost;
    if (row.text("impl") == "pallas") {
        if (batch != 1) return refused("batched Pallas matmuls are not modelled");
        const PipelineResult r = simulate(c, blocked_matmul(pallas_matmul_of(row)));
        cost.model = "pipeline";
        cost.pipeline = true;
        cost.fixed_s = r.time_s;
        cost.pipeline_launch_s = c.kernel_launch.value;
        cost.grid_steps = r.steps;
        cost.provenance = r.provenance;
        return cost;
    }
    // An XLA matmul: one op, its operands read once and its result written once.
    const double flops = 2.0 * batch * m * k * n;
    const double share = core_share(row, c);
    const double in = bytes(dtype);
    const double out = dtype == DType::int8 || dtype == DType::fp8 ? 2 : in;  // narrow inputs give a wider result
    const double traffic = batch * ((m * k + k * n) * in + m * n * out);
    Stage s;
    s.mxu_s = flops / (mxu_peak(c, dtype) * share);
    s.hbm_s = traffic / (c.hbm_bandwidth.value * share);
    s.f32_mxu = dtype == DType::f32;
    cost.stages.push_back(s);
    cost.model = "roofline, attainable";
    std::vector<std::string> a{"One XLA op: operands read from HBM once, the result written once."};
    if (s.f32_mxu)
        a.push_back(
            "f32 operands at default precision take the MXU the fitted factor longer than bf16 ones; published f32 "
            "runs take 1x to 2x, by shape.");
    if (out != in) a.push_back("An int8 or fp8 matmul writes a 16-bit result.");
    if (share < 1) a.push_back(core_assumption);
    cost.provenance = predicted(row, cost.model, std::move(a));
    return cost;
}

RowCost memory(const PublishedRow& row, const Chip& c) {
    const std::string op = row.text("op");
    if (row.text("impl").find("sparsecore") != std::string::npos)
        return refused("SparseCore kernels are not modelled: the chip table gives no SparseCore rates");
    double array = static_cast<double>(row.dim("bytes"));
    if (array <= 0 && row.has("dims")) {
        array = bytes(stated_dtype(row));
        std::string dims = row.text("dims");
        std::replace(dims.begin(), dims.end(), 'x', ' ');
        std::size_t at = 0;
        while (at < dims.size()) {
            const std::size_t next = dims.find(' ', at);
            array *= std::stod(dims.substr(at, next - at));
            if (next == std::string::npos) break;
            at = next + 1;
        }
    }
    // A profile's op gives its whole traffic.
    const double accessed = static_cast<double>(row.dim("bytes_accessed"));
    double traffic = 0;
    std::string what;
    if (accessed > 0) {
        traffic = accessed;
        what = "The op's bytes accessed, as the profile reports them, cross HBM once.";
    } else if (array <= 0) {
        return refused("the row gives neither the array's bytes nor its dims");
    } else if (op == "copy" || op == "transpose") {
        traffic = 2 * array;
        what = "A copy reads the array and writes it once.";
    } else if (op == "add" || op == "mul" || op == "elementwise") {
        traffic = 3 * array;
        what = "A binary elementwise op reads two arrays of the size and writes one.";
    } else if (op == "unary" || op == "scale") {
        traffic = 2 * array;
        what = "A unary elementwise op reads the array and writes one of the size.";
    } else if (op == "reduce") {
        traffic = array;
        what = "A reduction reads the array once; its result is small.";
    } else {
        return refused("the memory op '" + op + "' is not one the tables model (copy, add, unary, reduce)");
    }
    RowCost cost;
    Stage s;
    const double share = core_share(row, c);
    s.hbm_s = traffic / (c.hbm_bandwidth.value * share);
    const double flops = static_cast<double>(row.dim("flops"));
    if (flops > 0) s.vpu_s = flops / (c.vpu_flops_per_core.value * std::max(1.0, c.tensorcores.value));
    cost.stages.push_back(s);
    cost.model = "roofline, attainable";
    cost.provenance = predicted(row, cost.model, {what});
    if (share < 1) cost.provenance.assumptions.insert(cost.provenance.assumptions.begin() + 1, core_assumption);
    return cost;
}

RowCost host_link(const PublishedRow& row, const Chip& c) {
    const double moved = static_cast<double>(row.dim("bytes"));
    if (moved <= 0) return refused("the row does not give the bytes moved");
    if (!c.host_link_bandwidth.published()) return refused(c.id + " has no published host-link bandwidth");
    RowCost cost;
    cost.link_s = moved / c.host_link_bandwidth.value;
    cost.stages.push_back({});
    cost.model = "host link";
    cost.provenance =
        predicted(row, cost.model, {"The copy streams over the host link one way at its attainable rate."});
    return cost;
}

std::vector<std::int64_t> parse_topology(const std::string& text) {
    std::vector<std::int64_t> dims;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t next = text.find('x', at);
        dims.push_back(std::stoll(text.substr(at, next - at)));
        if (next == std::string::npos) break;
        at = next + 1;
    }
    return dims;
}

RowCost collective_cost(const PublishedRow& row, const Mesh& mesh, const CollectiveResult& r, double times,
                        std::vector<std::string> a) {
    RowCost cost;
    cost.ici_s = r.time_s * times;
    cost.collective = true;
    cost.stages.push_back({});
    cost.model = "collective, attainable";
    cost.provenance = predicted(row, cost.model, std::move(a));
    cost.provenance.shapes += " as " + mesh.shape();
    return cost;
}

RowCost pair_exchange(const PublishedRow& row, const Mesh& mesh, CollectiveKind kind, std::int64_t group,
                      std::int64_t stride, const std::string& assumed) {
    if (group != 2) return refused("a group spread with a stride is modelled for pairs only");
    // The axis the pairs lie along: its length is the pair's span.
    int axis = -1;
    for (std::size_t a = 0; a < mesh.axes.size() && axis < 0; ++a)
        if (mesh.axes[a].size == group * stride) axis = static_cast<int>(a);
    if (axis < 0)
        return refused("no axis of the slice has the " + std::to_string(group * stride) + " chips a pair " +
                       std::to_string(stride) + " apart spans");
    const double in = static_cast<double>(row.dim("in_bytes")), out = static_cast<double>(row.dim("out_bytes"));
    const double bytes = kind == CollectiveKind::all_gather       ? (out > 0 ? out : in * 2)
                         : kind == CollectiveKind::reduce_scatter ? (in > 0 ? in : out * 2)
                                                                  : (in > 0 ? in : out);
    if (bytes <= 0) return refused("the row does not say which bytes each chip holds before or after");
    CollectiveOptions options;
    options.link_loads = false;
    PairExchange r;
    try {
        r = tpusim::pair_exchange(mesh, axis, stride, kind, bytes, options);
    } catch (const InputError& e) {
        return refused(e.what());
    }
    std::vector<std::string> a{
        "Each chip exchanges with a partner " + std::to_string(stride) + " chips along axis " + std::to_string(axis) +
            (r.exchanges > 1 ? ": the reduce-scatter and the all-gather are one exchange each" : ": one exchange") +
            ", a permute by the stride, with every pair of the axis at once sharing its links.",
        "One collective floor per call: launch and synchronisation."};
    if (!assumed.empty()) a.push_back(assumed);
    return collective_cost(row, mesh, r.exchange, r.exchanges, std::move(a));
}

RowCost collective(const PublishedRow& row, const Chip& c) {
    CollectiveSpec spec;
    try {
        spec.kind = parse_collective(row.text("op"));
    } catch (const InputError& e) {
        return refused(e.what());
    }
    std::vector<std::int64_t> shape;
    std::string assumed;
    if (row.has("topology")) {
        shape = parse_topology(row.text("topology"));
    } else if (const std::int64_t chips = row.dim("chips"); chips > 1) {
        // The slice's shape is not given: as square as the chip's torus allows.
        shape = squarest_slice(c, chips);
        assumed = "The source gives no slice shape; taken as the squarest one of " + std::to_string(chips) + " chips.";
    } else {
        return refused("the row gives neither the slice's topology nor its chips");
    }
    Mesh mesh;
    try {
        mesh = make_mesh(c, shape);
    } catch (const InputError& e) {
        return refused(e.what());
    }
    const std::int64_t wanted = row.dim("group");
    // A group of two chips `stride` apart along an axis (XLA's iota replica
    // groups give such pairs): each half of an all-reduce, or a gather or a
    // scatter, is one exchange with the partner, which is a permute by the
    // stride along that axis.
    if (const std::int64_t stride = row.dim("stride", 1); stride > 1)
        return pair_exchange(row, mesh, spec.kind, wanted, stride, assumed);
    // Over the one axis of the group's size, else over every axis of more
    // than one chip; a permute, whose pattern the tables do not give, along
    // the longest axis.
    std::int64_t group = 1;
    if (wanted > 0)
        for (std::size_t a = mesh.axes.size(); a-- > 0;)
            if (mesh.axes[a].size == wanted && spec.axes.empty()) spec.axes.push_back(static_cast<int>(a));
    if (spec.axes.empty() && spec.kind == CollectiveKind::permute) {
        // A payload sweep that reaches a link's one-way rate can only have
        // sent one message over each link: a swap between neighbours.
        std::size_t shortest = mesh.axes.size();
        for (std::size_t a = 0; a < mesh.axes.size(); ++a)
            if (mesh.axes[a].size > 1 && (shortest == mesh.axes.size() || mesh.axes[a].size < mesh.axes[shortest].size))
                shortest = a;
        if (shortest == mesh.axes.size()) return refused("a permute needs an axis of more than one chip");
        spec.axes.push_back(static_cast<int>(shortest));
        assumed += (assumed.empty() ? "" : " ") +
                   std::string(
                       "The permute's pattern is not given: one step along the shortest axis, each link carrying one "
                       "message each way.");
    }
    if (spec.axes.empty())
        for (std::size_t a = 0; a < mesh.axes.size(); ++a)
            if (mesh.axes[a].size > 1) spec.axes.push_back(static_cast<int>(a));
    for (const int a : spec.axes) group *= mesh.axes[static_cast<std::size_t>(a)].size;
    if (wanted > 0 && group != wanted)
        return refused("no axis or set of axes of the slice has the group's " + std::to_string(wanted) + " chips");
    const double in = static_cast<double>(row.dim("in_bytes")), out = static_cast<double>(row.dim("out_bytes"));
    const double stated = static_cast<double>(row.dim("bytes"));
    switch (spec.kind) {
        case CollectiveKind::all_gather:
            spec.bytes = out > 0 ? out : in * group;
            break;
        case CollectiveKind::reduce_scatter:
            spec.bytes = in > 0 ? in : out * group;
            break;
        case CollectiveKind::all_reduce:
            spec.bytes = in > 0 ? in : out;
            break;
        case CollectiveKind::all_to_all:
            spec.bytes = in > 0 ? in * group : out * group;
            break;
        case CollectiveKind::permute: {
            // The model's V is the axis's whole array; each chip sends its V / G.
            const std::int64_t along = mesh.axes[static_cast<std::size_t>(spec.axes[0])].size;
            spec.bytes = (in > 0 ? in : out) * static_cast<double>(along);
            break;
        }
    }
    if (spec.bytes <= 0 && stated > 0 && row.text("which_bytes") == "array") spec.bytes = stated;
    if (spec.bytes <= 0) return refused("the row does not say which bytes each chip holds before or after");
    CollectiveOptions options;
    options.link_loads = false;
    CollectiveResult r;
    try {
        r = tpusim::collective(mesh, spec, options);
    } catch (const InputError& e) {
        return refused(e.what());
    }
    std::vector<std::string> a{
        "The ring schedule of the collective model, slowed to the fitted fraction of the links' peak.",
        "One collective floor per call: launch and synchronisation."};
    if (!assumed.empty()) a.push_back(assumed);
    return collective_cost(row, mesh, r, 1, std::move(a));
}

RowCost attention_cost(const PublishedRow& row, const Chip& c) {
    AttentionSpec spec;
    spec.batch = row.dim("batch", 1);
    spec.heads = row.dim("heads");
    spec.kv_heads = row.dim("kv_heads", 0);
    spec.seq_q = row.dim("seq_q");
    spec.seq_kv = row.dim("seq_k", spec.seq_q);
    spec.head_dim = row.dim("head_dim");
    spec.causal = row.dim("causal", 0) != 0;
    spec.bias = row.dim("bias", 0) != 0;
    spec.dtype = stated_dtype(row);
    spec.pass = row.family == Family::attention_fwd   ? AttentionPass::forward
                : row.family == Family::attention_bwd ? AttentionPass::backward
                                                      : AttentionPass::forward_backward;
    if (spec.heads < 1 || spec.seq_q < 1 || spec.head_dim < 1)
        return refused("the row does not give heads, seq_q and head_dim");
    const std::string impl = row.text("impl");
    const bool xla = impl == "xla";
    if (!xla && impl != "flash" && impl != "splash" && !impl.empty())
        return refused("'" + impl + "' attention is not modelled (flash, splash or xla)");
    spec.block_q = std::min(spec.seq_q, row.dim("block_q", 128));
    spec.block_k = std::min(spec.seq_kv, row.dim("block_k", row.dim("block_k_major", 128)));
    AttentionResult r;
    try {
        r = attention(c, spec);
    } catch (const InputError& e) {
        return refused(e.what());
    }
    // The attention model's kernels at the peaks; the fitted constants
    // turn them into time here, as the chip's own fractions do there.
    RowCost cost;
    const AttentionForm& form = xla ? r.naive : r.flash;
    for (const AttentionKernel& k : form.kernels) {
        Stage stage{k.mxu_s, k.vpu_s, k.memory_s, false, !xla};
        stage.steps = k.steps;
        cost.stages.push_back(stage);
        cost.flash_steps += k.steps;
    }
    cost.grid_steps = cost.flash_steps;
    cost.grid_step_s = c.grid_step_overhead.value;
    cost.model = xla ? "attention, XLA's ops" : "flash attention, its grids";
    Provenance p = predicted(row, cost.model, r.provenance.assumptions);
    p.assumptions.pop_back();  // the attention model states its own fractions
    cost.provenance = std::move(p);
    return cost;
}

}  // namespace

BlockedMatmul pallas_matmul_of(const PublishedRow& row) {
    BlockedMatmul spec;
    spec.m = row.dim("m");
    spec.k = row.dim("k");
    spec.n = row.dim("n");
    spec.bm = row.dim("bm", std::min<std::int64_t>(spec.m, 512));
    spec.bk = row.dim("bk", std::min<std::int64_t>(spec.k, 512));
    spec.bn = row.dim("bn", std::min<std::int64_t>(spec.n, 512));
    spec.in = spec.out = stated_dtype(row);
    return spec;
}

RowCost cost_of(const PublishedRow& row) {
    if (!(row.published_s > 0)) return refused("the source prints a rate, not a time");
    try {
        const Chip& c = chip(row.chip);
        switch (row.family) {
            case Family::matmul:
                return matmul(row, c);
            case Family::memory:
                return memory(row, c);
            case Family::host_link:
                return host_link(row, c);
            case Family::collective:
                return collective(row, c);
            case Family::attention_fwd:
            case Family::attention_bwd:
            case Family::attention_fwdbwd:
                return attention_cost(row, c);
        }
    } catch (const InputError& e) {
        return refused(e.what());
    } catch (const std::invalid_argument& e) {  // std::stod, std::stoll on a damaged shape
        return refused(std::string("a shape value is not a number: ") + e.what());
    } catch (const std::out_of_range& e) {
        return refused(std::string("a shape value is out of range: ") + e.what());
    }
    return refused("unknown family");
}

double flash_step_time(const RowCost& cost, const DeviceConstants& k) {
    return k.flash_step_s > 0 ? k.flash_step_s : cost.grid_step_s;
}

double flash_steps_time(const RowCost& cost, const DeviceConstants& k) {
    return static_cast<double>(cost.flash_steps) * flash_step_time(cost, k);
}

double device_time(const RowCost& cost, const DeviceConstants& k) {
    if (cost.pipeline) return cost.fixed_s - cost.pipeline_launch_s;
    double t = cost.fixed_s;
    const double step_s = flash_step_time(cost, k);
    for (const Stage& s : cost.stages)
        t += (s.flash
                  ? flash_kernel_time(s.mxu_s + s.vpu_s, s.hbm_s, s.steps, k.flash_efficiency, k.hbm_efficiency, step_s)
                  : xla_op_time(s.mxu_s * (s.f32_mxu ? k.f32_over_bf16 : 1), s.vpu_s, s.hbm_s, k.mxu_efficiency,
                                k.hbm_efficiency)) +
             k.op_floor_s;
    t += cost.ici_s / k.ici_efficiency + cost.link_s / k.link_efficiency;
    if (cost.collective) t += k.collective_floor_s;
    return t;
}

double call_time(const RowCost& cost, const DeviceConstants& k) {
    if (cost.pipeline) return cost.fixed_s;  // the pipeline model's launch is a host-seen cost
    return device_time(cost, k) + k.dispatch_s;
}

double compared_time(const PublishedRow& row, const RowCost& cost, const DeviceConstants& k) {
    return row.timing == Timing::device ? device_time(cost, k) : call_time(cost, k);
}

}  // namespace tpusim::detail
