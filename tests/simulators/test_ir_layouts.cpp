// The same dot laid out every way a printer or a person might: broken over
// lines at any space, sharing a line with other ops, attributes over several
// lines, comments between. Each layout decodes to the one right answer or is
// refused with a line and column; none may give another answer.
#include <catch2/catch.hpp>

#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

using namespace tpusim::ir;

namespace {

enum class Outcome { right, refused };

// Fails the test on a silent wrong answer: a dot missed, or decoded otherwise.
Outcome decode(const std::string& text, Format format, const std::vector<std::int64_t>& shape, std::int64_t flops) {
    INFO(text);
    try {
        const auto dots = find_dots(parse(text, format));
        REQUIRE(dots.size() == 1);
        CHECK(dots[0].output_shape == shape);
        CHECK(dots[0].flops == flops);
        return Outcome::right;
    } catch (const ParseError&) {
        return Outcome::refused;
    }
}

// `text` with the space at `at` turned into a line break and an indent.
std::string broken_at(std::string text, std::size_t at) {
    text.replace(at, 1, "\n      ");
    return text;
}

std::vector<std::size_t> spaces_in(const std::string& text, std::size_t from, std::size_t to) {
    std::vector<std::size_t> out;
    for (std::size_t i = from; i < to; ++i)
        if (text[i] == ' ') out.push_back(i);
    return out;
}

// Breaks the op line of `text` (the line holding `marker`) at every space, and
// at every two spaces; returns how many layouts were refused.
int count_refusals_over_splits(const std::string& text, const std::string& marker, Format format,
                               const std::vector<std::int64_t>& shape, std::int64_t flops) {
    const std::size_t start = text.find(marker);
    REQUIRE(start != std::string::npos);
    const std::size_t end = text.find('\n', start);
    const auto spaces = spaces_in(text, start, end);
    REQUIRE(spaces.size() > 8);
    int refused = 0;
    for (std::size_t a = 0; a < spaces.size(); ++a) {
        refused += decode(broken_at(text, spaces[a]), format, shape, flops) == Outcome::refused;
        for (std::size_t b = a + 1; b < spaces.size(); ++b)  // the later break first keeps `a` in place
            refused +=
                decode(broken_at(broken_at(text, spaces[b]), spaces[a]), format, shape, flops) == Outcome::refused;
    }
    return refused;
}

const std::string pretty =
    "func.func @main(%a: tensor<2x4x3xf32>, %b: tensor<2x3x5xf32>) -> tensor<2x4x5xf32> {\n"
    "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], "
    "precision = [DEFAULT, DEFAULT] : (tensor<2x4x3xf32>, tensor<2x3x5xf32>) -> tensor<2x4x5xf32>\n"
    "  return %0 : tensor<2x4x5xf32>\n"
    "}\n";

const std::string hlo =
    "HloModule m\n\n"
    "ENTRY %main (a: f32[2,4,3], b: f32[2,3,5]) -> f32[2,4,5] {\n"
    "  %a = f32[2,4,3]{2,1,0} parameter(0)\n"
    "  %b = f32[2,3,5]{2,1,0} parameter(1)\n"
    "  ROOT %dot.1 = f32[2,4,5]{2,1,0} dot(f32[2,4,3]{2,1,0} %a, f32[2,3,5]{2,1,0} %b), lhs_batch_dims={0}, "
    "lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, "
    "metadata={op_name=\"jit(f)/dot_general\"}\n"
    "}\n";

const std::string jaxpr =
    "{ lambda ; a:f32[2,4,3] b:f32[2,3,5]. let\n"
    "    c:f32[2,4,5] = dot_general[dimension_numbers=(([2], [1]), ([0], [0])) precision=None "
    "preferred_element_type=float32] a b\n"
    "  in (c,) }\n";

const std::vector<std::int64_t> batched{2, 4, 5};
constexpr std::int64_t batched_flops = 2 * 2 * 4 * 5 * 3;

}  // namespace

TEST_CASE("a StableHLO dot broken over lines anywhere decodes the same", "[ir][layouts]") {
    CHECK(decode(pretty, Format::stablehlo, batched, batched_flops) == Outcome::right);
    CHECK(count_refusals_over_splits(pretty, "%0 = stablehlo.dot_general", Format::stablehlo, batched, batched_flops) ==
          0);
}

TEST_CASE("an HLO dot broken over lines anywhere decodes the same", "[ir][layouts]") {
    CHECK(count_refusals_over_splits(hlo, "ROOT %dot.1", Format::hlo, batched, batched_flops) == 0);
}

TEST_CASE("a jaxpr dot broken over lines anywhere decodes the same", "[ir][layouts]") {
    CHECK(count_refusals_over_splits(jaxpr, "c:f32[2,4,5]", Format::jaxpr, batched, batched_flops) == 0);
}

