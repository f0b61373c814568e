// The fusion pass on the built-in graphs, counted by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "ir_samples.h"
#include "tpusim/collective.h"
#include "tpusim/error.h"
#include "tpusim/fusion.h"
#include "tpusim/mesh.h"

using namespace tpusim;
using namespace tpusim::fusion;

namespace {

std::vector<std::string> names(const Graph& g, const std::vector<int>& ids) {
    std::vector<std::string> out;
    for (int id : ids) out.push_back(g.node(id).name);
    return out;
}

std::vector<FusionKind> kinds(const std::vector<Kernel>& ks) {
    std::vector<FusionKind> out;
    for (const auto& k : ks) out.push_back(k.kind);
    return out;
}

double total_bytes(const std::vector<Kernel>& ks) {
    double b = 0;
    for (const auto& k : ks) b += k.bytes_read + k.bytes_written;
    return b;
}

}  // namespace

TEST_CASE("mlp: each dot takes its bias and activation as an output fusion", "[fusion]") {
    const Graph g = example("mlp");
    const FusionResult r = fuse(g, chip("v5e"));
    // Unfused: dot, broadcast, add, broadcast(0), max, dot, broadcast, add.
    REQUIRE(r.before.size() == 8);
    REQUIRE(r.after.size() == 2);
    CHECK(kinds(r.after) == std::vector<FusionKind>{FusionKind::output, FusionKind::output});
    CHECK(names(g, r.after[0].nodes) == std::vector<std::string>{"h", "b1_rows", "h_bias", "zeros", "relu"});
    CHECK(names(g, r.after[1].nodes) == std::vector<std::string>{"o", "b2_rows", "y"});
    // bf16 bytes: x 1 MiB, w1 and w2 8 MiB each, b1 8 KiB, b2 2 KiB, h 4 MiB, o 1 MiB.
    // Before: h 13 MiB, b1_rows 4 MiB + 8 KiB, h_bias 12 MiB, zeros 4 MiB, relu 12 MiB,
    //         o 13 MiB, b2_rows 1 MiB + 2 KiB, y 3 MiB  = 62 MiB + 10 KiB.
    CHECK(r.bytes_before == 62.0 * 1048576 + 10240);
    // After: fusion reads x, w1, b1 and writes relu (13 MiB + 8 KiB);
    //        fusion.1 reads relu, w2, b2 and writes y (13 MiB + 2 KiB).
    CHECK(r.after[0].bytes_read == 9.0 * 1048576 + 8192);
    CHECK(r.after[0].bytes_written == 4.0 * 1048576);
    CHECK(r.bytes_after == 26.0 * 1048576 + 10240);
    // FLOPs: two dots of 2*512*4096*1024, plus add, max (512*4096 each) and add (512*1024).
    CHECK(r.flops == 2 * 4294967296.0 + 2 * 2097152.0 + 524288.0);
    // Each kernel is timed by the roofline: the fused layer is MXU-bound.
    const Chip& c = chip("v5e");
    const Kernel& k = r.after[0];
    CHECK(k.time_s ==
          Approx(std::max(k.flops / c.peak_bf16.value, (k.bytes_read + k.bytes_written) / c.hbm_bandwidth.value)));
    CHECK(r.time_after < r.time_before);
    CHECK(r.provenance.kind == Kind::predicted);
    REQUIRE(r.notes.size() == 1);
    CHECK(r.notes[0].find("'relu'") != std::string::npos);
}

TEST_CASE("softmax: two input fusions and two loop fusions", "[fusion]") {
    const Graph g = example("softmax");
    const FusionResult r = fuse(g, chip("v5e"));
    REQUIRE(r.before.size() == 7);
    REQUIRE(r.after.size() == 4);
    // The lone reductions are single ops; exp has two consumers (row_sum and probs)
    // and is expensive, so it is written once and read twice.
    CHECK(kinds(r.after) ==
          std::vector<FusionKind>{FusionKind::single, FusionKind::loop, FusionKind::single, FusionKind::loop});
    CHECK(names(g, r.after[1].nodes) == std::vector<std::string>{"row_max_b", "shifted", "exp"});
    CHECK(names(g, r.after[3].nodes) == std::vector<std::string>{"row_sum_b", "probs"});
    // f32 [1024,4096] is 16 MiB, a row vector 4 KiB.
    // Before: 16M+4K, 4K+16M, 48M, 32M, 16M+4K, 4K+16M, 48M = 192 MiB + 16 KiB.
    CHECK(r.bytes_before == 192.0 * 1048576 + 16384);
    // After: 16M+4K, (16M+4K)+16M, 16M+4K, (16M+4K)+16M = 96 MiB + 16 KiB.
    CHECK(r.bytes_after == 96.0 * 1048576 + 16384);
    CHECK(r.bytes_after == total_bytes(r.after));
}

