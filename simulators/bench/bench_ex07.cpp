// EX·07's recompute: every scrub of a block, a size, the buffers, the chip
// or the limit budgets the kernel line by line and searches the largest
// legal blocks that fit. Both together must stay well under 1 ms.
#include <benchmark/benchmark.h>

#include "tpusim/chips.h"
#include "tpusim/vmem_budget.h"

namespace {

void recompute(benchmark::State& state, tpusim::BudgetKernelKind kind) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    const tpusim::BudgetKernelSpec spec = tpusim::budget_preset(kind);
    for (auto _ : state) {
        const tpusim::VmemBudget b = tpusim::vmem_budget(chip, spec);
        const tpusim::BlockSuggestion s = tpusim::largest_fitting_blocks(chip, spec);
        benchmark::DoNotOptimize(b.total_bytes);
        benchmark::DoNotOptimize(s.hbm_bytes);
    }
}

void BM_Ex07RecomputeMatmul(benchmark::State& state) {
    recompute(state, tpusim::BudgetKernelKind::tiled_matmul);
}
void BM_Ex07RecomputeAttention(benchmark::State& state) {
    recompute(state, tpusim::BudgetKernelKind::flash_attention);
}
void BM_Ex07RecomputeLayernorm(benchmark::State& state) {
    recompute(state, tpusim::BudgetKernelKind::layernorm);
}
BENCHMARK(BM_Ex07RecomputeMatmul)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ex07RecomputeAttention)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ex07RecomputeLayernorm)->Unit(benchmark::kMicrosecond);

// The widest search the scrubbers allow: a 65536^3 int8 matmul, whose three
// block dimensions each have a dozen candidates.
void BM_Ex07RecomputeLargestMatmul(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::BudgetKernelSpec spec = tpusim::budget_preset(tpusim::BudgetKernelKind::tiled_matmul);
    spec.sizes = {65536, 65536, 65536};
    spec.dtype = tpusim::DType::int8;
    for (auto _ : state) {
        const tpusim::VmemBudget b = tpusim::vmem_budget(chip, spec);
        const tpusim::BlockSuggestion s = tpusim::largest_fitting_blocks(chip, spec);
        benchmark::DoNotOptimize(b.total_bytes);
        benchmark::DoNotOptimize(s.hbm_bytes);
    }
}
BENCHMARK(BM_Ex07RecomputeLargestMatmul)->Unit(benchmark::kMicrosecond);

}  // namespace
