#include "tpusim/drills.h"
#include "drills_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "tpusim/blockspec_sandbox.h"
#include "tpusim/chips.h"
#include "tpusim/collective.h"
#include "tpusim/mesh.h"
#include "tpusim/error.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/roofline.h"
#include "tpusim/vmem_budget.h"

namespace tpusim::drills {
namespace {

// A small portable generator (splitmix64): the same numbers from a seed on
// every compiler and standard library, which std::uniform_int_distribution
// does not promise.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // A whole number in [lo, hi].
    std::int64_t range(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    bool chance(int percent) { return range(1, 100) <= percent; }
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[static_cast<std::size_t>(range(0, static_cast<std::int64_t>(items.size()) - 1))];
    }

private:
    std::uint64_t state_;
};

std::uint64_t mix(const std::string& kind, int level, std::uint64_t seed) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the kind, then the level and seed
    for (unsigned char c : kind) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ static_cast<std::uint64_t>(level)) * 1099511628211ULL;
    return h ^ (seed * 0x9e3779b97f4a7c15ULL);
}

std::string fixed(double v, int decimals) { return format_fixed(v, decimals); }

std::string count_text(double v) {
    // 68719476736 -> "68,719,476,736"; large values in scientific form.
    if (v >= 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", v);
        return buf;
    }
    std::string digits = std::to_string(static_cast<long long>(std::llround(v)));
    std::string out;
    int n = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (n > 0 && n % 3 == 0) out.insert(out.begin(), ',');
        out.insert(out.begin(), *it);
        ++n;
    }
    return out;
}

std::string intensity_text(double v) { return fixed(v, v < 10 ? 2 : 1) + " FLOP/B"; }

std::string dims_text(const std::vector<std::int64_t>& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + ")";
}

const std::vector<std::string> kChipsL1{"v5e"};
const std::vector<std::string> kChipsAll{"v4", "v5e", "v5p", "v6e", "v7"};

// dtypes whose MXU rate the chip publishes (the roofline refuses the rest).
std::vector<DType> matmul_dtypes(const Chip& c, int level) {
    std::vector<DType> out{DType::bf16};
    if (level >= 2) {
        out.push_back(DType::f32);
        if (c.peak_int8.published()) out.push_back(DType::int8);
    }
    if (level >= 3 && c.peak_fp8.published()) out.push_back(DType::fp8);
    return out;
}

// ---------------------------------------------------------------- D2

struct D2Case {
    OpCost cost;
    std::string chip_id;
    std::vector<Given> givens;
    std::string flops_formula;  // "2 x M x K x N"
    std::string bytes_formula;
};

D2Case d2_case(const std::string& kind, int level, std::uint64_t seed) {
    Rng rng(mix(kind, level, seed));
    D2Case d;
    const Chip& c = chip(level == 1 ? rng.pick(kChipsL1) : rng.pick(kChipsAll));
    d.chip_id = c.id;
    auto pow2 = [&](int lo, int hi) { return std::int64_t{1} << rng.range(lo, hi); };
    auto size = [&](int lo, int hi) {
        // Level 3 also asks sizes that are not powers of two (multiples of 128).
        if (level >= 3 && lo >= 7 && rng.chance(50))
            return 128 * rng.range(std::int64_t{1} << (lo - 7), std::int64_t{1} << (hi - 7));
        return pow2(lo, hi);
    };
    if (kind == "D2.matmul") {
        MatmulSpec s;
        s.m = level == 1 ? pow2(3, 13) : (rng.chance(40) ? pow2(3, 7) : size(7, 14));
        s.k = size(8, 14);
        s.n = size(8, 14);
        if (level >= 3 && rng.chance(40)) s.batch = pow2(1, 6);
        s.in = s.out = rng.pick(matmul_dtypes(c, level));
        d.cost = matmul_cost(s);
        d.givens.push_back({"op", s.batch > 1 ? "batched matmul" : "matmul"});
        d.givens.push_back({"shapes", (s.batch > 1 ? "B=" + std::to_string(s.batch) + "  " : "") + "M=" +
                                          std::to_string(s.m) + "  K=" + std::to_string(s.k) + "  N=" + std::to_string(s.n)});
        d.givens.push_back({"dtype", std::string(name(s.in)) + " in and out, f32 accumulation on chip"});
        const std::string b = s.batch > 1 ? "B x " : "";
        d.flops_formula = "2 x " + b + "M x K x N";
        d.bytes_formula = b + "(M x K + K x N + M x N) x " + fixed(bytes(s.in), bytes(s.in) < 1 ? 1 : 0) + " B";
    } else if (kind == "D2.elementwise") {
        const std::vector<std::int64_t> shape{size(8, 14), size(8, 14)};
        const int inputs = level == 1 ? 2 : static_cast<int>(rng.range(1, 3));
        const DType dt = level == 1 ? DType::bf16 : rng.pick(std::vector<DType>{DType::bf16, DType::f32});
        const double per = level >= 3 ? static_cast<double>(rng.pick(std::vector<std::int64_t>{1, 2, 4, 8})) : 1.0;
        d.cost = elementwise_cost(shape, inputs, 1, dt, per);
        d.givens.push_back({"op", inputs == 1 ? std::string("elementwise, one input")
                                              : "elementwise, " + std::to_string(inputs) + " inputs"});
        d.givens.push_back({"shapes", shape_text(shape) + ", one output of the same shape"});
        d.givens.push_back({"dtype", std::string(name(dt))});
        if (per != 1) d.givens.push_back({"work", fixed(per, 0) + " VPU operations per output element"});
        d.flops_formula = "elements x " + fixed(per, 0) + " operation" + (per != 1 ? "s" : "");
        d.bytes_formula = "elements x (" + std::to_string(inputs) + " in + 1 out) x " + fixed(bytes(dt), 0) + " B";
    } else {
        const std::vector<std::int64_t> shape{size(8, 14), size(8, 14)};
        const int axis = level == 1 ? 1 : static_cast<int>(rng.range(0, 1));
        const DType dt = level == 1 ? DType::bf16 : rng.pick(std::vector<DType>{DType::bf16, DType::f32});
        d.cost = reduction_cost(shape, {axis}, dt);
        d.givens.push_back({"op", "sum over axis " + std::to_string(axis)});
        d.givens.push_back({"shapes", shape_text(shape)});
        d.givens.push_back({"dtype", std::string(name(dt))});
        d.flops_formula = "one add per input element";
        d.bytes_formula = "(input + output elements) x " + fixed(bytes(dt), 0) + " B";
    }
    d.givens.push_back({"chip", c.name + " (" + c.id + ")"});
    return d;
}