TEST_CASE("the two layouts that once decoded wrongly now decode right", "[ir][layouts]") {
    // Broken after the operands, attributes and signature together on the next line:
    // once read as an outer product [2,2,2,3].
    const std::string broken =
        "func.func @main(%a: tensor<2x2xi8>, %b: tensor<2x3xi8>) -> tensor<2x3xi32> {\n"
        "  %2 = stablehlo.dot_general %a, %b,\n"
        "    contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x3xi8>) -> tensor<2x3xi32>\n"
        "  return %2 : tensor<2x3xi32>\n"
        "}\n";
    CHECK(decode(broken, Format::stablehlo, {2, 3}, 24) == Outcome::right);
    // A dot sharing its line with the function header and with the return: once skipped.
    const std::string one_line =
        "func.func @main(%a: tensor<2x2xi8>, %b: tensor<2x3xi8>) -> tensor<2x3xi32> { "
        "%1 = stablehlo.negate %a : tensor<2x2xi8> "
        "%2 = stablehlo.dot_general %1, %b, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x3xi8>) -> "
        "tensor<2x3xi32> return %2 : tensor<2x3xi32> }\n";
    CHECK(decode(one_line, Format::stablehlo, {2, 3}, 24) == Outcome::right);
}

TEST_CASE("a location on the line after its op stays the op's", "[ir][layouts]") {
    const std::string text =
        "func.func @main(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {\n"
        "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x5xf32>) -> "
        "tensor<4x5xf32>\n"
        "    loc(\"jit(f)/dot_general\"(\"/tmp/f.py\":7:0))\n"
        "  return %0 : tensor<4x5xf32>\n"
        "}\n";
    CHECK(decode(text, Format::stablehlo, {4, 5}, 120) == Outcome::right);
    const auto dots = find_dots(parse(text, Format::stablehlo));
    CHECK(dots[0].metadata.op_name == "jit(f)/dot_general");
    CHECK(dots[0].metadata.source_line == 7);
}

TEST_CASE("several ops on one line, in every IR", "[ir][layouts]") {
    const std::string hlo_line =
        "ENTRY %e { %a = f32[4,3] parameter(0) %b = f32[3,5] parameter(1) "
        "%n = f32[4,3] negate(%a) ROOT %d = f32[4,5] dot(%n, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0} }";
    CHECK(decode(hlo_line, Format::hlo, {4, 5}, 120) == Outcome::right);
    const std::string jaxpr_line =
        "{ lambda ; a:f32[4,3] b:f32[3,5]. let c:f32[4,3] = neg a d:f32[4,5] = dot_general["
        "dimension_numbers=(([1], [0]), ([], [])) precision=None] c b in (d,) }";
    CHECK(decode(jaxpr_line, Format::jaxpr, {4, 5}, 120) == Outcome::right);
    const std::string generic_line =
        "\"func.func\"() <{function_type = (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>, sym_name = "
        "\"main\"}> ({ "
        "^bb0(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>): %0 = \"stablehlo.negate\"(%a) : (tensor<4x3xf32>) -> "
        "tensor<4x3xf32> "
        "%1 = \"stablehlo.dot_general\"(%0, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = "
        "[1], "
        "rhs_contracting_dimensions = [0]>}> : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32> "
        "\"func.return\"(%1) : (tensor<4x5xf32>) -> () }) : () -> ()\n";
    CHECK(decode(generic_line, Format::stablehlo, {4, 5}, 120) == Outcome::right);
}

TEST_CASE("a generic attribute dictionary over several lines", "[ir][layouts]") {
    for (const std::string& open : {std::string("{"), std::string("<{")}) {
        const std::string close = open == "{" ? "}" : "}>";
        const std::string text =
            "func.func @main(%a: tensor<2x2x2xi8>, %b: tensor<2x2x3xi8>) -> tensor<2x2x3xi32> {\n"
            "  %0 = \"stablehlo.dot_general\"(%a, %b) " +
            open +
            "\n"
            "    dot_dimension_numbers = #stablehlo.dot<\n"
            "      lhs_batching_dimensions = [0],\n"
            "      rhs_batching_dimensions = [0],\n"
            "      lhs_contracting_dimensions = [2],\n"
            "      rhs_contracting_dimensions = [1]\n"
            "    >,\n"
            "    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]\n"
            "  " +
            close +
            " : (tensor<2x2x2xi8>, tensor<2x2x3xi8>) -> tensor<2x2x3xi32>\n"
            "  \"func.return\"(%0) : (tensor<2x2x3xi32>) -> ()\n"
            "}\n";
        INFO(open);
        CHECK(decode(text, Format::stablehlo, {2, 2, 3}, 2 * 2 * 2 * 3 * 2) == Outcome::right);
    }
}

