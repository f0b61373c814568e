// EX·02 re-traces on every edit of a shape or a static argument: the program
// stepped line by line into its jaxpr, names given, every equation printed.
// One re-trace must take well under a millisecond.
#include <benchmark/benchmark.h>

#include "coursework/tracer.h"

namespace {

void retrace(benchmark::State& state, const char* program, const char* knob) {
    const coursework::tracer::Program* p = coursework::tracer::find_program(program);
    coursework::tracer::Settings s = coursework::tracer::defaults(*p);
    std::int64_t n = 1;
    for (auto _ : state) {
        s.sizes[knob] = 1 + (n++ % 512);  // a new shape each time: a retrace, not a cache hit
        const coursework::tracer::Trace t = coursework::tracer::trace(program, s);
        benchmark::DoNotOptimize(t.text().size());
    }
}

void BM_Ex02RetraceMlp(benchmark::State& state) {
    retrace(state, "mlp", "B");
}
BENCHMARK(BM_Ex02RetraceMlp)->Unit(benchmark::kMicrosecond);

void BM_Ex02RetraceScan(benchmark::State& state) {
    retrace(state, "scan", "T");
}
BENCHMARK(BM_Ex02RetraceScan)->Unit(benchmark::kMicrosecond);

}  // namespace