Question d2(const std::string& kind, int level, std::uint64_t seed) {
    const D2Case d = d2_case(kind, level, seed);
    Question q;
    q.drill = "D2";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    q.givens = d.givens;
    q.prompt = "The roofline floor of this op on the whole chip: its time, what bounds it, and its arithmetic intensity.";
    const Roofline r = roofline(chip(d.chip_id), d.cost);
    q.fields = {Field{"time", "time floor", FieldType::time, "µs", {}, 0.10, "", ""},
                Field{"bound", "bound", FieldType::choice, "", {"compute", "memory"}, 0, "", ""},
                Field{"intensity", "intensity", FieldType::intensity, "FLOP/B", {}, 0.10, "", ""}};
    q.expected["time"] = format_time(r.time_s);
    q.expected_value["time"] = r.time_s;
    q.expected["bound"] = std::string(bound_name(r.bound));
    q.expected["intensity"] = intensity_text(r.intensity);
    q.expected_value["intensity"] = r.intensity;
    return q;
}

std::vector<Step> d2_steps(const Question& q) {
    const D2Case d = d2_case(q.kind, q.level, q.seed);
    const Chip& c = chip(d.chip_id);
    const Roofline r = roofline(c, d.cost);
    const std::string engine = d.cost.engine == Engine::mxu ? "MXU" : "VPU";
    std::vector<Step> steps;
    steps.push_back({"FLOPs = " + d.flops_formula + " = " + count_text(r.flops), format_rate(r.flops, "FLOP")});
    steps.push_back({"HBM bytes = " + d.bytes_formula + " = " + count_text(r.bytes), format_bytes(r.bytes)});
    steps.push_back({"intensity = FLOPs / bytes", intensity_text(r.intensity)});
    steps.push_back({"the " + engine + " peak on " + c.id + " is " + format_rate(r.peak_flops, "FLOP/s") + " and HBM reads " +
                         format_rate(r.bandwidth, "B/s") + ", so the ridge is",
                     intensity_text(r.ridge)});
    steps.push_back({"compute time = FLOPs / peak", format_time(r.compute_s)});
    steps.push_back({"memory time = bytes / bandwidth", format_time(r.memory_s)});
    steps.push_back({"the floor is the larger: " + std::string(bound_name(r.bound)) + "-bound, as the intensity is " +
                         (r.intensity >= r.ridge ? "above" : "below") + " the ridge",
                     format_time(r.time_s)});
    return steps;
}

// ---------------------------------------------------------------- D3

struct D3Case {
    SandboxInputs in;
    std::string chip_id;
};

std::int64_t legal_block(Rng& rng, std::int64_t size, std::int64_t unit, int level) {
    // A legal block: a multiple of `unit` that is at most the size, or the whole size.
    if (rng.chance(level >= 3 ? 15 : 5)) return size;
    std::vector<std::int64_t> options;
    for (std::int64_t b = unit; b <= size && b <= 2048; b *= 2) options.push_back(b);
    if (options.empty()) return size;
    return rng.pick(options);
}

std::int64_t illegal_block(Rng& rng, std::int64_t size, std::int64_t unit) {
    // Not a multiple of `unit` and not the whole size.
    const std::vector<std::int64_t> wrong = unit == 8 ? std::vector<std::int64_t>{4, 12, 20, 100, 96 + 4}
                                                      : std::vector<std::int64_t>{64, 96, 192, 200, 320, 100};
    std::int64_t b = rng.pick(wrong);
    if (b >= size) b = unit == 8 ? 4 : 64;
    return b;
}

D3Case d3_case(const std::string& kind, int level, std::uint64_t seed) {
    Rng rng(mix(kind, level, seed));
    D3Case d;
    d.chip_id = level == 1 ? "v5e" : rng.pick(kChipsAll);
    SandboxInputs& in = d.in;
    auto dim = [&](int lo, int hi) {
        std::int64_t v = std::int64_t{1} << rng.range(lo, hi);
        if (level >= 3 && rng.chance(40)) v = v / 2 * 3;  // 3 x a power of two: blocks may not divide it
        return v;
    };
    in.m = dim(9, 13);
    in.k = dim(9, 13);
    in.n = dim(9, 13);
    in.dtype = level == 1 ? DType::bf16 : rng.pick(std::vector<DType>{DType::bf16, DType::f32, DType::int8});

    if (kind == "D3.vmem") {
        // Blocks from modest to huge; legal shapes, the docs' maps.
        auto big = [&](std::int64_t size, std::int64_t unit) {
            std::vector<std::int64_t> options;
            for (std::int64_t b = unit * 2; b <= size; b *= 2) options.push_back(b);
            options.push_back(size);
            return rng.pick(options);
        };
        in.bm = big(in.m, 128);
        in.bk = big(in.k, 128);
        in.bn = big(in.n, 128);
    } else {
        in.bm = legal_block(rng, in.m, 8 * (level >= 2 ? 1 : 16), level);
        in.bk = legal_block(rng, in.k, 128, level);
        in.bn = legal_block(rng, in.n, 128, level);
    }
    if (kind == "D3.blocks" && rng.chance(55)) {
        switch (rng.range(0, 2)) {
        case 0: in.bm = illegal_block(rng, in.m, 8); break;
        case 1: in.bk = illegal_block(rng, in.k, 128); break;
        default: in.bn = illegal_block(rng, in.n, 128); break;
        }
    }
    in.grid = sandbox_grid(in, "ijk");
    if (kind == "D3.maps" && rng.chance(60)) {
        const std::vector<std::string> wrong{"lambda i, j, k: (i, 0)", "lambda i, j, k: (0, j)",
                                             "lambda i, j, k: (i, k)", "lambda i, j, k: (k, j)",
                                             "lambda i, j, k: (j, i)"};
        in.out_map = rng.pick(wrong);
        if (level >= 2 && rng.chance(40)) {
            // The reduction axis marked parallel: the revisits become a race.
            in.semantics = {Semantics::parallel, Semantics::parallel, Semantics::parallel};
        }
    } else if (kind == "D3.maps" && level >= 2 && rng.chance(30)) {
        in.semantics = {Semantics::parallel, Semantics::parallel, Semantics::parallel};
    }
    return d;
}

std::string semantics_text(const std::vector<Semantics>& s) {
    std::string t = "(";
    for (std::size_t i = 0; i < s.size(); ++i)
        t += std::string(i ? ", " : "") + (s[i] == Semantics::parallel ? "\"parallel\"" : "\"arbitrary\"");
    return t + ")";
}

