// The array at one cycle, its timeline, and SCALE-Sim's count.
//
// Nothing here steps the array: every register's content at cycle t follows
// from the timing the stepper (mxu_stepped.cpp) obeys, so a frame costs
// O(S*S) however late in the run t is. tests/simulators/test_mxu.cpp steps
// a register-level array cycle by cycle and compares it with these frames.
#include <algorithm>
#include <cmath>
#include <string>

#include "mxu_detail.h"
#include "tpusim/error.h"
#include "tpusim/mxu.h"

namespace tpusim {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

// Cells (r, c) with r < rows, c < cols and lo <= r + c <= hi.
std::int64_t cells_on_diagonals(std::int64_t rows, std::int64_t cols, std::int64_t lo, std::int64_t hi) {
    lo = std::max<std::int64_t>(lo, 0);
    hi = std::min<std::int64_t>(hi, rows + cols - 2);
    std::int64_t total = 0;
    for (std::int64_t d = lo; d <= hi; ++d)
        total += std::min(d, rows - 1) - std::max<std::int64_t>(0, d - cols + 1) + 1;
    return total;
}

// Pairs (e, c) with e < m, c < cols and e + c <= limit.
std::int64_t pairs_up_to(std::int64_t m, std::int64_t cols, std::int64_t limit) {
    if (limit < 0) return 0;
    std::int64_t total = 0;
    for (std::int64_t c = 0; c < cols && c <= limit; ++c) total += std::min(m, limit - c + 1);
    return total;
}

// Folds whose rows may be in the array at cycle t: [first, last].
void folds_at(const MxuTimeline& tl, std::int64_t t, std::int64_t& first, std::int64_t& last) {
    const std::int64_t span = tl.m + 2 * tl.array;  // a fold's rows are in the array this long, at most
    last = std::min(tl.folds - 1, t < tl.first_start ? -1 : (t - tl.first_start) / tl.gap);
    first = std::max<std::int64_t>(0, ceil_div(std::max<std::int64_t>(0, t - tl.first_start - span), tl.gap));
}

}  // namespace

float mxu_sample_value(std::int64_t row, std::int64_t col, int salt) {
    return static_cast<float>((row * 3 + col * 5 + salt * 2) % 7 - 3);
}

MxuScaleSimCount mxu_scalesim_count(std::int64_t m, std::int64_t k, std::int64_t n, int array) {
    detail::check_mxu_sizes(m, k, n, array);
    const std::int64_t s = array;
    MxuScaleSimCount c;
    c.row_folds = ceil_div(k, s);
    c.col_folds = ceil_div(n, s);
    c.folds = c.row_folds * c.col_folds;
    c.cycles_per_fold = 3 * s + m - 2;
    c.cycles = c.folds * c.cycles_per_fold;
    const double cells = static_cast<double>(s) * static_cast<double>(s);
    c.overall_utilization = static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n) /
                            (cells * static_cast<double>(c.cycles));
    // Each fold maps rows_used x cols_used cells; summed over all folds that is K x N.
    const double mapped = static_cast<double>(k) * static_cast<double>(n);
    c.mapping_efficiency = mapped / (cells * static_cast<double>(c.folds));
    c.compute_utilization =
        mapped * static_cast<double>(m) / (cells * static_cast<double>(4 * s + m - 3) * static_cast<double>(c.folds));
    return c;
}

std::int64_t MxuTimeline::fold_k0(std::int64_t i) const {
    return (i % k_tiles) * array;
}
std::int64_t MxuTimeline::fold_n0(std::int64_t i) const {
    return (i / k_tiles) * array;
}
std::int64_t MxuTimeline::fold_rows(std::int64_t i) const {
    return std::min<std::int64_t>(array, k - fold_k0(i));
}
std::int64_t MxuTimeline::fold_cols(std::int64_t i) const {
    return std::min<std::int64_t>(array, n - fold_n0(i));
}
std::int64_t MxuTimeline::fold_end(std::int64_t i) const {
    const std::int64_t cols = mode == MxuMode::overlapped ? fold_cols(i) : array;
    return fold_start(i) + m + array + cols - 2;
}

