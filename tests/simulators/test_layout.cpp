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
    const Relayout r = relayout_cost(chip("v5e"), {4096, 4096}, DType::bf16, Tiling{8, 128}, Tiling{16, 128});
    CHECK(r.bytes_moved == 2.0 * 4096 * 4096 * 2);
    CHECK(r.time_s == Approx(r.bytes_moved / 8.2e11));
    CHECK(r.provenance.kind == Kind::predicted);
    const Relayout t = relayout_cost(chip("v5e"), {8, 4096}, DType::f32, Tiling{8, 128}, Tiling{8, 128}, true);
    CHECK(t.to.shape == std::vector<std::int64_t>{4096, 8});
    CHECK(t.to.padded_shape == std::vector<std::int64_t>{4096, 128});  // 16x the bytes
    CHECK(t.to.padded_bytes == 16 * t.from.padded_bytes);
}

TEST_CASE("layout refuses bad input", "[layout]") {
    CHECK_THROWS_AS(tiled_layout({0, 4}, DType::f32), InputError);
    CHECK_THROWS_AS(tiled_layout({8, 128}, DType::int8, Tiling{2, 128}), InputError);
    CHECK_THROWS_AS(relayout_cost(chip("v5e"), {8}, DType::f32, Tiling{}, Tiling{}, true), InputError);
}

TEST_CASE("a tile grid says how many tiles and how full the edge ones are", "[layout][lens]") {
    const TileGrid g = tile_grid(tiled_layout({4, 256, 100}, DType::bf16));
    CHECK(g.planes == 4);
    CHECK(g.tile_rows == 16);
    CHECK(g.tile_cols == 1);
    CHECK(g.edge_rows == 16);   // 256 rows fill sixteen 16-row tiles
    CHECK(g.edge_cols == 100);  // 100 of 128 lanes
    const TileGrid row = tile_grid(tiled_layout({300}, DType::f32));
    CHECK(row.rows == 1);
    CHECK(row.tile_cols == 3);
    CHECK(row.edge_cols == 44);
    CHECK(row.edge_rows == 1);
    const TileGrid tiny = tile_grid(tiled_layout({8, 128, 1, 1}, DType::f32));
    CHECK(tiny.planes == 1024);
    CHECK(tiny.tile_rows * tiny.tile_cols == 1);
}

TEST_CASE("sublane packing per dtype decides the waste of 8 rows", "[layout][lens]") {
    CHECK(tiled_layout({8, 128}, DType::f32).waste == 0);
    CHECK(tiled_layout({8, 128}, DType::bf16).waste == Approx(0.5));
    CHECK(tiled_layout({8, 128}, DType::int8).waste == Approx(0.75));
    CHECK(tiled_layout({8, 128}, DType::fp8).waste == Approx(0.75));
    CHECK(tiled_layout({32, 128}, DType::fp8).waste == 0);
    CHECK(tiled_layout({32, 128}, DType::fp8).padded_bytes == 4096);
}

TEST_CASE("the waste profile jumps at every tile boundary", "[layout][lens]") {
    // Lanes of a (16, n) bf16 array, n = 1..256.
    const auto w = waste_profile({16, 128}, DType::bf16, 1, 1, 256);
    REQUIRE(w.size() == 256);
    CHECK(w[127] == 0);                        // n = 128 fills the tile
    CHECK(w[128] == Approx(1 - 129.0 / 256));  // n = 129 opens a second tile
    CHECK(w[255] == 0);                        // n = 256 fills two
    CHECK(w[128] > w[127]);
    // Each point agrees with the full layout.
    for (std::int64_t n : {1, 7, 100, 129, 200}) {
        const Layout l = tiled_layout({16, n}, DType::bf16);
        CHECK(w[static_cast<std::size_t>(n - 1)] == Approx(l.waste));
    }
    // Rows of int8 jump every 32.
    const auto r = waste_profile({64, 128}, DType::int8, 0, 30, 34);
    CHECK(r[2] == 0);                      // 32 rows
    CHECK(r[3] == Approx(1 - 33.0 / 64));  // 33 rows: a second tile row
    // A leading dimension does not change the waste.
    const auto lead = waste_profile({3, 10, 100}, DType::f32, 0, 1, 5);
    CHECK(lead.front() == Approx(lead.back()));
    CHECK_THROWS_AS(waste_profile({16, 128}, DType::bf16, 2, 1, 10), InputError);
    CHECK_THROWS_AS(waste_profile({16, 128}, DType::bf16, 1, 0, 10), InputError);
    CHECK_THROWS_AS(waste_profile({16, 128}, DType::bf16, 1, 1, 100000), InputError);
}

