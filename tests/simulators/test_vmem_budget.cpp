#include <catch2/catch.hpp>

#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/vmem_budget.h"

using namespace tpusim;

namespace {

constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * KiB;

BudgetKernelSpec matmul(std::int64_t bm, std::int64_t bk, std::int64_t bn, DType dtype = DType::bf16) {
    BudgetKernelSpec s = budget_preset(BudgetKernelKind::tiled_matmul);
    s.blocks = {bm, bk, bn};
    s.dtype = dtype;
    return s;
}

const BudgetLine& line(const VmemBudget& b, const std::string& name) {
    for (const BudgetLine& l : b.lines)
        if (l.name == name) return l;
    FAIL("no line " << name);
    return b.lines.front();
}

// The size a block dimension walks: bm over M, bk over K, bn over N; both
// attention blocks over the sequence; the layernorm's over its rows.
std::size_t walked_size(BudgetKernelKind kind, std::size_t block) {
    if (kind == BudgetKernelKind::tiled_matmul) return block;
    return kind == BudgetKernelKind::flash_attention ? 1 : 0;
}

}  // namespace

TEST_CASE("memory tiling: 8 rows for 16- and 32-bit types before TPU7x, packed rows from it", "[vmem]") {
    CHECK(memory_tiling(chip("v5e"), DType::f32).rows == 8);
    CHECK(memory_tiling(chip("v5e"), DType::bf16).rows == 8);
    CHECK(memory_tiling(chip("v5e"), DType::int8).rows == 32);
    CHECK(memory_tiling(chip("v7"), DType::bf16).rows == 16);
    CHECK(memory_tiling(chip("v7"), DType::f32).rows == 8);
    CHECK(memory_tiling(chip("v6e"), DType::bf16).cols == 128);
}

TEST_CASE("the docs' matmul budget, line by line: 10 MiB [JAX-MM]", "[vmem]") {
    const VmemBudget b = vmem_budget(chip("v5e"), budget_preset(BudgetKernelKind::tiled_matmul));
    REQUIRE(b.lines.size() == 4);
    CHECK(line(b, "x block").total_bytes == 2 * MiB);
    CHECK(line(b, "y block").total_bytes == 4 * MiB);
    CHECK(line(b, "out block").total_bytes == 2 * MiB);
    CHECK(line(b, "acc").total_bytes == 2 * MiB);
    CHECK(line(b, "acc").buffers == 1);
    CHECK(b.total_bytes == 10 * MiB);
    CHECK(b.logical_bytes == 10 * MiB);  // nothing to pad at these sizes
    CHECK(b.limit_bytes == 16 * MiB);
    CHECK(b.fits);
    CHECK_FALSE(b.error);
    CHECK(b.verdict == "fits: 10 MiB of the 16 MiB scoped limit (assumed default), 6 MiB to spare");
    CHECK(b.provenance.kind == Kind::predicted);
    // The same total as the pipeline model's VMEM for the same kernel.
    const Kernel k = blocked_matmul({4096, 4096, 4096, 512, 1024, 1024, DType::bf16, DType::bf16});
    CHECK(b.total_bytes == vmem_bytes(chip("v5e"), k));
}

TEST_CASE("doubling bn goes over the limit; raising vmem_limit_bytes lets it compile", "[vmem]") {
    const Chip& v5e = chip("v5e");
    const VmemBudget over = vmem_budget(v5e, matmul(512, 1024, 2048));
    CHECK(over.total_bytes == 18 * MiB);
    CHECK_FALSE(over.fits);
    CHECK(over.fits_physical);
    CHECK(over.limit_needed_bytes == 18 * MiB);
    REQUIRE(over.error);
    CHECK(over.error->stage == "compile");
    CHECK(over.error->quoted.rfind("RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem", 0) == 0);
    CHECK(over.error->source.find("error_1001") != std::string::npos);
    CHECK(over.verdict.rfind("over the 16 MiB scoped limit (assumed default) by 2 MiB", 0) == 0);

    const VmemBudget raised = vmem_budget(v5e, matmul(512, 1024, 2048), 32 * MiB);
    CHECK(raised.limit_raised);
    CHECK(raised.fits);
    CHECK_FALSE(raised.error);
    CHECK(raised.verdict.find("(raised)") != std::string::npos);
}

