// The systolic array stepped one cycle at a time, with values.
//
// Each cell (r, c) holds a weight, an activation register and a partial-sum
// register. Every cycle every cell passes its activation to the right and
// its partial sum, plus activation x weight, down.
//
// State is kept as structure-of-arrays: one plane of partial-sum registers
// and one weight plane per fold in the array. The activation registers of
// array row r form a pure delay line (column c holds what entered the row c
// cycles ago), so rather than shifting S*S registers each cycle we read them
// from the row's input column, stored reversed so a row's registers are one
// contiguous slice.
//
// Cell (r, c) of a fold starting at cycle `start` works on row e = t - start
// - r - c of x at cycle t. Only cells with 0 <= e < M hold data that can
// reach an output, so each cycle touches only that anti-diagonal band of
// each fold and skips the rest.
//
// Partial sums are updated in place, from the bottom row up, so row r reads
// row r - 1 before row r - 1 takes its new value, as registers latch on a
// clock edge. For speed, one sweep up the array advances kDepth cycles: at
// each step it sets row r to cycle t, then row r + 1 to cycle t + 1 (from
// the row r just computed), and so on, like a staircase climbing the array.
// Every register still takes exactly the value it has on each cycle, the
// plane holds the whole array's state after each sweep, and the rows a
// step works on stay in the fastest cache.
#include <algorithm>
#include <cstdint>
#include <string>

#include "mxu_detail.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

// Plane rows are padded by one vector's width so a band segment can always
// be processed in whole vectors; see sweep().
constexpr std::int64_t kLanes = 8;
constexpr std::int64_t kDepth = 8;  // cycles advanced by one sweep up the array

struct FoldInArray {
    std::size_t index = 0;
    detail::Fold fold;
    std::int64_t done = 0;           // cycle its last useful sum leaves the array
    std::size_t plane = 0;           // which weight plane of the pool it occupies
    const float* weights = nullptr;  // that plane
};

// A zeroed buffer whose first element sits `phase` bytes past a 4 KiB
// boundary. The planes a step reads and writes together get different
// phases: a load from an address that matches a pending store's low 12 bits
// waits for that store on common x86 CPUs, and equal phases would make
// every weight load wait on the previous partial-sum store.
struct Placed {
    std::vector<float> storage;
    float* data = nullptr;
    void assign(std::size_t count, std::size_t phase) {
        constexpr std::size_t kPage = 4096;
        storage.assign(count + kPage / sizeof(float), 0.0f);
        const std::size_t at = reinterpret_cast<std::uintptr_t>(storage.data()) % kPage;
        data = storage.data() + (phase + kPage - at) % kPage / sizeof(float);
    }
};

// What one stepped run needs; buffers are sized once, before the first cycle.
struct ArrayState {
    std::int64_t m = 0, n = 0, s = 0;
    bool drain_whole = false;  // no-overlap mode: a fold ends when all S columns have drained
    std::size_t row = 0;       // stride of a plane row: S + kLanes
    std::size_t column = 0;    // stride of an input column: M + kLanes
    // x by columns, each reversed: xr[k * column + M-1-e] = x[e][k], then S
    // zero columns: the activations of array rows past a fold's K slice.
    Placed xr;
    Placed psum;                      // S rows of partial-sum registers
    std::vector<Placed> weight_pool;  // weight planes, reused across folds
    std::vector<std::size_t> free_planes;
};

// Columns [lo, hi] that hold rows 0 <= e < M of a fold in array row r at
// cycle t; they depend only on t - r.
inline bool band(const detail::Fold& f, std::int64_t m, std::int64_t s, std::int64_t t_minus_r, std::int64_t& lo,
                 std::int64_t& hi) {
    lo = std::max<std::int64_t>(0, t_minus_r - (f.start + m - 1));
    hi = std::min<std::int64_t>(s - 1, t_minus_r - f.start);
    return lo <= hi;
}