TEST_CASE("attention is fused but never into streaming attention", "[fusion]") {
    const Graph g = example("attention");
    const FusionResult r = fuse(g, chip("v5e"));
    REQUIRE(r.after.size() == 6);
    CHECK(kinds(r.after) == std::vector<FusionKind>{FusionKind::output, FusionKind::single, FusionKind::loop,
                                                    FusionKind::single, FusionKind::loop, FusionKind::single});
    CHECK(names(g, r.after[0].nodes) == std::vector<std::string>{"scores", "scale_b", "scaled"});
    // The scaled scores (f32 [8,1024,1024], 32 MiB) are written once and read by
    // two kernels (row_max and the exp fusion); exp likewise. Hand count:
    //   q,k 4 MiB -> 32 MiB; 32 MiB -> 32 KiB; 32 MiB + 32 KiB -> 32 MiB; 32 MiB -> 32 KiB;
    //   32 MiB + 32 KiB -> 16 MiB (bf16 probs); 16 MiB + v 2 MiB -> 4 MiB (f32 out).
    CHECK(r.bytes_after == 245497856.0);
    CHECK(r.after[0].bytes_written == 33554432.0);
    // The explanation names the score matrix, the reduction between the dots,
    // and that fusion cannot restructure the algorithm.
    const auto note = std::find_if(r.notes.begin(), r.notes.end(),
                                   [](const std::string& n) { return n.starts_with("Not streaming attention"); });
    REQUIRE(note != r.notes.end());
    CHECK(note->find("'scaled' [8,1024,1024] 32 MiB") != std::string::npos);
    CHECK(note->find("softmax reduction over each full row") != std::string::npos);
    CHECK(note->find("cannot restructure the algorithm into an online-softmax loop") != std::string::npos);
    // No graph without a reduction between two dots gets that note.
    for (const char* other : {"mlp", "softmax", "layernorm"})
        for (const auto& n : fuse(example(other), chip("v5e")).notes) CHECK(!n.starts_with("Not streaming"));
}

TEST_CASE("layernorm: a shared cheap broadcast is recomputed, a shared subtract is not", "[fusion]") {
    const Graph g = example("layernorm");
    const FusionResult r = fuse(g, chip("v5e"));
    REQUIRE(r.after.size() == 4);
    // inv_d (a broadcast of a constant) feeds mean and var: copied into both kernels.
    CHECK(names(g, r.after[1].recomputed) == std::vector<std::string>{"inv_d"});
    CHECK(names(g, r.after[3].recomputed) == std::vector<std::string>{"inv_d"});
    // centered = x - mean feeds squared and normed in different kernels and reads
    // more than parameters: it goes through HBM.
    CHECK(g.node(r.after[1].nodes.back()).name == "centered");
    CHECK(kinds(r.after) ==
          std::vector<FusionKind>{FusionKind::single, FusionKind::loop, FusionKind::input, FusionKind::loop});
    // x is 16 MiB, row vectors 4 KiB, gamma and beta 16 KiB each:
    // (16M + 4K) + (16M + 4K + 16M) + (16M + 4K) + (16M + 4K + 32K + 16M).
    CHECK(r.bytes_after == 100712448.0);
}

TEST_CASE("graphs refuse bad construction", "[fusion]") {
    Graph g("bad");
    const int a = g.parameter("a", {8, 16}, DType::f32);
    const int b = g.parameter("b", {16, 8}, DType::f32);
    CHECK_THROWS_AS(g.elementwise("c", "add", {a, b}), InputError);
    CHECK_THROWS_AS(g.reduce("r", "reduce_sum", a, {2}), InputError);
    CHECK_THROWS_AS(g.dot("d", a, a, {{1}, {0}, {}, {}}, DType::f32), InputError);
    CHECK_THROWS_AS(g.parameter("z", {0, 4}, DType::f32), InputError);
    CHECK_THROWS_AS(g.mark_output(99), InputError);
    CHECK_THROWS_AS(example("conv"), InputError);
    CHECK_THROWS_AS(fuse(Graph("empty"), chip("v5e")), InputError);
}

