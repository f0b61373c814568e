// EX·11 re-runs the collective on every scrub: at the instrument's defaults
// (v5e 8x4, all-gather over axis 1, 32 MiB, 4 chunks) it must take well
// under a millisecond with the trace and link loads it draws.
#include <benchmark/benchmark.h>

#include "tpusim/collective.h"

namespace {

void BM_Ex11DefaultScrub(benchmark::State& state) {
    const tpusim::Mesh mesh = tpusim::make_mesh(tpusim::chip("v5e"), {8, 4});
    tpusim::CollectiveSpec spec;
    spec.kind = tpusim::CollectiveKind::all_gather;
    spec.axes = {1};
    spec.bytes = 32.0 * 1024 * 1024;
    tpusim::CollectiveOptions options;
    options.trace = true;
    options.max_trace_events = 20000;
    for (auto _ : state) {
        const tpusim::CollectiveResult r = tpusim::collective(mesh, spec, options);
        benchmark::DoNotOptimize(r.time_s);
    }
}
BENCHMARK(BM_Ex11DefaultScrub)->Unit(benchmark::kMicrosecond);

}  // namespace
