#include <catch2/catch.hpp>

#include "tpusim/error.h"
#include "tpusim/layout.h"

using namespace tpusim;

TEST_CASE("sublane packing by dtype", "[layout]") {
    CHECK(native_tiling(DType::f32).rows == 8);
    CHECK(native_tiling(DType::bf16).rows == 16);
    CHECK(native_tiling(DType::int8).rows == 32);
    CHECK(native_tiling(DType::int4).rows == 64);
    CHECK(native_tiling(DType::bf16).cols == 128);
}

TEST_CASE("padding and waste by hand", "[layout]") {
    // f32 [1, 1]: one (8,128) tile of 4 KiB holds 4 useful bytes.
    const Layout one = tiled_layout({1, 1}, DType::f32);
    CHECK(one.padded_shape == std::vector<std::int64_t>{8, 128});
    CHECK(one.padded_bytes == 4096);
    CHECK(one.waste == Approx(1 - 4.0 / 4096));
    // bf16 [8, 128] in its native (16,128) tile: half the tile is padding.
    const Layout half = tiled_layout({8, 128}, DType::bf16);
    CHECK(half.tiles == 1);
    CHECK(half.padded_bytes == 16 * 128 * 2);
    CHECK(half.waste == Approx(0.5));
    // bf16 [8, 128] in (8,128) tiles: no waste.
    CHECK(tiled_layout({8, 128}, DType::bf16, Tiling{8, 128}).waste == 0);
    // [8,128,1,1] pads each 1x1 to a tile: 1024 tiles for 1024 elements [DOC-TPU].
    const Layout tiny = tiled_layout({8, 128, 1, 1}, DType::f32);
    CHECK(tiny.tiles == 1024);
    CHECK(tiny.padded_bytes == 1024.0 * 4096);
    // int8 [100, 200]: (32,128) tiles -> 128 x 256 padded.
    const Layout i8 = tiled_layout({100, 200}, DType::int8);
    CHECK(i8.padded_shape == std::vector<std::int64_t>{128, 256});
    CHECK(i8.logical_bytes == 20000);
}

TEST_CASE("relayout cost reads and writes the padded array", "[layout]") {
    const Relayout r = relayout_cost(chip("v5e"), {4096, 4096}, DType::bf16, Tiling{8, 128},
                                     Tiling{16, 128});
    CHECK(r.bytes_moved == 2.0 * 4096 * 4096 * 2);
    CHECK(r.time_s == Approx(r.bytes_moved / 8.2e11));
    CHECK(r.provenance.kind == Kind::predicted);
    const Relayout t = relayout_cost(chip("v5e"), {8, 4096}, DType::f32, Tiling{8, 128},
                                     Tiling{8, 128}, true);
    CHECK(t.to.shape == std::vector<std::int64_t>{4096, 8});
    CHECK(t.to.padded_shape == std::vector<std::int64_t>{4096, 128});  // 16x the bytes
    CHECK(t.to.padded_bytes == 16 * t.from.padded_bytes);
}

TEST_CASE("layout refuses bad input", "[layout]") {
    CHECK_THROWS_AS(tiled_layout({0, 4}, DType::f32), InputError);
    CHECK_THROWS_AS(tiled_layout({8, 128}, DType::int8, Tiling{2, 128}), InputError);
    CHECK_THROWS_AS(relayout_cost(chip("v5e"), {8}, DType::f32, Tiling{}, Tiling{}, true), InputError);
}
