// EX·08 recomputes on every scrub of a block size, the grid order or the
// chip: the pipeline model with its per-step schedule, then the strip of
// pixel buckets it draws (1,200 wide, the whole call). A normal grid (the
// chapter's 512 x 1024 x 1024 blocks of a 4096^3 matmul, 128 steps; 128^3
// blocks, 32,768 steps) must stay well under a millisecond; the 262,144 steps
// of 8192^3 with 128-blocks run off the GUI thread, and this says how long.
#include <benchmark/benchmark.h>

#include "tpusim/pipeline.h"
#include "tpusim/pipeline_schedule.h"

namespace {

void recompute(benchmark::State& state, std::int64_t size, std::int64_t bm, std::int64_t bk, std::int64_t bn) {
    tpusim::BlockedMatmul s;
    s.m = s.k = s.n = size;
    s.bm = bm;
    s.bk = bk;
    s.bn = bn;
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::PipelineOptions o;
    o.schedule = true;
    for (auto _ : state) {
        const tpusim::Kernel k = tpusim::blocked_matmul(s);
        const tpusim::PipelineResult r = tpusim::simulate(chip, k, o);
        benchmark::DoNotOptimize(tpusim::aggregate_schedule(r, 0, 0, r.time_s, 1200).data());
    }
}

void BM_Ex08Recompute128Steps(benchmark::State& state) {
    recompute(state, 4096, 512, 1024, 1024);
}
BENCHMARK(BM_Ex08Recompute128Steps)->Unit(benchmark::kMicrosecond);

void BM_Ex08Recompute32768Steps(benchmark::State& state) {
    recompute(state, 4096, 128, 128, 128);
}
BENCHMARK(BM_Ex08Recompute32768Steps)->Unit(benchmark::kMicrosecond);

void BM_Ex08Recompute262144Steps(benchmark::State& state) {
    recompute(state, 8192, 128, 128, 128);
}
BENCHMARK(BM_Ex08Recompute262144Steps)->Unit(benchmark::kMillisecond);

// A repaint of a zoom or a pan: the buckets alone, over 262,144 steps.
void BM_Ex08Aggregate262144Steps(benchmark::State& state) {
    tpusim::BlockedMatmul s;
    s.m = s.k = s.n = 8192;
    s.bm = s.bk = s.bn = 128;
    tpusim::PipelineOptions o;
    o.schedule = true;
    const tpusim::PipelineResult r = tpusim::simulate(tpusim::chip("v5e"), tpusim::blocked_matmul(s), o);
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::aggregate_schedule(r, 0, 0, r.time_s, 1200).data());
}
BENCHMARK(BM_Ex08Aggregate262144Steps)->Unit(benchmark::kMillisecond);

}  // namespace
