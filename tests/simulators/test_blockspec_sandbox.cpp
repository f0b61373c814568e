// The BlockSpec sandbox's one-call answers: they agree with the functions
// they are built from, a broken schedule is called broken, and the host run
// shrinks only the blocks, saying so.
#include <catch2/catch.hpp>

#include "tpusim/blockspec_sandbox.h"
#include "tpusim/error.h"
#include "tpusim/index_map_text.h"

using namespace tpusim;

namespace {

SandboxInputs docs() {
    SandboxInputs in;
    in.grid = sandbox_grid(in, "ijk");
    return in;
}

}  // namespace

TEST_CASE("sandbox: the docs' schedule is sound, and its time is the pipeline model's", "[sandbox]") {
    const Chip& chip = tpusim::chip("v5e");
    const SandboxInputs in = docs();
    CHECK(in.grid == std::vector<std::int64_t>{4, 4, 4});
    const SandboxReport r = evaluate_sandbox(chip, in);
    CHECK(r.sound);
    CHECK_FALSE(r.broken);
    REQUIRE(r.prediction);
    const Kernel blocked = blocked_matmul(BlockedMatmul{1024, 1024, 1024, 256, 256, 256, DType::bf16, DType::bf16});
    CHECK(r.prediction->time_s == Approx(simulate(chip, blocked).time_s));
    CHECK(r.vmem_bytes == vmem_bytes(chip, blocked));
    CHECK(r.vmem_limit_bytes == chip.scoped_vmem_default.value);
    REQUIRE(r.coverage);
    CHECK(r.coverage->window_shape == std::vector<std::int64_t>{4, 4});
    CHECK(r.coverage->visits[5].writes == 4);
}

TEST_CASE("sandbox: an illegal block, a race, a gap and a bad map are reported", "[sandbox]") {
    const Chip& chip = tpusim::chip("v5e");
    SandboxInputs in = docs();
    in.bn = 64;
    in.grid = sandbox_grid(in, "ijk");
    SandboxReport r = evaluate_sandbox(chip, in);
    CHECK(r.broken);
    CHECK_FALSE(r.operands[1].legality.legal);
    CHECK(r.operands[1].legality.reason == check_block({1024, 1024}, {256, 64}, DType::bf16).reason);
    CHECK_FALSE(r.prediction);
    CHECK(r.prediction_error.find("illegal block") != std::string::npos);

    in = docs();
    in.semantics[2] = Semantics::parallel;
    r = evaluate_sandbox(chip, in);
    CHECK(r.broken);
    CHECK(r.coverage->race);

    in = docs();
    in.out_map = "lambda i, j, k: (0, j)";
    r = evaluate_sandbox(chip, in);
    CHECK(r.broken);
    CHECK(r.coverage->blocks_written == 4);

    in = docs();
    in.x_map = "lambda i, j, k: (i % 2, k)";
    r = evaluate_sandbox(chip, in);
    CHECK_FALSE(r.sound);
    CHECK(r.operands[0].map_error.rfind("column 18: `i % 2` is not affine", 0) == 0);
    CHECK(r.prediction_error == "no prediction until every index map parses");
}

TEST_CASE("sandbox: verification shrinks only the blocks, and fails what is broken", "[sandbox][verify]") {
    SandboxInputs in = docs();
    SandboxVerification v = verify_sandbox(in);
    CHECK(v.shrunk);
    CHECK(v.result.passed);
    CHECK(v.run.grid == in.grid);
    CHECK(v.run.bm == 8);
    CHECK(v.run.bk == 128);
    CHECK(v.run.bn == 128);
    CHECK(v.ran == "M=32 K=512 N=512 in blocks 8 × 128 × 128, grid (4, 4, 4)");
    CHECK(v.result.provenance.kind == Kind::verified_off_chip);

    in.semantics = {Semantics::arbitrary, Semantics::parallel, Semantics::parallel};
    in.grid = sandbox_grid(in, "kij");
    in.x_map = "lambda k, i, j: (i, k)";
    in.y_map = "lambda k, i, j: (k, j)";
    in.out_map = "lambda k, i, j: (i, j)";
    in.reduction_axis = 0;
    v = verify_sandbox(in);
    CHECK_FALSE(v.result.passed);  // each block goes back to HBM between its k steps

    in = docs();
    in.m = in.k = in.n = 128;
    in.bm = in.bk = in.bn = 128;
    in.grid = sandbox_grid(in, "ijk");
    v = verify_sandbox(in);
    CHECK_FALSE(v.shrunk);
    CHECK(v.result.passed);

    in = docs();
    in.bm = 384;
    CHECK_THROWS_WITH(verify_sandbox(in), Catch::Contains("bm=384 does not divide M=1024"));
    in = docs();
    in.m = in.n = in.k = 65536;
    in.grid = sandbox_grid(in, "ijk");
    CHECK_THROWS_WITH(verify_sandbox(in), Catch::Contains("even with blocks shrunk"));
}
