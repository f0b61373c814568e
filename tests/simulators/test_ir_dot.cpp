#include <catch2/catch.hpp>

#include "tpusim/error.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

using namespace tpusim;
using namespace tpusim::ir;

namespace {

DotDims dims(std::vector<std::int64_t> lc, std::vector<std::int64_t> rc, std::vector<std::int64_t> lb = {},
             std::vector<std::int64_t> rb = {}) {
    return DotDims{std::move(lc), std::move(rc), std::move(lb), std::move(rb)};
}

std::string error_of(const std::vector<std::int64_t>& l, const std::vector<std::int64_t>& r, const DotDims& d) {
    try {
        dot_general_shape(l, r, d);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("dot_general shapes and FLOPs by hand", "[ir][dot]") {
    // Plain matmul [128,256] x [256,512]: free 128 and 512, contract 256.
    // FLOPs 2 * 128 * 512 * 256 = 33,554,432.
    DotShape s = dot_general_shape({128, 256}, {256, 512}, dims({1}, {0}));
    CHECK(s.output == std::vector<std::int64_t>{128, 512});
    CHECK(s.flops == 33554432.0);
    CHECK(s.contracting == 256);

    // q k^T: [128,64] x [256,64], contracting the last dim of both (rhs transposed).
    // Output [128,256]; FLOPs 2 * 128 * 256 * 64 = 4,194,304.
    s = dot_general_shape({128, 64}, {256, 64}, dims({1}, {1}));
    CHECK(s.output == std::vector<std::int64_t>{128, 256});
    CHECK(s.flops == 4194304.0);

    // x^T w: [256,128] x [256,512], contracting dim 0 of both: lhs free is 128.
    s = dot_general_shape({256, 128}, {256, 512}, dims({0}, {0}));
    CHECK(s.output == std::vector<std::int64_t>{128, 512});

    // Two batch dims: [2,3,64,128] x [2,3,128,32] -> [2,3,64,32];
    // FLOPs 2 * (2*3) * 64 * 32 * 128 = 3,145,728.
    s = dot_general_shape({2, 3, 64, 128}, {2, 3, 128, 32}, dims({3}, {2}, {0, 1}, {0, 1}));
    CHECK(s.output == std::vector<std::int64_t>{2, 3, 64, 32});
    CHECK(s.batch == 6);
    CHECK(s.flops == 3145728.0);

    // A batch dim in the middle still leads the output: [64,8,128] x [128,8,32]
    // with batch 1x1, contracting 2x0 -> [8, 64, 32].
    s = dot_general_shape({64, 8, 128}, {128, 8, 32}, dims({2}, {0}, {1}, {1}));
    CHECK(s.output == std::vector<std::int64_t>{8, 64, 32});
    CHECK(s.flops == 2.0 * 8 * 64 * 32 * 128);

    // Batch dims listed out of order: output follows the lhs batch order.
    s = dot_general_shape({5, 7, 4, 3}, {7, 5, 3, 2}, dims({3}, {2}, {1, 0}, {0, 1}));
    CHECK(s.output == std::vector<std::int64_t>{7, 5, 4, 2});

    // Matrix-vector and an outer product (nothing contracted).
    CHECK(dot_general_shape({16, 8}, {8}, dims({1}, {0})).output == std::vector<std::int64_t>{16});
    s = dot_general_shape({3}, {4}, dims({}, {}));
    CHECK(s.output == std::vector<std::int64_t>{3, 4});
    CHECK(s.flops == 24.0);
}

TEST_CASE("dot_general refuses dims that do not fit", "[ir][dot]") {
    CHECK(error_of({128, 256}, {255, 512}, dims({1}, {0})) ==
          "contracting dims do not match: lhs dim 1 has size 256 but rhs dim 0 has size 255");
    CHECK(error_of({4, 8, 16}, {5, 16, 8}, dims({2}, {1}, {0}, {0})) ==
          "batch dims do not match: lhs dim 0 has size 4 but rhs dim 0 has size 5");
    CHECK(error_of({8, 16}, {16, 8}, dims({2}, {0})) == "lhs dim 2 is out of range for a rank-2 operand");
    CHECK(error_of({8, 16}, {16, 8}, dims({1, 1}, {0, 1})) ==
          "lhs dim 1 is listed twice among the batch and contracting dims");
    CHECK(error_of({8, 16}, {16, 8}, dims({1}, {0, 1})).find("differ in count") != std::string::npos);
    CHECK(error_of({8, 8}, {8, 8}, dims({0}, {0}, {0}, {1})).find("listed twice") != std::string::npos);
    CHECK(error_of({-1, 8}, {8, 8}, dims({1}, {0})).find("dynamic") != std::string::npos);
}

TEST_CASE("dot_general properties over many shapes", "[ir][dot]") {
    // Output rank = lhs rank + rhs rank - 2 * contracting - batch, and
    // FLOPs = 2 * elements(output) * contracted size.
    for (std::int64_t b = 1; b <= 3; ++b)
        for (std::int64_t m = 1; m <= 17; m += 4)
            for (std::int64_t k = 1; k <= 9; k += 2)
                for (std::int64_t n = 1; n <= 13; n += 3) {
                    const DotShape s = dot_general_shape({b, k, m}, {b, n, k}, dims({1}, {2}, {0}, {0}));
                    REQUIRE(s.output == std::vector<std::int64_t>{b, m, n});
                    CHECK(s.flops == 2.0 * b * m * n * k);
                }
}

TEST_CASE("dimension numbers in every spelling", "[ir][dot]") {
    const DotDims batched = dims({2}, {1}, {0}, {0});
    CHECK(parse_jaxpr_dimension_numbers("(([2], [1]), ([0], [0]))") == batched);
    CHECK(parse_jaxpr_dimension_numbers("(((2,), (1,)), ((0,), (0,)))") == batched);
    CHECK(parse_jaxpr_dimension_numbers("(([1], [0]), ([], []))") == dims({1}, {0}));
    CHECK(parse_jaxpr_dimension_numbers("(((1,), (0,)), ((), ()))") == dims({1}, {0}));
    CHECK(parse_stablehlo_dot_dims("batching_dims = [0] x [0], contracting_dims = [2] x [1]") == batched);
    CHECK(parse_stablehlo_dot_dims("contracting_dims = [1] x [0]") == dims({1}, {0}));
    CHECK(parse_stablehlo_dot_dims("#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
                                   "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>") == batched);
    CHECK(parse_stablehlo_dot_dims("#stablehlo.dot<lhs_contracting_dimensions = [1], "
                                   "rhs_contracting_dimensions = [1]>") == dims({1}, {1}));
    CHECK_THROWS_AS(parse_jaxpr_dimension_numbers("(([1], [0]))"), InputError);
    CHECK_THROWS_AS(parse_stablehlo_dot_dims("contracting_dims = [1]"), InputError);
}

TEST_CASE("find_dots reads each IR's dot, including the plain HLO dot", "[ir][dot]") {
    const Module h = parse_hlo(
        "HloModule m\n\nENTRY %e (a: f32[2,3,64,128], b: f32[2,3,128,32]) -> f32[2,3,64,32] {\n"
        "  %a = f32[2,3,64,128]{3,2,1,0} parameter(0)\n"
        "  %b = f32[2,3,128,32]{3,2,1,0} parameter(1)\n"
        "  ROOT %d = f32[2,3,64,32]{3,2,1,0} dot(%a, %b), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, "
        "rhs_batch_dims={0,1}, rhs_contracting_dims={2}\n}\n");
    auto dots = find_dots(h);
    REQUIRE(dots.size() == 1);
    CHECK(dots[0].output_shape == std::vector<std::int64_t>{2, 3, 64, 32});
    CHECK(dots[0].flops == 3145728.0);
    CHECK(dots[0].position.line == 6);  // the ROOT line, after a blank one

    // A dot printed without dimension numbers: last lhs dim against the first rhs dim.
    const Module plain = parse_hlo(
        "ENTRY e {\n  a = f32[8,16] parameter(0)\n  b = f32[16,4] parameter(1)\n"
        "  ROOT d = f32[8,4] dot(a, b)\n}\n");
    dots = find_dots(plain);
    REQUIRE(dots.size() == 1);
    CHECK(dots[0].flops == 2.0 * 8 * 4 * 16);

    // XLA on TPU often prints a matmul as a convolution without spatial dims.
    const Module conv = parse_hlo(
        "ENTRY e {\n  a = bf16[512,1024]{1,0:T(8,128)(2,1)} parameter(0)\n"
        "  b = bf16[1024,256]{1,0:T(8,128)(2,1)} parameter(1)\n"
        "  ROOT c = f32[512,256]{1,0:T(8,128)} convolution(a, b), dim_labels=bf_io->bf\n}\n");
    dots = find_dots(conv);
    REQUIRE(dots.size() == 1);
    CHECK(dots[0].op == "convolution");
    CHECK(dots[0].output_shape == std::vector<std::int64_t>{512, 256});
    CHECK(dots[0].flops == 2.0 * 512 * 256 * 1024);

    const Module s = parse_stablehlo(
        "func.func @main(%a: tensor<16xf32>, %b: tensor<16x4xf32>) -> tensor<4xf32> {\n"
        "  %0 = stablehlo.dot %a, %b : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n");
    dots = find_dots(s);
    REQUIRE(dots.size() == 1);
    CHECK(dots[0].output_shape == std::vector<std::int64_t>{4});
}

// JAX's mixed precision: bf16 operands, an f32 result asked for with
// preferred_element_type. Each IR's dot keeps its operands' own type.
TEST_CASE("find_dots keeps the operands' element types apart from the result's", "[ir][dot]") {
    const Module j = parse(
        "{ lambda ; a:bf16[64,128] b:bf16[128,32]. let\n"
        "    c:f32[64,32] = dot_general[\n"
        "      dimension_numbers=(([1], [0]), ([], []))\n"
        "      preferred_element_type=float32\n"
        "    ] a b\n"
        "  in (c,) }\n",
        Format::jaxpr);
    const Module s = parse_stablehlo(
        "func.func @main(%a: tensor<64x128xbf16>, %b: tensor<128x32xbf16>) -> tensor<64x32xf32> {\n"
        "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x128xbf16>, "
        "tensor<128x32xbf16>) -> tensor<64x32xf32>\n"
        "  return %0 : tensor<64x32xf32>\n}\n");
    // HLO names operands without types: theirs come from their definitions.
    const Module h = parse_hlo(
        "ENTRY e {\n  a = bf16[64,128]{1,0} parameter(0)\n  b = s8[128,32]{1,0} parameter(1)\n"
        "  ROOT d = f32[64,32]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
    for (const Module* m : {&j, &s, &h}) {
        const auto dots = find_dots(*m);
        REQUIRE(dots.size() == 1);
        CHECK(dots[0].element == "f32");
        CHECK(dots[0].lhs_element == "bf16");
        CHECK(dots[0].rhs_element == (m == &h ? "s8" : "bf16"));
    }
}

TEST_CASE("a dot whose printed result disagrees is an error at its line", "[ir][dot]") {
    const Module h = parse_hlo(
        "ENTRY e {\n  a = f32[8,16] parameter(0)\n  b = f32[16,4] parameter(1)\n"
        "  ROOT d = f32[8,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
    try {
        find_dots(h);
        FAIL("expected a ParseError");
    } catch (const ParseError& e) {
        CHECK(e.line() == 4);
        CHECK(std::string(e.what()) ==
              "line 4, column 3: dot: the result is printed as [8,5] but the dimension numbers give [8,4]");
    }
    const Module bad = parse_jaxpr(
        "{ lambda ; a:f32[8,16] b:f32[15,4]. let\n"
        "    c:f32[8,4] = dot_general[dimension_numbers=(([1], [0]), ([], []))] a b\n"
        "  in (c,) }");
    try {
        find_dots(bad);
        FAIL("expected a ParseError");
    } catch (const ParseError& e) {
        CHECK(std::string(e.what()) ==
              "line 2, column 5: dot_general: contracting dims do not match: lhs dim 1 "
              "has size 16 but rhs dim 0 has size 15");
    }
}

TEST_CASE("a ragged dot in each IR: its groups' FLOPs, in each of its three modes", "[ir][dot]") {
    // A mixture of experts' layer: 1,024 tokens of width 512, 8 experts of
    // 512 x 256. Each token meets one expert: 2 x 1024 x 512 x 256 FLOPs.
    const double moe = 2.0 * 1024 * 512 * 256;
    const Module j = parse_jaxpr(
        "{ lambda ; a:bf16[1024,512] b:bf16[8,512,256] c:i32[8]. let\n"
        "    d:bf16[1024,256] = ragged_dot_general[\n"
        "      group_offset=None\n      precision=None\n      preferred_element_type=bfloat16\n"
        "      ragged_dot_dimension_numbers=RaggedDotDimensionNumbers(dot_dimension_numbers=(([1], [1]), ([], [])), "
        "lhs_ragged_dimensions=[0], rhs_group_dimensions=[0])\n    ] a b c\n  in (d,) }");
    const Module old = parse_jaxpr(
        "{ lambda ; a:bf16[1024,512] b:bf16[8,512,256] c:i32[8]. let\n"
        "    d:bf16[1024,256] = ragged_dot[group_offset=None precision=None preferred_element_type=bfloat16] a b c\n"
        "  in (d,) }");
    const Module s = parse_stablehlo(
        "func.func @main(%a: tensor<1024x512xbf16>, %b: tensor<8x512x256xbf16>, %c: tensor<8xi32>) -> "
        "tensor<1024x256xbf16> {\n"
        "  %0 = \"chlo.ragged_dot\"(%a, %b, %c) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision "
        "DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], "
        "rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
        "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<1024x512xbf16>, "
        "tensor<8x512x256xbf16>, tensor<8xi32>) -> tensor<1024x256xbf16>\n"
        "  return %0 : tensor<1024x256xbf16>\n}\n");
    const Module h = parse_hlo(
        "HloModule m\n\nENTRY %e (a: bf16[1024,512], b: bf16[8,512,256], c: s32[8]) -> bf16[1024,256] {\n"
        "  %a = bf16[1024,512]{1,0} parameter(0)\n  %b = bf16[8,512,256]{2,1,0} parameter(1)\n"
        "  %c = s32[8]{0} parameter(2)\n"
        "  ROOT %d = bf16[1024,256]{1,0} ragged-dot(%a, %b, %c), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}\n}\n");
    for (const Module* m : {&j, &old, &s, &h}) {
        const auto dots = find_dots(*m);
        REQUIRE(dots.size() == 1);
        CHECK(dots[0].output_shape == std::vector<std::int64_t>{1024, 256});
        CHECK(dots[0].flops == moe);
    }

    // Ragged over the contracting dim (a weight gradient per expert): each
    // group makes its own output, a leading dim of 8; the FLOPs stay those
    // of the whole contraction.
    RaggedDotDims contracted;
    contracted.dot = dims({0}, {0});
    contracted.lhs_ragged = {0};
    const DotShape w = ragged_dot_shape({1024, 512}, {1024, 256}, contracted, 8);
    CHECK(w.output == std::vector<std::int64_t>{8, 512, 256});
    CHECK(w.flops == 2.0 * 1024 * 512 * 256);
    // Ragged over a batch dim: the dot_general's shape.
    RaggedDotDims batched;
    batched.dot = dims({2}, {1}, {0}, {0});
    batched.lhs_ragged = {0};
    CHECK(ragged_dot_shape({4, 16, 32}, {4, 32, 8}, batched, 3).output == std::vector<std::int64_t>{4, 16, 8});

    // Dims the modes do not allow, and group counts that disagree, say so.
    RaggedDotDims moe_dims;
    moe_dims.dot = dims({1}, {1});
    moe_dims.lhs_ragged = {0};
    moe_dims.rhs_group = {0};
    const auto refusal = [](auto&& f) {
        try {
            f();
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refusal([&] {
              ragged_dot_shape({1024, 512}, {8, 512, 256}, moe_dims, 4);
          }) == "the rhs has 8 groups but the group sizes list 4");
    contracted.rhs_group = {0};
    CHECK(refusal([&] {
              ragged_dot_shape({1024, 512}, {1024, 256}, contracted, 8);
          }) == "the rhs has a group dim only when the ragged dim is free, not contracted");
    moe_dims.rhs_group = {};
    CHECK(refusal([&] {
              ragged_dot_shape({1024, 512}, {8, 512, 256}, moe_dims, 8);
          }) == "a ragged dot over a free dim needs one rhs group dim, not 0");
}
