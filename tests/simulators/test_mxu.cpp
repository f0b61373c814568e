// Cycle counts for a 4x4 array, derived by hand.
//
// Timing of one fold on an S x S array (S = 4), first row entering at cycle
// `start`: row m of x enters array row r at cycle start + m + r, reaches
// column c at start + m + r + c, and its sum for column c leaves the bottom
// row (r = 3) at start + m + 3 + c. Loading weights takes S = 4 cycles.
//
// M=4, K=4, N=4 (one fold): load cycles 0-3, start = 4; the last sum
// (m = 3, c = 3) leaves at 4 + 3 + 3 + 3 = 13, so 14 cycles.
// Useful MACs 64 of 16 cells x 14 cycles = 224: utilization 2/7.
//
// M=8, K=4, N=4: last sum at 4 + 7 + 3 + 3 = 17: 18 cycles.
//
// M=2, K=3, N=2 (ragged, zero-padded): last useful sum (m = 1, c = 1) at
// 4 + 1 + 3 + 1 = 9: 10 cycles; utilization 12 / 160 = 7.5 %.
//
// M=4, K=8, N=8: four folds (two K tiles x two N tiles).
//   no overlap: each fold is 4 load + 10 stream and drain = 14: 56 cycles.
//   overlapped: folds start at 4, 8, 12, 16 (every max(M, S) = 4 cycles);
//   the last ends at 16 + 3 + 3 + 3 = 25: 26 cycles.
// M=2, K=8, N=4, overlapped: two folds; M < S, so the second waits for its
//   weights: starts 4 and 8; last sum at 8 + 1 + 3 + 3 = 15: 16 cycles,
//   of which 4 + 2 are spent only loading.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tpusim/error.h"
#include "tpusim/mxu.h"

using namespace tpusim;

namespace {
std::vector<float> values(std::int64_t count, int salt) {
    std::vector<float> v(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(static_cast<int>((i * 7 + static_cast<std::size_t>(salt) * 3) % 9) - 4);
    return v;
}

std::vector<float> reference(const std::vector<float>& x, const std::vector<float>& w, std::int64_t m, std::int64_t k,
                             std::int64_t n) {
    std::vector<float> o(static_cast<std::size_t>(m * n), 0.0f);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t t = 0; t < k; ++t)
            for (std::int64_t j = 0; j < n; ++j)
                o[static_cast<std::size_t>(i * n + j)] +=
                    x[static_cast<std::size_t>(i * k + t)] * w[static_cast<std::size_t>(t * n + j)];
    return o;
}

MxuRun stepped(std::int64_t m, std::int64_t k, std::int64_t n, int s, MxuMode mode) {
    const auto x = values(m * k, 1), w = values(k * n, 2);
    MxuRun r = mxu_step(x, w, m, k, n, s, mode);
    CHECK(r.output == reference(x, w, m, k, n));
    return r;
}
}  // namespace

TEST_CASE("4x4 array: hand-derived cycles, formula and stepping agree", "[mxu]") {
    struct Case {
        std::int64_t m, k, n;
        MxuMode mode;
        std::int64_t cycles;
    };
    const Case cases[] = {
        {4, 4, 4, MxuMode::overlapped, 14}, {4, 4, 4, MxuMode::no_overlap, 14}, {8, 4, 4, MxuMode::overlapped, 18},
        {2, 3, 2, MxuMode::overlapped, 10}, {4, 8, 8, MxuMode::no_overlap, 56}, {4, 8, 8, MxuMode::overlapped, 26},
        {2, 8, 4, MxuMode::overlapped, 16},
    };
    for (const Case& c : cases) {
        INFO("M=" << c.m << " K=" << c.k << " N=" << c.n << " " << mode_name(c.mode));
        CHECK(mxu_cycles(c.m, c.k, c.n, 4, c.mode).cycles == c.cycles);
        CHECK(stepped(c.m, c.k, c.n, 4, c.mode).cycles == c.cycles);
    }
    CHECK(mxu_cycles(4, 4, 4, 4, MxuMode::overlapped).utilization == Approx(2.0 / 7));
    CHECK(mxu_cycles(2, 3, 2, 4, MxuMode::overlapped).utilization == Approx(0.075));
    CHECK(mxu_cycles(2, 8, 4, 4, MxuMode::overlapped).exposed_load_cycles == 6);
}

