// EX·04, the fusion map: one click on a fusion recomputes the program's HBM
// bytes and time on the chip (on the GUI thread, so it must stay well under a
// millisecond even for a dump of 2,000+ ops); building the map (parse, the
// unfused graph, the fusion pass, the reasons) runs off the GUI thread.
#include <benchmark/benchmark.h>

#include <string>

#include "samples.h"
#include "tpusim/fusion_map.h"
#include "tpusim/ir.h"

namespace {

void BM_Ex04ToggleRecompute(benchmark::State& state, const std::string& file) {
    const std::string text = read_ir_corpus(file);
    if (text.empty()) {
        state.SkipWithError("corpus file not found");
        return;
    }
    tpusim::fusion::FusionMap map(tpusim::fusion::graph_from_hlo(tpusim::ir::parse_hlo(text)), tpusim::chip("v5e"));
    const int groups = static_cast<int>(map.groups().size());
    int g = 0;
    for (auto _ : state) {
        map.set_enabled(g, !map.enabled(g));  // one toggle: one recompute
        benchmark::DoNotOptimize(map.current().bytes);
        g = (g + 1) % groups;
    }
    state.counters["ops"] = static_cast<double>(map.graph().nodes().size());
    state.counters["fusions"] = groups;
}

void BM_Ex04ToggleRecomputeExample(benchmark::State& state) {
    tpusim::fusion::FusionMap map(tpusim::fusion::example("attention"), tpusim::chip("v5e"));
    for (auto _ : state) {
        map.set_enabled(0, !map.enabled(0));
        benchmark::DoNotOptimize(map.current().time_s);
    }
}

void BM_Ex04BuildMap(benchmark::State& state, const std::string& file) {
    const std::string text = read_ir_corpus(file);
    if (text.empty()) {
        state.SkipWithError("corpus file not found");
        return;
    }
    for (auto _ : state) {
        tpusim::fusion::FusionMap map(tpusim::fusion::graph_from_hlo(tpusim::ir::parse_hlo(text)), tpusim::chip("v5e"));
        benchmark::DoNotOptimize(map.blockers().size());
    }
}

}  // namespace

BENCHMARK_CAPTURE(BM_Ex04ToggleRecompute, mobilenet_v2, std::string("xla_mobilenet_v2_torch.hlo"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex04ToggleRecompute, maxtext, std::string("xla_nv_maxtext_before_optimization.hlo"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ex04ToggleRecomputeExample)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex04BuildMap, mobilenet_v2, std::string("xla_mobilenet_v2_torch.hlo"))
    ->Unit(benchmark::kMillisecond);
