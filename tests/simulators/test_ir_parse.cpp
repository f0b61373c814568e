// The parsers on hand-written snippets of what real dumps contain.
#include <catch2/catch.hpp>

#include "tpusim/error.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

using namespace tpusim;
using namespace tpusim::ir;

TEST_CASE("HLO: memory spaces, tuples, custom calls, loops, comments", "[ir][hlo]") {
    const Module m = parse_hlo(R"(HloModule jit_step, entry_computation_layout={(s32[])->(s32[], f32[8,128])}

%cond (p: (s32[], f32[8,128])) -> pred[] {
  %p = (s32[], f32[8,128]{1,0}) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[8,128]{1,0}) %p), index=0
  %n = s32[] constant(10)
  ROOT %lt = pred[] compare(s32[] %i, s32[] %n), direction=LT
}

%body (p.1: (s32[], f32[8,128])) -> (s32[], f32[8,128]) {
  %p.1 = (s32[], f32[8,128]{1,0}) parameter(0)
  %i.1 = s32[] get-tuple-element(%p.1), index=0
  %x = f32[8,128]{1,0:T(8,128)S(1)} get-tuple-element(%p.1), index=1
  %y = f32[8,128]{1,0:T(8,128)S(1)} custom-call(f32[8,128]{1,0:T(8,128)S(1)} %x), custom_call_target="tpu_custom_call", backend_config={"custom_call_config": {"body": "TUxJUgF"}}, operand_layout_constraints={f32[8,128]{1,0}}
  %one = s32[] constant(1)
  %next = s32[] add(%i.1, %one)
  ROOT %t = (s32[], f32[8,128]{1,0}) tuple(%next, /*index=1*/%y)
}

ENTRY %main (a: s32[]) -> (s32[], f32[8,128]) {
  %a = s32[] parameter(0)
  %w = f32[2,2]{1,0} constant({ { 1, 2 }, { 3, 4 } })
  %z = f32[8,128]{1,0} broadcast(f32[] constant(0)), dimensions={}
  %init = (s32[], f32[8,128]{1,0}) tuple(s32[] %a, f32[8,128]{1,0} %z)
  ROOT %loop = (s32[], f32[8,128]{1,0}) while((s32[], f32[8,128]{1,0}) %init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"10"}}
}
)");
    REQUIRE(m.computations.size() == 3);
    const Computation* body = m.find("body");
    REQUIRE(body);
    const Op& x = body->ops[2];
    CHECK(x.result_types[0].memory_space == 1);
    CHECK(x.result_types[0].tiles == std::vector<std::vector<std::int64_t>>{{8, 128}});
    CHECK(type_text(x.result_types[0], true) == "f32[8,128]{1,0:T(8,128)S(1)}");
    const Op& cc = body->ops[3];
    CHECK(cc.name == "custom-call");
    CHECK(*cc.attribute("custom_call_target") == "tpu_custom_call");
    CHECK(*cc.attribute("backend_config") == R"({"custom_call_config": {"body": "TUxJUgF"}})");
    CHECK(body->ops.back().operands == std::vector<std::string>{"next", "y"});
    const Op& loop = m.entry().ops.back();
    CHECK(loop.called == std::vector<std::string>{"cond", "body"});
    CHECK(loop.result_types[0].is_tuple);
    CHECK(type_text(loop.result_types[0]) == "(s32[], f32[8,128])");
    CHECK(*m.entry().ops[1].attribute("literal") == "{ { 1, 2 }, { 3, 4 } }");
    CHECK(m.find("cond")->parameters[0].type.elements.size() == 2);
}

TEST_CASE("HLO: tiled layouts with several tiles and dynamic sizes", "[ir][hlo]") {
    const Module m = parse_hlo(
        "ENTRY e {\n  ROOT p = bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)} parameter(0)\n}\n"
        "c {\n  ROOT q = f32[<=16,?]{1,0} parameter(0)\n}\n");
    const TensorType& t = m.entry().ops[0].result_types[0];
    CHECK(t.element == "bf16");
    CHECK(t.minor_to_major == std::vector<std::int64_t>{2, 1, 0});
    CHECK(t.tiles == std::vector<std::vector<std::int64_t>>{{8, 128}, {2, 1}});
    CHECK(t.memory_space == 1);
    CHECK(type_text(t, true) == "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}");
    CHECK(m.computations[1].ops[0].result_types[0].dims == std::vector<std::int64_t>{16, -1});
}

