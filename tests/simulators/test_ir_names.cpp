// Misspelt op names: a StableHLO op or HLO opcode written within an edit or
// two of a real one is named, with the one meant; real dumps, and names far
// from every known one, raise nothing.
#include <catch2/catch.hpp>

#include <filesystem>

#include "ir_samples.h"
#include "tpusim/ir.h"
#include "tpusim/ir_names.h"

using namespace tpusim::ir;

TEST_CASE("a name an edit or two from a known op is taken for a typo of it", "[ir][names]") {
    CHECK(nearest_op_name("dot_genral", Format::stablehlo) == "dot_general");
    CHECK(nearest_op_name("broadcast_indim", Format::stablehlo) == "broadcast_in_dim");
    CHECK(nearest_op_name("dot_general", Format::stablehlo).empty());
    CHECK(nearest_op_name("multipy", Format::hlo) == "multiply");
    CHECK(nearest_op_name("all-gahter", Format::hlo) == "all-gather");
    CHECK(nearest_op_name("get-tuple-element", Format::hlo).empty());
    // Short names allow one edit only; far names are left alone (a newer
    // op, another dialect's).
    CHECK(nearest_op_name("ad", Format::hlo) == "add");
    CHECK(nearest_op_name("erf", Format::stablehlo).empty());
    CHECK(nearest_op_name("flash_attention", Format::stablehlo).empty());
    CHECK(nearest_op_name("dot_genral", Format::jaxpr).empty());
}

TEST_CASE("a dump with a misspelt op says where and what was meant", "[ir][names]") {
    const Module shlo = parse(R"(module @m {
  func.func public @main(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.dot_genral %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %1 = chlo.erf %0 : tensor<8x4xf32> -> tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
})");
    const auto found = misspelt_ops(shlo);
    REQUIRE(found.size() == 1);
    CHECK(found[0].position.line == 3);
    CHECK(found[0].sentence(Format::stablehlo) ==
          "line 3: stablehlo.dot_genral is not a StableHLO op; did you mean stablehlo.dot_general?");

    const Module hlo = parse(R"(HloModule m
ENTRY main {
  a = f32[8] parameter(0)
  ROOT b = f32[8] multipy(a, a)
})");
    const auto typo = misspelt_ops(hlo);
    REQUIRE(typo.size() == 1);
    CHECK(typo[0].sentence(Format::hlo) == "line 4: multipy is not an HLO opcode; did you mean multiply?");
}

TEST_CASE("the real dumps and the samples name no misspelt op", "[ir][names][corpus]") {
    int dumps = 0;
    for (const char* dir : {TPUSIM_IR_CORPUS, TPUSIM_IR_SAMPLES}) {
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".mlir" && ext != ".hlo" && ext != ".jaxpr") continue;
            INFO(entry.path().filename().string());
            Module m;
            try {
                m = parse(read_dump_file(entry.path().string(), "dump"));
            } catch (const ParseError&) {
                continue;  // the corpus's refused files
            }
            ++dumps;
            for (const auto& op : misspelt_ops(m)) FAIL(op.sentence(m.format));
        }
    }
    CHECK(dumps > 30);
}
