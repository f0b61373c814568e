// Budget: EX·14 prices a sharded MLP block on every click and every scrub
// of the batch: well under a millisecond, on the widest slices it offers.
#include <benchmark/benchmark.h>

#include "tpusim/chips.h"
#include "tpusim/layer_sharding.h"

namespace {

void BM_ShardMlpBlock(benchmark::State& state) {
    tpusim::LayerShardingSpec s;
    const bool cube = state.range(0) == 3;
    s.mesh = cube ? std::vector<std::int64_t>{16, 16, 16} : std::vector<std::int64_t>{16, 16};
    s.roles =
        cube ? std::vector<tpusim::AxisRole>{tpusim::AxisRole::data, tpusim::AxisRole::data, tpusim::AxisRole::model}
             : std::vector<tpusim::AxisRole>{tpusim::AxisRole::data, tpusim::AxisRole::model};
    s.batch = 1 << 20;
    s.d_model = 8192;
    s.d_ff = 32768;
    const tpusim::Chip& chip = tpusim::chip(cube ? "v5p" : "v5e");
    for (auto _ : state) {
        const tpusim::LayerShardingResult r = tpusim::shard_mlp_block(chip, s);
        benchmark::DoNotOptimize(r.step_s);
    }
}
BENCHMARK(BM_ShardMlpBlock)->Arg(2)->Arg(3)->Unit(benchmark::kMicrosecond);

}  // namespace