TEST_CASE("an HLO dump is inlined and fused again", "[fusion]") {
    // mlp.hlo: XLA made two output fusions; unfused there are 8 ops, and the pass
    // rebuilds the same two fusions.
    const Graph g = graph_from_hlo(tpusim::ir::parse_hlo(read_sample("mlp.hlo")));
    const FusionResult r = fuse(g, chip("v5e"));
    CHECK(r.before.size() == 8);
    REQUIRE(r.after.size() == 2);
    CHECK(kinds(r.after) == std::vector<FusionKind>{FusionKind::output, FusionKind::output});
    CHECK(names(g, r.after[1].nodes) == std::vector<std::string>{"dot.4", "broadcast.7", "add.5"});
    // FLOPs: 2*32*512*128 twice, add and max over [32,512], add over [32,128].
    CHECK(r.flops == 2 * 4194304.0 + 2 * 16384.0 + 4096.0);
    for (const auto& k : r.after)
        for (int id : k.recomputed) CHECK(std::find(k.nodes.begin(), k.nodes.end(), id) == k.nodes.end());
    // Attention from its optimized dump keeps the note too.
    const FusionResult a = fuse(graph_from_hlo(tpusim::ir::parse_hlo(read_sample("attention.hlo"))), chip("v5e"));
    CHECK(std::any_of(a.notes.begin(), a.notes.end(),
                      [](const std::string& n) { return n.starts_with("Not streaming attention"); }));
    CHECK_THROWS_AS(graph_from_hlo(tpusim::ir::parse(read_sample("mlp.jaxpr"))), InputError);
}

TEST_CASE("the MLP's optimized HLO costs as its two output fusions", "[fusion][hlo]") {
    const Chip& v5e = chip("v5e");
    const HloCost cost = cost_hlo_kernels(tpusim::ir::parse_hlo(read_sample("mlp.hlo")), v5e);
    REQUIRE(cost.kernels.size() == 2);  // parameters are free
    const HloKernel& first = cost.kernels[0];
    CHECK(first.name == "fusion");
    CHECK(first.kind == "output");
    CHECK(first.computation == "fused_computation");
    CHECK(first.position.line == 28);
    CHECK(first.engine == Engine::mxu);
    // Reads x f32[32,128], w1 f32[128,512], b1 f32[512]; writes f32[32,512].
    CHECK(first.bytes_read == 4.0 * (32 * 128 + 128 * 512 + 512));
    CHECK(first.bytes_written == 4.0 * 32 * 512);
    // The dot 2x32x512x128, then the bias add and the relu max, one per element.
    CHECK(first.flops == 2.0 * 32 * 512 * 128 + 2.0 * 32 * 512);
    const HloKernel& second = cost.kernels[1];
    CHECK(second.kind == "output");
    CHECK(second.bytes_read == 4.0 * (32 * 512 + 512 * 128 + 128));
    CHECK(second.bytes_written == 4.0 * 32 * 128);
    CHECK(second.flops == 2.0 * 32 * 128 * 512 + 32.0 * 128);
    for (const HloKernel& k : cost.kernels) {
        const Roofline r =
            roofline(v5e, generic_cost(k.flops, k.bytes_read + k.bytes_written, DType::f32, Engine::mxu));
        CHECK(k.time_s == Approx(r.time_s));
        CHECK(k.bound == r.bound);
    }
    CHECK(cost.time_s == Approx(first.time_s + second.time_s));
    CHECK(cost.provenance.kind == Kind::predicted);
    CHECK(cost.provenance.chip == "v5e");
}

