// While loops in HLO: the trip count from the backend config or from the
// counter, the body costed that many times, and a lower bound said when the
// dump does not tell.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ir_samples.h"
#include "tpusim/chips.h"
#include "tpusim/fusion.h"
#include "tpusim/hlo_loops.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

using namespace tpusim;
using namespace tpusim::fusion;

namespace {

// A loop of `trips` matmuls: counter from `start`, stepping by `step`, compared by `compare`.
std::string loop_module(const std::string& start, const std::string& step, const std::string& compare,
                        const std::string& config = "") {
    return "HloModule loop\n\n"
           "%body (p: (s32[], f32[128,128])) -> (s32[], f32[128,128]) {\n"
           "  %p = (s32[], f32[128,128]) parameter(0)\n"
           "  %i = s32[] get-tuple-element(%p), index=0\n"
           "  %x = f32[128,128] get-tuple-element(%p), index=1\n"
           "  %step = s32[] constant(" +
           step +
           ")\n"
           "  %next = s32[] add(%i, %step)\n"
           "  %y = f32[128,128] dot(%x, %x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
           "  ROOT %t = (s32[], f32[128,128]) tuple(%next, %y)\n"
           "}\n\n"
           "%cond (p: (s32[], f32[128,128])) -> pred[] {\n"
           "  %p = (s32[], f32[128,128]) parameter(0)\n"
           "  %i = s32[] get-tuple-element(%p), index=0\n"
           "  %n = s32[] constant(10)\n"
           "  ROOT %c = pred[] " +
           compare +
           "\n"
           "}\n\n"
           "ENTRY %main (x: f32[128,128]) -> (s32[], f32[128,128]) {\n"
           "  %x = f32[128,128] parameter(0)\n"
           "  %zero = s32[] constant(" +
           start +
           ")\n"
           "  %init = (s32[], f32[128,128]) tuple(%zero, %x)\n"
           "  ROOT %w = (s32[], f32[128,128]) while(%init), condition=%cond, body=%body" +
           config +
           "\n"
           "}\n";
}

constexpr double dot_flops = 2.0 * 128 * 128 * 128;

HloCost cost(const std::string& text) {
    return cost_hlo_kernels(ir::parse_hlo(text), chip("v5e"));
}

}  // namespace

TEST_CASE("a loop's trip count comes from its counter", "[hlo][loops]") {
    struct Case {
        const char *start, *step, *compare;
        std::int64_t trips;
    };
    for (const Case& c :
         {Case{"0", "1", "compare(%i, %n), direction=LT", 10}, Case{"0", "1", "compare(%i, %n), direction=LE", 11},
          Case{"0", "3", "compare(%i, %n), direction=LT", 4},
          Case{"0", "1", "compare(%n, %i), direction=GT", 10},  // 10 > i is i < 10
          Case{"20", "-2", "compare(%i, %n), direction=GT", 5}, Case{"12", "1", "compare(%i, %n), direction=LT", 0},
          Case{"0", "2", "compare(%i, %n), direction=NE", 5}}) {
        INFO(c.start << " step " << c.step << " " << c.compare);
        const HloCost k = cost(loop_module(c.start, c.step, c.compare));
        REQUIRE(k.loops.size() == 1);
        CHECK(k.loops[0].trips == c.trips);
        CHECK_FALSE(k.lower_bound);
        // The body's dot and add, each run `trips` times.
        REQUIRE(k.kernels.size() == 2);
        CHECK(k.kernels[1].runs == c.trips);
        CHECK(k.kernels[1].loop == "w");
        CHECK(k.flops == static_cast<std::int64_t>(dot_flops + 1) * c.trips);
    }
}

TEST_CASE("known_trip_count in the backend config wins", "[hlo][loops]") {
    const HloCost k = cost(loop_module("0", "1", "compare(%i, %n), direction=LT",
                                       ", backend_config={\"known_trip_count\":{\"n\":\"7\"}}"));
    REQUIRE(k.loops.size() == 1);
    CHECK(k.loops[0].trips == 7);
    CHECK(k.loops[0].reason == "known_trip_count in its backend config");
}

TEST_CASE("a known_trip_count that is not a whole count is not taken", "[hlo][loops]") {
    for (const char* n : {"\"-3\"", "\"2.5\"", "\"x\""}) {
        INFO(n);
        const HloCost k = cost(loop_module("0", "1", "compare(%i, %n), direction=LT",
                                           std::string(", backend_config={\"known_trip_count\":{\"n\":") + n + "}}"));
        REQUIRE(k.loops.size() == 1);
        CHECK(k.loops[0].trips == 10);  // from the counter instead
    }
}

TEST_CASE("a loop whose body runs itself is refused, not followed forever", "[hlo][loops]") {
    std::string text = loop_module("0", "1", "compare(%i, %n), direction=LT");
    text.replace(text.find("  %y = f32[128,128] dot"), 0,
                 "  %again = (s32[], f32[128,128]) while(%p), condition=%cond, body=%body\n");
    CHECK_THROWS_WITH(cost(text), Catch::Contains("more than 32 deep"));
}