TEST_CASE("stepping computes the product for ragged shapes and both modes", "[mxu]") {
    for (int s : {1, 2, 3, 4, 8})
        for (std::int64_t m : {1, 3, 9})
            for (std::int64_t k : {1, 5, 16})
                for (std::int64_t n : {2, 7})
                    for (MxuMode mode : {MxuMode::overlapped, MxuMode::no_overlap}) {
                        INFO("S=" << s << " M=" << m << " K=" << k << " N=" << n);
                        CHECK(stepped(m, k, n, s, mode).cycles == mxu_cycles(m, k, n, s, mode).cycles);
                    }
}

TEST_CASE("a 128x128 tile: fill, steady state, drain", "[mxu]") {
    // One fold: 128 load + 128 + 128 + 128 - 2 = 510 cycles.
    const MxuRun r =
        mxu_step(values(128 * 128, 1), values(128 * 128, 2), 128, 128, 128, 128, MxuMode::overlapped, true);
    CHECK(r.cycles == 510);
    REQUIRE(r.active_cells.size() >= 510);
    // Fill: one cell busy on the first streaming cycle.
    CHECK(r.active_cells[128] == 1);
    CHECK(r.active_cells[127] == 0);  // still loading weights
    // Busy cells lie on 128 consecutive anti-diagonals r + c; at best d = 64..191:
    // sum(d + 1, d = 64..127) + sum(255 - d, d = 128..191) = 6176 + 6112 = 12288.
    // With M = S the array is never full: that takes M >= 2S - 1.
    CHECK(*std::max_element(r.active_cells.begin(), r.active_cells.end()) == 12288);
    const MxuRun longer = mxu_step(std::vector<float>(512 * 128, 1.0f), std::vector<float>(128 * 128, 1.0f), 512, 128,
                                   128, 128, MxuMode::overlapped, true);
    CHECK(*std::max_element(longer.active_cells.begin(), longer.active_cells.end()) == 128 * 128);
    CHECK(longer.output[0] == 128.0f);
}

TEST_CASE("overlap hides weight loads for long streams; textbook mode does not", "[mxu]") {
    const MxuRun tpu = mxu_cycles(8192, 8192, 8192, 128, MxuMode::overlapped);
    const MxuRun book = mxu_cycles(8192, 8192, 8192, 128, MxuMode::no_overlap);
    CHECK(tpu.utilization > 0.99);
    CHECK(book.utilization < tpu.utilization);
    CHECK(tpu.folds == 64 * 64);
    // Small M leaves most of the array idle in both modes.
    CHECK(mxu_cycles(8, 128, 128, 128, MxuMode::overlapped).utilization < 0.05);
    CHECK(mxu_cycles(256, 256, 256, 256, MxuMode::overlapped).cycles == 256 + 256 + 256 + 256 - 2);
}

TEST_CASE("mxu refuses bad sizes", "[mxu]") {
    CHECK_THROWS_AS(mxu_cycles(0, 4, 4, 4, MxuMode::overlapped), InputError);
    CHECK_THROWS_AS(mxu_cycles(4, 4, 4, 0, MxuMode::overlapped), InputError);
    CHECK_THROWS_AS(mxu_step({1}, {1}, 1, 1, 2, 4, MxuMode::overlapped), InputError);
    CHECK_THROWS_AS(mxu_step(std::vector<float>(1), std::vector<float>(1), 4096, 4096, 4096, 128, MxuMode::overlapped),
                    InputError);
}

