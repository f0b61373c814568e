#include <catch2/catch.hpp>

#include "tpusim/blockspec.h"
#include "tpusim/error.h"

using namespace tpusim;

TEST_CASE("legality: the issue's example is illegal, with the reason", "[blockspec]") {
    const Legality l = check_block({1024, 1000}, {256, 100}, DType::f32);
    CHECK_FALSE(l.legal);
    CHECK(l.reason ==
          "the last dimension of the block (100) is neither a multiple of 128 nor equal to the "
          "array's (1000)");
}

TEST_CASE("legality of rank >= 2 blocks, both ways", "[blockspec]") {
    CHECK(check_block({1024, 1000}, {256, 128}, DType::f32).legal);
    CHECK(check_block({1024, 1000}, {256, 1000}, DType::f32).legal);  // equal to the array's
    const Legality second = check_block({1024, 1024}, {100, 128}, DType::f32);
    CHECK_FALSE(second.legal);
    CHECK_THAT(second.reason, Catch::Contains("second-to-last dimension of the block (100)"));
    const Legality both = check_block({1024, 1024}, {4, 64}, DType::f32);
    CHECK_FALSE(both.legal);
    CHECK_THAT(both.reason, Catch::Contains("(4, 64)"));
    CHECK(check_block({2, 1024, 1024}, {1, 8, 128}, DType::bf16).legal);  // leading dims are free
    // The rule is the same for every dtype; packing only adds a note.
    const Legality packed = check_block({1024, 1024}, {8, 128}, DType::bf16);
    CHECK(packed.legal);
    REQUIRE(packed.notes.size() == 1);
    CHECK_THAT(packed.notes[0], Catch::Contains("16 rows"));
    CHECK(check_block({1024, 1024}, {16, 128}, DType::bf16).notes.empty());
}

TEST_CASE("legality of rank-1 blocks", "[blockspec]") {
    CHECK(check_block({1000}, {1000}, DType::f32).legal);  // equal
    CHECK(check_block({8192}, {2048}, DType::f32).legal);  // multiple of 1024
    CHECK(check_block({8192}, {128}, DType::f32).legal);   // power of two >= 128 for f32
    CHECK(check_block({8192}, {256}, DType::bf16).legal);  // >= 256 for bf16
    CHECK_FALSE(check_block({8192}, {128}, DType::bf16).legal);
    CHECK_FALSE(check_block({8192}, {256}, DType::int8).legal);  // needs 512
    const Legality odd = check_block({8192}, {300}, DType::f32);
    CHECK_FALSE(odd.legal);
    CHECK_THAT(odd.reason, Catch::Contains("rank-1 block (300)"));
}

TEST_CASE("legality in other memory spaces, and malformed input", "[blockspec]") {
    CHECK(check_block({64, 64}, {64, 64}, DType::f32, MemorySpace::any).legal);
    CHECK_FALSE(check_block({64, 64}, {8, 64}, DType::f32, MemorySpace::any).legal);
    CHECK(check_block({64, 64}, {1, 1}, DType::f32, MemorySpace::smem).legal);
    CHECK_FALSE(check_block({}, {}, DType::f32).legal);  // rank 0
    CHECK_THROWS_AS(check_block({64, 64}, {64}, DType::f32), InputError);
    CHECK_THROWS_AS(check_block({64, 0}, {8, 128}, DType::f32), InputError);
}

TEST_CASE("coverage of the docs' matmul schedule is complete and safe", "[blockspec]") {
    const MatmulSchedule s = matmul_schedule(256, 256, 256, 128, 128, 128, DType::bf16);
    const BlockSpec out{"out", {256, 256}, {128, 128}, s.out_map, DType::bf16, 2};
    const Coverage c = check_coverage(s.grid, s.semantics, out);
    CHECK(c.ok);
    CHECK(c.blocks == 4);
    CHECK(c.blocks_written == 4);
    CHECK(c.writes == 8);
}

TEST_CASE("coverage finds missing blocks, races and scattered revisits", "[blockspec]") {
    // Output map (i, j) -> (i, 0): column blocks 1.. never written; j is parallel,
    // so two parallel steps write one block.
    const std::vector<std::int64_t> grid{2, 2};
    const std::vector<Semantics> par{Semantics::parallel, Semantics::parallel};
    const BlockSpec pinned{"out", {256, 256}, {128, 128}, IndexMap::select({0, -1}, 2), DType::f32, 2};
    const Coverage c = check_coverage(grid, par, pinned);
    CHECK_FALSE(c.ok);
    CHECK(c.blocks_written == 2);
    CHECK(c.race);
    REQUIRE(c.missing.size() == 2);
    CHECK(c.missing[0] == std::vector<std::int64_t>{0, 1});

    // Reduction axis first ("kij"): each output block comes back after others.
    const MatmulSchedule s = matmul_schedule(256, 256, 256, 128, 128, 128, DType::bf16, "kij");
    const BlockSpec out{"out", {256, 256}, {128, 128}, s.out_map, DType::bf16, 2};
    const Coverage k = check_coverage(s.grid, s.semantics, out);
    CHECK(k.non_consecutive);
    CHECK_FALSE(k.race);
    CHECK_FALSE(k.ok);
}

TEST_CASE("the off-chip verification passes the docs' schedule", "[blockspec][verify]") {
    for (DType d : {DType::bf16, DType::f32, DType::int8}) {
        const Verification v = verify_matmul(matmul_schedule(64, 96, 80, 16, 32, 16, d));
        INFO(name(d) << ": " << v.reason);
        CHECK(v.passed);
        CHECK(v.mismatches == 0);
        CHECK(v.steps == 4 * 5 * 3);
        CHECK(v.provenance.kind == Kind::verified_off_chip);
    }
}

TEST_CASE("the off-chip verification fails a broken schedule, with the reason", "[blockspec][verify]") {
    const Verification v = verify_matmul(matmul_schedule(64, 64, 64, 16, 16, 16, DType::f32, "kij"));
    CHECK_FALSE(v.passed);
    CHECK(v.mismatches > 0);
    CHECK_THAT(v.reason, Catch::Contains("differ from the reference"));
    CHECK(v.provenance.kind == Kind::verified_off_chip);
    // Any order with k last is right; with a single k block every order is.
    CHECK(verify_matmul(matmul_schedule(64, 64, 64, 16, 16, 16, DType::f32, "jik")).passed);
    CHECK(verify_matmul(matmul_schedule(64, 16, 64, 16, 16, 16, DType::f32, "kji")).passed);

    // An output map that pins a column: never-written blocks hold garbage.
    MatmulSchedule pinned = matmul_schedule(32, 32, 32, 16, 16, 16, DType::f32);
    pinned.out_map = IndexMap::select({0, -1}, 3);
    const Verification p = verify_matmul(pinned);
    CHECK_FALSE(p.passed);
    CHECK_THAT(p.reason, Catch::Contains("never written"));
    CHECK(p.coverage.race);
}

TEST_CASE("verification refuses what it cannot run", "[blockspec][verify]") {
    CHECK_THROWS_WITH(matmul_schedule(64, 64, 64, 24, 16, 16, DType::bf16), Catch::Contains("does not divide"));
    CHECK_THROWS_AS(matmul_schedule(64, 64, 64, 16, 16, 16, DType::bf16, "ikk"), InputError);
    CHECK_THROWS_AS(matmul_schedule(1024, 1024, 1024, 128, 128, 128, DType::bf16), InputError);
}