MxuTimeline mxu_timeline(std::int64_t m, std::int64_t k, std::int64_t n, int array, MxuMode mode) {
    detail::check_mxu_sizes(m, k, n, array);
    MxuTimeline t;
    t.m = m;
    t.k = k;
    t.n = n;
    t.array = array;
    t.mode = mode;
    const std::int64_t s = array;
    t.k_tiles = ceil_div(k, s);
    t.n_tiles = ceil_div(n, s);
    t.folds = t.k_tiles * t.n_tiles;
    t.first_start = s;
    t.gap = mode == MxuMode::overlapped ? std::max(m, s) : 3 * s + m - 2;
    t.cycles = mxu_cycles(m, k, n, array, mode).cycles;
    // The wave reaches the far corner 2S - 2 cycles after it enters; the
    // whole array is busy at once only if rows keep coming until then.
    t.fills = m >= 2 * s - 1;
    t.drain_start = t.fold_start(t.folds - 1) + m;
    t.fill_end = std::min(t.first_start + 2 * s - 2, t.drain_start);
    return t;
}

MxuFrame mxu_frame(const MxuTimeline& tl, std::int64_t cycle, int corner) {
    MxuFrame f;
    const std::int64_t s = tl.array;
    const std::int64_t t = std::clamp<std::int64_t>(cycle, 0, std::max<std::int64_t>(0, tl.cycles - 1));
    f.cycle = t;
    f.cycles = tl.cycles;
    f.array = tl.array;
    f.cells.assign(static_cast<std::size_t>(s * s), 0);
    f.corner = static_cast<int>(std::min<std::int64_t>(std::max(corner, 0), s));

    // The wave of each fold with rows in the array: cell (r, c) holds row
    // e = t - start - r - c of x when 0 <= e < M.
    std::int64_t first = 0, last = -1;
    folds_at(tl, t, first, last);
    for (std::int64_t i = first; i <= last; ++i) {
        const std::int64_t lag = t - tl.fold_start(i);
        const std::int64_t rows = tl.fold_rows(i), cols = tl.fold_cols(i);
        bool any = false;
        for (std::int64_t r = 0; r < s; ++r) {
            const std::int64_t lo = std::max<std::int64_t>(0, lag - r - (tl.m - 1));
            const std::int64_t hi = std::min<std::int64_t>(s - 1, lag - r);  // the wave crosses every column
            if (lo > hi) continue;
            any = true;
            std::uint8_t* row = &f.cells[static_cast<std::size_t>(r * s)];
            for (std::int64_t c = lo; c <= hi; ++c) {
                const bool useful = r < rows && c < cols;
                row[c] = static_cast<std::uint8_t>(useful ? MxuCellState::useful : MxuCellState::padding);
                if (useful)
                    ++f.useful_cells;
                else
                    ++f.padding_cells;
            }
        }
        if (any) {
            f.fold = i;
            f.rows_entered = std::min(tl.m, lag + 1);
        }
    }
    // The phase, from the newest fold with rows in the array. A fold starts
    // on an empty array (it fills) when it is the first, when tiles do not
    // overlap, or when M < S leaves a bubble while the next weights load;
    // otherwise its rows follow the last fold's without a gap.
    if (f.fold < 0) {
        f.phase = "loading weights";
    } else {
        const std::int64_t lag = t - tl.fold_start(f.fold);
        const bool fresh = f.fold == 0 || tl.mode == MxuMode::no_overlap || tl.m < s;
        if (lag < tl.m)
            f.phase = fresh && lag < 2 * s - 2 ? "fill" : "steady state";
        else
            f.phase = "drain";
    }
    // A fold's weights shift in from the top during the S cycles before it starts.
    for (std::int64_t i = std::max<std::int64_t>(0, last); i < std::min(tl.folds, last + 2); ++i) {
        const std::int64_t into = t - (tl.fold_start(i) - s);
        if (into < 0 || into >= s) continue;
        f.loading_fold = i;
        f.loading_rows = into + 1;
        for (std::int64_t r = 0; r <= into; ++r)
            for (std::int64_t c = 0; c < s; ++c) {
                std::uint8_t& cell = f.cells[static_cast<std::size_t>(r * s + c)];
                if (cell == 0) cell = static_cast<std::uint8_t>(MxuCellState::loading);
            }
        break;
    }
    // Results whose last K fold's sum has left the bottom row by cycle t.
    for (std::int64_t i = tl.k_tiles - 1; i < tl.folds; i += tl.k_tiles) {
        const std::int64_t start = tl.fold_start(i);
        if (start > t) break;
        f.results_done += pairs_up_to(tl.m, tl.fold_cols(i), t - start - (s - 1));
    }

    // The corner, with values.
    const int q = f.corner;
    f.corner_cells.resize(static_cast<std::size_t>(q * q));
    for (int r = 0; r < q; ++r)
        for (int c = 0; c < q; ++c) {
            MxuCornerCell& cell = f.corner_cells[static_cast<std::size_t>(r * q + c)];
            cell.state = static_cast<MxuCellState>(f.cells[static_cast<std::size_t>(r * s + c)]);
            // The fold whose rows are here, else the latest one whose
            // weights are in this cell (or shifting through it).
            std::int64_t fold = -1;
            for (std::int64_t i = first; i <= last; ++i) {
                const std::int64_t e = t - tl.fold_start(i) - r - c;
                if (e >= 0 && e < tl.m) fold = i;
            }
            if (fold >= 0) {
                const std::int64_t e = t - tl.fold_start(fold) - r - c;
                const std::int64_t k0 = tl.fold_k0(fold), n0 = tl.fold_n0(fold);
                const std::int64_t rows = tl.fold_rows(fold), cols = tl.fold_cols(fold);
                cell.fold = fold;
                cell.has_row = true;
                cell.row = e;
                cell.has_weight = true;
                cell.weight = r < rows && c < cols ? mxu_sample_value(k0 + r, n0 + c, 2) : 0.0f;
                cell.activation = r < rows ? mxu_sample_value(e, k0 + r, 1) : 0.0f;
                float sum = 0;
                if (c < cols)
                    for (std::int64_t rr = 0; rr <= std::min<std::int64_t>(r, rows - 1); ++rr)
                        sum += mxu_sample_value(e, k0 + rr, 1) * mxu_sample_value(k0 + rr, n0 + c, 2);
                cell.sum = sum;
                continue;
            }
            // Overlapped, the next tile's weights wait in a second register
            // and take over when its first row reaches the cell; without
            // overlap they replace the old ones as they load, a row per cycle.
            for (std::int64_t i = std::min(tl.folds - 1, last + 1); i >= 0; --i) {
                const std::int64_t arrives =
                    tl.mode == MxuMode::overlapped && i > 0 ? tl.fold_start(i) + r + c : tl.fold_start(i) - s + r;
                if (arrives > t) continue;
                cell.fold = i;
                cell.has_weight = true;
                const std::int64_t k0 = tl.fold_k0(i), n0 = tl.fold_n0(i);
                cell.weight = r < tl.fold_rows(i) && c < tl.fold_cols(i) ? mxu_sample_value(k0 + r, n0 + c, 2) : 0.0f;
                break;
            }
        }
    return f;
}

