// Drill D2: roofline arithmetic for a matmul, an elementwise op or a
// reduction on a chip.
#include "drills_cards.h"
#include "drills_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tpusim/error.h"
#include "tpusim/provenance.h"
#include "tpusim/roofline.h"

namespace coursework::drills::cards {

using namespace tpusim;
namespace {

struct D2Case {
    OpCost cost;
    std::string chip_id;
    std::vector<Given> givens;
    std::string flops_formula;  // "2 × M × K × N"
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
        d.givens.push_back({"shapes", (s.batch > 1 ? "B=" + std::to_string(s.batch) + "  " : "") +
                                          "M=" + std::to_string(s.m) + "  K=" + std::to_string(s.k) +
                                          "  N=" + std::to_string(s.n)});
        d.givens.push_back({"dtype", std::string(name(s.in)) + " in and out, f32 accumulation on chip"});
        const std::string b = s.batch > 1 ? "B × " : "";
        d.flops_formula = "2 × " + b + "M × K × N";
        d.bytes_formula = b + "(M × K + K × N + M × N) × " + fixed(bytes(s.in), bytes(s.in) < 1 ? 1 : 0) + " B";
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
        d.flops_formula = "elements × " + fixed(per, 0) + " operation" + (per != 1 ? "s" : "");
        d.bytes_formula = "elements × (" + std::to_string(inputs) + " in + 1 out) × " + fixed(bytes(dt), 0) + " B";
    } else {
        const std::vector<std::int64_t> shape{size(8, 14), size(8, 14)};
        const int axis = level == 1 ? 1 : static_cast<int>(rng.range(0, 1));
        const DType dt = level == 1 ? DType::bf16 : rng.pick(std::vector<DType>{DType::bf16, DType::f32});
        d.cost = reduction_cost(shape, {axis}, dt);
        d.givens.push_back({"op", "sum over axis " + std::to_string(axis)});
        d.givens.push_back({"shapes", shape_text(shape)});
        d.givens.push_back({"dtype", std::string(name(dt))});
        d.flops_formula = "one add per input element";
        d.bytes_formula = "(input + output elements) × " + fixed(bytes(dt), 0) + " B";
    }
    d.givens.push_back({"chip", c.name + " (" + c.id + ")"});
    return d;
}

}  // namespace

Question d2(const std::string& kind, int level, std::uint64_t seed) {
    const D2Case d = d2_case(kind, level, seed);
    Question q;
    q.drill = "D2";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    q.givens = d.givens;
    q.prompt =
        "The roofline floor of this op on the whole chip: its time, what bounds it, and its arithmetic intensity.";
    const Roofline r = roofline(chip(d.chip_id), d.cost);
    q.fields = {Field{"time", "time floor", FieldType::time, "µs", {}, 0.10, "", ""},
                Field{"bound", "bound", FieldType::choice, "", {"compute", "memory"}, 0, "", ""},
                Field{"intensity", "intensity", FieldType::intensity, "FLOP/B", {}, 0.10, "", ""}};
    q.expected["time"] = format_time(r.time_s);
    q.expected_value["time"] = r.time_s;
    q.expected["bound"] = std::string(bound_name(r.bound));
    q.expected["intensity"] = format_intensity(r.intensity);
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
    steps.push_back({"intensity = FLOPs / bytes", format_intensity(r.intensity)});
    steps.push_back({"the " + engine + " peak on " + c.id + " is " + format_rate(r.peak_flops, "FLOP/s") +
                         " and HBM reads " + format_rate(r.bandwidth, "B/s") + ", so the ridge is",
                     format_intensity(r.ridge)});
    steps.push_back({"compute time = FLOPs / peak", format_time(r.compute_s)});
    steps.push_back({"memory time = bytes / bandwidth", format_time(r.memory_s)});
    steps.push_back({"the floor is the larger: " + std::string(bound_name(r.bound)) + "-bound, as the intensity is " +
                         (r.intensity >= r.ridge ? "above" : "below") + " the ridge",
                     format_time(r.time_s)});
    return steps;
}

}  // namespace coursework::drills::cards
