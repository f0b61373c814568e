// EX·01, the roofline playground: what one scrub step asks of the model.
// Budget: well under 1 ms per step at the default sizes, so a drag redraws
// on every mouse move. A step recomputes the one op being dragged; a chip or
// dtype switch recomputes all four ops and both roofs (the worst case).
#include <benchmark/benchmark.h>

#include "tpusim/attention.h"
#include "tpusim/roofline.h"

namespace {

tpusim::MatmulSpec defaultMatmul(std::int64_t m) {
    tpusim::MatmulSpec spec;
    spec.m = m;
    spec.k = 4096;
    spec.n = 4096;
    return spec;
}

tpusim::AttentionSpec defaultAttention() {
    tpusim::AttentionSpec spec;
    spec.seq_q = spec.seq_kv = 4096;
    spec.head_dim = 128;
    spec.block_q = spec.block_k = 128;
    return spec;
}

// One drag step on the matmul's M.
void BM_Ex01ScrubMatmul(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    std::int64_t m = 4096;
    for (auto _ : state) {
        m = m % 8192 + 1;
        benchmark::DoNotOptimize(tpusim::roofline(chip, tpusim::matmul_cost(defaultMatmul(m))).time_s);
    }
}
BENCHMARK(BM_Ex01ScrubMatmul);

// One drag step on flash attention's block (the costliest op to evaluate).
void BM_Ex01ScrubAttention(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    tpusim::AttentionSpec spec = defaultAttention();
    for (auto _ : state) {
        spec.block_q = spec.block_k = spec.block_q == 128 ? 256 : 128;
        benchmark::DoNotOptimize(tpusim::attention(chip, spec).flash.time_s);
    }
}
BENCHMARK(BM_Ex01ScrubAttention);

// A chip switch: the four ops and the MXU and VPU roofs (three points each).
void BM_Ex01WholePlayground(benchmark::State& state) {
    const auto& chips = tpusim::all_chips();
    std::size_t i = 0;
    for (auto _ : state) {
        const tpusim::Chip& chip = chips[i++ % chips.size()];
        double sum = tpusim::roofline(chip, tpusim::matmul_cost(defaultMatmul(4096))).time_s;
        sum += tpusim::roofline(chip, tpusim::matmul_cost(defaultMatmul(8))).time_s;
        sum += tpusim::roofline(chip, tpusim::elementwise_cost({4096, 4096}, 2, 1, tpusim::DType::bf16)).time_s;
        sum += tpusim::attention(chip, defaultAttention()).flash.time_s;
        for (auto engine : {tpusim::Engine::mxu, tpusim::Engine::vpu})
            for (double x : {0.01, 240.0, 1e5})
                sum += tpusim::roofline(chip, tpusim::generic_cost(x, 1, tpusim::DType::bf16, engine)).time_s;
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(BM_Ex01WholePlayground);

}  // namespace
