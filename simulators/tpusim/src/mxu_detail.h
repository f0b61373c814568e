#pragma once
#include <cstdint>
#include <vector>

#include "tpusim/mxu.h"

namespace tpusim::detail {

// One weight tile: rows [k0, k0+rows) of K, columns [n0, n0+cols) of N.
struct Fold {
    std::int64_t k0 = 0, rows = 0, n0 = 0, cols = 0;
    std::int64_t start = 0;  // cycle its first row enters the array
};

void check_mxu_sizes(std::int64_t m, std::int64_t k, std::int64_t n, int array);
// Folds in order: for each column tile, every K tile (so sums accumulate in place).
std::vector<Fold> plan_folds(std::int64_t k, std::int64_t n, int array);
// Fills each fold's start cycle; returns the total cycle count.
std::int64_t schedule_starts(std::vector<Fold>& folds, std::int64_t m, int array, MxuMode mode);
Provenance mxu_provenance(std::int64_t m, std::int64_t k, std::int64_t n, int array, MxuMode mode);

}  // namespace tpusim::detail
