#include "tpusim/layout.h"

#include <string>

#include "tpusim/error.h"
#include "tpusim/roofline.h"

namespace tpusim {

int packing(DType dtype) {
    return 32 / bits(dtype);
}

Tiling native_tiling(DType dtype) {
    return Tiling{8 * packing(dtype), 128};
}

Layout tiled_layout(const std::vector<std::int64_t>& shape, DType dtype) {
    return tiled_layout(shape, dtype, native_tiling(dtype));
}

Layout tiled_layout(const std::vector<std::int64_t>& shape, DType dtype, Tiling tile) {
    if (shape.empty()) throw InputError("the array shape is empty: give at least one dimension");
    for (std::int64_t d : shape)
        if (d < 1) throw InputError("every dimension of " + shape_text(shape) + " must be positive");
    if (tile.rows < 1 || tile.cols < 1) throw InputError("a tile needs positive rows and columns");
    if (tile.rows < packing(dtype))
        throw InputError(std::string(name(dtype)) + " packs " + std::to_string(packing(dtype)) +
                         " rows into a word, so its tiles need at least that many rows");
    Layout l;
    l.shape = shape;
    l.dtype = dtype;
    l.tile = tile;
    l.padded_shape = shape;
    const std::size_t r = shape.size();
    // A rank-1 array is one row of the tiled 2D layout.
    const std::int64_t rows = r >= 2 ? shape[r - 2] : 1;
    const std::int64_t cols = shape[r - 1];
    const std::int64_t tile_rows = (rows + tile.rows - 1) / tile.rows;
    const std::int64_t tile_cols = (cols + tile.cols - 1) / tile.cols;
    if (r >= 2) l.padded_shape[r - 2] = tile_rows * tile.rows;
    l.padded_shape[r - 1] = tile_cols * tile.cols;
    double leading = 1, logical = 1;
    for (std::size_t d = 0; d + 2 < r; ++d) leading *= static_cast<double>(shape[d]);
    for (std::int64_t d : shape) logical *= static_cast<double>(d);
    l.tiles = static_cast<std::int64_t>(leading) * tile_rows * tile_cols;
    l.logical_bytes = logical * bytes(dtype);
    l.padded_bytes = static_cast<double>(l.tiles) * static_cast<double>(tile.rows * tile.cols) * bytes(dtype);
    l.waste = 1.0 - l.logical_bytes / l.padded_bytes;
    return l;
}

Relayout relayout_cost(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype, Tiling from, Tiling to,
                       bool transpose) {
    Relayout r;
    r.from = tiled_layout(shape, dtype, from);
    std::vector<std::int64_t> out_shape = shape;
    if (transpose) {
        if (shape.size() < 2) throw InputError("a transpose needs at least two dimensions");
        std::swap(out_shape[shape.size() - 1], out_shape[shape.size() - 2]);
    }
    r.to = tiled_layout(out_shape, dtype, to);
    r.bytes_moved = r.from.padded_bytes + r.to.padded_bytes;
    r.time_s = r.bytes_moved / chip.hbm_bandwidth.value;
    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = std::string(name(dtype));
    p.shapes = shape_text(shape) + ", (" + std::to_string(from.rows) + "," + std::to_string(from.cols) + ") to (" +
               std::to_string(to.rows) + "," + std::to_string(to.cols) + ")" + (transpose ? ", transposed" : "");
    p.model = "relayout through HBM: read the padded array once, write it once";
    p.assumptions = {
        "The relayout is a separate pass through HBM at full bandwidth; done inside a kernel "
        "in VMEM it costs vector and transpose-unit work instead.",
        "Padding is moved like data: whole tiles are read and written."};
    return r;
}

}  // namespace tpusim
