#include "tpusim/roofline.h"

#include <algorithm>
#include <string>

#include "tpusim/error.h"

namespace tpusim {

namespace {

void require_positive(std::int64_t v, const char* what) {
    if (v < 1) throw InputError(std::string(what) + " must be a positive integer (got " + std::to_string(v) + ")");
}

double element_count(const std::vector<std::int64_t>& shape) {
    if (shape.empty()) throw InputError("the array shape is empty: give at least one dimension");
    double n = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] < 1)
            throw InputError("dimension " + std::to_string(i) + " of " + shape_text(shape) +
                             " must be a positive integer");
        n *= static_cast<double>(shape[i]);
    }
    return n;
}

double vpu_peak(const Chip& c) {
    return c.vpu_flops_per_core.value * c.tensorcores.value;
}

}  // namespace

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += 'x';
        s += std::to_string(shape[i]);
    }
    return s;
}

OpCost matmul_cost(const MatmulSpec& spec) {
    require_positive(spec.m, "M");
    require_positive(spec.k, "K");
    require_positive(spec.n, "N");
    require_positive(spec.batch, "the batch");
    const double b = static_cast<double>(spec.batch);
    const double m = static_cast<double>(spec.m);
    const double k = static_cast<double>(spec.k);
    const double n = static_cast<double>(spec.n);
    OpCost c;
    c.op = spec.batch > 1 ? "batched matmul" : "matmul";
    c.flops = 2 * b * m * k * n;
    c.bytes = b * ((m * k + k * n) * bytes(spec.in) + m * n * bytes(spec.out));
    c.engine = Engine::mxu;
    c.compute_dtype = spec.in;
    c.dtype_text = std::string(name(spec.in)) + " in, " + std::string(name(spec.acc)) + " acc, " +
                   std::string(name(spec.out)) + " out";
    c.shapes.clear();
    if (spec.batch > 1) c.shapes.append("B=").append(std::to_string(spec.batch)).append(" ");
    c.shapes.append("M=").append(std::to_string(spec.m));
    c.shapes.append(" K=").append(std::to_string(spec.k));
    c.shapes.append(" N=").append(std::to_string(spec.n));
    return c;
}

OpCost elementwise_cost(const std::vector<std::int64_t>& shape, int inputs, int outputs, DType dtype,
                        double flops_per_element) {
    const double n = element_count(shape);
    if (inputs < 1 || outputs < 1) throw InputError("an elementwise op needs at least one input and one output");
    if (!(flops_per_element >= 0)) throw InputError("FLOPs per element must be zero or more");
    OpCost c;
    c.op = "elementwise";
    c.flops = n * flops_per_element;
    c.bytes = n * bytes(dtype) * (inputs + outputs);
    c.engine = Engine::vpu;
    c.compute_dtype = dtype;
    c.dtype_text = std::string(name(dtype));
    c.shapes = shape_text(shape) + ", " + std::to_string(inputs) + " in, " + std::to_string(outputs) + " out";
    return c;
}

OpCost reduction_cost(const std::vector<std::int64_t>& shape, const std::vector<int>& axes, DType dtype) {
    const double n = element_count(shape);
    if (axes.empty()) throw InputError("a reduction needs at least one axis");
    std::vector<bool> reduced(shape.size(), false);
    for (int a : axes) {
        if (a < 0 || a >= static_cast<int>(shape.size()))
            throw InputError("axis " + std::to_string(a) + " is outside an array of rank " +
                             std::to_string(shape.size()));
        if (reduced[static_cast<std::size_t>(a)]) throw InputError("axis " + std::to_string(a) + " is listed twice");
        reduced[static_cast<std::size_t>(a)] = true;
    }
    double out = 1;
    std::string axes_text;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (!reduced[i]) out *= static_cast<double>(shape[i]);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        if (i) axes_text += ',';
        axes_text += std::to_string(axes[i]);
    }
    OpCost c;
    c.op = "reduction";
    c.flops = n;
    c.bytes = (n + out) * bytes(dtype);
    c.engine = Engine::vpu;
    c.compute_dtype = dtype;
    c.dtype_text = std::string(name(dtype));
    c.shapes = shape_text(shape) + " summed over axis " + axes_text;
    return c;
}

