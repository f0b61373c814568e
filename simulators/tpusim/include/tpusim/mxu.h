#pragma once
// A weight-stationary systolic array of S x S multiply-accumulate cells.
//
// A GEMM (M x K) @ (K x N) runs as folds: one S x S tile of weights (a
// slice of K by a slice of N, zero-padded) sits in the array while all M
// rows of the left operand stream through it. Row m's element r enters
// array row r at cycle m + r (skewed), moves one column right per cycle,
// and partial sums move one row down per cycle, so the sum for (m, column
// c) leaves the bottom at cycle m + (S - 1) + c. One fold then takes
//     load S  +  stream and drain  M + S + n - 2
// cycles, where n <= S is the fold's used columns.
//
// Two modes:
//   overlapped (the TPU's): the next fold's weights load on a separate path
//     while the current fold computes, so folds start max(M, S) cycles
//     apart and only the first load and the last drain are exposed;
//   no_overlap (the textbook count of published simulators): each fold
//     loads, streams and drains before the next begins.
#include <cstdint>
#include <vector>

#include "tpusim/provenance.h"

namespace tpusim {

enum class MxuMode { overlapped, no_overlap };

struct MxuRun {
    std::int64_t cycles = 0;
    std::int64_t folds = 0;
    std::int64_t macs = 0;           // useful multiply-accumulates, M*K*N
    std::int64_t exposed_load_cycles = 0;  // cycles spent only loading weights
    double utilization = 0;          // macs / (S*S*cycles)
    int array = 0;
    MxuMode mode = MxuMode::overlapped;
    bool stepped = false;            // counted by stepping the array, not by the formula
    std::vector<float> output;       // M x N, from a stepped run with values
    std::vector<std::int32_t> active_cells;  // per cycle, when asked for
    Provenance provenance;
};

// Cycle count from the formula above; any size. Throws InputError for
// sizes below 1 or an array size outside 1..1024.
MxuRun mxu_cycles(std::int64_t m, std::int64_t k, std::int64_t n, int array, MxuMode mode);

// Steps the array cycle by cycle with real values: x is M x K, w is K x N
// (row-major). The result's `output` is x @ w; `cycles` is when the last
// useful sum left the array. `record_activity` fills active_cells.
// Throws InputError above 2^26 multiply-accumulates (the formula covers those).
MxuRun mxu_step(const std::vector<float>& x, const std::vector<float>& w, std::int64_t m,
                std::int64_t k, std::int64_t n, int array, MxuMode mode,
                bool record_activity = false);

std::string_view mode_name(MxuMode mode);  // "overlapped", "no overlap"

}  // namespace tpusim