struct D3Verdict {
    SandboxReport report;
    bool legal = false;
    std::vector<std::string> reasons;  // every reason that applies, the main one first
    std::string broken_operand;        // the illegal block's operand
};

D3Verdict d3_verdict(const D3Case& d) {
    D3Verdict v;
    v.report = evaluate_sandbox(chip(d.chip_id), d.in, 0);
    bool shape = false;
    for (const SandboxOperand& op : v.report.operands)
        if (!op.legality.legal) {
            if (!shape) v.broken_operand = op.name;
            shape = true;
        }
    if (shape) v.reasons.push_back("shape");
    if (v.report.coverage) {
        const Coverage& cov = *v.report.coverage;
        if (cov.blocks_written < cov.blocks) v.reasons.push_back("coverage");
        if (cov.race) v.reasons.push_back("race");
        if (cov.non_consecutive && std::find(v.reasons.begin(), v.reasons.end(), "race") == v.reasons.end())
            v.reasons.push_back("race");
    }
    if (v.report.vmem_bytes > v.report.vmem_limit_bytes) v.reasons.push_back("vmem");
    v.legal = v.reasons.empty();
    return v;
}

Question d3(const std::string& kind, int level, std::uint64_t seed) {
    const D3Case d = d3_case(kind, level, seed);
    const D3Verdict v = d3_verdict(d);
    const Chip& c = chip(d.chip_id);
    Question q;
    q.drill = "D3";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    const std::string dt(name(d.in.dtype));
    q.givens = {{"x", "(" + std::to_string(d.in.m) + ", " + std::to_string(d.in.k) + ") " + dt},
                {"y", "(" + std::to_string(d.in.k) + ", " + std::to_string(d.in.n) + ") " + dt},
                {"out", "(" + std::to_string(d.in.m) + ", " + std::to_string(d.in.n) + ") " + dt + ", f32 accumulator (bm, bn) in scratch"},
                {"chip", c.name + " (" + c.id + "), scoped VMEM " + format_bytes(c.scoped_vmem_default.value)}};
    q.code_language = "python";
    q.code = "grid = " + dims_text(d.in.grid) + "\n" +
             "in_specs = [\n"
             "    pl.BlockSpec((" + std::to_string(d.in.bm) + ", " + std::to_string(d.in.bk) + "), " + d.in.x_map + "),\n" +
             "    pl.BlockSpec((" + std::to_string(d.in.bk) + ", " + std::to_string(d.in.bn) + "), " + d.in.y_map + "),\n" +
             "]\n" +
             "out_specs = pl.BlockSpec((" + std::to_string(d.in.bm) + ", " + std::to_string(d.in.bn) + "), " + d.in.out_map + ")\n" +
             "dimension_semantics = " + semantics_text(d.in.semantics);
    q.prompt = "Would this blocked matmul compile and run right with the default VMEM limit? Give its VMEM bytes, "
               "and the reason when it would not.";
    Field legal{"legal", "legal", FieldType::choice, "", {"yes", "no"}, 0, "", ""};
    Field vmem{"vmem", "VMEM bytes", FieldType::bytes, "B", {}, 0.10, "", ""};
    Field reason{"reason", "reason", FieldType::choice, "", {"shape", "coverage", "race", "vmem"}, 0, "legal", "no"};
    q.fields = {legal, vmem, reason};
    q.expected["legal"] = v.legal ? "yes" : "no";
    q.expected["vmem"] = format_bytes(v.report.vmem_bytes);
    q.expected_value["vmem"] = v.report.vmem_bytes;
    std::string reasons;
    for (const std::string& r : v.reasons) reasons += (reasons.empty() ? "" : "|") + r;
    q.expected["reason"] = reasons;
    return q;
}

std::vector<Step> d3_steps(const Question& q) {
    const D3Case d = d3_case(q.kind, q.level, q.seed);
    const D3Verdict v = d3_verdict(d);
    const Chip& c = chip(d.chip_id);
    std::vector<Step> steps;
    const Tiling t = memory_tiling(c, d.in.dtype);
    steps.push_back({"Blocks are legal when the last dimension is a multiple of 128 or the array's whole dimension, "
                     "and the second-to-last a multiple of 8 or the whole dimension.", ""});
    for (const SandboxOperand& op : v.report.operands)
        steps.push_back({op.name + " block " + dims_text(op.block) + " of " + dims_text(op.array) + ": " +
                             (op.legality.legal ? "" : "illegal: ") + op.legality.reason + ".",
                         ""});
    if (v.report.coverage) {
        const Coverage& cov = *v.report.coverage;
        std::string s = "The output map writes " + std::to_string(cov.blocks_written) + " of " +
                        std::to_string(cov.blocks) + " output blocks over " + std::to_string(cov.writes) + " grid steps";
        if (cov.problems.empty()) s += ", each block on consecutive steps of the reduction axis, with no race.";
        else {
            s += ": ";
            for (std::size_t i = 0; i < cov.problems.size(); ++i) s += (i ? " " : "") + cov.problems[i];
        }
        steps.push_back({s, ""});
    }
    const std::string dt(name(d.in.dtype));
    steps.push_back({"Each block is stored padded to tiles of " + std::to_string(t.rows) + " rows by 128 lanes for " +
                         dt + " on " + c.id + ".",
                     ""});
    const double bx = padded_vmem_bytes(c, {d.in.bm, d.in.bk}, d.in.dtype);
    const double by = padded_vmem_bytes(c, {d.in.bk, d.in.bn}, d.in.dtype);
    const double bo = padded_vmem_bytes(c, {d.in.bm, d.in.bn}, d.in.dtype);
    const double acc = padded_vmem_bytes(c, {d.in.bm, d.in.bn}, DType::f32);
    steps.push_back({"x, y and out double-buffered: 2 x (" + count_text(bx) + " + " + count_text(by) + " + " +
                         count_text(bo) + ") B", format_bytes(2 * (bx + by + bo))});
    steps.push_back({"plus the f32 accumulator (bm, bn): " + count_text(acc) + " B", format_bytes(acc)});
    steps.push_back({"VMEM in all, against the scoped limit of " + format_bytes(v.report.vmem_limit_bytes) + (v.report.vmem_bytes > v.report.vmem_limit_bytes ? ": over." : ": within."),
                     format_bytes(v.report.vmem_bytes)});
    if (v.legal)
        steps.push_back({"Legal: every block legal, every output block written once per reduction, and within VMEM.", ""});
    else {
        static const std::map<std::string, std::string> why{
            {"shape", "a block breaks the (8, 128) rule"},
            {"coverage", "the output map leaves blocks unwritten"},
            {"race", "parallel steps write the same output block (or revisit it out of turn)"},
            {"vmem", "the buffers exceed the scoped VMEM limit"}};
        std::string s = "Not legal: ";
        for (std::size_t i = 0; i < v.reasons.size(); ++i) s += (i ? "; " : "") + why.at(v.reasons[i]);
        steps.push_back({s + ".", ""});
    }
    return steps;
}