TEST_CASE("StableHLO: while, generic regions, custom calls, multiple results", "[ir][stablehlo]") {
    const Module m = parse_stablehlo(R"(module @jit_loop {
  func.func public @main(%arg0: tensor<8x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x128xf32>
    cond {
      %c_1 = stablehlo.constant dense<10> : tensor<i32>
      %2 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = stablehlo.custom_call @tpu_custom_call(%iterArg_0) {backend_config = "{\22custom_call_config\22: {}}", kernel_name = "add_one"} : (tensor<8x128xf32>) -> tensor<8x128xf32>
      %3 = "stablehlo.reduce"(%2, %c) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %4 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%4) : (tensor<f32>) -> ()
      }) {dimensions = array<i64: 1>} : (tensor<8x128xf32>, tensor<i32>) -> tensor<8xf32>
      stablehlo.return %iterArg, %2 : tensor<i32>, tensor<8x128xf32>
    }
    return %0#1 : tensor<8x128xf32>
  }
}
)");
    CHECK(m.name == "jit_loop");
    const Computation& e = m.entry();
    REQUIRE(e.ops.size() == 3);
    const Op& loop = e.ops[1];
    CHECK(loop.name == "while");
    CHECK(loop.results == std::vector<std::string>{"%0"});
    CHECK(loop.operands == std::vector<std::string>{"%c", "%arg0"});
    CHECK(loop.result_types.size() == 2);
    REQUIRE(loop.regions.size() == 2);
    CHECK(loop.regions[0].ops.size() == 3);
    CHECK(loop.regions[0].ops[1].name == "compare");
    CHECK(loop.regions[0].ops[1].result_types[0].element == "pred");
    const auto& body = loop.regions[1].ops;
    REQUIRE(body.size() == 3);
    CHECK(*body[0].attribute("call_target_name") == "tpu_custom_call");
    CHECK(*body[0].attribute("kernel_name") == "\"add_one\"");
    CHECK(body[1].name == "reduce");
    REQUIRE(body[1].regions.size() == 1);
    CHECK(body[1].regions[0].parameters.size() == 2);
    CHECK(body[1].regions[0].ops.size() == 2);
    CHECK(*body[1].attribute("dimensions") == "array<i64: 1>");
    CHECK(body[1].result_types[0].dims == std::vector<std::int64_t>{8});
    CHECK(e.ops[2].operands == std::vector<std::string>{"%0#1"});
}

TEST_CASE("jaxpr: cond branches, several results, old spellings", "[ir][jaxpr]") {
    const Module m = parse_jaxpr(R"({ lambda a:f32[3]; b:i32[] c:f32[3]. let
    d:f32[3] e:f32[] = cond[
      branches=(
        { lambda ; f:f32[3] g:f32[3]. let h:f32[3] = add f g; i:f32[] = reduce_sum[axes=(0,)] h in (h, i) }
        { lambda ; j:f32[3] k:f32[3]. let l:f32[3] = sub j k; m:f32[] = reduce_max[axes=(0,)] l in (l, m) }
      )
    ] b a c
    n:f32[3,3] = pjit[name=outer jaxpr={ lambda ; o:f32[3]. let
        p:f32[3,3] = dot_general[dimension_numbers=(((), ()), ((), ())) precision=None preferred_element_type=float32] o o
      in (p,) }] d
    _:f32[] = mul e 2.0
  in (n, e) }
)");
    const Computation& top = m.entry();
    CHECK(top.parameters.size() == 3);  // the constant a, then b and c
    REQUIRE(top.ops.size() == 3);
    const Op& cond = top.ops[0];
    CHECK(cond.results == std::vector<std::string>{"d", "e"});
    REQUIRE(cond.regions.size() == 2);
    CHECK(cond.regions[1].name == "branches[1]");
    CHECK(cond.regions[1].ops[1].name == "reduce_max");
    CHECK(cond.operands == std::vector<std::string>{"b", "a", "c"});
    CHECK(top.ops[2].operands == std::vector<std::string>{"e", "2.0"});
    CHECK(top.outputs == std::vector<std::string>{"n", "e"});
    // The outer product inside pjit: [3] x [3] -> [3,3], 2 * 9 FLOPs.
    const auto dots = find_dots(m);
    REQUIRE(dots.size() == 1);
    CHECK(dots[0].output_shape == std::vector<std::int64_t>{3, 3});
    CHECK(dots[0].flops == 18.0);
}