TEST_CASE("every shipped HLO dump costs, kernel by kernel", "[fusion][hlo]") {
    for (const char* name :
         {"matmul.hlo", "batched_matmul.hlo", "scores.hlo", "mlp.hlo", "attention.hlo", "layernorm.hlo"}) {
        INFO(name);
        const auto module = tpusim::ir::parse_hlo(read_sample(name));
        const HloCost cost = cost_hlo_kernels(module, chip("v6e"));
        CHECK(!cost.kernels.empty());
        double sum = 0;
        for (const HloKernel& k : cost.kernels) {
            CHECK(k.time_s > 0);
            CHECK(k.bytes_written > 0);
            sum += k.time_s;
        }
        CHECK(cost.time_s == Approx(sum));
    }
    CHECK_THROWS_AS(cost_hlo_kernels(tpusim::ir::parse_jaxpr(read_sample("mlp.jaxpr")), chip("v5e")), InputError);
}

TEST_CASE("a collective is timed on the ICI, its -done free", "[fusion][hlo]") {
    // Two all-reduces among the 8 chips of one group, a v5e line of 8 (v5e
    // wraps only axes of 16): a scalar, latency-bound, and 64 MiB of f32;
    // and an asynchronous all-gather to 8 x 1 MiB, whose -done only waits.
    const char* text = R"(HloModule jit_step, is_scheduled=true

ENTRY %main (p0: f32[], p1: f32[16777216], p2: bf16[524288]) -> (f32[], f32[16777216], bf16[4194304]) {
  %p0 = f32[] parameter(0)
  %p1 = f32[16777216]{0} parameter(1)
  %p2 = bf16[524288]{0} parameter(2)
  %all-reduce = f32[] all-reduce(f32[] %p0), channel_id=1, replica_groups=[1,8]<=[8], use_global_device_ids=true, to_apply=%add
  %all-reduce.1 = f32[16777216]{0} all-reduce(f32[16777216]{0} %p1), channel_id=2, replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=%add
  %all-gather-start = (bf16[524288]{0}, bf16[4194304]{0}) all-gather-start(bf16[524288]{0} %p2), channel_id=3, replica_groups=[1,8]<=[8], dimensions={0}
  %all-gather-done = bf16[4194304]{0} all-gather-done((bf16[524288]{0}, bf16[4194304]{0}) %all-gather-start)
  ROOT %tuple = (f32[], f32[16777216]{0}, bf16[4194304]{0}) tuple(f32[] %all-reduce, f32[16777216]{0} %all-reduce.1, bf16[4194304]{0} %all-gather-done)
}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}
)";
    const Chip& v5e = chip("v5e");
    const HloCost cost = cost_hlo_kernels(tpusim::ir::parse_hlo(text), v5e);
    const auto expected = [&](CollectiveKind kind, double bytes) {
        CollectiveSpec spec;
        spec.kind = kind;
        spec.axes = {0};
        spec.bytes = bytes;
        return collective(make_mesh(v5e, {8}), spec).time_s;
    };
    std::map<std::string, const HloKernel*> by;
    for (const HloKernel& k : cost.kernels) by[k.name] = &k;
    REQUIRE(by.size() == 4);
    const HloKernel& scalar = *by.at("all-reduce");
    CHECK(scalar.time_s == Approx(expected(CollectiveKind::all_reduce, 4)));
    CHECK(scalar.time_s > 5e-6);  // hops of a microsecond each, not 8 bytes of HBM
    CHECK(scalar.ici.find("among 8 chips, laid as one line of 8, latency-bound") != std::string::npos);
    CHECK(by.at("all-reduce.1")->time_s == Approx(expected(CollectiveKind::all_reduce, 64.0 * 1024 * 1024)));
    CHECK(by.at("all-reduce.1")->ici.find("bandwidth-bound") != std::string::npos);
    // The all-gather's V is what each chip holds after it: 8 MiB.
    CHECK(by.at("all-gather-start")->time_s == Approx(expected(CollectiveKind::all_gather, 8.0 * 1024 * 1024)));
    const HloKernel& done = *by.at("all-gather-done");
    CHECK(done.time_s == 0);
    CHECK(done.bytes_read + done.bytes_written == 0);
    CHECK(cost.collectives == 3);
    CHECK(cost.time_s == Approx(scalar.time_s + by.at("all-reduce.1")->time_s + by.at("all-gather-start")->time_s));
    CHECK(std::any_of(cost.provenance.assumptions.begin(), cost.provenance.assumptions.end(),
                      [](const std::string& a) { return a.starts_with("3 collectives are timed on the ICI"); }));
}