TEST_CASE("an unknown trip count counts the body once and says the total is a lower bound", "[hlo][loops]") {
    // A counter that does not step by a constant: the count is not in the dump.
    std::string text = loop_module("0", "1", "compare(%i, %n), direction=LT");
    text.replace(text.find("add(%i, %step)"), 14, "multiply(%i, %step)");
    const HloCost k = cost(text);
    REQUIRE(k.loops.size() == 1);
    CHECK(k.loops[0].trips == -1);
    CHECK(k.lower_bound);
    CHECK(k.kernels[1].runs == 1);
    const auto& said = k.provenance.assumptions;
    CHECK(std::any_of(said.begin(), said.end(),
                      [](const std::string& a) { return a.find("lower bound") != std::string::npos; }));
    CHECK_FALSE(k.optimized);  // no fusions, not scheduled
}

TEST_CASE("the real dumps' loops", "[hlo][loops][corpus]") {
    // MNIST: the loop runs while an infeed flag says so; every dot is in its body.
    const auto mnist = ir::parse_hlo(read_corpus("xla_mnist_training_loop.hlo"));
    const HloCost m = cost_hlo_kernels(mnist, chip("v5e"));
    REQUIRE(m.loops.size() == 1);
    CHECK(m.loops[0].trips == -1);
    CHECK(m.lower_bound);
    std::int64_t dots = 0;
    for (const auto& d : ir::find_dots(mnist)) dots += d.flops;
    CHECK(dots == 42790400);
    CHECK(m.flops > dots);  // the dots once, and the elementwise work beside them
    // Llama 3.1 70B: the two scanned layer loops run 80 times, counted from 0 while < 80.
    const auto llama = ir::parse_hlo(read_corpus("xla_llama31_70b_bf16_16x8.hlo"));
    const HloCost l = cost_hlo_kernels(llama, chip("v5e"));
    REQUIRE(l.loops.size() == 2);
    for (const auto& loop : l.loops) CHECK(loop.trips == 80);
    // Its three fused-attention custom calls (TransformerEngine's forward
    // and backward) hold work the dump does not show: a lower bound.
    CHECK(l.uncosted == 3);
    CHECK(l.lower_bound);
    CHECK_FALSE(l.optimized);
    // Every kernel counted its runs times: the total is their sum.
    std::int64_t total = 0;
    double time = 0;
    for (const auto& k : l.kernels) {
        total += static_cast<std::int64_t>(k.flops) * k.runs;
        time += k.time_s * static_cast<double>(k.runs);
    }
    CHECK(total == l.flops);
    CHECK(time == Approx(l.time_s));
}

TEST_CASE("a counter stepped twice a trip counts its true trips; one moved by a value says so", "[hlo][loops]") {
    std::string twice = loop_module("0", "1", "compare(%i, %n), direction=LT");
    const std::string one_step = "  %next = s32[] add(%i, %step)\n";
    twice.replace(twice.find(one_step), one_step.size(),
                  "  %half = s32[] add(%i, %step)\n  %next = s32[] add(%half, %step)\n");
    const HloCost k = cost(twice);
    REQUIRE(k.loops.size() == 1);
    CHECK(k.loops[0].trips == 5);
    CHECK(k.loops[0].reason == "its counter runs from 0 by 2 while < 10");

    std::string by_value = loop_module("0", "1", "compare(%i, %n), direction=LT");
    by_value.replace(by_value.find(one_step), one_step.size(), "  %next = s32[] multiply(%i, %step)\n");
    const HloCost m = cost(by_value);
    CHECK(m.loops[0].trips == -1);
    CHECK(m.loops[0].reason == "its body does not move the counter by constants alone");
    CHECK(m.lower_bound);
}

TEST_CASE("a custom call is listed as uncosted, its bytes counted, the totals a lower bound", "[hlo][fusion]") {
    const HloCost k = cost(
        "HloModule g\nENTRY e {\n  a = f32[64,64] parameter(0)\n  b = f32[64,64] parameter(1)\n"
        "  ROOT c = f32[64,64] custom-call(a, b), custom_call_target=\"__cublas$gemm\"\n}\n");
    REQUIRE(k.kernels.size() == 1);
    CHECK(k.kernels[0].uncosted);
    CHECK(k.kernels[0].uncosted_reason.find("'__cublas$gemm'") != std::string::npos);
    CHECK(k.kernels[0].bytes_read == 2 * 64 * 64 * 4);
    CHECK(k.uncosted == 1);
    CHECK(k.lower_bound);
    const auto& said = k.provenance.assumptions;
    CHECK(std::any_of(said.begin(), said.end(),
                      [](const std::string& a) { return a.find("left uncosted") != std::string::npos; }));
}
