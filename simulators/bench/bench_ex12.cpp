// EX·12's recompute: every scrub of a dimension, a dtype or a relayout lays
// the array out in tiles, prices the relayout and redraws the waste profile
// of the scrubbed dimension (up to 512 sizes). Together well under 1 ms.
#include <benchmark/benchmark.h>

#include "coursework/lens_presets.h"
#include "tpusim/chips.h"
#include "tpusim/layout.h"

namespace {

void recompute(benchmark::State& state, const char* preset) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    const coursework::LensPreset& p = coursework::lens_preset(preset);
    for (auto _ : state) {
        const tpusim::LayoutChange c = tpusim::layout_change(chip, p.shape, p.dtype, p.change);
        const tpusim::TileGrid from = tpusim::tile_grid(c.from);
        const tpusim::TileGrid to = tpusim::tile_grid(c.to);
        const std::vector<double> w = tpusim::waste_profile(p.shape, p.dtype, p.shape.size() - 1, 1, 512);
        benchmark::DoNotOptimize(c.bytes_moved);
        benchmark::DoNotOptimize(from.tile_cols + to.tile_cols);
        benchmark::DoNotOptimize(w.data());
    }
}

void BM_Ex12RecomputeSkinnyReshape(benchmark::State& state) {
    recompute(state, "skinny");
}
void BM_Ex12RecomputeTranspose(benchmark::State& state) {
    recompute(state, "transpose-k");
}
void BM_Ex12RecomputeTinyPlanes(benchmark::State& state) {
    recompute(state, "tiny-planes");
}
BENCHMARK(BM_Ex12RecomputeSkinnyReshape)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ex12RecomputeTranspose)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ex12RecomputeTinyPlanes)->Unit(benchmark::kMicrosecond);

}  // namespace