TEST_CASE("stepping with real-valued inputs matches a plain matmul; activity adds up", "[mxu]") {
    // Every useful multiply-accumulate happens in exactly one cell on one
    // cycle, so the per-cycle counts of busy cells sum to M*K*N. Real-valued
    // inputs round differently from the reference's summation order only in
    // the last bits. Shapes include three folds in the array at once
    // (M = S = 8, K = 24: folds start 8 cycles apart and last 8+8+8-2 = 22).
    struct Shape {
        std::int64_t m, k, n;
        int s;
    };
    const Shape shapes[] = {{8, 24, 8, 8}, {5, 19, 13, 4}, {33, 40, 17, 16}, {128, 128, 128, 128}};
    for (const Shape& sh : shapes)
        for (MxuMode mode : {MxuMode::overlapped, MxuMode::no_overlap}) {
            INFO("S=" << sh.s << " M=" << sh.m << " K=" << sh.k << " N=" << sh.n << " " << mode_name(mode));
            std::vector<float> x(static_cast<std::size_t>(sh.m * sh.k)), w(static_cast<std::size_t>(sh.k * sh.n));
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.37f * static_cast<float>((i * 13) % 23) - 3.1f;
            for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.11f * static_cast<float>((i * 7) % 19) - 0.9f;
            const MxuRun r = mxu_step(x, w, sh.m, sh.k, sh.n, sh.s, mode, true);
            const std::vector<float> want = reference(x, w, sh.m, sh.k, sh.n);
            REQUIRE(r.output.size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i) REQUIRE(r.output[i] == Approx(want[i]).margin(1e-3));
            std::int64_t busy = 0;
            for (std::int32_t a : r.active_cells) busy += a;
            CHECK(busy == sh.m * sh.k * sh.n);
            CHECK(static_cast<std::int64_t>(r.active_cells.size()) == r.cycles);
            CHECK(r.cycles == mxu_cycles(sh.m, sh.k, sh.n, sh.s, mode).cycles);
        }
}

// SCALE-Sim's weight-stationary count, derived by hand from its method
// (scalesim/compute/systolic_compute_ws.py and single_layer_sim.py in
// scalesim-project/scale-sim-v2): row folds ceil(K/S), column folds
// ceil(N/S); each fold's input demand is S rows of weight loading, M rows of
// inputs, S - 1 rows of drain, then skewed by S - 1 more: 3S + M - 2 cycles;
// folds run back to back.
//
// 100 x 300 x 200 on 128 x 128: row folds ceil(300/128) = 3 (128, 128, 44
// rows), column folds ceil(200/128) = 2 (128, 72 columns), 6 folds of
// 3*128 + 100 - 2 = 482 cycles: 2892 cycles.
//   overall utilization 100*300*200 / (16384 * 2892) = 6,000,000 / 47,382,528 = 0.12663
//   mapping efficiency, the mean of the folds' mapped cells over 16384:
//     (16384 + 16384 + 5632 + 9216 + 9216 + 3168) / 6 / 16384 = 60000 / 98304 = 0.61035
//   compute utilization, per fold mapped * 100 / (16384 * (4*128 + 100 - 3)):
//     mean = 60000 * 100 / (16384 * 609 * 6) = 6,000,000 / 59,867,136 = 0.10022
// 8 x 128 x 128 on 128 x 128: one fold, 3*128 + 8 - 2 = 390 cycles;
//   overall 8*128*128 / (16384 * 390) = 8 / 390; mapping 1; compute 8 / 517.
// The TPU's overlapped count for 100 x 300 x 200: folds start max(100, 128) =
//   128 cycles apart from cycle 128; the last (72 columns) starts at 128 + 5*128
//   = 768 and its last sum leaves at 768 + 99 + 127 + 71 = 1065: 1066 cycles.
TEST_CASE("SCALE-Sim's fold and fill/drain count, by hand", "[mxu][scalesim]") {
    const MxuScaleSimCount r = mxu_scalesim_count(100, 300, 200, 128);
    CHECK(r.row_folds == 3);
    CHECK(r.col_folds == 2);
    CHECK(r.folds == 6);
    CHECK(r.cycles_per_fold == 482);
    CHECK(r.cycles == 2892);
    CHECK(r.overall_utilization == Approx(6000000.0 / 47382528.0));
    CHECK(r.mapping_efficiency == Approx(60000.0 / 98304.0));
    CHECK(r.compute_utilization == Approx(6000000.0 / 59867136.0));
    // The no-overlap mode is the same count, formula and stepped.
    CHECK(mxu_cycles(100, 300, 200, 128, MxuMode::no_overlap).cycles == 2892);
    CHECK(stepped(100, 300, 200, 128, MxuMode::no_overlap).cycles == 2892);
    CHECK(mxu_cycles(100, 300, 200, 128, MxuMode::overlapped).cycles == 1066);
    CHECK(stepped(100, 300, 200, 128, MxuMode::overlapped).cycles == 1066);

    const MxuScaleSimCount skinny = mxu_scalesim_count(8, 128, 128, 128);
    CHECK(skinny.folds == 1);
    CHECK(skinny.cycles == 390);
    CHECK(skinny.overall_utilization == Approx(8.0 / 390));
    CHECK(skinny.mapping_efficiency == Approx(1.0));
    CHECK(skinny.compute_utilization == Approx(8.0 / 517));
    CHECK(mxu_cycles(8, 128, 128, 128, MxuMode::overlapped).cycles == 390);
    CHECK_THROWS_AS(mxu_scalesim_count(0, 4, 4, 4), InputError);
    CHECK_THROWS_AS(mxu_scalesim_count(4, -1, 4, 4), InputError);
}