// One step of a sweep for one fold: `count` consecutive rows of the array
// take consecutive cycles; all of them work on the same columns (the band
// depends only on t - r), `len` cells padded to whole vectors. Each row's new
// sums come from the row above one cycle earlier, which is the row just set,
// so the running column of sums stays in registers while every row's
// registers are still written out. `above` is the row over the first one
// (null when the first row is the array's top). Rows are `row` floats apart
// in `out` and `weight`, input columns `column` apart in `act`.
inline void staircase(float* __restrict__ out, const float* __restrict__ above, const float* __restrict__ act,
                      const float* __restrict__ weight, std::size_t row, std::size_t column, std::size_t count,
                      std::size_t len) {
    std::size_t v = 0;
    // Two vectors side by side, so the additions down a column overlap.
    for (; v + 2 * kLanes <= len; v += 2 * kLanes) {
        float s0[kLanes], s1[kLanes];
        std::size_t i = 0;
        if (above) {
            for (std::size_t j = 0; j < kLanes; ++j) s0[j] = above[v + j];
            for (std::size_t j = 0; j < kLanes; ++j) s1[j] = above[v + kLanes + j];
        } else {
            for (std::size_t j = 0; j < kLanes; ++j) s0[j] = act[v + j] * weight[v + j];
            for (std::size_t j = 0; j < kLanes; ++j) s1[j] = act[v + kLanes + j] * weight[v + kLanes + j];
            for (std::size_t j = 0; j < kLanes; ++j) out[v + j] = s0[j];
            for (std::size_t j = 0; j < kLanes; ++j) out[v + kLanes + j] = s1[j];
            i = 1;
        }
        for (; i < count; ++i) {
            const float* a = act + i * column + v;
            const float* w = weight + i * row + v;
            float* o = out + i * row + v;
            for (std::size_t j = 0; j < kLanes; ++j) s0[j] = s0[j] + a[j] * w[j];
            for (std::size_t j = 0; j < kLanes; ++j) s1[j] = s1[j] + a[kLanes + j] * w[kLanes + j];
            for (std::size_t j = 0; j < kLanes; ++j) o[j] = s0[j];
            for (std::size_t j = 0; j < kLanes; ++j) o[kLanes + j] = s1[j];
        }
    }
    for (; v < len; v += kLanes) {
        float s0[kLanes];
        std::size_t i = 0;
        if (above) {
            for (std::size_t j = 0; j < kLanes; ++j) s0[j] = above[v + j];
        } else {
            for (std::size_t j = 0; j < kLanes; ++j) s0[j] = act[v + j] * weight[v + j];
            for (std::size_t j = 0; j < kLanes; ++j) out[v + j] = s0[j];
            i = 1;
        }
        for (; i < count; ++i) {
            const float* a = act + i * column + v;
            const float* w = weight + i * row + v;
            float* o = out + i * row + v;
            for (std::size_t j = 0; j < kLanes; ++j) s0[j] = s0[j] + a[j] * w[j];
            for (std::size_t j = 0; j < kLanes; ++j) o[j] = s0[j];
        }
    }
}