OpCost generic_cost(double flops, double bytes_moved, DType dtype, Engine engine) {
    if (!(flops >= 0) || !(bytes_moved >= 0)) throw InputError("FLOPs and bytes must be zero or more");
    if (flops == 0 && bytes_moved == 0) throw InputError("an op with no FLOPs and no bytes takes no time");
    OpCost c;
    c.op = "generic";
    c.flops = flops;
    c.bytes = bytes_moved;
    c.engine = engine;
    c.compute_dtype = dtype;
    c.dtype_text = std::string(name(dtype));
    c.shapes = format_fixed(flops, 0) + " FLOPs, " + format_fixed(bytes_moved, 0) + " bytes";
    return c;
}

double roofline_time(const Chip& chip, const OpCost& cost) {
    const double peak = cost.engine == Engine::mxu ? peak_flops(chip, cost.compute_dtype).value : vpu_peak(chip);
    return std::max(cost.flops / peak, cost.bytes / chip.hbm_bandwidth.value);
}

Roofline roofline(const Chip& chip, const OpCost& cost) {
    Roofline r;
    Fact peak;
    if (cost.engine == Engine::mxu) {
        peak = peak_flops(chip, cost.compute_dtype);
    } else {
        peak = chip.vpu_flops_per_core;
        peak.value = vpu_peak(chip);
    }
    r.peak_flops = peak.value;
    r.bandwidth = chip.hbm_bandwidth.value;
    r.flops = cost.flops;
    r.bytes = cost.bytes;
    r.compute_s = cost.flops / r.peak_flops;
    r.memory_s = cost.bytes / r.bandwidth;
    r.time_s = std::max(r.compute_s, r.memory_s);
    r.intensity = cost.bytes > 0 ? cost.flops / cost.bytes : 0;
    r.ridge = r.peak_flops / r.bandwidth;
    r.bound = r.compute_s > r.memory_s ? Bound::compute : Bound::memory;
    r.resource = r.bound == Bound::memory ? "HBM" : (cost.engine == Engine::mxu ? "MXU" : "VPU");
    const double mxu_fraction = chip.mxu_attainable.value > 0 ? chip.mxu_attainable.value : 1;
    const double hbm_fraction = chip.hbm_attainable.value > 0 ? chip.hbm_attainable.value : 1;
    r.attainable_peak_flops = r.peak_flops * (cost.engine == Engine::mxu ? mxu_fraction : 1);
    r.attainable_bandwidth = r.bandwidth * hbm_fraction;
    r.attainable_s = std::max(cost.flops / r.attainable_peak_flops, cost.bytes / r.attainable_bandwidth);

    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = cost.dtype_text;
    p.shapes = cost.shapes;
    p.model = "roofline: time = max(FLOPs / peak, bytes / HBM bandwidth) [SB-ROOF]";
    p.assumptions.reserve(4 + cost.assumptions.size());
    p.assumptions.emplace_back("Compute and HBM traffic overlap perfectly, so the slower of the two is the time.");
    p.assumptions.emplace_back(
        "Every operand crosses HBM exactly once; the peak rate is reached with no padding, "
        "pipeline bubbles or per-step overhead.");
    if (peak.assumption) p.assumptions.push_back(peak.note);
    if (chip.mxu_attainable.value > 0 && chip.hbm_attainable.value > 0) {
        const std::string hbm =
            format_fact(chip.hbm_attainable) + " of HBM bandwidth (" + chip.hbm_attainable.source + ")";
        // The fitted fraction is the MXU's; a VPU op's attainable time
        // keeps the VPU's peak whole (r.attainable_peak_flops above).
        p.assumptions.push_back(cost.engine == Engine::mxu
                                    ? "Its attainable time takes " + format_fact(chip.mxu_attainable) +
                                          " of the MXU peak (" + chip.mxu_attainable.source + ") and " + hbm + "."
                                    : "Its attainable time takes " + hbm +
                                          " and the whole VPU peak: no fraction of it is fitted.");
    }
    if (chip.tensorcores.value > 1 && !chip.megacore)
        p.assumptions.emplace_back(
            "Figures are for the whole chip; each of its TensorCores is a separate device "
            "with half of them.");
    for (const std::string& a : cost.assumptions) p.assumptions.push_back(a);
    return r;
}