// ---------------------------------------------------------------- D4

struct D4Case {
    std::string chip_id;
    std::vector<std::int64_t> shape;
    std::vector<std::string> names;
    int axis = 0;
    CollectiveKind kind = CollectiveKind::all_gather;
    double bytes = 0;
};

D4Case d4_case(const std::string& kind, int level, std::uint64_t seed) {
    Rng rng(mix(kind, level, seed));
    D4Case d;
    const std::vector<std::string> flat{"v5e", "v6e"};
    const std::vector<std::string> cube{"v4", "v5p"};
    const bool three_d = level >= 2 && rng.chance(50);
    d.chip_id = level == 1 ? "v5e" : three_d ? rng.pick(cube) : rng.pick(flat);
    if (three_d) {
        const std::vector<std::vector<std::int64_t>> shapes{{4, 4, 4}, {8, 4, 4}, {4, 4, 8}, {2, 2, 2}, {4, 4, 2}, {8, 8, 8}};
        d.shape = rng.pick(shapes);
        d.names = {"x", "y", "z"};
    } else {
        const std::vector<std::vector<std::int64_t>> shapes{{16, 16}, {8, 8}, {4, 4}, {16, 8}, {8, 16}, {4, 16}, {2, 8}};
        d.shape = rng.pick(shapes);
        d.names = {"data", "model"};
    }
    do {
        d.axis = static_cast<int>(rng.range(0, static_cast<std::int64_t>(d.shape.size()) - 1));
    } while (d.shape[static_cast<std::size_t>(d.axis)] < 2);
    if (kind == "D4.gather") d.kind = rng.chance(50) ? CollectiveKind::all_gather : CollectiveKind::reduce_scatter;
    else if (kind == "D4.reduce") d.kind = CollectiveKind::all_reduce;
    else d.kind = CollectiveKind::all_to_all;
    const std::int64_t mib = std::int64_t{1} << rng.range(level == 1 ? 2 : 0, level == 1 ? 8 : 10);
    d.bytes = static_cast<double>(mib) * 1048576.0;
    if (level >= 3 && rng.chance(50)) d.bytes *= 3;
    return d;
}

CollectiveResult d4_run(const D4Case& d, Mesh* mesh_out = nullptr) {
    const Mesh mesh = make_mesh(chip(d.chip_id), d.shape);
    CollectiveSpec spec;
    spec.kind = d.kind;
    spec.axes = {d.axis};
    spec.bytes = d.bytes;
    CollectiveOptions options;
    options.link_loads = false;
    if (mesh_out) *mesh_out = mesh;
    return collective(mesh, spec, options);
}

Question d4(const std::string& kind, int level, std::uint64_t seed) {
    const D4Case d = d4_case(kind, level, seed);
    Mesh mesh;
    const CollectiveResult r = d4_run(d, &mesh);
    const Chip& c = chip(d.chip_id);
    Question q;
    q.drill = "D4";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    std::string names = "(";
    for (std::size_t i = 0; i < d.names.size(); ++i) names += (i ? ", '" : "'") + d.names[i] + "'";
    names += ")";
    q.givens = {{"chip", c.name + " (" + c.id + ")"},
                {"mesh", mesh.shape() + " chips, axes " + names},
                {"collective", std::string(collective_name(d.kind)) + " over '" + d.names[static_cast<std::size_t>(d.axis)] + "'"},
                {"bytes", "V = " + format_bytes(d.bytes) + " (the whole array)"}};
    q.prompt = "How long does this collective take, which links carry it, and how many bytes cross the busiest link?";
    q.fields = {Field{"time", "time", FieldType::time, "\xc2\xb5s", {}, 0.15, "", ""},
                Field{"links", "links", FieldType::choice, "", {"ring", "line"}, 0, "", ""},
                Field{"link_bytes", "busiest link bytes", FieldType::bytes, "B", {}, 0.15, "", ""}};
    q.expected["time"] = format_time(r.analytic_s) + (std::fabs(r.difference) > 0.05 ? " (simulated " + format_time(r.simulated_s) + ")" : "");
    q.expected_value["time"] = r.analytic_s;
    q.expected_alt["time"] = r.simulated_s;
    q.expected["links"] = mesh.axes[static_cast<std::size_t>(d.axis)].wraps ? "ring" : "line";
    q.expected["link_bytes"] = format_bytes(r.busiest_link_bytes);
    q.expected_value["link_bytes"] = r.busiest_link_bytes;
    return q;
}

std::vector<Step> d4_steps(const Question& q) {
    const D4Case d = d4_case(q.kind, q.level, q.seed);
    Mesh mesh;
    const CollectiveResult r = d4_run(d, &mesh);
    const MeshAxis& axis = mesh.axes[static_cast<std::size_t>(d.axis)];
    std::vector<Step> steps;
    steps.push_back({"The collective spans axis '" + d.names[static_cast<std::size_t>(d.axis)] + "': groups of " +
                         std::to_string(r.group_size) + " chips, " + std::to_string(r.groups) + " of them side by side.",
                     ""});
    steps.push_back({"Its links: " + axis.reason + (axis.wraps ? ", so each group is a ring." : ", so each group is a line; the end chips have no link between them."), ""});
    steps.push_back({"One link carries " + format_rate(mesh.link_bandwidth, "B/s") + " each way; a hop costs",
                     format_time(mesh.hop_latency)});
    steps.push_back({"The closed form: " + r.formula, ""});
    steps.push_back({"bytes on the busiest link", format_bytes(r.busiest_link_bytes)});
    steps.push_back({"bandwidth time: the busiest link's bytes over its bandwidth", format_time(r.analytic_bandwidth_s)});
    steps.push_back({"latency: hops on the longest path x the hop latency", format_time(r.analytic_latency_s)});
    steps.push_back({"the closed form's time", format_time(r.analytic_s)});
    steps.push_back({"the hop-by-hop simulation's time. " + r.explanation, format_time(r.simulated_s)});
    return steps;
}

