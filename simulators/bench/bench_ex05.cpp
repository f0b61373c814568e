// EX·05, the IR x-ray: what loading one program costs (three parses, the
// cross-layer links, which link owns each line, every dot decoded). It runs
// off the GUI thread; hovering afterwards is a lookup in those tables. A
// chip switch only re-costs the kernels.
#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "samples.h"
#include "tpusim/fusion.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/ir_xref.h"

namespace {

void BM_Ex05LoadProgram(benchmark::State& state, const std::string& program) {
    namespace ir = tpusim::ir;
    const std::array<std::string, 3> texts = {read_ir_sample(program + ".jaxpr"), read_ir_sample(program + ".stablehlo.mlir"),
                                              read_ir_sample(program + ".hlo")};
    const std::array<ir::Format, 3> formats = {ir::Format::jaxpr, ir::Format::stablehlo, ir::Format::hlo};
    for (const auto& t : texts)
        if (t.empty()) {
            state.SkipWithError("sample not found");
            return;
        }
    for (auto _ : state) {
        std::array<ir::Module, 3> modules;
        std::size_t dots = 0;
        for (std::size_t i = 0; i < 3; ++i) {
            modules[i] = ir::parse(texts[i], formats[i]);
            dots += ir::find_dots(modules[i]).size();
        }
        const auto links = ir::correspond(modules[0], modules[1], modules[2]);
        for (std::size_t i = 0; i < 3; ++i)
            benchmark::DoNotOptimize(ir::link_of_each_line(links, modules[i], formats[i], 200).size());
        benchmark::DoNotOptimize(dots);
    }
}

// A chip switch re-costs the optimized HLO's kernels on the GUI thread.
void BM_Ex05CostKernels(benchmark::State& state, const std::string& program) {
    const std::string text = read_ir_sample(program + ".hlo");
    if (text.empty()) {
        state.SkipWithError("sample not found");
        return;
    }
    const auto module = tpusim::ir::parse_hlo(text);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::fusion::cost_hlo_kernels(module, chip).time_s);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Ex05LoadProgram, mlp, std::string("mlp"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05LoadProgram, attention, std::string("attention"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05LoadProgram, layernorm, std::string("layernorm"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05CostKernels, attention, std::string("attention"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05CostKernels, layernorm, std::string("layernorm"))->Unit(benchmark::kMicrosecond);