std::vector<std::string> roofline_working(const Roofline& r) {
    std::vector<std::string> lines{
        format_rate(r.flops, "FLOP") + " ÷ " + format_rate(r.peak_flops, "FLOP/s") + " = " + format_time(r.compute_s),
        format_bytes(r.bytes) + " ÷ " + format_rate(r.bandwidth, "B/s") + " = " + format_time(r.memory_s)};
    // One op's time is the larger of its two; a sequence's, each op's larger, added.
    if (r.time_s == std::max(r.compute_s, r.memory_s))
        lines.push_back("the larger: " + format_time(r.time_s) + ", bound by " + r.resource);
    else
        lines.push_back("each op the larger of its own two, added: " + format_time(r.time_s));
    if (r.bytes > 0)
        lines.push_back("intensity " + format_intensity(r.intensity) + " against the ridge " +
                        format_intensity(r.ridge));
    return lines;
}

std::vector<OpCost> matmul_pass_costs(const MatmulSpec& spec, MatmulPass pass) {
    std::vector<OpCost> ops;
    if (pass != MatmulPass::backward) ops.push_back(matmul_cost(spec));
    if (pass != MatmulPass::forward) {
        MatmulSpec dx = spec;  // dy (M x N) . w^T (N x K)
        dx.k = spec.n;
        dx.n = spec.k;
        OpCost x = matmul_cost(dx);
        x.op = "dx = dy w^T";
        MatmulSpec dw = spec;  // x^T (K x M) . dy (M x N)
        dw.m = spec.k;
        dw.k = spec.m;
        OpCost w = matmul_cost(dw);
        w.op = "dw = x^T dy";
        ops.push_back(std::move(x));
        ops.push_back(std::move(w));
    }
    return ops;
}

Roofline roofline_sequence(const Chip& chip, const std::vector<OpCost>& ops) {
    if (ops.empty()) throw InputError("a sequence of ops needs at least one op");
    Roofline total = roofline(chip, ops.front());
    double slowest = total.time_s;
    std::string shapes = ops.front().op + " " + ops.front().shapes;
    for (std::size_t i = 1; i < ops.size(); ++i) {
        const Roofline r = roofline(chip, ops[i]);
        total.time_s += r.time_s;
        total.compute_s += r.compute_s;
        total.memory_s += r.memory_s;
        total.flops += r.flops;
        total.bytes += r.bytes;
        total.attainable_s += r.attainable_s;
        if (r.time_s > slowest) {
            slowest = r.time_s;
            total.bound = r.bound;
            total.resource = r.resource;
        }
        shapes += "; " + ops[i].op + " " + ops[i].shapes;
    }
    total.intensity = total.bytes > 0 ? total.flops / total.bytes : 0;
    if (ops.size() > 1) {
        total.provenance.shapes = shapes;
        total.provenance.assumptions.push_back("The " + std::to_string(ops.size()) +
                                               " ops run one after another, each its own roofline; nothing "
                                               "overlaps between them.");
    }
    return total;
}

std::string_view bound_name(Bound bound) {
    return bound == Bound::compute ? "compute" : "memory";
}

Estimate to_estimate(const Roofline& r, const std::string& label) {
    Estimate e{label, r.time_s, std::string("s"), {}, r.provenance};
    e.details.push_back(Figure{"FLOPs", r.flops, "FLOP"});
    e.details.push_back(Figure{"HBM bytes", r.bytes, "B"});
    e.details.push_back(Figure{"compute time", r.compute_s, "s"});
    e.details.push_back(Figure{"memory time", r.memory_s, "s"});
    e.details.push_back(Figure{"arithmetic intensity", r.intensity, "FLOP/B"});
    e.details.push_back(Figure{"ridge point", r.ridge, "FLOP/B"});
    return e;
}

}  // namespace tpusim