TEST_CASE("pairs of chips two apart share the links between, as XLA's strided groups lay them", "[fusion][hlo]") {
    // jax.lax.psum over one axis of a (2, 4) device mesh on a v6e-8: four
    // pairs {i, i+4}. Device ids run along the slice's short axis first, so
    // each pair's chips are two apart along the axis of four, and the two
    // pairs of a row cross the middle link both: twice a neighbour's time.
    const auto module = [](const std::string& groups) {
        return R"(HloModule jit__psum, is_scheduled=true

ENTRY %main (p0: f32[16777216]) -> f32[16777216] {
  %p0 = f32[16777216]{0} parameter(0)
  ROOT %all-reduce = f32[16777216]{0} all-reduce(f32[16777216]{0} %p0), channel_id=1, replica_groups=)" +
               groups + R"(, use_global_device_ids=true, to_apply=%add
}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}
)";
    };
    const Chip& v6e = chip("v6e");
    const double bytes = 64.0 * 1024 * 1024;
    const HloCost apart = cost_hlo_kernels(tpusim::ir::parse_hlo(module("[4,2]<=[2,4]T(1,0)")), v6e);
    REQUIRE(apart.kernels.size() == 1);
    const HloKernel& k = apart.kernels.front();
    const PairExchange pairs = pair_exchange(make_mesh(v6e, {2, 4}), 1, 2, CollectiveKind::all_reduce, bytes);
    CHECK(k.time_s == Approx(pairs.time_s));
    CHECK(pairs.exchanges == 2);
    CHECK(k.ici.find("between pairs 2 chips apart along an axis of 4 of a 2x4 slice") != std::string::npos);

    // Neighbours share no link: each pair is a line of two on its own.
    const HloCost near = cost_hlo_kernels(tpusim::ir::parse_hlo(module("{{0,1},{2,3},{4,5},{6,7}}")), v6e);
    REQUIRE(near.kernels.size() == 1);
    CHECK(near.kernels.front().ici.find("among 2 chips, laid as one line of 2") != std::string::npos);
    CHECK(k.time_s > 1.8 * near.kernels.front().time_s);
}

TEST_CASE("a collective too large to simulate is priced by its closed form", "[fusion][hlo]") {
    // A whole v5p pod in one group: the simulation refuses that many chunk
    // hops, and the kernel still gets the closed form's time.
    const char* text = R"(HloModule m, is_scheduled=true

ENTRY %main (p0: f32[1048576]) -> f32[1048576] {
  %p0 = f32[1048576]{0} parameter(0)
  ROOT %all-reduce = f32[1048576]{0} all-reduce(f32[1048576]{0} %p0), replica_groups=[1,8960]<=[8960], to_apply=%add
}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}
)";
    const HloCost cost = cost_hlo_kernels(tpusim::ir::parse_hlo(text), chip("v5p"));
    REQUIRE(cost.kernels.size() == 1);
    const HloKernel& k = cost.kernels.front();
    CHECK(k.ici.find("by the closed form") != std::string::npos);
    CHECK(k.time_s > 8959 * chip("v5p").ici_hop_latency.value / 2);  // at least the hops around half the ring
}

TEST_CASE("hlo cost: a ragged dot is an MXU kernel of its groups' FLOPs", "[fusion][hlo]") {
    const char* text = R"(HloModule moe
ENTRY %e (a: bf16[1024,512], b: bf16[8,512,256], c: s32[8]) -> bf16[1024,256] {
  %a = bf16[1024,512]{1,0} parameter(0)
  %b = bf16[8,512,256]{2,1,0} parameter(1)
  %c = s32[8]{0} parameter(2)
  ROOT %d = bf16[1024,256]{1,0} ragged-dot(%a, %b, %c), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}
}
)";
    const HloCost cost = cost_hlo_kernels(tpusim::ir::parse_hlo(text), chip("v5e"));
    REQUIRE(cost.kernels.size() == 1);
    CHECK(cost.kernels[0].engine == Engine::mxu);
    CHECK(cost.kernels[0].flops == 2.0 * 1024 * 512 * 256);
    CHECK(cost.uncosted == 0);
    CHECK_FALSE(cost.lower_bound);
}