std::vector<float> mxu_activity(const MxuTimeline& tl, int samples) {
    std::vector<float> out(static_cast<std::size_t>(std::max(samples, 0)), 0.0f);
    if (samples <= 0 || tl.cycles <= 0) return out;
    auto busy = [&](std::int64_t t) {
        std::int64_t first = 0, last = -1, total = 0;
        folds_at(tl, t, first, last);
        for (std::int64_t i = first; i <= last; ++i) {
            const std::int64_t lag = t - tl.fold_start(i);
            total += cells_on_diagonals(tl.fold_rows(i), tl.fold_cols(i), lag - (tl.m - 1), lag);
        }
        return total;
    };
    const bool exact = tl.cycles <= 65536;
    for (int b = 0; b < samples; ++b) {
        const std::int64_t lo = tl.cycles * b / samples;
        const std::int64_t hi = std::max(lo + 1, tl.cycles * (b + 1) / samples);
        double sum = 0;
        std::int64_t count = 0;
        const std::int64_t step = exact ? 1 : std::max<std::int64_t>(1, (hi - lo) / 8);
        for (std::int64_t t = lo; t < hi; t += step, ++count) sum += static_cast<double>(busy(t));
        out[static_cast<std::size_t>(b)] =
            static_cast<float>(sum / static_cast<double>(std::max<std::int64_t>(1, count)));
    }
    return out;
}

std::vector<std::int64_t> mxu_cell_work(const MxuTimeline& tl) {
    const std::int64_t s = tl.array;
    std::vector<std::int64_t> work(static_cast<std::size_t>(s * s), 0);
    // K tiles with more than r rows, N tiles with more than c columns.
    const std::int64_t k_last = tl.k - (tl.k_tiles - 1) * s, n_last = tl.n - (tl.n_tiles - 1) * s;
    for (std::int64_t r = 0; r < s; ++r) {
        const std::int64_t kt = tl.k_tiles - 1 + (r < k_last ? 1 : 0);
        for (std::int64_t c = 0; c < s; ++c) {
            const std::int64_t nt = tl.n_tiles - 1 + (c < n_last ? 1 : 0);
            work[static_cast<std::size_t>(r * s + c)] = kt * nt * tl.m;
        }
    }
    return work;
}

}  // namespace tpusim
