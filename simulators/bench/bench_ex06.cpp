// EX·06 recomputes on every scrub of the cycle, M, K or N: the timeline, the
// closed forms of both modes, SCALE-Sim's count, the frame at the cursor (the
// whole array's cell states and the 8x8 corner's values), the activity strip
// and the whole run's work per cell. It must take well under a millisecond,
// at the ragged 100x300x200 on a 128 array and at a 256 array's full tile.
#include <benchmark/benchmark.h>

#include "tpusim/mxu.h"

namespace {

void recompute(std::int64_t m, std::int64_t k, std::int64_t n, int array, std::int64_t cycle) {
    const tpusim::MxuTimeline tl = tpusim::mxu_timeline(m, k, n, array, tpusim::MxuMode::overlapped);
    benchmark::DoNotOptimize(tpusim::mxu_cycles(m, k, n, array, tpusim::MxuMode::overlapped).cycles);
    benchmark::DoNotOptimize(tpusim::mxu_cycles(m, k, n, array, tpusim::MxuMode::no_overlap).cycles);
    benchmark::DoNotOptimize(tpusim::mxu_scalesim_count(m, k, n, array).cycles);
    benchmark::DoNotOptimize(tpusim::mxu_frame(tl, cycle, 8).useful_cells);
    benchmark::DoNotOptimize(tpusim::mxu_activity(tl, 480).data());
    benchmark::DoNotOptimize(tpusim::mxu_cell_work(tl).data());
}

void BM_Ex06RecomputeRagged128(benchmark::State& state) {
    for (auto _ : state) recompute(100, 300, 200, 128, 400);
}
BENCHMARK(BM_Ex06RecomputeRagged128)->Unit(benchmark::kMicrosecond);

void BM_Ex06RecomputeTile256(benchmark::State& state) {
    for (auto _ : state) recompute(256, 256, 256, 256, 600);
}
BENCHMARK(BM_Ex06RecomputeTile256)->Unit(benchmark::kMicrosecond);

// A scrub of the cycle alone: one frame.
void BM_Ex06Frame256(benchmark::State& state) {
    const tpusim::MxuTimeline tl = tpusim::mxu_timeline(1024, 4096, 4096, 256, tpusim::MxuMode::overlapped);
    std::int64_t t = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(tpusim::mxu_frame(tl, t, 8).useful_cells);
        t = (t + 997) % tl.cycles;
    }
}
BENCHMARK(BM_Ex06Frame256)->Unit(benchmark::kMicrosecond);

}  // namespace