// ---------------------------------------------------------------- D1

// Real dots, from dumps copied into assets/drills/ir/ (SOURCES.tsv there
// names each file's repository, path and commit); a test checks these texts
// are those files byte for byte.
struct RealDump {
    const char* file;
    const char* format;
    const char* text;
};
const RealDump kRealDumps[] = {
    {"jax_docs_precision_grad.jaxpr", "jaxpr", R"ir(  { lambda ; a:f32[4,8] b:f32[8,2]. let
      c:f32[4,2] = dot_general[
        dimension_numbers=(([1], [0]), ([], []))
        precision=BF16_BF16_F32
        preferred_element_type=float32
      ] a b
      _:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] c
      d:f32[4,2] = broadcast_in_dim 1.0:f32[]
      e:f32[2,8] = dot_general[
        dimension_numbers=(([0], [0]), ([], []))
        precision=BF16_BF16_F32
        preferred_element_type=float32
      ] d a
      f:f32[8,2] = transpose[permutation=(1, 0)] e
    in (f,) }
)ir"},
    {"stablehlo_linalg_multi_batch_generic.mlir", "stablehlo", R"ir(func.func @dot_general_multiple_batch_dimensions(%arg0: tensor<3x4x2x4xi32>,
             %arg1: tensor<3x4x3x2xi32>) -> tensor<3x4x4x3xi32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {
    dot_dimension_numbers = #stablehlo.dot<
      lhs_batching_dimensions = [0, 1],
      rhs_batching_dimensions = [0, 1],
      lhs_contracting_dimensions = [2],
      rhs_contracting_dimensions = [3]>,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>],
    someattr
  } : (tensor<3x4x2x4xi32>, tensor<3x4x3x2xi32>) -> tensor<3x4x4x3xi32>
  return %0 : tensor<3x4x4x3xi32>
}
)ir"},
    {"xla_multiple_gemm_fusions.hlo", "hlo", R"ir(f1 {
  p0 = f16[64,64,64]{2,1,0} parameter(0)
  p1 = s8[64,64,64]{2,1,0} parameter(1)
  c = f16[64,64,64]{2,1,0} convert(p1)
  ROOT d1 = f32[64,64,64]{2,1,0} dot(p0, c),
    lhs_batch_dims={0}, lhs_contracting_dims={2},
    rhs_batch_dims={0}, rhs_contracting_dims={1}
}

f2 {
  p0 = s8[64,64,64]{2,1,0} parameter(0)
  c0 = f32[64,64,64]{2,1,0} convert(p0)
  p1 = f16[64,64,64]{2,1,0} parameter(1)
  c1 = f32[64,64,64]{2,1,0} convert(p1)
  ROOT d2 = f32[64,64,64]{2,1,0} dot(c0, c1),
    lhs_batch_dims={0}, lhs_contracting_dims={2},
    rhs_batch_dims={0}, rhs_contracting_dims={1}
}

f3 {
  p0 = f16[64,64,64]{2,1,0} parameter(0)
  p1 = f16[64,64,64]{2,1,0} parameter(1)
  ROOT d3 = f32[64,64,64]{2,1,0} dot(p0, p1),
    lhs_batch_dims={0}, lhs_contracting_dims={1},
    rhs_batch_dims={0}, rhs_contracting_dims={2}
}

fa {
  p0 = f32[64,64,64]{2,1,0} parameter(0)
  p1 = f32[64,64,64]{2,1,0} parameter(1)
  p2 = f32[64,64,64]{2,1,0} parameter(2)
  a1 = f32[64,64,64]{2,1,0} add(p2, p1)
  a2 = f32[64,64,64]{2,1,0} add(p0, a1)
  c = f32[] constant(1)
  b = f32[64,64,64]{2,1,0} broadcast(c)
  ROOT a3 = f32[64,64,64]{2,1,0} add(a2, b)
}

ENTRY e {
  p0 = f16[64,64,64]{2,1,0} parameter(0)
  p1 = s8[64,64,64]{2,1,0} parameter(1)
  f1r = f32[64,64,64]{2,1,0} fusion(p0, p1), kind=kCustom, calls=f1,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
  f2r = f32[64,64,64]{2,1,0} fusion(p1, p0), kind=kCustom, calls=f2,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
  f3r = f32[64,64,64]{2,1,0} fusion(p0, p0), kind=kCustom, calls=f3,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
  ROOT _ = f32[64,64,64]{2,1,0} fusion(f1r, f2r, f3r), kind=kLoop, calls=fa
}
)ir"},
};

struct D1Case {
    std::string format;  // "jaxpr", "stablehlo", "hlo"
    std::string text;    // as shown: the output's type masked
    std::string full;    // as printed, the output's type given
    std::string result;  // the dot's result name
    std::string source;  // a real dump's file, empty for a generated dot
    std::vector<std::int64_t> lhs, rhs;
    ir::DotDims dims;
    ir::DotShape shape;
    std::string element;
};

std::string joined(const std::vector<std::int64_t>& v, const std::string& sep) {
    std::string t;
    for (std::size_t i = 0; i < v.size(); ++i) t += (i ? sep : "") + std::to_string(v[i]);
    return t;
}

std::string masked_dims(std::size_t rank, const std::string& sep) {
    std::string t;
    for (std::size_t i = 0; i < rank; ++i) t += (i ? sep : "") + std::string("?");
    return t;
}