// Advances the array over cycles [t0, t0 + depth): the partial sums on every
// fold's band move down a row, each adding its cell's activation x weight;
// sums leaving the bottom row go to `output`; `activity`, when given, gets
// each cycle's count of cells doing useful work (inside the fold's rows and
// columns; the rest multiply padding).
//
// A segment is processed in whole vectors, so up to kLanes - 1 cells right
// of it get a meaningless value. That is harmless: such a cell is idle (the
// cell below reads it on the next cycle only if it is on a band now) or on
// an older fold's band, which lies further right and is computed right
// after, from values this step has not touched.
//
// On x86-64 Linux with g++ a wider copy is picked at run time where the CPU
// has AVX2 (no FMA, so sums round the same way on every CPU).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
void sweep(ArrayState& a, const std::vector<FoldInArray>& folds, std::int64_t t0,
           std::int64_t depth, std::vector<float>& output, std::int32_t* activity) {
    const std::int64_t m = a.m, s = a.s;
    // Step r sets rows r, r + 1, ... to cycles t0, t0 + 1, ...: all share t - r.
    for (std::int64_t r = s - 1; r > -depth; --r) {
        const std::int64_t lag = t0 - r;
        const std::int64_t i0 = std::max<std::int64_t>(0, -r);
        const std::int64_t i1 = std::min(depth, s - r);  // rows r + i0 .. r + i1 - 1
        for (std::size_t q = folds.size(); q-- > 0;) {   // newest fold first: it lies leftmost
            std::int64_t lo = 0, hi = 0;
            const detail::Fold& f = folds[q].fold;
            if (!band(f, m, s, lag, lo, hi)) continue;
            const std::size_t l = static_cast<std::size_t>(lo);
            // Cell (row, lo) holds x row e = lag - start - lo, at reversed index M-1-e.
            const std::size_t e_at = static_cast<std::size_t>(m - 1 - (lag - f.start - lo));
            // Array rows past the fold's K slice read the zero columns after x's.
            const std::size_t first = static_cast<std::size_t>(r + i0);
            const std::size_t len = static_cast<std::size_t>(hi - lo + kLanes) & ~static_cast<std::size_t>(kLanes - 1);
            staircase(&a.psum.data[first * a.row + l], first == 0 ? nullptr : &a.psum.data[(first - 1) * a.row + l],
                      &a.xr.data[(static_cast<std::size_t>(f.k0) + first) * a.column + e_at],
                      folds[q].weights + first * a.row + l, a.row, a.column, static_cast<std::size_t>(i1 - i0), len);
            const std::int64_t used = std::min(hi, f.cols - 1) - lo + 1;
            if (used <= 0) continue;
            if (activity)
                for (std::int64_t i = i0; i < i1 && r + i < f.rows; ++i)
                    activity[t0 + i] += static_cast<std::int32_t>(used);
            if (i1 == s - r) {  // the bottom row took cycle t0 + i1 - 1: its sums leave
                const float* bottom = &a.psum.data[static_cast<std::size_t>(s - 1) * a.row];
                for (std::int64_t c = lo; c < lo + used; ++c)
                    output[static_cast<std::size_t>((lag - c - f.start) * a.n + f.n0 + c)] += bottom[c];
            }
        }
    }
}

// Puts a fold's weights into a free plane (zero outside its rows and columns).
FoldInArray load_fold(ArrayState& a, const std::vector<float>& w, const detail::Fold& fold, std::size_t index) {
    FoldInArray f;
    f.index = index;
    f.fold = fold;
    f.done = fold.start + a.m - 1 + (a.s - 1) + (fold.cols - 1);
    // Without overlap the array drains whole before the next load: the
    // padding columns' sums leave too.
    if (a.drain_whole) f.done = fold.start + a.m - 1 + 2 * (a.s - 1);
    if (a.free_planes.empty()) {
        const std::size_t i = a.weight_pool.size();
        a.weight_pool.emplace_back();
        a.weight_pool.back().assign(static_cast<std::size_t>(a.s) * a.row, 1024 + 512 * (i % 4));
        a.free_planes.push_back(i);
    }
    f.plane = a.free_planes.back();
    a.free_planes.pop_back();
    Placed& plane = a.weight_pool[f.plane];
    std::fill(plane.storage.begin(), plane.storage.end(), 0.0f);
    for (std::int64_t r = 0; r < fold.rows; ++r)
        std::copy_n(&w[static_cast<std::size_t>((fold.k0 + r) * a.n + fold.n0)], fold.cols,
                    &plane.data[static_cast<std::size_t>(r) * a.row]);
    f.weights = plane.data;
    return f;
}

}  // namespace