namespace {
// A register-level array stepped one cycle at a time, to check frames
// against: each cycle, activations move one cell right, sums one cell down
// adding activation x weight; fold i's row e enters array row r at column 0
// on cycle start(i) + e + r, and its weights are those of the fold whose rows
// are passing.
struct NaiveCell {
    bool on = false;
    std::int64_t fold = -1, row = -1;
    float act = 0, sum = 0;
};
}  // namespace

TEST_CASE("frames match an array stepped register by register", "[mxu][frame]") {
    struct Shape {
        std::int64_t m, k, n;
        int s;
        MxuMode mode;
    };
    const Shape shapes[] = {{2, 3, 2, 4, MxuMode::overlapped},
                            {5, 9, 6, 4, MxuMode::overlapped},
                            {5, 9, 6, 4, MxuMode::no_overlap},
                            {9, 8, 3, 4, MxuMode::overlapped},
                            {3, 17, 10, 8, MxuMode::overlapped}};
    for (const Shape& sh : shapes) {
        INFO("S=" << sh.s << " M=" << sh.m << " K=" << sh.k << " N=" << sh.n << " " << mode_name(sh.mode));
        const MxuTimeline tl = mxu_timeline(sh.m, sh.k, sh.n, sh.s, sh.mode);
        const std::int64_t s = sh.s;
        std::vector<NaiveCell> grid(static_cast<std::size_t>(s * s));
        std::vector<float> out(static_cast<std::size_t>(sh.m * sh.n), 0.0f);
        std::int64_t useful_total = 0;
        for (std::int64_t t = 0; t < tl.cycles; ++t) {
            std::vector<NaiveCell> next(grid.size());
            for (std::int64_t r = 0; r < s; ++r)
                for (std::int64_t c = 0; c < s; ++c) {
                    NaiveCell& cell = next[static_cast<std::size_t>(r * s + c)];
                    if (c > 0) {
                        const NaiveCell& left = grid[static_cast<std::size_t>(r * s + c - 1)];
                        cell.on = left.on, cell.fold = left.fold, cell.row = left.row, cell.act = left.act;
                    } else {
                        for (std::int64_t i = 0; i < tl.folds; ++i) {
                            const std::int64_t e = t - tl.fold_start(i) - r;
                            if (e < 0 || e >= sh.m) continue;
                            cell.on = true, cell.fold = i, cell.row = e;
                            cell.act = r < tl.fold_rows(i) ? mxu_sample_value(e, tl.fold_k0(i) + r, 1) : 0.0f;
                        }
                    }
                    if (!cell.on) continue;
                    const float above = r > 0 ? grid[static_cast<std::size_t>((r - 1) * s + c)].sum : 0.0f;
                    const bool inside = r < tl.fold_rows(cell.fold) && c < tl.fold_cols(cell.fold);
                    const float w =
                        inside ? mxu_sample_value(tl.fold_k0(cell.fold) + r, tl.fold_n0(cell.fold) + c, 2) : 0.0f;
                    cell.sum = above + cell.act * w;
                    if (r == s - 1 && c < tl.fold_cols(cell.fold))
                        out[static_cast<std::size_t>(cell.row * sh.n + tl.fold_n0(cell.fold) + c)] += cell.sum;
                }
            grid = next;
            const MxuFrame f = mxu_frame(tl, t, sh.s);
            REQUIRE(f.corner == sh.s);
            std::int64_t useful = 0;
            for (std::int64_t r = 0; r < s; ++r)
                for (std::int64_t c = 0; c < s; ++c) {
                    INFO("t=" << t << " cell (" << r << ", " << c << ")");
                    const NaiveCell& want = grid[static_cast<std::size_t>(r * s + c)];
                    const MxuCornerCell& got = f.corner_cells[static_cast<std::size_t>(r * s + c)];
                    const auto state = static_cast<MxuCellState>(f.cells[static_cast<std::size_t>(r * s + c)]);
                    REQUIRE(got.has_row == want.on);
                    REQUIRE((state == MxuCellState::useful || state == MxuCellState::padding) == want.on);
                    if (!want.on) continue;
                    const bool inside = r < tl.fold_rows(want.fold) && c < tl.fold_cols(want.fold);
                    REQUIRE((state == MxuCellState::useful) == inside);
                    useful += inside ? 1 : 0;
                    REQUIRE(got.fold == want.fold);
                    REQUIRE(got.row == want.row);
                    REQUIRE(got.activation == want.act);
                    REQUIRE(got.sum == want.sum);
                }
            CHECK(f.useful_cells == useful);
            useful_total += useful;
        }
        // Every multiply-accumulate happened once, and the sums that left add up to x @ w.
        CHECK(useful_total == sh.m * sh.k * sh.n);
        std::vector<float> x(static_cast<std::size_t>(sh.m * sh.k)), w(static_cast<std::size_t>(sh.k * sh.n));
        for (std::int64_t i = 0; i < sh.m; ++i)
            for (std::int64_t j = 0; j < sh.k; ++j)
                x[static_cast<std::size_t>(i * sh.k + j)] = mxu_sample_value(i, j, 1);
        for (std::int64_t i = 0; i < sh.k; ++i)
            for (std::int64_t j = 0; j < sh.n; ++j)
                w[static_cast<std::size_t>(i * sh.n + j)] = mxu_sample_value(i, j, 2);
        CHECK(out == reference(x, w, sh.m, sh.k, sh.n));
        CHECK(mxu_frame(tl, tl.cycles - 1, sh.s).results_done == sh.m * sh.n);
    }
}

