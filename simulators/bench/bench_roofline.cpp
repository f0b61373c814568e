// Budget: one roofline evaluation well under 1 µs (the app re-runs it on
// every mouse move, for every chip).
#include <benchmark/benchmark.h>

#include "tpusim/bench.h"
#include "tpusim/roofline.h"

namespace {

void BM_RooflineMatmulWithProvenance(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::MatmulSpec spec;
    spec.k = 4096;
    spec.n = 4096;
    std::int64_t m = 1;
    for (auto _ : state) {
        spec.m = m;
        m = m % 8192 + 1;
        const tpusim::Roofline r = tpusim::roofline(chip, tpusim::matmul_cost(spec));
        benchmark::DoNotOptimize(r.time_s);
    }
}
BENCHMARK(BM_RooflineMatmulWithProvenance);

void BM_RooflineTimeOnly(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::MatmulSpec spec;
    spec.m = 4096;
    spec.k = 4096;
    spec.n = 4096;
    const tpusim::OpCost cost = tpusim::matmul_cost(spec);
    for (auto _ : state) {
        benchmark::DoNotOptimize(tpusim::roofline_time(chip, cost));
    }
}
BENCHMARK(BM_RooflineTimeOnly);

void BM_LandingBenchAllChips(benchmark::State& state) {
    for (auto _ : state)
        for (const tpusim::Chip& c : tpusim::all_chips()) benchmark::DoNotOptimize(tpusim::landing_bench(c));
}
BENCHMARK(BM_LandingBenchAllChips);

}  // namespace

BENCHMARK_MAIN();
