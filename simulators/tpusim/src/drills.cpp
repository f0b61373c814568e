#include "tpusim/drills.h"

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

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(const std::string& s) {
    std::string t = s;
    // Non-breaking and thin spaces count as spaces.
    for (const char* sp : {"\xc2\xa0", "\xe2\x80\x89", "\xe2\x80\xaf"}) {
        for (std::size_t at = t.find(sp); at != std::string::npos; at = t.find(sp)) t.replace(at, std::string(sp).size(), " ");
    }
    const auto first = t.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const auto last = t.find_last_not_of(" \t\r\n");
    return t.substr(first, last - first + 1);
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

const std::map<std::string, std::vector<std::string>> kKinds{
    {"D2", {"D2.matmul", "D2.elementwise", "D2.reduction"}},
    {"D3", {"D3.blocks", "D3.maps", "D3.vmem"}},
    {"D4", {"D4.gather", "D4.reduce", "D4.all-to-all"}},
};

}  // namespace

const std::vector<std::string>& drill_ids() {
    static const std::vector<std::string> ids{"D2", "D3", "D4"};
    return ids;
}

const std::vector<std::string>& card_kinds(const std::string& drill) {
    const auto it = kKinds.find(drill);
    if (it == kKinds.end()) throw InputError("there is no drill '" + drill + "'");
    return it->second;
}

int max_level() { return 3; }

Question generate(const std::string& kind, int level, std::uint64_t seed) {
    if (level < 1 || level > max_level())
        throw InputError("a drill's level is 1 to " + std::to_string(max_level()) + " (got " + std::to_string(level) + ")");
    const std::string drill = kind.substr(0, kind.find('.'));
    const auto& kinds = card_kinds(drill);
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        throw InputError("drill " + drill + " has no card kind '" + kind + "'");
    return drill == "D2" ? d2(kind, level, seed) : drill == "D3" ? d3(kind, level, seed) : d4(kind, level, seed);
}

namespace {

struct Unit {
    const char* text;
    double scale;
};

const std::vector<Unit> kTimeUnits{{"s", 1},       {"sec", 1},       {"ms", 1e-3},     {"\xc2\xb5s", 1e-6},
                                   {"\xce\xbcs", 1e-6}, {"us", 1e-6}, {"ns", 1e-9}};
const std::vector<Unit> kByteUnits{{"b", 1},          {"bytes", 1},     {"byte", 1},      {"kib", 1024.0},
                                   {"mib", 1048576.0}, {"gib", 1073741824.0}, {"kb", 1e3}, {"mb", 1e6},
                                   {"gb", 1e9},       {"k", 1024.0},     {"m", 1048576.0}};
const std::vector<Unit> kIntensityUnits{{"x", 1}, {"\xc3\x97", 1}, {"flop/b", 1}, {"flops/b", 1}, {"flop/byte", 1},
                                        {"flops/byte", 1}};

double unit_scale(const std::vector<Unit>& units, const std::string& unit) {
    for (const Unit& u : units)
        if (lower(unit) == u.text) return u.scale;
    return 0;
}

const char* what_of(FieldType type) {
    switch (type) {
    case FieldType::time: return "a time";
    case FieldType::bytes: return "a size in bytes";
    case FieldType::intensity: return "an intensity";
    default: return "an answer";
    }
}

const char* example_of(FieldType type) {
    switch (type) {
    case FieldType::time: return "write it like 4.1 ms or 4100 \xc2\xb5s";
    case FieldType::bytes: return "write it like 4,718,592 or 4.5 MiB";
    case FieldType::intensity: return "write it like 240 or 240 FLOP/B";
    default: return "";
    }
}

}  // namespace

