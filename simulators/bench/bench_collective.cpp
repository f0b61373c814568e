// Budgets: a collective on the 8x4 v5e slice in well under a millisecond (the
// EX·11 instrument re-runs it on every mouse move), and an all-reduce over a
// full v5p pod (16x20x28 = 8960 chips) simulated hop by hop in under 16 ms,
// per-link loads for all 53,760 directed links included.
#include <benchmark/benchmark.h>

#include "tpusim/collective.h"

namespace {

void run(benchmark::State& state, const char* chip, std::vector<std::int64_t> shape, tpusim::CollectiveKind kind,
         std::vector<int> axes, double bytes) {
    const tpusim::Mesh mesh = tpusim::make_mesh(tpusim::chip(chip), shape);
    tpusim::CollectiveSpec spec;
    spec.kind = kind;
    spec.axes = std::move(axes);
    spec.bytes = bytes;
    std::int64_t hops = 0;
    for (auto _ : state) {
        const tpusim::CollectiveResult r = tpusim::collective(mesh, spec);
        hops = r.chunk_hops;
        benchmark::DoNotOptimize(r.time_s);
    }
    state.counters["chunk_hops"] = static_cast<double>(hops);
}

void BM_AllGather8x4Axis1(benchmark::State& state) {
    run(state, "v5e", {8, 4}, tpusim::CollectiveKind::all_gather, {1}, 33554432);
}
BENCHMARK(BM_AllGather8x4Axis1)->Unit(benchmark::kMicrosecond);

void BM_AllToAll8x4BothAxes(benchmark::State& state) {
    run(state, "v5e", {8, 4}, tpusim::CollectiveKind::all_to_all, {0, 1}, 33554432);
}
BENCHMARK(BM_AllToAll8x4BothAxes)->Unit(benchmark::kMicrosecond);

void BM_AllReduceV5pPod(benchmark::State& state) {
    run(state, "v5p", {16, 20, 28}, tpusim::CollectiveKind::all_reduce, {0, 1, 2}, 1 << 30);
}
BENCHMARK(BM_AllReduceV5pPod)->Unit(benchmark::kMillisecond);

void BM_AllToAllV5pPod(benchmark::State& state) {
    run(state, "v5p", {16, 20, 28}, tpusim::CollectiveKind::all_to_all, {0, 1, 2}, 1 << 30);
}
BENCHMARK(BM_AllToAllV5pPod)->Unit(benchmark::kMillisecond);

}  // namespace