MxuRun mxu_step(const std::vector<float>& x, const std::vector<float>& w, std::int64_t m, std::int64_t k,
                std::int64_t n, int array, MxuMode mode, bool record_activity) {
    detail::check_mxu_sizes(m, k, n, array);
    if (static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n) > 67108864.0)
        throw InputError(
            "stepping is for small GEMMs (up to 2^26 multiply-accumulates); "
            "use the cycle formula for larger ones");
    if (x.size() != static_cast<std::size_t>(m * k) || w.size() != static_cast<std::size_t>(k * n))
        throw InputError("x must hold M*K values and w K*N values");

    const std::int64_t S = array;
    const std::size_t s = static_cast<std::size_t>(array);
    // A fold's start must be known before the sweep that reaches it: without
    // overlap it is set S + 1 cycles after the previous fold's last output,
    // so a sweep may span at most S + 1 cycles.
    const std::int64_t depth = std::min(kDepth, S);

    std::vector<detail::Fold> folds = detail::plan_folds(k, n, array);
    // Overlapped mode: the next fold may start max(M, S) cycles after the
    // last (its rows have entered, its weights have loaded). Without overlap
    // a fold starts S load cycles after the previous one's last sum leaves;
    // that start is set when it happens.
    folds[0].start = S;
    for (std::size_t f = 1; f < folds.size(); ++f)
        folds[f].start = mode == MxuMode::overlapped ? folds[f - 1].start + std::max(m, S) : -1;

    MxuRun run;
    run.array = array;
    run.mode = mode;
    run.stepped = true;
    run.folds = static_cast<std::int64_t>(folds.size());
    run.macs = m * k * n;
    run.output.assign(static_cast<std::size_t>(m * n), 0.0f);

    ArrayState st;
    st.m = m;
    st.n = n;
    st.s = S;
    st.drain_whole = mode == MxuMode::no_overlap;
    st.row = s + kLanes;
    st.column = static_cast<std::size_t>(m + kLanes);
    st.xr.assign(static_cast<std::size_t>(k + S) * st.column, 2048 + 256);
    for (std::int64_t e = 0; e < m; ++e)
        for (std::int64_t r = 0; r < k; ++r)
            st.xr.data[static_cast<std::size_t>(r) * st.column + static_cast<std::size_t>(m - 1 - e)] =
                x[static_cast<std::size_t>(e * k + r)];
    st.psum.assign(s * st.row, 0);

    std::vector<FoldInArray> in_array;
    in_array.reserve(4);
    std::size_t next_fold = 0;
    std::int64_t last_output = -1;

    for (std::int64_t t0 = 0;;) {
        // Folds whose first row enters during this sweep take a weight plane.
        while (next_fold < folds.size() && folds[next_fold].start >= 0 && folds[next_fold].start < t0 + depth) {
            in_array.push_back(load_fold(st, w, folds[next_fold], next_fold));
            ++next_fold;
        }
        if (in_array.empty()) {
            if (next_fold >= folds.size()) break;
            // Only weights loading until the next fold starts: no cell holds data.
            t0 = folds[next_fold].start;
            continue;
        }
        if (record_activity) run.active_cells.resize(static_cast<std::size_t>(t0 + depth), 0);
        sweep(st, in_array, t0, depth, run.output, record_activity ? run.active_cells.data() : nullptr);

        for (std::size_t i = 0; i < in_array.size();) {
            const FoldInArray& f = in_array[i];
            if (f.done >= t0 + depth) {
                ++i;
                continue;
            }
            last_output = std::max(last_output, f.done);
            if (mode == MxuMode::no_overlap && f.index + 1 < folds.size())
                folds[f.index + 1].start = f.done + 1 + S;  // load, then stream
            st.free_planes.push_back(f.plane);
            in_array.erase(in_array.begin() + static_cast<std::ptrdiff_t>(i));
        }
        t0 += depth;
    }

    run.cycles = last_output + 1;
    if (record_activity) run.active_cells.resize(static_cast<std::size_t>(run.cycles), 0);
    run.exposed_load_cycles = mxu_cycles(m, k, n, array, mode).exposed_load_cycles;
    run.utilization = static_cast<double>(run.macs) /
                      (static_cast<double>(S) * static_cast<double>(S) * static_cast<double>(run.cycles));
    run.provenance = detail::mxu_provenance(m, k, n, array, mode);
    run.provenance.model += " (stepped cycle by cycle)";
    return run;
}

}  // namespace tpusim
