#pragma once
// How arrays sit in (sublane, lane) tiles: the last two dimensions map to
// (8,128) vreg tiles of 32-bit words, and narrower types pack several rows
// into one word (pallas-ir.md §1.4): f32 (8,128), bf16 (16,128),
// int8 and fp8 (32,128), int4 (64,128). Everything pads to whole tiles.
#include <cstdint>
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
    std::int64_t tiles = 0;     // tiles in the whole array
    double logical_bytes = 0;
    double padded_bytes = 0;
    double waste = 0;           // fraction of padded bytes that hold padding
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
Relayout relayout_cost(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype,
                       Tiling from, Tiling to, bool transpose = false);

}  // namespace tpusim
