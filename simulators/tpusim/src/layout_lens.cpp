// The layout lens (EX·12): tile grids, waste profiles, layout changes as
// data movement, and chapter 7's worked cases. Built on tiled_layout.
#include <algorithm>
#include <string>

#include "tpusim/error.h"
#include "tpusim/layout.h"
#include "tpusim/roofline.h"

namespace tpusim {

namespace {

std::string tile_text(Tiling t) {
    return "(" + std::to_string(t.rows) + ", " + std::to_string(t.cols) + ")";
}

double elements(const std::vector<std::int64_t>& shape) {
    double n = 1;
    for (std::int64_t d : shape) n *= static_cast<double>(d);
    return n;
}

// The (rows, lanes) a shape puts in its tiles; a rank-1 array is one row.
std::int64_t plane_rows(const std::vector<std::int64_t>& s) {
    return s.size() >= 2 ? s[s.size() - 2] : 1;
}
std::int64_t plane_cols(const std::vector<std::int64_t>& s) {
    return s.back();
}

const char* const kHbmPass =
    "A relayout is priced as one pass through HBM at the chip's full bandwidth: the padded source read "
    "once, the padded result written once. Inside a kernel the same move is vector and transpose-unit "
    "work on vregs instead, and it is never free.";
const char* const kPaddingMoves = "Padding is moved like data: whole tiles are read and written.";

}  // namespace

Provenance layout_provenance(const Layout& l) {
    Provenance p;
    p.kind = Kind::predicted;
    p.dtype = std::string(name(l.dtype));
    p.shapes = shape_text(l.shape) + " in " + tile_text(l.tile) + " tiles";
    p.model = "Mosaic's native tiling: (8 × 32/bits, 128), the last two dimensions tiled, the rest untiled";
    p.assumptions = {
        "The array sits in its dtype's native tiling, as Mosaic lays out a kernel's vregs; XLA's HBM "
        "layouts use 8-row tiles for 16-bit types before TPU7x.",
        "Every tile is whole: the last tile row and column are padded to the tile."};
    return p;
}

TileGrid tile_grid(const Layout& l) {
    TileGrid g;
    const std::size_t r = l.shape.size();
    for (std::size_t d = 0; d + 2 < r; ++d) g.planes *= l.shape[d];
    g.rows = plane_rows(l.shape);
    g.cols = plane_cols(l.shape);
    g.tile_rows = (g.rows + l.tile.rows - 1) / l.tile.rows;
    g.tile_cols = (g.cols + l.tile.cols - 1) / l.tile.cols;
    g.edge_rows = g.rows - (g.tile_rows - 1) * l.tile.rows;
    g.edge_cols = g.cols - (g.tile_cols - 1) * l.tile.cols;
    return g;
}

std::string_view relayout_name(RelayoutKind kind) {
    switch (kind) {
        case RelayoutKind::none:
            return "none";
        case RelayoutKind::transpose:
            return "transpose";
        case RelayoutKind::reshape:
            return "reshape";
        case RelayoutKind::cast:
            return "cast";
    }
    return "none";
}

RelayoutKind parse_relayout(std::string_view text) {
    for (RelayoutKind k : {RelayoutKind::none, RelayoutKind::transpose, RelayoutKind::reshape, RelayoutKind::cast})
        if (text == relayout_name(k)) return k;
    throw InputError("a relayout is none, transpose, reshape or cast, not \"" + std::string(text) + "\"");
}

LayoutChange layout_change(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype,
                           const LayoutChangeSpec& spec) {
    LayoutChange c;
    c.kind = spec.kind;
    c.from = tiled_layout(shape, dtype);
    std::vector<std::int64_t> out_shape = shape;
    DType out_dtype = dtype;
    switch (spec.kind) {
        case RelayoutKind::none:
            c.verdict = "No relayout: the array keeps its tiles.";
            break;
        case RelayoutKind::transpose:
            if (shape.size() < 2) throw InputError("a transpose needs at least two dimensions");
            std::swap(out_shape[shape.size() - 1], out_shape[shape.size() - 2]);
            c.moves = true;
            c.verdict =
                "Swapping the last two dimensions sends every element to another lane and sublane: "
                "inside a kernel it goes through the transpose unit, and a dot_general that contracts "
                "the other dimension avoids it.";
            break;
        case RelayoutKind::reshape: {
            out_shape = spec.to_shape;
            (void)tiled_layout(out_shape, dtype);  // refuses a bad shape first
            if (elements(out_shape) != elements(shape))
                throw InputError("a reshape keeps the element count: " + shape_text(shape) + " has " +
                                 format_fixed(elements(shape), 0) + ", " + shape_text(out_shape) + " has " +
                                 format_fixed(elements(out_shape), 0));
            const std::int64_t rows = plane_rows(shape), to_rows = plane_rows(out_shape);
            const std::int64_t tile = c.from.tile.rows;
            const bool same_lanes = plane_cols(shape) == plane_cols(out_shape);
            if (same_lanes && rows == to_rows) {
                c.verdict = "Only the untiled leading dimensions change: the same tiles, renamed; nothing moves.";
            } else if (same_lanes && (to_rows % rows == 0 || rows % to_rows == 0) && rows % tile == 0 &&
                       to_rows % tile == 0) {
                c.verdict =
                    "Whole tiles of rows merge into the second-to-last dimension or split out of it: "
                    "the same tiles in the same order; nothing moves.";
            } else if (same_lanes) {
                c.moves = true;
                c.verdict = "The rows regroup across tiles that are not whole (" + std::to_string(rows) + " and " +
                            std::to_string(to_rows) + " rows against the " + std::to_string(tile) +
                            "-row tile): every tile is rebuilt.";
            } else {
                c.moves = true;
                c.in_kernel = false;
                c.verdict =
                    "The lanes regroup, so every tile is rebuilt. Inside a kernel Mosaic only merges "
                    "leading dimensions into the second-to-last; this reshape belongs outside it, where "
                    "XLA does it once as a copy through HBM.";
            }
            break;
        }
        case RelayoutKind::cast:
            out_dtype = spec.to_dtype;
            if (out_dtype == dtype) {
                c.verdict = "Already " + std::string(name(dtype)) + ": nothing to cast.";
            } else {
                c.moves = true;
                c.verdict = "A cast to " + std::string(name(out_dtype)) +
                            " changes the element width and the native tile, " + tile_text(native_tiling(dtype)) +
                            " to " + tile_text(native_tiling(out_dtype)) +
                            ": every tile is read and a new one written.";
            }
            break;
    }
    c.to = tiled_layout(out_shape, out_dtype);
    if (c.moves) {
        c.bytes_read = c.from.padded_bytes;
        c.bytes_written = c.to.padded_bytes;
        c.bytes_moved = c.bytes_read + c.bytes_written;
        c.time_s = c.bytes_moved / chip.hbm_bandwidth.value;
    }
    Provenance& p = c.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = out_dtype == dtype ? std::string(name(dtype))
                                 : std::string(name(dtype)) + " to " + std::string(name(out_dtype));
    p.shapes = shape_text(shape) + " to " + shape_text(out_shape) + ", native tiles";
    p.model = std::string("relayout (") + std::string(relayout_name(spec.kind)) +
              ") as data movement: padded bytes read plus padded bytes written, at HBM bandwidth";
    p.assumptions = {kHbmPass, kPaddingMoves};
    if (!c.moves)
        p.assumptions.push_back("A change that keeps every tile where it is moves no bytes and takes no time.");
    return c;
}

std::vector<double> waste_profile(const std::vector<std::int64_t>& shape, DType dtype, std::size_t axis,
                                  std::int64_t from, std::int64_t to) {
    const Layout base = tiled_layout(shape, dtype);  // refuses a bad shape
    if (axis >= shape.size())
        throw InputError("the array has " + std::to_string(shape.size()) + " dimensions, so there is no dimension " +
                         std::to_string(axis));
    if (from < 1 || to < from) throw InputError("a waste profile runs over sizes from 1 up");
    if (to - from >= 4096) throw InputError("a waste profile covers at most 4096 sizes");
    const std::size_t r = shape.size();
    const bool is_rows = r >= 2 && axis == r - 2;
    const bool is_cols = axis == r - 1;
    auto padded = [](std::int64_t n, std::int64_t t) { return static_cast<double>((n + t - 1) / t * t); };
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(to - from + 1));
    // The untiled dimensions cancel: waste is the plane's alone.
    std::int64_t rows = plane_rows(shape), cols = plane_cols(shape);
    for (std::int64_t v = from; v <= to; ++v) {
        if (is_rows) rows = v;
        if (is_cols) cols = v;
        const double data = static_cast<double>(rows) * static_cast<double>(cols);
        out.push_back(1.0 - data / (padded(rows, base.tile.rows) * padded(cols, base.tile.cols)));
    }
    return out;
}

}  // namespace tpusim
