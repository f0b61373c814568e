#include <catch2/catch.hpp>

#include "coursework/lens_presets.h"
#include "tpusim/error.h"
#include "tpusim/layout.h"

using namespace tpusim;
using coursework::lens_preset;
using coursework::lens_presets;
using coursework::LensPreset;

TEST_CASE("chapter 7's worked cases are the lens's presets", "[layout][lens]") {
    CHECK(tiled_layout(lens_preset("full-bf16").shape, lens_preset("full-bf16").dtype).waste == 0);
    CHECK(tiled_layout(lens_preset("half-bf16").shape, lens_preset("half-bf16").dtype).waste == Approx(0.5));
    CHECK(tiled_layout(lens_preset("int8-8rows").shape, lens_preset("int8-8rows").dtype).waste == Approx(0.75));
    const LensPreset& tiny = lens_preset("tiny-planes");
    const LayoutChange fix = layout_change(chip("v5e"), tiny.shape, tiny.dtype, tiny.change);
    CHECK(fix.from.tiles == 1024);
    CHECK(fix.to.tiles == 1);
    for (const LensPreset& p : lens_presets()) {
        INFO(p.id);
        CHECK_NOTHROW(layout_change(chip("v5e"), p.shape, p.dtype, p.change));
        CHECK_FALSE(p.note.empty());
    }
    CHECK_THROWS_AS(lens_preset("nope"), InputError);
}
