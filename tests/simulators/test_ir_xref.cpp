// One program across jaxpr, StableHLO and HLO, linked through op names and
// source lines.
#include <catch2/catch.hpp>

#include "ir_samples.h"
#include "tpusim/ir.h"
#include "tpusim/ir_xref.h"

using namespace tpusim::ir;

namespace {

std::vector<int> lines(const std::vector<Position>& ps) {
    std::vector<int> out;
    for (const auto& p : ps) out.push_back(p.line);
    return out;
}

}  // namespace

TEST_CASE("op names split into scope and primitive", "[ir][xref]") {
    std::string scope, primitive;
    split_op_name("jit(mlp)/jit(main)/jit(relu)/max", scope, primitive);
    CHECK(scope == "relu");
    CHECK(primitive == "max");
    split_op_name("jit(f)/dot_general", scope, primitive);
    CHECK(scope.empty());
    CHECK(primitive == "dot_general");
    split_op_name("jit(f)/jit(main)/pjit(inner)", scope, primitive);
    CHECK(primitive == "jit(inner)");
    split_op_name("jit(f)/jit(main)/dot_general[dimension_numbers=(([1], [0]), ([], []))]", scope, primitive);
    CHECK(primitive == "dot_general");
}

TEST_CASE("the MLP's ops line up across the three layers", "[ir][xref]") {
    const Module j = parse(read_sample("mlp.jaxpr"));
    const Module s = parse(read_sample("mlp.stablehlo.mlir"));
    const Module h = parse(read_sample("mlp.hlo"));
    const auto links = correspond(j, s, h);
    // Main's nine StableHLO ops group into seven eqns (add brings its broadcast),
    // plus relu's max (its broadcast of 0.0 shares the loc).
    REQUIRE(links.size() == 8);
    const CrossLink& first = links[0];
    CHECK(first.primitive == "dot_general");
    CHECK(first.source == "mlp.py:8");
    CHECK(lines(first.jaxpr) == std::vector<int>{2});      // f = dot_general[...]
    CHECK(lines(first.stablehlo) == std::vector<int>{8});  // %0 = stablehlo.dot_general
    CHECK(lines(first.hlo) == std::vector<int>{6});        // %dot.3 in the fused computation
    const CrossLink& add = links[2];
    CHECK(add.primitive == "add");
    CHECK(lines(add.jaxpr) == std::vector<int>{13});
    CHECK(lines(add.stablehlo) == std::vector<int>{10, 11});  // the broadcast and the add
    CHECK(lines(add.hlo) == std::vector<int>{8, 9});
    const CrossLink& max = links[7];
    CHECK(max.scope == "relu");
    CHECK(lines(max.jaxpr) == std::vector<int>{16});    // inside jit[name=relu]
    CHECK(lines(max.hlo) == std::vector<int>{12, 28});  // %maximum.1 and the fusion rooted at it
    CHECK(link_at_line(links, Format::hlo, 28) == &max);
    CHECK(link_at_line(links, Format::jaxpr, 18) == &links[4]);  // the second dot_general
    CHECK(link_at_line(links, Format::stablehlo, 1) == nullptr);
}

TEST_CASE("attention: equations of the same primitive match in order", "[ir][xref]") {
    const auto links = correspond(parse(read_sample("attention.jaxpr")), parse(read_sample("attention.stablehlo.mlir")),
                                  parse(read_sample("attention.hlo")));
    std::vector<const CrossLink*> divs, dots;
    for (const auto& l : links) {
        if (l.primitive == "div") divs.push_back(&l);
        if (l.primitive == "dot_general") dots.push_back(&l);
    }
    REQUIRE(divs.size() == 2);
    CHECK(lines(divs[0]->jaxpr) == std::vector<int>{13});  // the 1/sqrt(d) scale
    CHECK(divs[0]->source == "attention.py:5");
    CHECK(lines(divs[1]->jaxpr) == std::vector<int>{31});  // softmax's normalisation
    CHECK(divs[1]->source == "attention.py:6");
    REQUIRE(dots.size() == 2);
    CHECK(dots[0]->scope == "_einsum");
    CHECK(lines(dots[0]->jaxpr) == std::vector<int>{5});
    CHECK(lines(dots[1]->jaxpr) == std::vector<int>{40});
    CHECK(lines(dots[1]->hlo) == std::vector<int>{54, 65});
    // Every equation but the custom_jvp_call container found its StableHLO ops.
    for (const auto& l : links) CHECK(!l.stablehlo.empty());
}