TEST_CASE("format detection", "[ir]") {
    CHECK(detect_format("{ lambda ; a:f32[]. let  in (a,) }") == Format::jaxpr);
    CHECK(detect_format("HloModule m\nENTRY e {}") == Format::hlo);
    CHECK(detect_format("\n#loc = loc(unknown)\nmodule @m {\n}") == Format::stablehlo);
    CHECK(detect_format("func.func @f() {\n}") == Format::stablehlo);
    CHECK_THROWS_AS(detect_format("hello"), InputError);
    CHECK(parse_format("mlir") == Format::stablehlo);
    CHECK_THROWS_AS(parse_format("onnx"), InputError);
    CHECK(element_bytes("bf16") == 2);
    CHECK(element_bytes("i32") == 4);
    CHECK(element_bytes("s4") == 0.5);
}

TEST_CASE("HLO: a shape XLA leaves out is inferred from the operands, or refused saying why", "[ir][hlo]") {
    const Module m = parse_hlo(
        "HloModule m\n"
        "ENTRY e {\n"
        "  p = (s32[], f32[8,128]) parameter(0)\n"
        "  count = get-tuple-element(p), index=0\n"
        "  x = get-tuple-element(p), index=1\n"
        "  y = add(x, x)\n"
        "  lt = compare(count, count), direction=LT\n"
        "  ROOT t = tuple(count, y, lt)\n"
        "}\n");
    const Computation& e = m.entry();
    REQUIRE(e.ops.size() == 6);
    CHECK(e.ops[1].type_inferred);
    CHECK(e.ops[1].result_types[0].element == "s32");
    CHECK(e.ops[1].result_types[0].dims.empty());
    CHECK(e.ops[2].result_types[0].dims == std::vector<std::int64_t>{8, 128});
    CHECK(e.ops[3].result_types[0].element == "f32");
    CHECK(e.ops[4].result_types[0].element == "pred");
    CHECK(e.ops[5].result_types[0].is_tuple);
    CHECK(e.ops[5].result_types[0].elements.size() == 3);
    CHECK_FALSE(e.ops[0].type_inferred);

    const auto refusal = [](const std::string& body) {
        try {
            parse_hlo("HloModule m\nENTRY e {\n  p = f32[2,3] parameter(0)\n" + body + "}\n");
        } catch (const InputError& err) {
            return std::string(err.what());
        }
        return std::string("(read)");
    };
    CHECK(refusal("  ROOT r = reshape(p)\n") ==
          "line 4, column 3: 'r' omits its shape: tpusim infers the shape of a get-tuple-element, tuple, compare, "
          "select or elementwise op, not of a 'reshape'; print the module with every shape");
    CHECK(refusal("  ROOT r = add(q, p)\n").find("its operand 'q' is not defined before it") != std::string::npos);
    CHECK(
        refusal("  ROOT r = get-tuple-element(p), index=0\n").find("element 0 of its operand's tuple does not exist") !=
        std::string::npos);
}

TEST_CASE("HLO: a file with two modules says so at the second", "[ir][hlo]") {
    try {
        parse_hlo(
            "HloModule a\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\nHloModule b\nENTRY f {\n  ROOT q = f32[2] "
            "parameter(0)\n}\n");
        FAIL("read two modules as one");
    } catch (const InputError& err) {
        CHECK(std::string(err.what()) ==
              "line 5, column 1: a second HloModule starts here: this file holds more than one module; give one at a "
              "time");
    }
}