// The dot in the three syntaxes libtpusim reads; `mask` hides the output's dims.
std::string print_dot(const D1Case& d, bool mask) {
    const auto& out = d.shape.output;
    const std::string el = d.element;
    if (d.format == "jaxpr") {
        const std::string jel = el;
        return "{ lambda ; a:" + jel + "[" + joined(d.lhs, ",") + "] b:" + jel + "[" + joined(d.rhs, ",") + "]. let\n"
               "    c:" + jel + "[" + (mask ? masked_dims(out.size(), ",") : joined(out, ",")) + "] = dot_general[\n"
               "      dimension_numbers=(([" + joined(d.dims.lhs_contracting, ", ") + "], [" + joined(d.dims.rhs_contracting, ", ") +
               "]), ([" + joined(d.dims.lhs_batch, ", ") + "], [" + joined(d.dims.rhs_batch, ", ") + "]))\n"
               "      preferred_element_type=" + (el == "bf16" ? "bfloat16" : "float32") + "\n"
               "    ] a b\n"
               "  in (c,) }";
    }
    if (d.format == "stablehlo") {
        auto tensor = [&](const std::vector<std::int64_t>& v) { return "tensor<" + joined(v, "x") + "x" + el + ">"; };
        const std::string o = mask ? "tensor<" + masked_dims(out.size(), "x") + "x" + el + ">" : tensor(out);
        std::string dims;
        if (!d.dims.lhs_batch.empty())
            dims += "batching_dims = [" + joined(d.dims.lhs_batch, ", ") + "] x [" + joined(d.dims.rhs_batch, ", ") + "], ";
        dims += "contracting_dims = [" + joined(d.dims.lhs_contracting, ", ") + "] x [" + joined(d.dims.rhs_contracting, ", ") + "]";
        return "func.func @main(%arg0: " + tensor(d.lhs) + ", %arg1: " + tensor(d.rhs) + ") -> " + o + " {\n"
               "  %0 = stablehlo.dot_general %arg0, %arg1, " + dims + "\n"
               "      : (" + tensor(d.lhs) + ", " + tensor(d.rhs) + ") -> " + o + "\n"
               "  return %0 : " + o + "\n"
               "}";
    }
    auto layout = [](std::size_t rank) {
        std::vector<std::int64_t> l;
        for (std::size_t i = rank; i-- > 0;) l.push_back(static_cast<std::int64_t>(i));
        return "{" + joined(l, ",") + "}";
    };
    auto type = [&](const std::vector<std::int64_t>& v) { return el + "[" + joined(v, ",") + "]"; };
    const std::string o = mask ? el + "[" + masked_dims(out.size(), ",") + "]" : type(out);
    std::string dims;
    if (!d.dims.lhs_batch.empty()) dims += "lhs_batch_dims={" + joined(d.dims.lhs_batch, ",") + "}, ";
    dims += "lhs_contracting_dims={" + joined(d.dims.lhs_contracting, ",") + "}";
    if (!d.dims.rhs_batch.empty()) dims += ", rhs_batch_dims={" + joined(d.dims.rhs_batch, ",") + "}";
    dims += ", rhs_contracting_dims={" + joined(d.dims.rhs_contracting, ",") + "}";
    return "HloModule drill\n\n"
           "ENTRY %main (a: " + type(d.lhs) + ", b: " + type(d.rhs) + ") -> " + o + " {\n"
           "  %a = " + type(d.lhs) + layout(d.lhs.size()) + " parameter(0)\n"
           "  %b = " + type(d.rhs) + layout(d.rhs.size()) + " parameter(1)\n"
           "  ROOT %dot = " + o + (mask ? "" : layout(out.size())) + " dot(%a, %b),\n"
           "      " + dims + "\n"
           "}";
}

D1Case d1_real(Rng& rng) {
    const RealDump& dump = kRealDumps[rng.range(0, static_cast<std::int64_t>(std::size(kRealDumps)) - 1)];
    const ir::Module module = ir::parse(dump.text, ir::parse_format(dump.format));
    const auto dots = ir::find_dots(module);
    const ir::DotSite& dot = dots[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(dots.size()) - 1))];
    D1Case d;
    d.format = dump.format;
    d.source = dump.file;
    d.full = dump.text;
    d.result = dot.result;
    d.lhs = dot.lhs_shape;
    d.rhs = dot.rhs_shape;
    d.dims = dot.dims;
    d.element = dot.element;
    d.shape = ir::dot_general_shape(d.lhs, d.rhs, d.dims);
    // Mask the output's type where it is printed: on the dot's own lines
    // (jaxpr, HLO), and wherever the exact result type is spelled (MLIR).
    std::vector<std::string> lines;
    {
        std::string line;
        for (char ch : d.full) {
            if (ch == '\n') { lines.push_back(line); line.clear(); } else line += ch;
        }
        lines.push_back(line);
    }
    const auto& out = d.shape.output;
    if (d.format == "stablehlo") {
        // "tensor<3x4x4x3x" followed by the element type (a letter, not another dim).
        const std::string t = "tensor<" + joined(out, "x") + "x";
        const std::string m = "tensor<" + masked_dims(out.size(), "x") + "x";
        for (auto& l : lines)
            for (auto at = l.find(t); at != std::string::npos; at = l.find(t, at + 1))
                if (at + t.size() < l.size() && std::isalpha(static_cast<unsigned char>(l[at + t.size()])))
                    l.replace(at, t.size(), m);
    } else {
        const std::string t = "[" + joined(out, ",") + "]";
        const std::string m = "[" + masked_dims(out.size(), ",") + "]";
        auto& l = lines[static_cast<std::size_t>(dot.position.line - 1)];
        if (const auto at = l.find(t); at != std::string::npos) l.replace(at, t.size(), m);
    }
    for (std::size_t i = 0; i < lines.size(); ++i) d.text += (i ? "\n" : "") + lines[i];
    while (!d.text.empty() && d.text.back() == '\n') d.text.pop_back();
    return d;
}