std::optional<double> parse_number(const std::string& raw, FieldType type, const std::string& unit, std::string* why) {
    const std::string text = trim(raw);
    auto refuse = [&](const std::string& sentence) -> std::optional<double> {
        if (why) *why = sentence;
        return std::nullopt;
    };
    if (text.empty()) return refuse(std::string("Give ") + what_of(type) + " before you check.");
    // The number: digits with an optional point, thousands commas (a comma
    // followed by exactly three digits), an optional exponent.
    std::string digits;
    std::size_t i = 0;
    bool point = false;
    while (i < text.size()) {
        const char ch = text[i];
        if (std::isdigit(static_cast<unsigned char>(ch))) {
            digits += ch;
            ++i;
        } else if (ch == '.' && !point) {
            point = true;
            digits += ch;
            ++i;
        } else if ((ch == ',' || ch == '_') && !point && !digits.empty()) {
            std::size_t n = 0;
            while (i + 1 + n < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1 + n]))) ++n;
            if (n != 3)
                return refuse("\u201c" + text + "\u201d is not " + what_of(type) + " I can read: " + example_of(type) + ".");
            ++i;
        } else if ((ch == 'e' || ch == 'E') && !digits.empty() && i + 1 < text.size() &&
                   (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' || text[i + 1] == '+')) {
            digits += 'e';
            ++i;
            if (text[i] == '-' || text[i] == '+') digits += text[i++];
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) digits += text[i++];
        } else {
            break;
        }
    }
    if (digits.empty() || digits == ".")
        return refuse("\u201c" + text + "\u201d is not " + what_of(type) + " I can read: " + example_of(type) + ".");
    const double value = std::strtod(digits.c_str(), nullptr);
    const std::string rest = trim(text.substr(i));
    double scale = 1;
    if (rest.empty()) {
        scale = type == FieldType::time ? unit_scale(kTimeUnits, unit) : 1;
        if (scale == 0) scale = 1;
    } else {
        const auto& units = type == FieldType::time ? kTimeUnits : type == FieldType::bytes ? kByteUnits : kIntensityUnits;
        scale = unit_scale(units, rest);
        if (scale == 0)
            return refuse("\u201c" + rest + "\u201d is not a unit for " + what_of(type) + ": " + example_of(type) + ".");
    }
    if (!std::isfinite(value)) return refuse("\u201c" + text + "\u201d is too large to be " + what_of(type) + ".");
    return value * scale;
}

std::optional<std::string> parse_choice(const std::string& raw, const Field& field, std::string* why) {
    static const std::map<std::string, std::string> aliases{
        {"c", "compute"}, {"compute-bound", "compute"}, {"compute bound", "compute"}, {"mxu", "compute"},
        {"vpu", "compute"}, {"flops", "compute"},
        {"m", "memory"}, {"mem", "memory"}, {"memory-bound", "memory"}, {"memory bound", "memory"},
        {"hbm", "memory"}, {"bandwidth", "memory"},
        {"y", "yes"}, {"legal", "yes"}, {"true", "yes"}, {"ok", "yes"},
        {"n", "no"}, {"illegal", "no"}, {"false", "no"}, {"not legal", "no"},
        {"block", "shape"}, {"tile", "shape"}, {"tiling", "shape"}, {"(8,128)", "shape"}, {"8,128", "shape"},
        {"block shape", "shape"},
        {"missing", "coverage"}, {"misses", "coverage"}, {"cover", "coverage"}, {"gap", "coverage"},
        {"unwritten", "coverage"},
        {"races", "race"}, {"overlap", "race"}, {"parallel", "race"}, {"revisit", "race"},
        {"memory limit", "vmem"}, {"over", "vmem"}, {"limit", "vmem"}, {"too big", "vmem"}, {"oom", "vmem"},
    };
    std::string text = lower(trim(raw));
    if (text.empty()) {
        if (why) *why = "Give the " + field.label + " before you check.";
        return std::nullopt;
    }
    for (const std::string& choice : field.choices)
        if (text == choice) return choice;
    const auto it = aliases.find(text);
    if (it != aliases.end() &&
        std::find(field.choices.begin(), field.choices.end(), it->second) != field.choices.end())
        return it->second;
    std::string list;
    for (std::size_t k = 0; k < field.choices.size(); ++k)
        list += (k == 0 ? "" : k + 1 == field.choices.size() ? " or " : ", ") + field.choices[k];
    if (why) *why = "The " + field.label + " is one of " + list + ".";
    return std::nullopt;
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
        } else {
            const auto v = parse_number(r.given, f.type, f.unit, &why);
            if (!v) {
                out.refused = true;
                out.refusal = why;
                return out;
            }
            r.read_as = f.type == FieldType::time ? format_time(*v)
                        : f.type == FieldType::bytes ? format_bytes(*v)
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
    out.steps = q.drill == "D2" ? d2_steps(q) : q.drill == "D3" ? d3_steps(q) : d4_steps(q);
    return out;
}

}  // namespace tpusim::drills
