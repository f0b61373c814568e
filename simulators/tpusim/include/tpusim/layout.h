#pragma once
// How arrays sit in (sublane, lane) tiles: the last two dimensions map to
// (8,128) vreg tiles of 32-bit words, and narrower types pack several rows
// into one word [MOSAIC-LAYOUT]: f32 (8,128), bf16 (16,128),
// int8 and fp8 (32,128), int4 (64,128). Everything pads to whole tiles.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

struct Tiling {
    std::int64_t rows = 8;
    std::int64_t cols = 128;
};

// Rows packed per 32-bit word: 1 for 32-bit types, 2 for bf16, 4 for int8, 8 for int4.
int packing(DType dtype);
// Mosaic's native tiling (8 * packing, 128) [MOSAIC-LAYOUT].
Tiling native_tiling(DType dtype);

struct Layout {
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> padded_shape;
    DType dtype = DType::f32;
    Tiling tile;
    std::int64_t tiles = 0;  // tiles in the whole array
    double logical_bytes = 0;
    double padded_bytes = 0;
    double waste = 0;  // fraction of padded bytes that hold padding
};

// The tiled layout of an array; `tile` defaults to the native tiling.
// Throws InputError for sizes below 1 or a tile with fewer rows than the
// dtype packs into a word.
Layout tiled_layout(const std::vector<std::int64_t>& shape, DType dtype, Tiling tile);
Layout tiled_layout(const std::vector<std::int64_t>& shape, DType dtype);

struct Relayout {
    Layout from;
    Layout to;
    double bytes_moved = 0;  // read in the old layout, written in the new one
    double time_s = 0;       // at HBM bandwidth
    Provenance provenance;
};

// Changing an array's tiling (and optionally transposing its last two
// dimensions) costs a read and a write of the whole padded array through HBM.
Relayout relayout_cost(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype, Tiling from, Tiling to,
                       bool transpose = false);

// What a layout is, for a badge: predicted from Mosaic's native tiling.
Provenance layout_provenance(const Layout& layout);

// --- The layout lens (EX·12): one array's tiles, its waste as a dimension
// is scrubbed, and what a relayout of it costs.

// One plane of the tiled last two dimensions, cut into tiles: how many down
// and across, and how much data the last tile row and column hold. A rank-1
// array is one row.
struct TileGrid {
    std::int64_t planes = 1;     // product of the untiled leading dimensions
    std::int64_t rows = 1;       // the plane's rows (second-to-last dimension)
    std::int64_t cols = 1;       // its lanes (last dimension)
    std::int64_t tile_rows = 1;  // tiles down one plane
    std::int64_t tile_cols = 1;  // tiles across one plane
    std::int64_t edge_rows = 1;  // data rows in the last tile row, 1..tile.rows
    std::int64_t edge_cols = 1;  // data lanes in the last tile column, 1..tile.cols
};
TileGrid tile_grid(const Layout& layout);

enum class RelayoutKind { none, transpose, reshape, cast };
// "none", "transpose", "reshape", "cast".
std::string_view relayout_name(RelayoutKind kind);
// Throws InputError for anything else.
RelayoutKind parse_relayout(std::string_view text);

struct LayoutChangeSpec {
    RelayoutKind kind = RelayoutKind::none;
    std::vector<std::int64_t> to_shape;  // reshape: the new shape, same element count
    DType to_dtype = DType::bf16;        // cast: the new element type
};

// A change of layout as the data movement it costs. A reshape that only
// touches untiled dimensions, or that merges or splits whole tiles of rows
// into or out of the second-to-last dimension, moves nothing; every other
// change reads the padded source and writes the padded result.
struct LayoutChange {
    RelayoutKind kind = RelayoutKind::none;
    Layout from;
    Layout to;
    bool moves = false;     // false: the same tiles, renamed
    bool in_kernel = true;  // false: Mosaic does not do it inside a kernel
    double bytes_read = 0;
    double bytes_written = 0;
    double bytes_moved = 0;
    double time_s = 0;    // at the chip's HBM bandwidth
    std::string verdict;  // one sentence
    Provenance provenance;
};

// Throws InputError for a bad shape, a transpose of rank 1 or a reshape that
// changes the element count.
LayoutChange layout_change(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype,
                           const LayoutChangeSpec& spec);

// The whole array's waste as dimension `axis` runs over [from, to] with the
// others fixed, one value per size: the saw that jumps at every tile
// boundary. At most 4096 sizes.
std::vector<double> waste_profile(const std::vector<std::int64_t>& shape, DType dtype, std::size_t axis,
                                  std::int64_t from, std::int64_t to);

}  // namespace tpusim
