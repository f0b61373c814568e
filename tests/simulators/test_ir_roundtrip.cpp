// print(parse(dump)) parses back to the same model: every op, operand, type,
// layout, attribute, location and region survives (only positions move).
#include <catch2/catch.hpp>

#include "ir_samples.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

using namespace tpusim::ir;

namespace {

void same(const Computation& a, const Computation& b);

void same(const Op& a, const Op& b) {
    INFO("op " << a.name << " at line " << a.position.line);
    CHECK(a.name == b.name);
    CHECK(a.dialect == b.dialect);
    CHECK(a.results == b.results);
    CHECK(a.operands == b.operands);
    CHECK(a.operand_types == b.operand_types);
    CHECK(a.result_types == b.result_types);
    REQUIRE(a.attributes.size() == b.attributes.size());
    for (std::size_t i = 0; i < a.attributes.size(); ++i) {
        CHECK(a.attributes[i].name == b.attributes[i].name);
        CHECK(a.attributes[i].value == b.attributes[i].value);
    }
    CHECK(a.metadata.op_name == b.metadata.op_name);
    CHECK(a.metadata.source_file == b.metadata.source_file);
    CHECK(a.metadata.source_line == b.metadata.source_line);
    CHECK(a.is_root == b.is_root);
    CHECK(a.called == b.called);
    REQUIRE(a.regions.size() == b.regions.size());
    for (std::size_t i = 0; i < a.regions.size(); ++i) same(a.regions[i], b.regions[i]);
}

void same(const Computation& a, const Computation& b) {
    CHECK(a.name == b.name);
    CHECK(a.is_entry == b.is_entry);
    REQUIRE(a.parameters.size() == b.parameters.size());
    for (std::size_t i = 0; i < a.parameters.size(); ++i) {
        CHECK(a.parameters[i].name == b.parameters[i].name);
        CHECK(a.parameters[i].type == b.parameters[i].type);
    }
    CHECK(a.result_types == b.result_types);
    CHECK(a.outputs == b.outputs);
    REQUIRE(a.ops.size() == b.ops.size());
    for (std::size_t i = 0; i < a.ops.size(); ++i) same(a.ops[i], b.ops[i]);
}

void round_trip(const std::string& text) {
    const Module a = parse(text);
    const std::string printed = print(a);
    INFO(printed);
    const Module b = parse(printed, a.format);
    CHECK(a.name == b.name);
    REQUIRE(a.computations.size() == b.computations.size());
    for (std::size_t i = 0; i < a.computations.size(); ++i) same(a.computations[i], b.computations[i]);
    // Printing is stable: the second print is the first.
    CHECK(print(b) == printed);
    const auto da = find_dots(a), db = find_dots(b);
    REQUIRE(da.size() == db.size());
    for (std::size_t i = 0; i < da.size(); ++i) CHECK(da[i].flops == db[i].flops);
}

}  // namespace

TEST_CASE("every sample dump round-trips", "[ir][roundtrip]") {
    for (const std::string program : {"matmul", "batched_matmul", "scores", "mlp", "attention", "layernorm"})
        for (const std::string suffix : {".jaxpr", ".stablehlo.mlir", ".hlo"}) {
            INFO(program + suffix);
            round_trip(read_sample(program + suffix));
        }
    round_trip(read_sample("batched_matmul.generic.mlir"));
}

TEST_CASE("snippets with loops, tuples and custom calls round-trip", "[ir][roundtrip]") {
    round_trip(R"(HloModule m
%body (p: (s32[], f32[8,128])) -> (s32[], f32[8,128]) {
  %p = (s32[], f32[8,128]{1,0}) parameter(0)
  %x = f32[8,128]{1,0:T(8,128)S(1)} get-tuple-element(%p), index=1
  %y = f32[8,128]{1,0:T(8,128)S(1)} custom-call(%x), custom_call_target="tpu_custom_call", backend_config="{\"k\": \"v, w\"}"
  %z = f32[8,128]{1,0} broadcast(f32[] constant(0)), dimensions={}
  ROOT %t = (s32[], f32[8,128]{1,0}) tuple(%p, %y)
}
ENTRY %e (a: f32[<=16,?]) -> f32[16] {
  ROOT %i = s32[16]{0} iota(), iota_dimension=0
}
)");
    round_trip(R"(module @m {
  func.func @main(%arg0: tensor<8x128xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
    %0:2 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x128xf32>
    cond {
      %c = stablehlo.constant dense<10> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.custom_call @tpu_custom_call(%iterArg_0) {backend_config = "x", kernel_name = "k"} : (tensor<8x128xf32>) -> tensor<8x128xf32> loc("jit(f)/pallas_call"("k.py":3:1))
      stablehlo.return %iterArg, %1 : tensor<i32>, tensor<8x128xf32>
    }
    %2 = "stablehlo.reduce"(%0#1, %arg1) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %3 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x128xf32>, tensor<i32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}
)");
}