TEST_CASE("a third input buffer costs one more block per streamed input", "[vmem]") {
    BudgetKernelSpec s = budget_preset(BudgetKernelKind::tiled_matmul);
    s.input_buffers = 3;
    const VmemBudget b = vmem_budget(chip("v5e"), s);
    CHECK(line(b, "x block").buffers == 3);
    CHECK(line(b, "out block").buffers == 2);  // outputs are not multi-buffered
    CHECK(b.total_bytes == 13 * MiB);
    s.input_buffers = 4;
    CHECK_THROWS_AS(vmem_budget(chip("v5e"), s), InputError);
}

TEST_CASE("padding: full-height blocks to their tiles, short ones to the fewest rows that hold them", "[vmem]") {
    // int8 (40, 1024): taller than a tile's 32 rows, so padded to 64.
    const VmemBudget i8 = vmem_budget(chip("v5e"), matmul(40, 1024, 1024, DType::int8));
    const BudgetLine& x = line(i8, "x block");
    CHECK(x.logical_bytes == 40 * KiB);
    CHECK(x.padded == std::vector<std::int64_t>{64, 1024});
    CHECK(x.padded_bytes == 64 * KiB);
    // int8 (8, 1024): shorter than 32 rows, tiled from the packing factor
    // 4 doubled to 8 rows [MOSAIC-LAYOUT]: no padding.
    const VmemBudget short_i8 = vmem_budget(chip("v5e"), matmul(8, 1024, 1024, DType::int8));
    const BudgetLine& short8 = line(short_i8, "x block");
    CHECK(short8.padded == std::vector<std::int64_t>{8, 1024});
    CHECK(short8.tile.rows == 8);
    CHECK(short8.legality.legal);

    // A layernorm's (1, 4096) bf16 gamma: the packing factor's 2 rows, not 8.
    const VmemBudget ln = vmem_budget(chip("v5e"), budget_preset(BudgetKernelKind::layernorm));
    CHECK(line(ln, "gamma").padded == std::vector<std::int64_t>{2, 4096});
    CHECK(line(ln, "gamma").total_bytes == 2 * 16 * KiB);
    // x 4 MiB + out 4 MiB + gamma and beta 32 KiB each + the f32 upcast 4 MiB.
    CHECK(ln.total_bytes == 12 * MiB + 64 * KiB);

    // bf16 (24, 1024) pads to 32 rows on v7, whose bf16 tiles are 16 rows, and to 24 before it.
    CHECK(line(vmem_budget(chip("v7"), matmul(24, 1024, 1024)), "x block").padded_bytes == 64 * KiB);
    CHECK(line(vmem_budget(chip("v5e"), matmul(24, 1024, 1024)), "x block").padded_bytes == 48 * KiB);
    CHECK(block_tile_rows(chip("v5e"), DType::f32, 1) == 1);
    CHECK(block_tile_rows(chip("v5e"), DType::bf16, 1) == 2);
    CHECK(block_tile_rows(chip("v5e"), DType::bf16, 3) == 4);
    CHECK(block_tile_rows(chip("v5e"), DType::int8, 5) == 8);
    CHECK(block_tile_rows(chip("v5e"), DType::int8, 20) == 32);
}

TEST_CASE("flash attention: q, k, v and o double-buffered, the m, l and acc scratch, one f32 score tile", "[vmem]") {
    const VmemBudget b = vmem_budget(chip("v5e"), budget_preset(BudgetKernelKind::flash_attention));
    REQUIRE(b.lines.size() == 8);
    CHECK(line(b, "q block").total_bytes == 256 * KiB);
    CHECK(line(b, "k block").block == std::vector<std::int64_t>{1, 512, 128});
    CHECK(line(b, "m").total_bytes == 256 * KiB);
    CHECK(line(b, "scores").total_bytes == 1 * MiB);
    CHECK(line(b, "scores").role == BudgetRole::temporary);
    CHECK(b.total_bytes == 1 * MiB + 768 * KiB + 1 * MiB);
    CHECK(b.fits);
}

TEST_CASE("an illegal block fails at lowering, with the lowering's own words", "[vmem]") {
    const VmemBudget b = vmem_budget(chip("v5e"), matmul(12, 1024, 1024));
    CHECK_FALSE(b.legal);
    CHECK_FALSE(b.fits);
    REQUIRE(b.error);
    CHECK(b.error->stage == "lowering");
    CHECK(b.error->quoted.rfind("The Pallas TPU lowering currently requires", 0) == 0);
    CHECK(b.verdict.rfind("does not lower: the x block (12, 1024)", 0) == 0);
}