D1Case d1_case(const std::string& kind, int level, std::uint64_t seed) {
    Rng rng(mix(kind, level, seed));
    if (kind == "D1.real" && level >= 2) return d1_real(rng);
    D1Case d;
    const std::vector<std::string> formats{"jaxpr", "stablehlo", "hlo"};
    d.format = kind == "D1.jaxpr" ? "jaxpr" : kind == "D1.stablehlo" ? "stablehlo" : kind == "D1.hlo" ? "hlo" : rng.pick(formats);
    d.element = rng.chance(50) ? "bf16" : "f32";
    d.result = d.format == "jaxpr" ? "c" : d.format == "stablehlo" ? "%0" : "%dot";
    // Logical dims: batch, lhs free, rhs free, contracting; each with a size.
    const int nb = level == 1 ? 0 : level == 2 ? static_cast<int>(rng.range(0, 1)) : static_cast<int>(rng.range(1, 2));
    const int nc = level >= 3 ? static_cast<int>(rng.range(1, 2)) : 1;
    const int nl = level >= 3 ? static_cast<int>(rng.range(0, 2)) : 1;
    const int nr = level >= 3 ? static_cast<int>(rng.range(1, 2)) : 1;
    auto size = [&] { return std::int64_t{1} << rng.range(level == 1 ? 6 : 2, level == 1 ? 12 : 10); };
    struct Logical { char role; int index; std::int64_t size; };
    std::vector<Logical> lhs_dims, rhs_dims;
    std::vector<std::int64_t> batch_sizes, contract_sizes;
    for (int i = 0; i < nb; ++i) batch_sizes.push_back(rng.range(2, 16));
    for (int i = 0; i < nc; ++i) contract_sizes.push_back(size());
    for (int i = 0; i < nb; ++i) { lhs_dims.push_back({'b', i, batch_sizes[static_cast<std::size_t>(i)]}); rhs_dims.push_back({'b', i, batch_sizes[static_cast<std::size_t>(i)]}); }
    for (int i = 0; i < nl; ++i) lhs_dims.push_back({'l', i, size()});
    for (int i = 0; i < nr; ++i) rhs_dims.push_back({'r', i, size()});
    // The rhs contracting dims come first, as in [K, N]; a transposed operand swaps them.
    std::vector<Logical> rhs_c;
    for (int i = 0; i < nc; ++i) { lhs_dims.push_back({'c', i, contract_sizes[static_cast<std::size_t>(i)]}); rhs_c.push_back({'c', i, contract_sizes[static_cast<std::size_t>(i)]}); }
    rhs_dims.insert(rhs_dims.begin() + nb, rhs_c.begin(), rhs_c.end());
    auto shuffle = [&](std::vector<Logical>& v) {
        for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(i) - 1))]);
    };
    if (level == 1) {
        if (rng.chance(30)) std::reverse(lhs_dims.begin(), lhs_dims.end());  // x^T
        if (rng.chance(30)) std::reverse(rhs_dims.begin(), rhs_dims.end());  // w^T
    } else if (level == 2) {
        if (rng.chance(40)) std::reverse(lhs_dims.begin() + nb, lhs_dims.end());
        if (rng.chance(40)) std::reverse(rhs_dims.begin() + nb, rhs_dims.end());
        if (nb == 1 && rng.chance(30)) std::rotate(rhs_dims.begin(), rhs_dims.begin() + 1, rhs_dims.end());  // batch not first
    } else {
        shuffle(lhs_dims);
        shuffle(rhs_dims);
    }
    auto find = [](const std::vector<Logical>& v, char role, int index) {
        for (std::size_t i = 0; i < v.size(); ++i)
            if (v[i].role == role && v[i].index == index) return static_cast<std::int64_t>(i);
        return std::int64_t{-1};
    };
    for (const auto& l : lhs_dims) d.lhs.push_back(l.size);
    for (const auto& r : rhs_dims) d.rhs.push_back(r.size);
    for (int i = 0; i < nb; ++i) { d.dims.lhs_batch.push_back(find(lhs_dims, 'b', i)); d.dims.rhs_batch.push_back(find(rhs_dims, 'b', i)); }
    for (int i = 0; i < nc; ++i) { d.dims.lhs_contracting.push_back(find(lhs_dims, 'c', i)); d.dims.rhs_contracting.push_back(find(rhs_dims, 'c', i)); }
    d.shape = ir::dot_general_shape(d.lhs, d.rhs, d.dims);
    d.full = print_dot(d, false);
    d.text = print_dot(d, true);
    return d;
}

std::string pairs_text(const std::vector<std::int64_t>& l, const std::vector<std::int64_t>& r) {
    return "[" + joined(l, ", ") + "] x [" + joined(r, ", ") + "]";
}

Question d1(const std::string& kind, int level, std::uint64_t seed) {
    const D1Case d = d1_case(kind, level, seed);
    Question q;
    q.drill = "D1";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    q.code = d.text;
    q.code_unmasked = d.full;
    q.code_language = d.format;
    q.givens = {{"syntax", d.format == "jaxpr" ? "jaxpr" : d.format == "stablehlo" ? "StableHLO" : "HLO"},
                {"the dot", "the one that defines " + d.result}};
    if (!d.source.empty()) q.givens.push_back({"from", d.source + " (assets/drills/ir)"});
    q.prompt = "Decode this dot_general: its output shape, its FLOPs, and which dimensions of each operand contract.";
    q.fields = {Field{"shape", "output shape", FieldType::shape, "", {}, 0, "", ""},
                Field{"flops", "FLOPs", FieldType::count, "FLOP", {}, 0.01, "", ""},
                Field{"contract", "contracting dims, lhs x rhs", FieldType::dims, "", {}, 0, "", ""}};
    q.expected["shape"] = "(" + joined(d.shape.output, ", ") + ")";
    q.expected_dims["shape"] = d.shape.output;
    q.expected["flops"] = count_text(static_cast<double>(d.shape.flops));
    q.expected_value["flops"] = static_cast<double>(d.shape.flops);
    q.expected["contract"] = pairs_text(d.dims.lhs_contracting, d.dims.rhs_contracting);
    q.expected_dims["contract_lhs"] = d.dims.lhs_contracting;
    q.expected_dims["contract_rhs"] = d.dims.rhs_contracting;
    return q;
}

std::vector<Step> d1_steps(const Question& q) {
    const D1Case d = d1_case(q.kind, q.level, q.seed);
    std::vector<Step> steps;
    const std::string how = d.format == "jaxpr" ? "dimension_numbers=((lhs contracting, rhs contracting), (lhs batch, rhs batch))"
                            : d.format == "stablehlo" ? "batching_dims = lhs x rhs, contracting_dims = lhs x rhs"
                                                      : "lhs_batch_dims, lhs_contracting_dims, rhs_batch_dims, rhs_contracting_dims";
    steps.push_back({"Read the dimension numbers (" + how + "): contracting " +
                         pairs_text(d.dims.lhs_contracting, d.dims.rhs_contracting) + ", batch " +
                         pairs_text(d.dims.lhs_batch, d.dims.rhs_batch) + ".", ""});
    steps.push_back({"Operands: lhs (" + joined(d.lhs, ", ") + "), rhs (" + joined(d.rhs, ", ") + ").", ""});
    std::string pairs;
    for (std::size_t i = 0; i < d.dims.lhs_contracting.size(); ++i)
        pairs += (i ? ", " : "") + std::string("lhs ") + std::to_string(d.dims.lhs_contracting[i]) + " with rhs " +
                 std::to_string(d.dims.rhs_contracting[i]) + " (" + std::to_string(d.lhs[static_cast<std::size_t>(d.dims.lhs_contracting[i])]) + ")";
    steps.push_back({"Contracting pairs, summed away: " + pairs + ".", std::to_string(d.shape.contracting)});
    if (!d.dims.lhs_batch.empty())
        steps.push_back({"Batch dims, kept and matched pairwise: " + pairs_text(d.dims.lhs_batch, d.dims.rhs_batch) + ".",
                         std::to_string(d.shape.batch)});
    steps.push_back({"Free dims, kept: the lhs's and the rhs's remaining dims, in order.",
                     std::to_string(d.shape.lhs_free) + " x " + std::to_string(d.shape.rhs_free)});
    steps.push_back({"Output = batch dims (lhs order), then lhs free, then rhs free.", "(" + joined(d.shape.output, ", ") + ")"});
    steps.push_back({"FLOPs = 2 x batch x lhs free x rhs free x contracting = 2 x " + std::to_string(d.shape.batch) + " x " +
                         std::to_string(d.shape.lhs_free) + " x " + std::to_string(d.shape.rhs_free) + " x " +
                         std::to_string(d.shape.contracting),
                     count_text(static_cast<double>(d.shape.flops))});
    return steps;
}

