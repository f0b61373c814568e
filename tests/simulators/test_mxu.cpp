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

std::vector<float> reference(const std::vector<float>& x, const std::vector<float>& w,
                             std::int64_t m, std::int64_t k, std::int64_t n) {
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
        {4, 4, 4, MxuMode::overlapped, 14}, {4, 4, 4, MxuMode::no_overlap, 14},
        {8, 4, 4, MxuMode::overlapped, 18}, {2, 3, 2, MxuMode::overlapped, 10},
        {4, 8, 8, MxuMode::no_overlap, 56}, {4, 8, 8, MxuMode::overlapped, 26},
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
                        CHECK(stepped(m, k, n, s, mode).cycles ==
                              mxu_cycles(m, k, n, s, mode).cycles);
                    }
}

TEST_CASE("a 128x128 tile: fill, steady state, drain", "[mxu]") {
    // One fold: 128 load + 128 + 128 + 128 - 2 = 510 cycles.
    const MxuRun r = mxu_step(values(128 * 128, 1), values(128 * 128, 2), 128, 128, 128, 128,
                              MxuMode::overlapped, true);
    CHECK(r.cycles == 510);
    REQUIRE(r.active_cells.size() >= 510);
    // Fill: one cell busy on the first streaming cycle.
    CHECK(r.active_cells[128] == 1);
    CHECK(r.active_cells[127] == 0);  // still loading weights
    // Busy cells lie on 128 consecutive anti-diagonals r + c; at best d = 64..191:
    // sum(d + 1, d = 64..127) + sum(255 - d, d = 128..191) = 6176 + 6112 = 12288.
    // With M = S the array is never full: that takes M >= 2S - 1.
    CHECK(*std::max_element(r.active_cells.begin(), r.active_cells.end()) == 12288);
    const MxuRun longer = mxu_step(std::vector<float>(512 * 128, 1.0f),
                                   std::vector<float>(128 * 128, 1.0f), 512, 128, 128, 128,
                                   MxuMode::overlapped, true);
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
    CHECK_THROWS_AS(mxu_step(std::vector<float>(1), std::vector<float>(1), 4096, 4096, 4096, 128,
                             MxuMode::overlapped),
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
            INFO("S=" << sh.s << " M=" << sh.m << " K=" << sh.k << " N=" << sh.n << " "
                      << mode_name(mode));
            std::vector<float> x(static_cast<std::size_t>(sh.m * sh.k)),
                w(static_cast<std::size_t>(sh.k * sh.n));
            for (std::size_t i = 0; i < x.size(); ++i)
                x[i] = 0.37f * static_cast<float>((i * 13) % 23) - 3.1f;
            for (std::size_t i = 0; i < w.size(); ++i)
                w[i] = 0.11f * static_cast<float>((i * 7) % 19) - 0.9f;
            const MxuRun r = mxu_step(x, w, sh.m, sh.k, sh.n, sh.s, mode, true);
            const std::vector<float> want = reference(x, w, sh.m, sh.k, sh.n);
            REQUIRE(r.output.size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i)
                REQUIRE(r.output[i] == Approx(want[i]).margin(1e-3));
            std::int64_t busy = 0;
            for (std::int32_t a : r.active_cells) busy += a;
            CHECK(busy == sh.m * sh.k * sh.n);
            CHECK(static_cast<std::int64_t>(r.active_cells.size()) == r.cycles);
            CHECK(r.cycles == mxu_cycles(sh.m, sh.k, sh.n, sh.s, mode).cycles);
        }
}