TEST_CASE("past the physical VMEM no limit helps; a limit past it is refused", "[vmem]") {
    const Chip& v5e = chip("v5e");
    const VmemBudget b = vmem_budget(v5e, matmul(4096, 4096, 4096));
    CHECK(b.total_bytes == 256 * MiB);
    CHECK_FALSE(b.fits_physical);
    CHECK(b.limit_needed_bytes == 0);
    CHECK(b.verdict ==
          "256 MiB is more than the 128 MiB of VMEM a v5e TensorCore has: no limit lets it compile; "
          "use smaller blocks or fewer buffers");
    CHECK_THROWS_WITH(vmem_budget(v5e, matmul(512, 1024, 1024), 129 * MiB),
                      "a VMEM limit of 129 MiB is more than the 128 MiB of VMEM a v5e TensorCore has");
    CHECK_THROWS_AS(vmem_budget(v5e, matmul(512, 1024, 1024), 0.0), InputError);
    CHECK_THROWS_AS(vmem_budget(v5e, matmul(0, 1024, 1024)), InputError);
    CHECK_THROWS_AS(budget_kernel_info("conv"), InputError);
}

TEST_CASE("the largest blocks that fit, worked by hand", "[vmem]") {
    const Chip& v5e = chip("v5e");
    // Layernorm: the traffic is the same for every block, so the fewest
    // steps win: 256 rows take 12.25 MiB, 512 rows 24.25 MiB.
    const BudgetKernelSpec ln = budget_preset(BudgetKernelKind::layernorm);
    const BlockSuggestion at16 = largest_fitting_blocks(v5e, ln);
    REQUIRE(at16.found);
    CHECK(at16.blocks == std::vector<std::int64_t>{256});
    CHECK(at16.steps == 32);
    CHECK(largest_fitting_blocks(v5e, ln, 32 * MiB).blocks == std::vector<std::int64_t>{512});

    // Matmul 4096^3 bf16 under 16 MiB: 1024 x 1024 output blocks halve the
    // docs' x traffic; with bk = 1024 the budget is exactly 16 MiB. HBM bytes
    // are (mkn/bn + knm/bm + mn) x 2 [JAX-MM].
    const BlockSuggestion mm = largest_fitting_blocks(v5e, budget_preset(BudgetKernelKind::tiled_matmul));
    REQUIRE(mm.found);
    CHECK(mm.blocks == std::vector<std::int64_t>{1024, 1024, 1024});
    CHECK(mm.total_bytes == 16 * MiB);
    CHECK(mm.hbm_bytes == (2.0 * 4096 * 4096 * 4096 / 1024 + 4096.0 * 4096) * 2);
    CHECK(mm.steps == 64);
    CHECK(vmem_budget(v5e, matmul(1024, 1024, 1024)).total_bytes == mm.total_bytes);

    // Nothing fits a limit below the smallest tiles' budget.
    const BlockSuggestion none = largest_fitting_blocks(v5e, ln, 64 * KiB);
    CHECK_FALSE(none.found);
    CHECK(none.reason.rfind("no legal blocks fit the 64 KiB limit", 0) == 0);
}

TEST_CASE("every suggestion is legal, fits, and no single doubling of a block fits with fewer bytes", "[vmem]") {
    for (const char* chip_id : {"v4", "v5e", "v6e", "v7"}) {
        const Chip& c = chip(chip_id);
        for (const BudgetKernelInfo& info : budget_kernels()) {
            const BudgetKernelSpec spec = budget_preset(info.kind);
            const BlockSuggestion s = largest_fitting_blocks(c, spec);
            INFO(chip_id << " " << info.id);
            REQUIRE(s.found);
            BudgetKernelSpec chosen = spec;
            chosen.blocks = s.blocks;
            const VmemBudget b = vmem_budget(c, chosen);
            CHECK(b.legal);
            CHECK(b.fits);
            CHECK(b.total_bytes == s.total_bytes);
            CHECK(b.hbm_bytes == s.hbm_bytes);
            for (std::size_t d = 0; d < s.blocks.size(); ++d) {
                BudgetKernelSpec bigger = chosen;
                bigger.blocks[d] *= 2;
                if (spec.sizes[walked_size(info.kind, d)] % bigger.blocks[d] != 0) continue;
                const VmemBudget nb = vmem_budget(c, bigger);
                // A bigger block either does not fit, or it moves no fewer bytes in no fewer steps.
                if (nb.fits)
                    CHECK((nb.hbm_bytes > s.hbm_bytes || (nb.hbm_bytes == s.hbm_bytes && nb.steps >= s.steps)));
            }
        }
    }
}
