// Budget: parsing one of the small sample dumps well under 1 ms (the IR
// x-ray re-parses a pasted dump as the learner edits it), and one fusion
// pass well under 1 ms (the fusion map re-runs it on every toggle).
#include <benchmark/benchmark.h>

#include <string>

#include "samples.h"
#include "tpusim/fusion.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/ir_xref.h"

namespace {

void BM_ParseSample(benchmark::State& state, const std::string& name) {
    const std::string text = read_ir_sample(name);
    if (text.empty()) {
        state.SkipWithError("sample not found");
        return;
    }
    for (auto _ : state) {
        const tpusim::ir::Module m = tpusim::ir::parse(text);
        benchmark::DoNotOptimize(tpusim::ir::find_dots(m).size());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(text.size()));
}

void BM_CrossLinkAttention(benchmark::State& state) {
    const auto j = tpusim::ir::parse(read_ir_sample("attention.jaxpr"));
    const auto s = tpusim::ir::parse(read_ir_sample("attention.stablehlo.mlir"));
    const auto h = tpusim::ir::parse(read_ir_sample("attention.hlo"));
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::ir::correspond(j, s, h).size());
}
BENCHMARK(BM_CrossLinkAttention);

void BM_FuseExample(benchmark::State& state, const char* name) {
    const tpusim::fusion::Graph g = tpusim::fusion::example(name);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::fusion::fuse(g, chip).time_after);
}

}  // namespace

BENCHMARK_CAPTURE(BM_ParseSample, matmul_jaxpr, std::string("matmul.jaxpr"));
BENCHMARK_CAPTURE(BM_ParseSample, matmul_stablehlo, std::string("matmul.stablehlo.mlir"));
BENCHMARK_CAPTURE(BM_ParseSample, matmul_hlo, std::string("matmul.hlo"));
BENCHMARK_CAPTURE(BM_ParseSample, mlp_jaxpr, std::string("mlp.jaxpr"));
BENCHMARK_CAPTURE(BM_ParseSample, mlp_stablehlo, std::string("mlp.stablehlo.mlir"));
BENCHMARK_CAPTURE(BM_ParseSample, mlp_hlo, std::string("mlp.hlo"));
BENCHMARK_CAPTURE(BM_ParseSample, attention_jaxpr, std::string("attention.jaxpr"));
BENCHMARK_CAPTURE(BM_ParseSample, attention_stablehlo, std::string("attention.stablehlo.mlir"));
BENCHMARK_CAPTURE(BM_ParseSample, attention_hlo, std::string("attention.hlo"));
BENCHMARK_CAPTURE(BM_ParseSample, layernorm_jaxpr, std::string("layernorm.jaxpr"));
BENCHMARK_CAPTURE(BM_ParseSample, layernorm_stablehlo, std::string("layernorm.stablehlo.mlir"));
BENCHMARK_CAPTURE(BM_ParseSample, layernorm_hlo, std::string("layernorm.hlo"));
BENCHMARK_CAPTURE(BM_ParseSample, batched_generic_mlir, std::string("batched_matmul.generic.mlir"));
BENCHMARK_CAPTURE(BM_FuseExample, mlp, "mlp");
BENCHMARK_CAPTURE(BM_FuseExample, attention, "attention");
BENCHMARK_CAPTURE(BM_FuseExample, layernorm, "layernorm");