TEST_CASE("per-cycle activity agrees with the stepped model", "[mxu][frame]") {
    struct Shape {
        std::int64_t m, k, n;
        int s;
    };
    const Shape shapes[] = {{8, 128, 128, 128}, {100, 300, 200, 128}, {7, 20, 9, 8}, {40, 33, 70, 16}};
    for (const Shape& sh : shapes)
        for (MxuMode mode : {MxuMode::overlapped, MxuMode::no_overlap}) {
            INFO("S=" << sh.s << " M=" << sh.m << " K=" << sh.k << " N=" << sh.n << " " << mode_name(mode));
            const MxuTimeline tl = mxu_timeline(sh.m, sh.k, sh.n, sh.s, mode);
            std::vector<float> x(static_cast<std::size_t>(sh.m * sh.k), 1.0f),
                w(static_cast<std::size_t>(sh.k * sh.n), 1.0f);
            const MxuRun run = mxu_step(x, w, sh.m, sh.k, sh.n, sh.s, mode, true);
            REQUIRE(run.cycles == tl.cycles);
            const std::vector<float> act = mxu_activity(tl, static_cast<int>(tl.cycles));
            for (std::int64_t t = 0; t < tl.cycles; ++t) {
                INFO("t=" << t);
                REQUIRE(act[static_cast<std::size_t>(t)] ==
                        static_cast<float>(run.active_cells[static_cast<std::size_t>(t)]));
            }
            // A few frames count the same busy cells.
            for (std::int64_t t : {std::int64_t{0}, tl.first_start, tl.fill_end, tl.drain_start, tl.cycles - 1})
                CHECK(mxu_frame(tl, t).useful_cells == run.active_cells[static_cast<std::size_t>(t)]);
            std::int64_t work = 0;
            for (std::int64_t v : mxu_cell_work(tl)) work += v;
            CHECK(work == sh.m * sh.k * sh.n);
        }
}

