// Bad dumps: a ParseError naming the line and column, never a crash or a hang.
#include <catch2/catch.hpp>

#include "ir_samples.h"
#include "tpusim/error.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

using namespace tpusim;
using namespace tpusim::ir;

namespace {

std::string parse_error(std::string_view text, Format format) {
    try {
        parse(text, format);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("errors name the line and column", "[ir][errors]") {
    // The ']' after 16 is missing: the error sits on the '{' of the layout,
    // column 20 of "  ROOT a = f32[8,16{1,0}".
    CHECK(parse_error("ENTRY e {\n  ROOT a = f32[8,16{1,0} parameter(0)\n}\n", Format::hlo) ==
          "line 2, column 20: expected ']' after the dimension list");
    CHECK(parse_error("ENTRY e {\n  ROOT a = f33[8] parameter(0)\n}\n", Format::hlo) ==
          "line 2, column 12: 'f33' is not an element type");
    CHECK(parse_error("ENTRY e {\n  a = f32[8] parameter(0)\n", Format::hlo) ==
          "line 1, column 1: computation 'e' is never closed with '}'");
    CHECK(parse_error("ENTRY e {\n  a = f32[8] add(b c)\n}", Format::hlo) ==
          "line 2, column 20: expected ')' after the operands");  // on the 'c'
    CHECK(parse_error("{ lambda ; a:f32[8]. let\n    b:f32[8] = neg a\n  in (b,)", Format::jaxpr) ==
          "line 3, column 10: expected '}' to close the jaxpr");
    CHECK(parse_error("{ lambda ; a:f32[8. let\n  in (a,) }", Format::jaxpr) ==
          "line 1, column 19: expected ']' after the dimension list");  // on the '.'
    CHECK(parse_error("{ lambda ; a:f32[8]. let\n    b:f32[8] = neg[x=(1, ] a\n  in (b,) }", Format::jaxpr) ==
          "line 2, column 26: expected ')' before ']'");
    CHECK(parse_error("func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
                      "  %0 = stablehlo.add %a, %a : tensor<8xf33>\n  return %0 : tensor<8xf32>\n}\n",
                      Format::stablehlo) == "line 2, column 31: 'tensor<8xf33>' is not a tensor type");
    CHECK(parse_error("module {\n  func.func @main() {\n    %0 = \"stablehlo.constant() : () -> ()\n  }\n}\n",
                      Format::stablehlo) == "line 3, column 10: the string opened here is never closed");
    CHECK(
        parse_error("module {\n  func.func @main() {\n    %0 = stablehlo.add %a, %b : tensor<f32>\n", Format::stablehlo)
            .starts_with("line 2, column 21: this region is never closed"));
}

TEST_CASE("the error position is exact for a broken sample", "[ir][errors]") {
    // Delete the ']' of "f32[32,512]" on line 12 of mlp.hlo (ROOT %maximum.1): the
    // error sits on the '{' that follows, column 31.
    std::string text = read_sample("mlp.hlo");
    const std::size_t at = text.find("%maximum.1 = f32[32,512]");
    REQUIRE(at != std::string::npos);
    text.erase(at + std::string("%maximum.1 = f32[32,512").size(), 1);
    try {
        parse_hlo(text);
        FAIL("expected a ParseError");
    } catch (const ParseError& e) {
        CHECK(e.line() == 12);
        CHECK(e.column() == 31);
        CHECK(std::string(e.what()).ends_with("expected ']' after the dimension list"));
    }
}

TEST_CASE("hostile input is refused without a crash or a hang", "[ir][errors]") {
    // Deep nesting is capped instead of recursing until the stack ends.
    const std::string deep_tuple = "ENTRY e {\n  ROOT a = " + std::string(100000, '(') + " parameter(0)\n}";
    CHECK_THROWS_AS(parse_hlo(deep_tuple), ParseError);
    const std::string deep_brackets = "module {\n" + std::string(100000, '[') + "\n}";
    CHECK_THROWS_AS(parse_stablehlo(deep_brackets), ParseError);
    std::string deep_regions;
    for (int i = 0; i < 1000; ++i) deep_regions += "\"x.y\"() ({\n";
    CHECK_THROWS_AS(parse_stablehlo(deep_regions), ParseError);
    std::string deep_jaxpr = "{ lambda ; a:f32[]. let\n";
    for (int i = 0; i < 1000; ++i) deep_jaxpr += "b:f32[] = pjit[jaxpr={ lambda ; c:f32[]. let\n";
    CHECK_THROWS_AS(parse_jaxpr(deep_jaxpr), ParseError);
    // Location aliases that each name the previous one twice: 2^80 paths, one
    // answer. (Found by the fuzzer; resolving each alias once keeps it linear.)
    std::string aliases = "func.func @f() {\n  return loc(#loc80)\n}\n#loc0 = loc(\"op\"(\"x.py\":3:1))\n";
    for (int i = 1; i <= 80; ++i)
        aliases += "#loc" + std::to_string(i) + " = loc(fused[#loc" + std::to_string(i - 1) + ", #loc" +
                   std::to_string(i - 1) + "])\n";
    aliases += "#loc81 = loc(fused[#loc81, #loc82])\n#loc82 = loc(#loc81)\n";  // a cycle resolves to nothing
    const Module chained = parse_stablehlo(aliases);
    CHECK(chained.entry().ops[0].metadata.op_name == "op");
    CHECK(chained.entry().ops[0].metadata.source_line == 3);
    // Oversized input is refused before parsing.
    const std::string huge(max_input_bytes + 1, ' ');
    CHECK_THROWS_AS(parse_hlo(huge), InputError);
    CHECK_THROWS_AS(parse(huge), InputError);
    // Sizes that overflow 64 bits are an error, not a wrap-around.
    CHECK_THROWS_AS(parse_hlo("ENTRY e {\n  ROOT a = f32[99999999999999999999] parameter(0)\n}"), ParseError);
    // Two batch dims of 2^32 each: their product does not fit in 63 bits.
    const Module big = parse_hlo(
        "ENTRY e {\n  a = f32[4294967296,4294967296,2] parameter(0)\n"
        "  b = f32[4294967296,4294967296,2] parameter(1)\n"
        "  ROOT d = f32[4294967296,4294967296] dot(a, b), lhs_batch_dims={0,1}, "
        "rhs_batch_dims={0,1}, lhs_contracting_dims={2}, rhs_contracting_dims={2}\n}");
    CHECK_THROWS_AS(find_dots(big), ParseError);
}

TEST_CASE("every prefix of every sample parses or fails cleanly", "[ir][errors]") {
    // A property over truncated dumps: the only exception allowed is InputError.
    for (const std::string name :
         {"mlp.jaxpr", "mlp.stablehlo.mlir", "mlp.hlo", "attention.jaxpr", "attention.stablehlo.mlir", "attention.hlo",
          "batched_matmul.generic.mlir", "layernorm.stablehlo.mlir"}) {
        const std::string text = read_sample(name);
        const Format format = detect_format(text);
        int refused = 0;
        for (std::size_t cut = 0; cut < text.size(); cut += 13) {
            try {
                const Module m = parse(std::string_view(text).substr(0, cut), format);
                find_dots(m);
            } catch (const InputError&) {
                ++refused;
            }
        }
        INFO(name);
        CHECK(refused > 0);
    }
}
