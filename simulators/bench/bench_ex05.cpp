// EX·05, the IR x-ray: what loading one program costs (three parses, the
// cross-layer links, which link owns each line, every dot decoded). It runs
// off the GUI thread; hovering afterwards is a lookup in those tables. A
// chip switch only re-costs the kernels.
#include <benchmark/benchmark.h>

#include <algorithm>
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
    const std::array<std::string, 3> texts = {read_ir_sample(program + ".jaxpr"),
                                              read_ir_sample(program + ".stablehlo.mlir"),
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

// A pasted dump of many thousand ops: a chain of adds, as jaxpr and as
// StableHLO with source locations. Linking must stay linear in its size.
void BM_Ex05LoadLargeDump(benchmark::State& state) {
    namespace ir = tpusim::ir;
    const auto ops = static_cast<int>(state.range(0));
    std::string jaxpr = "{ lambda ; a:f32[8,128]. let\n",
                shlo = "module @jit_f {\n  func.func public @main(%arg0: tensor<8x128xf32>) -> (tensor<8x128xf32>) {\n";
    std::string prev = "a", prev_value = "%arg0";
    for (int i = 0; i < ops; ++i) {
        // Appended piece by piece: GCC 12 warns falsely on chains of string +.
        std::string v = "v", value = "%";
        v.append(std::to_string(i));
        value.append(std::to_string(i));
        jaxpr.append("    ").append(v).append(":f32[8,128] = add ").append(prev).append(" ").append(prev).append("\n");
        shlo.append("    ")
            .append(value)
            .append(" = stablehlo.add ")
            .append(prev_value)
            .append(", ")
            .append(prev_value);
        shlo.append(" : tensor<8x128xf32> loc(\"jit(f)/jit(main)/add\"(\"/tmp/f.py\":")
            .append(std::to_string(3 + i % 50));
        shlo.append(":0))\n");
        prev = v;
        prev_value = value;
    }
    jaxpr.append("  in (").append(prev).append(",) }\n");
    shlo.append("    return ").append(prev_value).append(" : tensor<8x128xf32>\n  }\n}\n");
    const int lines = ops + 2;
    for (auto _ : state) {
        const ir::Module j = ir::parse_jaxpr(jaxpr);
        const ir::Module s = ir::parse_stablehlo(shlo);
        const auto links = ir::correspond(j, s, ir::Module{});
        benchmark::DoNotOptimize(ir::link_of_each_line(links, j, ir::Format::jaxpr, lines).size());
        benchmark::DoNotOptimize(ir::link_of_each_line(links, s, ir::Format::stablehlo, lines + 2).size());
    }
    state.SetComplexityN(state.range(0));
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

// The largest real dump of the test corpus, MaxText's Llama 3.1 8B train step
// (3 MB, 40,602 lines, 677 dots), opened alone: what the worker thread does
// (parse, decode, link, own each line) and, apart, the kernel costing.
void BM_Ex05LoadLlama8b(benchmark::State& state) {
    namespace ir = tpusim::ir;
    const std::string text = read_ir_corpus("xla_llama31_8b_bf16_1x8.hlo");
    if (text.empty()) {
        state.SkipWithError("corpus file not found");
        return;
    }
    const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    for (auto _ : state) {
        const ir::Module m = ir::parse(text);
        benchmark::DoNotOptimize(ir::find_dots(m).size());
        const auto links = ir::correspond(ir::Module{}, ir::Module{}, m);
        benchmark::DoNotOptimize(ir::link_of_each_line(links, m, ir::Format::hlo, lines).size());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(text.size()));
}

void BM_Ex05CostLlama8b(benchmark::State& state) {
    const std::string text = read_ir_corpus("xla_llama31_8b_bf16_1x8.hlo");
    if (text.empty()) {
        state.SkipWithError("corpus file not found");
        return;
    }
    const auto module = tpusim::ir::parse_hlo(text);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::fusion::cost_hlo_kernels(module, chip).time_s);
}

}  // namespace

BENCHMARK(BM_Ex05LoadLlama8b)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ex05CostLlama8b)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Ex05LoadProgram, mlp, std::string("mlp"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05LoadProgram, attention, std::string("attention"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05LoadProgram, layernorm, std::string("layernorm"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05CostKernels, attention, std::string("attention"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex05CostKernels, layernorm, std::string("layernorm"))->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ex05LoadLargeDump)->Arg(2000)->Arg(20000)->Unit(benchmark::kMillisecond)->Complexity();