TEST_CASE("a missing layer leaves the others linked", "[ir][xref]") {
    const auto links = correspond(parse(read_sample("matmul.jaxpr")), Module{}, parse(read_sample("matmul.hlo")));
    REQUIRE(links.size() == 1);
    CHECK(links[0].primitive == "dot_general");
    CHECK(lines(links[0].jaxpr) == std::vector<int>{2});
    CHECK(lines(links[0].hlo) == std::vector<int>{6, 12});
}

TEST_CASE("without StableHLO the HLO ops are linked in source order", "[ir][xref]") {
    // mlp.hlo prints the fused computations (line 8 ops, then line 9 ops, with
    // relu's max from line 4 in between) before the entry; the links follow
    // the source lines so that the jaxpr equations claim them in order.
    const auto links = correspond(parse(read_sample("mlp.jaxpr")), Module{}, parse(read_sample("mlp.hlo")));
    std::vector<const CrossLink*> dots;
    for (const auto& l : links)
        if (l.primitive == "dot_general") dots.push_back(&l);
    REQUIRE(dots.size() == 2);
    CHECK(lines(dots[0]->jaxpr) == std::vector<int>{2});
    CHECK(dots[0]->source == "mlp.py:8");
    CHECK(lines(dots[1]->jaxpr) == std::vector<int>{18});
    CHECK(dots[1]->source == "mlp.py:9");
    CHECK(links.front().source == "mlp.py:4");  // relu's max comes first by line
}

TEST_CASE("every line of a multi-line op belongs to its link", "[ir][xref]") {
    const std::string text = read_sample("mlp.jaxpr");
    const Module j = parse(text);
    const auto links = correspond(j, parse(read_sample("mlp.stablehlo.mlir")), parse(read_sample("mlp.hlo")));
    // f = dot_general[ ... ] a b runs from line 2 to line 7.
    CHECK(j.entry().ops.front().position.line == 2);
    CHECK(j.entry().ops.front().last_line == 7);
    const auto owner = link_of_each_line(links, j, Format::jaxpr, 30);
    REQUIRE(owner.size() == 30);
    CHECK(owner[0] == -1);  // the lambda's header
    for (int line = 2; line <= 7; ++line) CHECK(owner[line - 1] == 0);
    for (int line = 8; line <= 12; ++line) CHECK(owner[line - 1] == 1);  // broadcast_in_dim
    CHECK(owner[13] == 3);                                               // line 14: i = jit[ ... ] h
    CHECK(owner[15] == 7);   // line 16: relu's max, nested in the jit's params, owns its line
    CHECK(owner[16] == 3);   // line 17: back to the jit equation
    CHECK(owner[29] == -1);  // in (n,) }
    // Lines past the text, and a dump with no links, own nothing.
    CHECK(link_of_each_line(links, j, Format::jaxpr, 3) == std::vector<int>{-1, 0, 0});
    CHECK(link_of_each_line({}, j, Format::jaxpr, 4) == std::vector<int>(4, -1));
}

TEST_CASE("an HLO instruction and a StableHLO op end on their own line", "[ir]") {
    const Module h = parse(read_sample("mlp.hlo"));
    for (const Op* op : all_ops(h)) CHECK(op->last_line == op->position.line);
    const Module s = parse(read_sample("layernorm.stablehlo.mlir"));
    bool region_spans = false;
    for (const Op* op : all_ops(s)) {
        CHECK(op->last_line >= op->position.line);
        if (!op->regions.empty()) region_spans = region_spans || op->last_line > op->position.line + 1;
    }
    CHECK(region_spans);  // the reduce's body sits on lines of its own
}
