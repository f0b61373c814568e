// The sample dumps of six dense programs, each in three IRs: every layer
// must find the same dots with the same shapes and FLOPs.
#include <catch2/catch.hpp>

#include "ir_samples.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

using namespace tpusim::ir;

namespace {

struct Expected {
    std::vector<std::int64_t> lhs, rhs, out;
    double flops;
};

void check_program(const std::string& program, const std::vector<Expected>& expected) {
    for (const std::string suffix : {".jaxpr", ".stablehlo.mlir", ".hlo"}) {
        INFO(program + suffix);
        const Module m = parse(read_sample(program + suffix));
        const auto dots = find_dots(m);
        REQUIRE(dots.size() == expected.size());
        for (std::size_t i = 0; i < dots.size(); ++i) {
            CHECK(dots[i].lhs_shape == expected[i].lhs);
            CHECK(dots[i].rhs_shape == expected[i].rhs);
            CHECK(dots[i].output_shape == expected[i].out);
            CHECK(dots[i].flops == expected[i].flops);
            CHECK(dots[i].element == "f32");
        }
    }
}

}  // namespace

TEST_CASE("sample programs: the same dots in all three IRs", "[ir][samples]") {
    // x @ w: 2 * 128 * 512 * 256.
    check_program("matmul", {{{128, 256}, {256, 512}, {128, 512}, 33554432.0}});
    // jnp.matmul on [8,64,128] x [8,128,32]: 2 * 8 * 64 * 32 * 128.
    check_program("batched_matmul", {{{8, 64, 128}, {8, 128, 32}, {8, 64, 32}, 4194304.0}});
    // einsum('qd,kd->qk'): the rhs contracts its last dim; 2 * 128 * 256 * 64.
    check_program("scores", {{{128, 64}, {256, 64}, {128, 256}, 4194304.0}});
    // Two layers: 2 * 32 * 512 * 128 each.
    check_program("mlp",
                  {{{32, 128}, {128, 512}, {32, 512}, 4194304.0}, {{32, 512}, {512, 128}, {32, 128}, 4194304.0}});
    // 4 heads, 256 tokens, head dim 64: QK^T 2*4*256*256*64, PV the same.
    check_program("attention", {{{4, 256, 64}, {4, 256, 64}, {4, 256, 256}, 33554432.0},
                                {{4, 256, 256}, {4, 256, 64}, {4, 256, 64}, 33554432.0}});
    check_program("layernorm", {});
}

TEST_CASE("the generic MLIR form reads like the pretty one", "[ir][samples]") {
    const Module g = parse(read_sample("batched_matmul.generic.mlir"));
    const Module p = parse(read_sample("batched_matmul.stablehlo.mlir"));
    CHECK(g.format == Format::stablehlo);
    CHECK(g.name == "jit_batched");
    CHECK(g.entry().name == "main");
    CHECK(p.name == "jit_batched");
    REQUIRE(g.entry().parameters.size() == 2);
    CHECK(g.entry().parameters[1].type.dims == std::vector<std::int64_t>{8, 128, 32});
    REQUIRE(g.entry().result_types.size() == 1);
    REQUIRE(p.entry().result_types.size() == 1);
    CHECK(g.entry().result_types[0].dims == p.entry().result_types[0].dims);
    const auto dg = find_dots(g), dp = find_dots(p);
    REQUIRE(dg.size() == 1);
    CHECK(dg[0].dims == dp[0].dims);
    CHECK(dg[0].metadata.op_name == "jit(batched)/jit(main)/dot_general");
    CHECK(dg[0].metadata.source_line == 5);
}

