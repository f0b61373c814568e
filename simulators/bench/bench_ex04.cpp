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

namespace {

// The fusion pass on a chain of N dots, as `tpusim fusion FILE.hlo` runs it:
// linear in the program's size (a 118,766-dot chain once took 92 s).
void BM_FusionDotChain(benchmark::State& state) {
    const auto n = static_cast<int>(state.range(0));
    std::string text = "HloModule chain\n\nENTRY main {\n  p0 = f32[64,64]{1,0} parameter(0)\n";
    std::string prev = "p0";
    for (int i = 0; i < n; ++i) {
        std::string name = "d";
        name.append(std::to_string(i));
        text.append(i + 1 == n ? "  ROOT " : "  ").append(name).append(" = f32[64,64]{1,0} dot(").append(prev);
        text.append(", p0), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n");
        prev = name;
    }
    text += "}\n";
    const tpusim::fusion::Graph graph = tpusim::fusion::graph_from_hlo(tpusim::ir::parse_hlo(text));
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::fusion::fuse(graph, tpusim::chip("v5e")).after.size());
    state.SetComplexityN(n);
}

}  // namespace

BENCHMARK(BM_FusionDotChain)->Arg(4096)->Arg(32768)->Unit(benchmark::kMillisecond)->Complexity();