TEST_CASE("HLO's // comments, layouts with spaces, literal= and execution_thread=", "[ir][layouts]") {
    const std::string text =
        "// RUN: a test runner's line\n"
        "HloModule m\n"
        "// between the header and the computations\n"
        "%side (p: f32[10]) -> f32[20] {\n"
        "  %p = f32[10]{0} parameter(0)\n"
        "  ROOT %c = f32[20]{0} custom-call(f32[10]{0} %p), custom_call_target=\"SetBound\", literal=s32[] 1\n"
        "}, execution_thread=\"side\"\n\n"
        "ENTRY %main {\n"
        "  // inside a computation\n"
        "  %a = s32[3, 4]{1, 0} parameter(0)  // after an instruction\n"
        "  %b = s32[4, 5]{0, 1} parameter(1)\n"
        "  ROOT %d = s32[3, 5]{1, 0} dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
        "}\n";
    CHECK(decode(text, Format::hlo, {3, 5}, 120) == Outcome::right);
    const Module m = parse(text, Format::hlo);
    REQUIRE(m.computations.size() == 2);
    CHECK(m.computations[1].ops[1].result_types[0].minor_to_major == std::vector<std::int64_t>{0, 1});
    CHECK(*m.computations[0].ops[1].attribute("literal") == "s32[] 1");
}

TEST_CASE("every element type of StableHLO and HLO", "[ir][layouts]") {
    for (const std::string element : {"i1",
                                      "i2",
                                      "i4",
                                      "i8",
                                      "i16",
                                      "i32",
                                      "i64",
                                      "si8",
                                      "si64",
                                      "ui1",
                                      "ui4",
                                      "ui8",
                                      "ui16",
                                      "ui32",
                                      "ui64",
                                      "f16",
                                      "bf16",
                                      "f32",
                                      "f64",
                                      "f8E4M3FN",
                                      "f8E5M2",
                                      "f8E4M3",
                                      "f8E3M4",
                                      "f8E4M3FNUZ",
                                      "f8E5M2FNUZ",
                                      "f8E4M3B11FNUZ",
                                      "f8E8M0FNU",
                                      "f4E2M1FN",
                                      "f6E2M3FN",
                                      "f6E3M2FN",
                                      "complex<f32>",
                                      "complex<f64>",
                                      "!quant.uniform<i8:f32, 0.0039215452530804804>",
                                      "!quant.uniform<i8<-127:127>:f32, 0.5:3>"}) {
        const std::string t = "tensor<4x3x" + element + ">";
        const std::string r = "tensor<3x5x" + element + ">", o = "tensor<4x5x" + element + ">";
        const std::string text = "func.func @main(%a: " + t + ", %b: " + r + ") -> " + o +
                                 " {\n"
                                 "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (" +
                                 t + ", " + r + ") -> " + o + "\n  return %0 : " + o + "\n}\n";
        INFO(element);
        CHECK(decode(text, Format::stablehlo, {4, 5}, 120) == Outcome::right);
        CHECK(element_bytes(find_dots(parse(text, Format::stablehlo))[0].element) >= 0.125);
    }
    for (const std::string element :
         {"pred",      "s1",      "s2",     "s4",     "s8",         "s16",        "s32",
          "s64",       "u1",      "u2",     "u4",     "u8",         "u16",        "u32",
          "u64",       "f16",     "bf16",   "f32",    "f64",        "c64",        "c128",
          "f8e4m3fn",  "f8e5m2",  "f8e4m3", "f8e3m4", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz",
          "f8e8m0fnu", "f4e2m1fn"}) {
        const std::string text = "ENTRY %e {\n  %a = " + element + "[4,3] parameter(0)\n  %b = " + element +
                                 "[3,5] parameter(1)\n  ROOT %d = " + element +
                                 "[4,5] dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
        INFO(element);
        CHECK(decode(text, Format::hlo, {4, 5}, 120) == Outcome::right);
    }
}

TEST_CASE("a jaxpr with shared sub-jaxprs ahead of it", "[ir][layouts]") {
    const std::string text =
        "let _mm = { lambda ; a:f32[4,3] b:f32[3,5]. let\n"
        "    c:f32[4,5] = dot_general[dimension_numbers=(([1], [0]), ([], []))] a b\n"
        "  in (c,) } in\n"
        "{ lambda ; d:f32[4,3] e:f32[3,5]. let\n"
        "    f:f32[4,5] = pjit[name=_mm jaxpr=_mm] d e\n"
        "  in (f,) }\n";
    CHECK(detect_format(text) == Format::jaxpr);
    CHECK(decode(text, Format::jaxpr, {4, 5}, 120) == Outcome::right);
    const Module m = parse(text);
    REQUIRE(m.computations.size() == 2);
    CHECK(m.computations[0].name == "_mm");
    CHECK(m.entry().ops[0].name == "pjit");
}

TEST_CASE("a jaxpr without types is refused as such, wherever its untyped variables start", "[ir][layouts]") {
    for (const std::string text :
         {"{ lambda a ; b c. let d = add b c in (d,) }", "{ lambda ; b c. let d = add b c in (d,) }"}) {
        INFO(text);
        try {
            parse(text, Format::jaxpr);
            FAIL("an untyped jaxpr was read");
        } catch (const ParseError& e) {
            CHECK_THAT(e.what(), Catch::Contains("variables carry no types"));
        }
    }
}
