// EX·09's recompute: every scrub or keystroke in the BlockSpec sandbox
// parses the three index maps, checks the three blocks, walks the output's
// coverage (recording the drawn cells), sizes VMEM and runs the pipeline
// model. At the default inputs (1024^3 bf16, 256^3 blocks, grid 4 x 4 x 4)
// it must stay well under 1 ms.
#include <benchmark/benchmark.h>

#include "tpusim/blockspec_sandbox.h"
#include "tpusim/chips.h"

namespace {

void BM_Ex09SandboxRecompute(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::SandboxInputs in;
    in.grid = tpusim::sandbox_grid(in, "ijk");
    for (auto _ : state) {
        const tpusim::SandboxReport r = tpusim::evaluate_sandbox(chip, in, 64);
        benchmark::DoNotOptimize(r.prediction->time_s);
    }
}
BENCHMARK(BM_Ex09SandboxRecompute)->Unit(benchmark::kMicrosecond);

// The largest grid the model judges on the GUI thread: 4096 steps (32 x 32 x 4).
void BM_Ex09SandboxRecomputeLargestInline(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::SandboxInputs in;
    in.m = 256;
    in.bm = 8;
    in.n = 4096;
    in.bn = 128;
    in.grid = tpusim::sandbox_grid(in, "ijk");
    for (auto _ : state) {
        const tpusim::SandboxReport r = tpusim::evaluate_sandbox(chip, in, 64);
        benchmark::DoNotOptimize(r.coverage->visits.size());
    }
}
BENCHMARK(BM_Ex09SandboxRecomputeLargestInline)->Unit(benchmark::kMicrosecond);

// The largest grid the map draws in full, judged off the GUI thread: 64 x 64 output blocks.
void BM_Ex09SandboxRecomputeFullMap(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::SandboxInputs in;
    in.m = 512;
    in.bm = 8;
    in.n = 8192;
    in.bn = 128;
    in.grid = tpusim::sandbox_grid(in, "ijk");
    for (auto _ : state) {
        const tpusim::SandboxReport r = tpusim::evaluate_sandbox(chip, in, 64);
        benchmark::DoNotOptimize(r.coverage->visits.size());
    }
}
BENCHMARK(BM_Ex09SandboxRecomputeFullMap)->Unit(benchmark::kMicrosecond);

}  // namespace
