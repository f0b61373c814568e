#include "tpusim/mxu.h"

#include <algorithm>
#include <string>

#include "mxu_detail.h"
#include "tpusim/error.h"

namespace tpusim {

std::string_view mode_name(MxuMode mode) {
    return mode == MxuMode::overlapped ? "overlapped" : "no overlap";
}

namespace detail {

void check_mxu_sizes(std::int64_t m, std::int64_t k, std::int64_t n, int array) {
    if (m < 1 || k < 1 || n < 1)
        throw InputError("M, K and N must be positive integers (got " + std::to_string(m) + ", " + std::to_string(k) +
                         ", " + std::to_string(n) + ")");
    if (array < 1 || array > 1024)
        throw InputError("the array size must be between 1 and 1024 (got " + std::to_string(array) + ")");
}

std::vector<Fold> plan_folds(std::int64_t k, std::int64_t n, int array) {
    std::vector<Fold> folds;
    const std::int64_t s = array;
    for (std::int64_t n0 = 0; n0 < n; n0 += s)
        for (std::int64_t k0 = 0; k0 < k; k0 += s)
            folds.push_back(Fold{k0, std::min(s, k - k0), n0, std::min(s, n - n0), 0});
    return folds;
}

std::int64_t schedule_starts(std::vector<Fold>& folds, std::int64_t m, int array, MxuMode mode) {
    const std::int64_t s = array;
    std::int64_t start = s;  // the first fold's weights load first
    std::int64_t end = 0;
    for (Fold& f : folds) {
        f.start = start;
        // Without overlap the whole array drains, padding columns included.
        const std::int64_t cols = mode == MxuMode::overlapped ? f.cols : s;
        const std::int64_t done = start + m + s + cols - 2;  // last sum leaves
        end = std::max(end, done);
        start = mode == MxuMode::overlapped ? start + std::max(m, s) : done + s;
    }
    return end;
}

Provenance mxu_provenance(std::int64_t m, std::int64_t k, std::int64_t n, int array, MxuMode mode) {
    Provenance p;
    p.kind = Kind::predicted;
    p.dtype = "bf16 in, f32 acc";
    p.shapes = "M=" + std::to_string(m) + " K=" + std::to_string(k) + " N=" + std::to_string(n) + " on a " +
               std::to_string(array) + "x" + std::to_string(array) + " array";
    p.chip = "generic array";
    p.model = std::string(
                  "weight-stationary systolic array, one row of the left operand per "
                  "cycle; ") +
              (mode == MxuMode::overlapped ? "the next tile's weights load during the current tile"
                                           : "each tile loads, streams and drains in turn");
    p.assumptions = {"Loading a weight tile takes one cycle per array row, whatever the tile's size.",
                     "Partial tiles are zero-padded; sums always pass through every row of the array.",
                     "The left operand streams with no bubbles: the vector unit and VMEM keep up."};
    if (mode == MxuMode::overlapped)
        p.assumptions.emplace_back(
            "The next tile's weights load on a separate path while the current tile computes, "
            "so a fold can start as soon as the previous one has entered and its weights are in.");
    return p;
}

}  // namespace detail

MxuRun mxu_cycles(std::int64_t m, std::int64_t k, std::int64_t n, int array, MxuMode mode) {
    detail::check_mxu_sizes(m, k, n, array);
    MxuRun r;
    r.array = array;
    r.mode = mode;
    const std::int64_t s = array;
    const std::int64_t n_tiles = (n + s - 1) / s;
    r.folds = ((k + s - 1) / s) * n_tiles;
    r.macs = m * k * n;
    // Uniform folds except the ragged last column of tiles: sum the pieces
    // without building the fold list, so huge GEMMs stay instant.
    const std::int64_t last_cols = n - (n_tiles - 1) * s;
    if (mode == MxuMode::no_overlap) {
        // Every fold loads, streams and drains the whole array: 3S + M - 2.
        r.cycles = r.folds * (3 * s + m - 2);
        r.exposed_load_cycles = r.folds * s;
    } else {
        const std::int64_t gap = std::max(m, s);
        // Folds start `gap` >= S cycles apart, so the last one (the ragged
        // column tile, if any) always finishes last.
        r.cycles = s + (r.folds - 1) * gap + m + s + last_cols - 2;
        r.exposed_load_cycles = s + (r.folds - 1) * (gap - m);
    }
    r.utilization =
        static_cast<double>(r.macs) / (static_cast<double>(s) * static_cast<double>(s) * static_cast<double>(r.cycles));
    r.provenance = detail::mxu_provenance(m, k, n, array, mode);
    return r;
}

}  // namespace tpusim