TEST_CASE("phases of a run: loading, fill, steady state, drain", "[mxu][frame]") {
    // 128 x 128 x 128 on 128: load 0-127, rows enter from 128; the wave
    // reaches the far corner at 128 + 254 = 382, but the last row enters at
    // 255, so drain starts at 256 and the array never fills.
    const MxuTimeline one = mxu_timeline(128, 128, 128, 128, MxuMode::overlapped);
    CHECK(one.fills == false);
    CHECK(one.drain_start == 256);
    CHECK(one.fill_end == 256);
    CHECK(mxu_frame(one, 0).phase == "loading weights");
    CHECK(mxu_frame(one, 0).loading_rows == 1);
    CHECK(mxu_frame(one, 127).loading_rows == 128);
    CHECK(mxu_frame(one, 128).phase == "fill");
    CHECK(mxu_frame(one, 128).useful_cells == 1);
    CHECK(mxu_frame(one, 300).phase == "drain");
    // 1024 rows: steady state from 382 until the last row enters at 1152.
    const MxuTimeline longer = mxu_timeline(1024, 128, 128, 128, MxuMode::overlapped);
    CHECK(longer.fills);
    CHECK(longer.fill_end == 382);
    CHECK(longer.drain_start == 1152);
    CHECK(mxu_frame(longer, 500).phase == "steady state");
    CHECK(mxu_frame(longer, 500).useful_cells == 128 * 128);
    // Without overlap each fold fills and drains on its own: 100 x 300 x 200
    // folds are 482 cycles apart, the second loading over cycles 482-609.
    const MxuTimeline book = mxu_timeline(100, 300, 200, 128, MxuMode::no_overlap);
    CHECK(mxu_frame(book, 481).phase == "drain");
    CHECK(mxu_frame(book, 482).phase == "loading weights");
    CHECK(mxu_frame(book, 482).loading_fold == 1);
    CHECK(mxu_frame(book, 610).phase == "fill");
    // Overlapped with M < S, a bubble opens between folds: each one fills again.
    const MxuTimeline bubbles = mxu_timeline(100, 300, 200, 128, MxuMode::overlapped);
    CHECK(mxu_frame(bubbles, 128 + 128 + 5).phase == "fill");
    CHECK(mxu_frame(bubbles, 128 + 128 + 100).phase == "drain");
    // 8 rows: a thin wave, never more than 8 anti-diagonals.
    const MxuFrame thin = mxu_frame(mxu_timeline(8, 128, 128, 128, MxuMode::overlapped), 200);
    // Cycle 200 is lag 72: rows on anti-diagonals r + c = 65..72, of 66..73 cells.
    CHECK(thin.useful_cells == 556);
    CHECK(mxu_frame(mxu_timeline(8, 128, 128, 128, MxuMode::overlapped), 389).results_done == 8 * 128);
}