const std::map<std::string, std::vector<std::string>> kKinds{
    {"D1", {"D1.jaxpr", "D1.stablehlo", "D1.hlo", "D1.real"}},
    {"D2", {"D2.matmul", "D2.elementwise", "D2.reduction"}},
    {"D3", {"D3.blocks", "D3.maps", "D3.vmem"}},
    {"D4", {"D4.gather", "D4.reduce", "D4.all-to-all"}},
};

}  // namespace

const std::vector<std::string>& drill_ids() {
    static const std::vector<std::string> ids{"D1", "D2", "D3", "D4"};
    return ids;
}

const std::vector<std::string>& card_kinds(const std::string& drill) {
    const auto it = kKinds.find(drill);
    if (it == kKinds.end()) throw InputError("there is no drill '" + drill + "'");
    return it->second;
}

int max_level() { return 3; }

std::vector<std::pair<std::string, std::string>> real_dumps() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const RealDump& d : kRealDumps) out.emplace_back(d.file, d.text);
    return out;
}

Question generate(const std::string& kind, int level, std::uint64_t seed) {
    if (level < 1 || level > max_level())
        throw InputError("a drill's level is 1 to " + std::to_string(max_level()) + " (got " + std::to_string(level) + ")");
    const std::string drill = kind.substr(0, kind.find('.'));
    const auto& kinds = card_kinds(drill);
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        throw InputError("drill " + drill + " has no card kind '" + kind + "'");
    return drill == "D1" ? d1(kind, level, seed) : drill == "D2" ? d2(kind, level, seed) : drill == "D3" ? d3(kind, level, seed) : d4(kind, level, seed);
}

Check check(const Question& q, const std::map<std::string, std::string>& answers) {
    Check out;
    auto answer_of = [&](const std::string& id) {
        const auto it = answers.find(id);
        return it == answers.end() ? std::string() : it->second;
    };
    std::map<std::string, std::string> canonical;  // parsed choices, for only_when
    for (const Field& f : q.fields) {
        if (f.type != FieldType::choice) continue;
        const std::string text = answer_of(f.id);
        if (!f.only_when_field.empty()) continue;
        std::string why;
        const auto c = parse_choice(text, f, &why);
        if (!c) {
            out.refused = true;
            out.refusal = why;
            return out;
        }
        canonical[f.id] = *c;
    }
    for (const Field& f : q.fields) {
        FieldResult r;
        r.id = f.id;
        r.given = answer_of(f.id);
        r.expected = q.expected.at(f.id);
        // A field that applies only to some answers is asked when the learner's
        // answer, or the model's, needs it: a wrong "legal" still shows the reason.
        if (!f.only_when_field.empty()) {
            const bool learner_needs = canonical[f.only_when_field] == f.only_when_value;
            const bool model_needs = q.expected.at(f.only_when_field) == f.only_when_value;
            if (!model_needs) {
                r.asked = false;
                r.correct = true;
                r.read_as = trim(r.given);
                out.fields.push_back(r);
                continue;
            }
            if (!learner_needs && trim(r.given).empty()) {
                r.correct = false;
                out.fields.push_back(r);
                ++out.fields_asked;
                continue;
            }
        }
        std::string why;
        if (f.type == FieldType::choice) {
            const auto c = parse_choice(r.given, f, &why);
            if (!c) {
                out.refused = true;
                out.refusal = why;
                return out;
            }
            r.read_as = *c;
            // Several reasons may apply; any of them is right.
            std::string alternatives = "|" + r.expected + "|";
            r.correct = alternatives.find("|" + *c + "|") != std::string::npos;
        } else if (f.type == FieldType::shape) {
            const auto v = parse_shape(r.given, &why);
            if (!v) {
                out.refused = true;
                out.refusal = why;
                return out;
            }
            r.read_as = "(" + joined(*v, ", ") + ")";
            r.correct = *v == q.expected_dims.at(f.id);
        } else if (f.type == FieldType::dims) {
            const auto v = parse_dims(r.given, &why);
            if (!v) {
                out.refused = true;
                out.refusal = why;
                return out;
            }
            r.read_as = pairs_text(v->first, v->second);
            // The same pairs in any order: [1, 2] x [0, 1] is [2, 1] x [1, 0].
            std::vector<std::pair<std::int64_t, std::int64_t>> given, want;
            for (std::size_t k = 0; k < v->first.size(); ++k) given.emplace_back(v->first[k], v->second[k]);
            const auto& wl = q.expected_dims.at(f.id + "_lhs");
            const auto& wr = q.expected_dims.at(f.id + "_rhs");
            for (std::size_t k = 0; k < wl.size(); ++k) want.emplace_back(wl[k], wr[k]);
            std::sort(given.begin(), given.end());
            std::sort(want.begin(), want.end());
            r.correct = given == want;
        } else {
            const auto v = parse_number(r.given, f.type, f.unit, &why);
            if (!v) {
                out.refused = true;
                out.refusal = why;
                return out;
            }
            r.read_as = f.type == FieldType::time    ? format_time(*v)
                        : f.type == FieldType::bytes ? format_bytes(*v)
                        : f.type == FieldType::count ? count_text(*v)
                                                     : intensity_text(*v);
            auto near = [&](double want) { return std::fabs(*v - want) <= f.tolerance * std::fabs(want) + 1e-12; };
            r.correct = near(q.expected_value.at(f.id));
            // A second model's answer counts too (D4: the closed form or the simulation).
            if (const auto alt = q.expected_alt.find(f.id); alt != q.expected_alt.end()) r.correct = r.correct || near(alt->second);
        }
        ++out.fields_asked;
        if (r.correct) ++out.fields_right;
        out.fields.push_back(r);
    }
    out.correct = out.fields_right == out.fields_asked;
    out.steps = q.drill == "D1" ? d1_steps(q) : q.drill == "D2" ? d2_steps(q) : q.drill == "D3" ? d3_steps(q) : d4_steps(q);
    return out;
}

}  // namespace tpusim::drills
