// Budget for EX·03 (streaming attention): dragging a shape number re-prices
// naive against streaming attention on every mouse move, and opening the
// instrument steps the small example once, keeping the state after every
// block; both must stay under 1 ms at the instrument's default sizes.
#include <benchmark/benchmark.h>

#include <vector>

#include "tpusim/attention.h"
#include "tpusim/online_softmax.h"

namespace {

// The shape scrub: 1 x 8 x 4096 x 128, bf16, 512-blocks, as the panel starts.
void BM_Ex03ShapeScrub(benchmark::State& state) {
    tpusim::AttentionSpec s;
    s.batch = 1;
    s.heads = 8;
    s.seq_q = s.seq_kv = 4096;
    s.head_dim = 128;
    s.block_q = s.block_k = 512;
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::attention(chip, s).speedup);
}
BENCHMARK(BM_Ex03ShapeScrub)->Unit(benchmark::kMicrosecond);

// The same scrub with "+ backward": eight XLA ops and three flash kernels.
void BM_Ex03ShapeScrubWithBackward(benchmark::State& state) {
    tpusim::AttentionSpec s;
    s.batch = 1;
    s.heads = 8;
    s.seq_q = s.seq_kv = 65536;  // the scrubber's longest: the causal loop walks 128 query blocks
    s.head_dim = 128;
    s.block_q = s.block_k = 512;
    s.causal = true;
    s.pass = tpusim::AttentionPass::forward_backward;
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::attention(chip, s).speedup);
}
BENCHMARK(BM_Ex03ShapeScrubWithBackward)->Unit(benchmark::kMicrosecond);

// The small example as the binding runs it: 8 rows, 16 keys in blocks of 4,
// head dimension 4; a copy of (m, l, alpha, acc) after every block, then
// the direct softmax for the final check.
void BM_Ex03ExampleRun(benchmark::State& state) {
    for (auto _ : state) {
        tpusim::OnlineSoftmaxStepper stepper(tpusim::random_attention_problem(8, 16, 4, 8, 4, false, 7));
        std::vector<std::vector<double>> kept;
        do {
            kept.push_back(stepper.m());
            kept.push_back(stepper.l());
            kept.push_back(stepper.alpha());
            kept.push_back(stepper.acc());
            kept.push_back(stepper.output());
        } while (stepper.step());
        benchmark::DoNotOptimize(tpusim::attention_reference(stepper.problem()).data());
        benchmark::DoNotOptimize(kept.data());
    }
}
BENCHMARK(BM_Ex03ExampleRun)->Unit(benchmark::kMicrosecond);

}  // namespace