TEST_CASE("a transpose, a reshape and a cast as the bytes they move", "[layout][lens]") {
    const Chip& v5e = chip("v5e");
    // k.T of a (512, 128) bf16 block: 128 KiB read, 128 KiB written.
    LayoutChange t = layout_change(v5e, {512, 128}, DType::bf16, {RelayoutKind::transpose, {}, DType::bf16});
    CHECK(t.moves);
    CHECK(t.to.shape == std::vector<std::int64_t>{128, 512});
    CHECK(t.bytes_moved == 2.0 * 512 * 128 * 2);
    CHECK(t.time_s == Approx(t.bytes_moved / v5e.hbm_bandwidth.value));
    CHECK(t.provenance.kind == Kind::predicted);
    CHECK(t.provenance.chip == "v5e");
    // A skinny f32 transposed: 8 lanes become 8 rows, the padding shrinks 16x.
    t = layout_change(v5e, {4096, 8}, DType::f32, {RelayoutKind::transpose, {}, DType::f32});
    CHECK(t.bytes_read == 16 * t.bytes_written);

    // Reshapes: leading only, whole row tiles, rows across tiles, lanes.
    LayoutChange r =
        layout_change(v5e, {4, 6, 16, 128}, DType::f32, {RelayoutKind::reshape, {24, 16, 128}, DType::f32});
    CHECK_FALSE(r.moves);
    CHECK(r.bytes_moved == 0);
    CHECK(r.time_s == 0);
    r = layout_change(v5e, {4, 16, 128}, DType::f32, {RelayoutKind::reshape, {64, 128}, DType::f32});
    CHECK_FALSE(r.moves);
    r = layout_change(v5e, {4, 12, 128}, DType::f32, {RelayoutKind::reshape, {48, 128}, DType::f32});
    CHECK(r.moves);
    CHECK(r.in_kernel);
    r = layout_change(v5e, {65536, 8}, DType::f32, {RelayoutKind::reshape, {4096, 128}, DType::f32});
    CHECK(r.moves);
    CHECK_FALSE(r.in_kernel);
    CHECK(r.bytes_read == 65536.0 * 128 * 4);  // 32 MiB padded, 2 MiB of data
    CHECK(r.bytes_written == 4096.0 * 128 * 4);
    CHECK(r.to.waste == 0);
    CHECK_THROWS_AS(layout_change(v5e, {16, 128}, DType::f32, {RelayoutKind::reshape, {16, 100}, DType::f32}),
                    InputError);
    CHECK_THROWS_AS(layout_change(v5e, {16, 128}, DType::f32, {RelayoutKind::reshape, {0, 128}, DType::f32}),
                    InputError);

    // A cast from f32 to bf16 halves the data and doubles the tile's rows.
    LayoutChange c = layout_change(v5e, {8, 128}, DType::f32, {RelayoutKind::cast, {}, DType::bf16});
    CHECK(c.moves);
    CHECK(c.to.dtype == DType::bf16);
    CHECK(c.to.tile.rows == 16);
    CHECK(c.bytes_read == 4096);
    CHECK(c.bytes_written == 4096);  // 2 KiB of bf16 in a 4 KiB tile
    CHECK(c.to.waste == Approx(0.5));
    CHECK_FALSE(layout_change(v5e, {8, 128}, DType::f32, {RelayoutKind::cast, {}, DType::f32}).moves);

    // No change moves nothing; the chip sets the time.
    CHECK(layout_change(v5e, {8, 128}, DType::f32, {}).bytes_moved == 0);
    const LayoutChange fast =
        layout_change(chip("v5p"), {512, 128}, DType::bf16, {RelayoutKind::transpose, {}, DType::bf16});
    CHECK(fast.time_s < layout_change(v5e, {512, 128}, DType::bf16, {RelayoutKind::transpose, {}, DType::bf16}).time_s);
}

TEST_CASE("the lens refuses zero and negative sizes with a sentence", "[layout][lens]") {
    CHECK_THROWS_AS(tiled_layout({16, 0}, DType::bf16), InputError);
    CHECK_THROWS_AS(tiled_layout({-3, 128}, DType::bf16), InputError);
    CHECK_THROWS_AS(layout_change(chip("v5e"), {0, 128}, DType::f32, {}), InputError);
    CHECK_THROWS_AS(layout_change(chip("v5e"), {128}, DType::f32, {RelayoutKind::transpose, {}, DType::f32}),
                    InputError);
    CHECK_THROWS_AS(parse_relayout("rotate"), InputError);
    CHECK(parse_relayout("cast") == RelayoutKind::cast);
    try {
        (void)tiled_layout({-3, 128}, DType::bf16);
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("-3x128") != std::string::npos);
    }
}
