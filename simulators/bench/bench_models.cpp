// Budgets: the pipeline for bf16 8192^3 with 128^3 blocks (262,144 grid
// steps) under 50 ms; one 128x128 MXU tile stepped under 1 ms.
#include <benchmark/benchmark.h>

#include <vector>

#include "tpusim/blockspec.h"
#include "tpusim/mxu.h"
#include "tpusim/pipeline.h"

namespace {

void BM_Pipeline8192Blocks128(benchmark::State& state) {
    tpusim::BlockedMatmul spec;
    spec.m = spec.k = spec.n = 8192;
    spec.bm = spec.bk = spec.bn = 128;
    const tpusim::Kernel kernel = tpusim::blocked_matmul(spec);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) {
        const tpusim::PipelineResult r = tpusim::simulate(chip, kernel);
        benchmark::DoNotOptimize(r.time_s);
    }
    state.counters["grid_steps"] = 262144;
}
BENCHMARK(BM_Pipeline8192Blocks128)->Unit(benchmark::kMillisecond);

void BM_Pipeline8192Blocks128Megacore(benchmark::State& state) {
    tpusim::BlockedMatmul spec;
    spec.m = spec.k = spec.n = 8192;
    spec.bm = spec.bk = spec.bn = 128;
    const tpusim::Kernel kernel = tpusim::blocked_matmul(spec);
    const tpusim::Chip& chip = tpusim::chip("v5p");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::simulate(chip, kernel).time_s);
}
BENCHMARK(BM_Pipeline8192Blocks128Megacore)->Unit(benchmark::kMillisecond);

void BM_PipelineDocsBlocks(benchmark::State& state) {
    tpusim::BlockedMatmul spec;
    spec.m = spec.k = spec.n = 4096;
    spec.bm = 512;
    spec.bk = spec.bn = 1024;
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::simulate(chip, tpusim::blocked_matmul(spec)).time_s);
}
BENCHMARK(BM_PipelineDocsBlocks)->Unit(benchmark::kMicrosecond);

void BM_MxuTile128Stepped(benchmark::State& state) {
    const std::vector<float> x(128 * 128, 1.0f), w(128 * 128, 0.5f);
    for (auto _ : state) {
        const tpusim::MxuRun r = tpusim::mxu_step(x, w, 128, 128, 128, 128, tpusim::MxuMode::overlapped);
        benchmark::DoNotOptimize(r.cycles);
    }
}
BENCHMARK(BM_MxuTile128Stepped)->Unit(benchmark::kMicrosecond);

void BM_MxuTile128SteppedNoOverlap(benchmark::State& state) {
    const std::vector<float> x(128 * 128, 1.0f), w(128 * 128, 0.5f);
    for (auto _ : state)
        benchmark::DoNotOptimize(tpusim::mxu_step(x, w, 128, 128, 128, 128, tpusim::MxuMode::no_overlap).cycles);
}
BENCHMARK(BM_MxuTile128SteppedNoOverlap)->Unit(benchmark::kMicrosecond);

void BM_MxuTile128SteppedWithActivity(benchmark::State& state) {
    const std::vector<float> x(128 * 128, 1.0f), w(128 * 128, 0.5f);
    for (auto _ : state)
        benchmark::DoNotOptimize(tpusim::mxu_step(x, w, 128, 128, 128, 128, tpusim::MxuMode::overlapped, true).cycles);
}
BENCHMARK(BM_MxuTile128SteppedWithActivity)->Unit(benchmark::kMicrosecond);

void BM_MxuTile256Stepped(benchmark::State& state) {
    const std::vector<float> x(256 * 256, 1.0f), w(256 * 256, 0.5f);
    for (auto _ : state)
        benchmark::DoNotOptimize(tpusim::mxu_step(x, w, 256, 256, 256, 256, tpusim::MxuMode::overlapped).cycles);
}
BENCHMARK(BM_MxuTile256Stepped)->Unit(benchmark::kMicrosecond);

void BM_MxuFormula8192(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(tpusim::mxu_cycles(8192, 8192, 8192, 128, tpusim::MxuMode::no_overlap).cycles);
}
BENCHMARK(BM_MxuFormula8192);

void BM_VerifySchedule256(benchmark::State& state) {
    const tpusim::MatmulSchedule s = tpusim::matmul_schedule(256, 256, 256, 128, 128, 128, tpusim::DType::bf16);
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::verify_matmul(s).passed);
}
BENCHMARK(BM_VerifySchedule256)->Unit(benchmark::kMillisecond);

}  // namespace
