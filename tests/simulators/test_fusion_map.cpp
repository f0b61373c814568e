// EX·04's fusion map: the fusions as toggles, the totals they give, and the
// sentence at every kernel boundary.
#include <catch2/catch.hpp>

#include <algorithm>

#include "ir_samples.h"
#include "tpusim/error.h"
#include "tpusim/fusion_map.h"
#include "tpusim/ir.h"

using namespace tpusim;
using namespace tpusim::fusion;

namespace {

bool has_blocker(const FusionMap& m, const std::string& start) {
    return std::any_of(m.blockers().begin(), m.blockers().end(),
                       [&](const Blocker& b) { return b.why.starts_with(start); });
}

}  // namespace

TEST_CASE("fusion map: every fusion on is the pass's result, every one off is one kernel per op", "[fusion_map]") {
    for (auto name : example_names()) {
        INFO(name);
        FusionMap m(example(name), chip("v5e"));
        REQUIRE(!m.groups().empty());
        CHECK(m.enabled_count() == static_cast<int>(m.groups().size()));
        CHECK(m.current().bytes == Approx(m.automatic().bytes));
        CHECK(m.current().time_s == Approx(m.automatic().time_s));
        CHECK(m.current().kernels == m.automatic().kernels);
        m.set_all(false);
        CHECK(m.enabled_count() == 0);
        CHECK(m.current().bytes == Approx(m.unfused().bytes));
        CHECK(m.current().time_s == Approx(m.unfused().time_s));
        CHECK(m.current().kernels == m.unfused().kernels);
        CHECK(m.unfused().bytes > m.automatic().bytes);
    }
}

TEST_CASE("fusion map: splitting one fusion costs exactly its members' extra traffic", "[fusion_map]") {
    FusionMap m(example("layernorm"), chip("v5e"));
    const MapTotals all = m.current();
    for (int g = 0; g < static_cast<int>(m.groups().size()); ++g) {
        const MapGroup& grp = m.groups()[static_cast<std::size_t>(g)];
        m.set_enabled(g, false);
        CHECK_FALSE(m.enabled(g));
        if (grp.recomputed.empty()) {
            CHECK(m.current().bytes - all.bytes == Approx(grp.bytes_split - grp.bytes_fused));
            CHECK(m.current().kernels - all.kernels == static_cast<int>(grp.nodes.size()) - 1);
        }
        CHECK(m.current().bytes > all.bytes);
        m.set_enabled(g, true);
        CHECK(m.current().bytes == Approx(all.bytes));
    }
    for (int id = 0; id < static_cast<int>(m.graph().nodes().size()); ++id) {
        const int g = m.group_of()[static_cast<std::size_t>(id)];
        if (g >= 0) {
            const auto& ns = m.groups()[static_cast<std::size_t>(g)].nodes;
            CHECK(std::find(ns.begin(), ns.end(), id) != ns.end());
        }
    }
}

TEST_CASE("fusion map: mlp's bias broadcasts come back as kernels when their fusion is split", "[fusion_map]") {
    FusionMap m(example("mlp"), chip("v5e"));
    REQUIRE(m.groups().size() == 2);
    CHECK(m.groups()[0].kind == FusionKind::output);
    const int before = m.current().kernels;
    m.set_enabled(0, false);
    // dot, add, max as three kernels, and the two broadcasts it recomputed.
    CHECK(m.current().kernels == before - 1 + 3 + 2);
}

TEST_CASE("fusion map: the softmax between attention's two matmuls is named at its boundaries", "[fusion_map]") {
    FusionMap m(example("attention"), chip("v5e"));
    CHECK(has_blocker(m, "The softmax between attention's two matmuls"));
    for (const Blocker& b : m.blockers()) {
        INFO(b.why);
        CHECK(!b.why.empty());
        CHECK(m.kernel_of()[static_cast<std::size_t>(b.producer)] !=
              m.kernel_of()[static_cast<std::size_t>(b.consumer)]);
        CHECK(b.why == m.why_not_fused(b.producer, b.consumer));
    }
    const int out = static_cast<int>(m.graph().nodes().size()) - 1;
    CHECK(m.why_not_fused(out, out).empty());
}

TEST_CASE("fusion map: a reduction feeding a matmul goes through HBM", "[fusion_map]") {
    Graph g("reduce_then_matmul");
    const int x = g.parameter("x", {256, 512, 64}, DType::f32);
    const int w = g.parameter("w", {512, 128}, DType::f32);
    const int e = g.elementwise("squared", "mul", {x, x});
    const int s = g.reduce("sum", "reduce_sum", e, {2});
    g.mark_output(g.dot("proj", s, w, {{1}, {0}, {}, {}}, DType::f32));
    FusionMap m(std::move(g), chip("v5e"));
    REQUIRE(m.blockers().size() == 1);
    CHECK(m.blockers()[0].producer == s);
    CHECK(m.blockers()[0].why.starts_with("A reduction feeding a matmul"));
    CHECK(m.groups().size() == 1);  // the square fused into the reduction
    CHECK(m.groups()[0].kind == FusionKind::input);
}

TEST_CASE("fusion map: a fusion that does not exist is refused in one sentence", "[fusion_map]") {
    FusionMap m(example("softmax"), chip("v5e"));
    CHECK_THROWS_AS(m.set_enabled(-1, false), InputError);
    CHECK_THROWS_AS(m.set_enabled(static_cast<int>(m.groups().size()), true), InputError);
    CHECK_FALSE(m.enabled(99));
    CHECK(m.provenance().kind == Kind::predicted);
}

TEST_CASE("fusion map: a real dump of more than 2,000 ops", "[fusion_map]") {
    const auto module = ir::parse_hlo(read_corpus("xla_mobilenet_v2_torch.hlo"));
    FusionMap m(graph_from_hlo(module), chip("v5e"));
    CHECK(m.graph().nodes().size() > 2000);
    CHECK(m.groups().size() > 100);
    for (const Blocker& b : m.blockers()) CHECK(!b.why.empty());
    m.set_all(false);
    CHECK(m.current().bytes == Approx(m.unfused().bytes));
    CHECK(m.current().kernels == m.unfused().kernels);
    m.set_all(true);
    CHECK(m.current().kernels == m.automatic().kernels);
}
