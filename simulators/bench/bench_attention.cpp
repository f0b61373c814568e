// Budget: the online-softmax stepper re-runs on every mouse move of the
// flash-attention instrument, so a whole run at instrument sizes (sequence
// 64 to 512, head dimension 64) must fit in a frame (16 ms), and the cost
// model in microseconds.
#include <benchmark/benchmark.h>

#include "tpusim/attention.h"
#include "tpusim/online_softmax.h"

namespace {

void BM_OnlineSoftmaxRun(benchmark::State& state) {
    const std::int64_t seq = state.range(0);
    const bool causal = state.range(1) != 0;
    const tpusim::OnlineSoftmaxProblem p = tpusim::random_attention_problem(seq, seq, 64, 32, 32, causal, 1);
    tpusim::OnlineSoftmaxStepper stepper(p);
    for (auto _ : state) {
        stepper.reset();
        stepper.run();
        benchmark::DoNotOptimize(stepper.acc().data());
    }
    state.counters["seq"] = static_cast<double>(seq);
}
BENCHMARK(BM_OnlineSoftmaxRun)
    ->Args({64, 0})
    ->Args({128, 0})
    ->Args({256, 0})
    ->Args({512, 0})
    ->Args({512, 1})
    ->Unit(benchmark::kMicrosecond);

// Building the stepper copies Q, K, V and transposes K: part of a re-run too.
void BM_OnlineSoftmaxBuildAndRun512(benchmark::State& state) {
    const tpusim::OnlineSoftmaxProblem p = tpusim::random_attention_problem(512, 512, 64, 64, 64, false, 1);
    for (auto _ : state) {
        tpusim::OnlineSoftmaxStepper stepper(p);
        stepper.run();
        benchmark::DoNotOptimize(stepper.acc().data());
    }
}
BENCHMARK(BM_OnlineSoftmaxBuildAndRun512)->Unit(benchmark::kMicrosecond);

void BM_AttentionCost(benchmark::State& state) {
    tpusim::AttentionSpec s;
    s.batch = 8;
    s.heads = 32;
    s.seq_q = s.seq_kv = 32768;
    s.head_dim = 128;
    s.block_q = s.block_k = 512;
    s.causal = true;
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::attention(chip, s).flash.time_s);
}
BENCHMARK(BM_AttentionCost)->Unit(benchmark::kMicrosecond);

}  // namespace
