// Budget: EX·13 prices a decode step on every scrub of the page size or the
// pages a step copies, and chapter 11's drag prices a quantized matmul per
// mouse move: each well under a millisecond.
#include <benchmark/benchmark.h>

#include "tpusim/chips.h"
#include "tpusim/decode_attention.h"
#include "tpusim/quantized_matmul.h"

namespace {

void BM_DecodeAttentionRagged(benchmark::State& state) {
    tpusim::DecodeAttentionSpec s;
    s.context = {4096, 3547, 3035, 2523, 2011, 1499, 987, 475};
    s.heads = 32;
    s.kv_heads = 8;
    s.page_size = static_cast<std::int64_t>(state.range(0));
    s.pages_per_block = static_cast<std::int64_t>(state.range(1));
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) {
        const tpusim::DecodeAttentionResult r = tpusim::decode_attention(chip, s);
        benchmark::DoNotOptimize(r.time_s);
    }
}
BENCHMARK(BM_DecodeAttentionRagged)->Args({16, 8})->Args({16, 128})->Args({256, 1})->Unit(benchmark::kMicrosecond);

void BM_QuantizedMatmul(benchmark::State& state) {
    tpusim::QuantizedMatmulSpec s;
    s.m = state.range(0);
    s.k = s.n = 8192;
    s.scheme = tpusim::QuantScheme::w8a8;
    const tpusim::Chip& chip = tpusim::chip("v6e");
    for (auto _ : state) {
        const tpusim::QuantizedMatmulResult r = tpusim::quantized_matmul(chip, s);
        benchmark::DoNotOptimize(r.time_s);
    }
}
BENCHMARK(BM_QuantizedMatmul)->Arg(8)->Arg(4096)->Unit(benchmark::kMicrosecond);

}  // namespace
