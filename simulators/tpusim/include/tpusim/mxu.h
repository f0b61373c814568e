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
//     loads, streams and drains before the next begins, and it drains the
//     whole array, padding columns included (a fold's sums are read out as
//     one S-wide row), so every fold takes 3S + M - 2 cycles whatever its
//     shape. This is SCALE-Sim's weight-stationary count; see
//     mxu_scalesim_count.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/provenance.h"

namespace tpusim {

enum class MxuMode { overlapped, no_overlap };

struct MxuRun {
    std::int64_t cycles = 0;
    std::int64_t folds = 0;
    std::int64_t macs = 0;                 // useful multiply-accumulates, M*K*N
    std::int64_t exposed_load_cycles = 0;  // cycles spent only loading weights
    double utilization = 0;                // macs / (S*S*cycles)
    int array = 0;
    MxuMode mode = MxuMode::overlapped;
    bool stepped = false;                    // counted by stepping the array, not by the formula
    std::vector<float> output;               // M x N, from a stepped run with values
    std::vector<std::int32_t> active_cells;  // per cycle, when asked for
    Provenance provenance;
};

// Cycle count from the formula above; any size. Throws InputError for
// sizes below 1 or an array size outside 1..1024.
MxuRun mxu_cycles(std::int64_t m, std::int64_t k, std::int64_t n, int array, MxuMode mode);

// Steps the array cycle by cycle with real values: x is M x K, w is K x N
// (row-major). The result's `output` is x @ w; `cycles` is when the last
// useful sum left the array (without overlap: when the last fold's padding
// columns have drained too, as that count has it). `record_activity` fills
// active_cells.
// Throws InputError above 2^26 multiply-accumulates (the formula covers those).
MxuRun mxu_step(const std::vector<float>& x, const std::vector<float>& w, std::int64_t m, std::int64_t k,
                std::int64_t n, int array, MxuMode mode, bool record_activity = false);

std::string_view mode_name(MxuMode mode);  // "overlapped", "no overlap"

// SCALE-Sim's accounting of a weight-stationary GEMM (its systolic_compute_ws
// and single_layer_sim), restated: the K x N weights are cut into
// ceil(K/S) row folds by ceil(N/S) column folds, each padded to a full S x S
// tile. Every fold spends S cycles loading weights, M cycles streaming rows,
// S - 1 cycles draining the last sums out of the bottom, and S - 1 more for
// the skew of the rows entering (row r starts r cycles late): 3S + M - 2.
// Folds run one after another, so with ideal memory the run takes
// folds x (3S + M - 2) cycles, the same as MxuMode::no_overlap.
struct MxuScaleSimCount {
    std::int64_t row_folds = 0;  // ceil(K / S)
    std::int64_t col_folds = 0;  // ceil(N / S)
    std::int64_t folds = 0;
    std::int64_t cycles_per_fold = 0;  // 3S + M - 2
    std::int64_t cycles = 0;
    // M*K*N / (S*S*cycles): SCALE-Sim's "overall utilization".
    double overall_utilization = 0;
    // Mean over folds of the cells a fold maps (rows used x columns used) / S*S.
    double mapping_efficiency = 0;
    // Mean over folds of (cells mapped x M) / (S*S x (4S + M - 3)): SCALE-Sim
    // measures this figure against its filter demand (the weights' S rows,
    // then S + S + M - 2 cycles of streaming and drain, skewed by S - 1),
    // which is S - 1 cycles longer per fold than the count above.
    double compute_utilization = 0;
};
MxuScaleSimCount mxu_scalesim_count(std::int64_t m, std::int64_t k, std::int64_t n, int array);

// The value stepped runs and frames use for element (row, col) of an
// operand: small whole numbers (-3..3), so sums stay exact and readable.
// salt 1 is x (M x K), salt 2 is w (K x N).
float mxu_sample_value(std::int64_t row, std::int64_t col, int salt);

// What one cell is doing on one cycle.
enum class MxuCellState : std::uint8_t {
    idle = 0,     // nothing in it that can reach an output
    loading = 1,  // its row of the next tile's weights is loading (one row per cycle, top first)
    useful = 2,   // multiplying a row of x by a weight of the tile
    padding = 3,  // on the wave, but outside the tile's rows or columns: multiplies zeros
};

// One cell of the corner the frame shows with values.
struct MxuCornerCell {
    MxuCellState state = MxuCellState::idle;
    bool has_weight = false;
    float weight = 0;
    bool has_row = false;   // a row of x is in the cell
    std::int64_t row = -1;  // which row of x
    float activation = 0;   // x[row][k0 + r], 0 past the tile's rows
    float sum = 0;          // the partial sum the cell passes down
    std::int64_t fold = -1;
};

// The whole array at one cycle of a run, read from the same timing the
// stepper follows (the tests step a register-level array against it):
// fold i starts streaming at start(i), row e of x reaches cell (r, c) at
// start(i) + e + r + c, and the sum it carries down column c has collected
// one product per row above.
struct MxuFrame {
    std::int64_t cycle = 0;
    std::int64_t cycles = 0;  // the run's length
    int array = 0;
    // "loading weights" (no rows in the array), "fill" (a fold's rows are
    // entering an array that was empty, and the wave has not reached the
    // far corner), "steady state" (rows entering behind a full wave or the
    // last fold's rows), "drain" (the newest fold's rows have all entered)
    std::string phase;
    std::vector<std::uint8_t> cells;  // S*S MxuCellState, row-major
    std::int64_t useful_cells = 0;
    std::int64_t padding_cells = 0;
    std::int64_t fold = -1;          // the newest fold with rows in the array
    std::int64_t loading_fold = -1;  // a fold whose weights are shifting in
    std::int64_t loading_rows = 0;   // how many of its rows are in
    std::int64_t rows_entered = 0;   // rows of x that entered fold `fold` so far
    std::int64_t results_done = 0;   // outputs of M x N whose last sum has left
    int corner = 0;
    std::vector<MxuCornerCell> corner_cells;  // corner x corner, row-major
};

// The run's timing: when each fold starts, and where fill, steady state and
// drain begin. Throws InputError like mxu_cycles.
struct MxuTimeline {
    std::int64_t m = 0, k = 0, n = 0;
    int array = 0;
    MxuMode mode = MxuMode::overlapped;
    std::int64_t k_tiles = 0, n_tiles = 0, folds = 0;
    std::int64_t first_start = 0;  // = S, after the first load
    std::int64_t gap = 0;          // cycles between fold starts
    std::int64_t cycles = 0;
    std::int64_t fill_end = 0;     // first cycle of steady state (or of drain, if the array never fills)
    std::int64_t drain_start = 0;  // the last fold's rows have all entered
    bool fills = false;            // some cycle has every cell of a full tile busy
    std::int64_t fold_start(std::int64_t i) const { return first_start + i * gap; }
    std::int64_t fold_rows(std::int64_t i) const;  // K rows the fold holds
    std::int64_t fold_cols(std::int64_t i) const;  // N columns
    std::int64_t fold_k0(std::int64_t i) const;
    std::int64_t fold_n0(std::int64_t i) const;
    // The cycle after the fold's last sum leaves.
    std::int64_t fold_end(std::int64_t i) const;
};
MxuTimeline mxu_timeline(std::int64_t m, std::int64_t k, std::int64_t n, int array, MxuMode mode);

// The frame at `cycle` (clamped to the run), with values from
// mxu_sample_value in the top-left `corner` x `corner` cells.
MxuFrame mxu_frame(const MxuTimeline& t, std::int64_t cycle, int corner = 8);

// Useful cells per cycle over the whole run, as `samples` bucket averages
// (exact when the run has at most 65,536 cycles, else sampled 8 times per bucket).
std::vector<float> mxu_activity(const MxuTimeline& t, int samples);

// How many multiply-accumulates each cell does in the whole run, S*S
// row-major: ragged tiles leave the far rows and columns idle.
std::vector<std::int64_t> mxu_cell_work(const MxuTimeline& t);

}  // namespace tpusim