TEST_CASE("every sample parses in well-formed detail", "[ir][samples]") {
    SECTION("HLO: layouts, fusions, metadata, called computations") {
        const Module m = parse(read_sample("mlp.hlo"));
        CHECK(m.format == Format::hlo);
        CHECK(m.name == "jit_mlp");
        REQUIRE(m.computations.size() == 3);
        const Computation& e = m.entry();
        CHECK(e.name == "main.20");
        CHECK(e.parameters.size() == 5);
        const Op& fusion = e.ops[3];
        CHECK(fusion.name == "fusion");
        CHECK(*fusion.attribute("kind") == "kOutput");
        CHECK(fusion.called == std::vector<std::string>{"fused_computation"});
        CHECK(fusion.operands == std::vector<std::string>{"Arg_0.1", "Arg_1.2", "Arg_2.3"});
        CHECK(fusion.operand_types.size() == 3);
        CHECK(fusion.metadata.op_name == "jit(mlp)/jit(main)/jit(relu)/max");
        CHECK(fusion.metadata.source_line == 4);
        const TensorType& t = fusion.result_types[0];
        CHECK(t.minor_to_major == std::vector<std::int64_t>{1, 0});
        CHECK(t.tiles == std::vector<std::vector<std::int64_t>>{{8, 128}});
        CHECK(type_text(t, true) == "f32[32,512]{1,0:T(8,128)}");
        CHECK(e.ops.back().is_root);
        const Computation* fc = m.find("fused_computation");
        REQUIRE(fc);
        CHECK(fc->ops.size() == 9);
        CHECK(*fc->ops[6].attribute("literal") == "0");
    }
    SECTION("HLO short form: no %, no signatures, reduce bodies") {
        const Module m = parse(read_sample("attention.hlo"));
        CHECK(m.computations.size() == 8);
        const Computation* f1 = m.find("fused_computation.1");
        REQUIRE(f1);
        CHECK(f1->ops.back().name == "reduce");
        CHECK(f1->ops.back().called == std::vector<std::string>{"region_0.14"});
        CHECK(*f1->ops[1].attribute("literal") == "-inf");
        CHECK(m.entry().ops.size() == 8);
    }
    SECTION("StableHLO: loc aliases, calls, reduce regions") {
        const Module m = parse(read_sample("mlp.stablehlo.mlir"));
        REQUIRE(m.computations.size() == 2);
        CHECK(m.entry().name == "main");
        CHECK(m.entry().parameters.size() == 5);
        const Op& dot = m.entry().ops[0];
        CHECK(dot.dialect == "stablehlo");
        CHECK(dot.name == "dot_general");
        CHECK(dot.operands == std::vector<std::string>{"%arg0", "%arg1"});
        CHECK(*dot.attribute("contracting_dims") == "[1] x [0]");
        CHECK(*dot.attribute("precision") == "[DEFAULT, DEFAULT]");
        CHECK(dot.metadata.op_name == "jit(mlp)/jit(main)/dot_general");
        CHECK(dot.metadata.source_file == "/home/learner/lab/mlp.py");
        CHECK(dot.metadata.source_line == 8);
        const Op& call = m.entry().ops[4];
        CHECK(call.name == "call");
        CHECK(call.called == std::vector<std::string>{"relu"});
        const Computation* relu = m.find("relu");
        REQUIRE(relu);
        CHECK(*relu->ops[0].attribute("value") == "dense<0.000000e+00>");
        CHECK(relu->ops[2].metadata.op_name == "jit(mlp)/jit(main)/jit(relu)/max");
        CHECK(relu->ops[2].metadata.source_line == 4);

        const Module ln = parse(read_sample("layernorm.stablehlo.mlir"));
        const Op& reduce = ln.entry().ops[1];
        CHECK(reduce.name == "reduce");
        CHECK(reduce.operands == std::vector<std::string>{"%arg0", "%cst"});
        REQUIRE(reduce.regions.size() == 1);
        CHECK(reduce.regions[0].ops.size() == 2);
        CHECK(reduce.metadata.op_name == "jit(layernorm)/jit(main)/reduce_sum");
        CHECK(*reduce.attribute("dimensions") == "[1]");
        CHECK(ln.entry().ops.size() == 27);
    }
    SECTION("jaxpr: sub-jaxprs, literals, custom_jvp_call") {
        const Module m = parse(read_sample("attention.jaxpr"));
        CHECK(m.format == Format::jaxpr);
        const Computation& top = m.entry();
        CHECK(top.parameters.size() == 3);
        REQUIRE(top.ops.size() == 4);
        CHECK(top.ops[0].name == "jit");
        CHECK(*top.ops[0].attribute("name") == "_einsum");
        REQUIRE(top.ops[0].regions.size() == 1);
        CHECK(top.ops[0].regions[0].name == "jaxpr");
        CHECK(top.ops[1].operands == std::vector<std::string>{"d", "8.0:f32[]"});
        const Op& softmax = top.ops[2];
        CHECK(softmax.name == "custom_jvp_call");
        CHECK(*softmax.attribute("num_consts") == "0");
        REQUIRE(softmax.regions.size() == 1);
        CHECK(softmax.regions[0].ops.size() == 7);
        CHECK(softmax.regions[0].ops[0].name == "reduce_max");
        CHECK(*softmax.regions[0].ops[0].attribute("axes") == "(2,)");
        CHECK(top.outputs == std::vector<std::string>{"r"});
        CHECK(all_ops(m).size() == 4 + 1 + 7 + 1);

        const Module mlp = parse(read_sample("mlp.jaxpr"));
        const Op& relu = mlp.entry().ops[3];
        REQUIRE(relu.regions.size() == 1);
        CHECK(relu.regions[0].ops[0].operands == std::vector<std::string>{"j", "0.0:f32[]"});
    }
}
