// The systolic array stepped one cycle at a time, with values.
//
// Each cell holds a weight, an activation register and a partial-sum
// register. Every cycle every cell passes its activation to the right and
// its partial sum, plus activation x weight, down. The activation registers
// of one array row form a delay line: the cell in column c holds what
// entered the row c cycles ago. We keep that delay line as a small ring per
// row (stored twice over so any window of it is contiguous). Only cells that
// hold a real row of the left operand are updated: the rest hold nothing
// that can reach an output.
//
// For speed the cycles are taken in windows of B: within a window, row 0
// steps through its B cycles, then row 1 (reading row 0's sums one cycle
// earlier), and so on. Every cell still computes exactly what it would
// computing all rows cycle by cycle; this order just keeps a row's data in
// the fastest cache.
#include <algorithm>
#include <string>

#include "mxu_detail.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

struct ActiveFold {
    std::size_t index = 0;
    detail::Fold fold;
    std::int64_t done = 0;       // cycle its last useful sum leaves the array
    std::vector<float> weights;  // S x S, zero outside the fold's rows and columns
};

// One row of cells for one cycle: sum from above plus activation x weight.
// The pointers never alias, which lets the compiler vectorize the loop; on
// x86-64 Linux with g++ a wider copy is picked at run time where the CPU
// has AVX2, since this loop is nearly all of the stepping's time.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
void mac_row(float* __restrict__ out, const float* __restrict__ above,
             const float* __restrict__ act, const float* __restrict__ weight, std::size_t lo,
             std::size_t hi) {
    if (above)
        for (std::size_t c = lo; c <= hi; ++c) out[c] = above[c] + act[c] * weight[c];
    else
        for (std::size_t c = lo; c <= hi; ++c) out[c] = act[c] * weight[c];
}

}  // namespace

MxuRun mxu_step(const std::vector<float>& x, const std::vector<float>& w, std::int64_t m,
                std::int64_t k, std::int64_t n, int array, MxuMode mode, bool record_activity) {
    detail::check_mxu_sizes(m, k, n, array);
    if (static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n) > 67108864.0)
        throw InputError("stepping is for small GEMMs (up to 2^26 multiply-accumulates); "
                         "use the cycle formula for larger ones");
    if (x.size() != static_cast<std::size_t>(m * k) || w.size() != static_cast<std::size_t>(k * n))
        throw InputError("x must hold M*K values and w K*N values");

    const std::int64_t S = array;
    const std::size_t s = static_cast<std::size_t>(array);
    const std::int64_t B = std::min<std::int64_t>(S, 32);  // cycles per window (<= S, see below)
    const std::size_t b = static_cast<std::size_t>(B);
    const std::size_t ring_len = s + b;  // a row's inputs from S - 1 cycles before the window on

    std::vector<detail::Fold> folds = detail::plan_folds(k, n, array);
    // Overlapped mode: the next fold may start max(M, S) cycles after the
    // last (its rows have entered, its weights have loaded). Without overlap
    // a fold starts S load cycles after the previous one's last sum leaves,
    // which is at least S + 1 > B cycles later, so it is always known
    // before the window it starts in.
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

    // x by columns, so each array row reads its inputs contiguously.
    std::vector<float> xt(static_cast<std::size_t>(m * k));
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t r = 0; r < k; ++r)
            xt[static_cast<std::size_t>(r * m + i)] = x[static_cast<std::size_t>(i * k + r)];
    std::vector<float> state(s * s, 0.0f);  // partial sums at the end of the last window
    std::vector<float> ring(s * 2 * ring_len, 0.0f);
    std::vector<float> prev_hist(b * s), cur_hist(b * s), prev_old(s), old_row(s);
    std::vector<std::int32_t> window_active(b);
    std::vector<ActiveFold> slots;  // folds that are (or will be, this window) in the array
    std::size_t next_fold = 0;
    std::int64_t last_output = -1;

    auto columns = [&](const detail::Fold& f, std::int64_t t, std::int64_t r, std::int64_t& lo,
                       std::int64_t& hi) {
        // Cells (r, c) holding rows e = t - r - c of x with start <= e < start + M.
        lo = std::max<std::int64_t>(0, t - r - (f.start + m - 1));
        hi = std::min<std::int64_t>(S - 1, t - r - f.start);
        return lo <= hi;
    };

    for (std::int64_t t0 = 0;; t0 += B) {
        const std::int64_t t_end = t0 + B;  // this window is cycles [t0, t_end)
        while (next_fold < folds.size() && folds[next_fold].start >= 0 &&
               folds[next_fold].start < t_end) {
            ActiveFold a;
            a.index = next_fold;
            a.fold = folds[next_fold];
            a.done = a.fold.start + m - 1 + (S - 1) + (a.fold.cols - 1);
            a.weights.assign(s * s, 0.0f);
            for (std::int64_t r = 0; r < a.fold.rows; ++r)
                for (std::int64_t c = 0; c < a.fold.cols; ++c)
                    a.weights[static_cast<std::size_t>(r) * s + static_cast<std::size_t>(c)] =
                        w[static_cast<std::size_t>((a.fold.k0 + r) * n + a.fold.n0 + c)];
            slots.push_back(std::move(a));
            ++next_fold;
        }
        if (slots.empty() && next_fold >= folds.size()) break;

        // Feed every row's delay line with what enters it during the window:
        // row m of x enters array row r at cycle start + m + r.
        const std::size_t q0 = ring_len - 1 - static_cast<std::size_t>(t0) % ring_len;
        auto slot_of = [&](std::int64_t j) {  // ring position of cycle t0 + j
            const std::size_t ju = static_cast<std::size_t>(j);
            return q0 >= ju ? q0 - ju : q0 + ring_len - ju;
        };
        for (std::int64_t r = 0; r < S; ++r) {
            float* line = &ring[static_cast<std::size_t>(r) * 2 * ring_len];
            for (std::int64_t j = 0; j < B; ++j) line[slot_of(j)] = line[slot_of(j) + ring_len] = 0.0f;
            for (const ActiveFold& a : slots) {
                if (r >= a.fold.rows) continue;
                const std::int64_t lo = std::max(t0, a.fold.start + r);
                const std::int64_t hi = std::min(t_end, a.fold.start + r + m);
                const float* column = &xt[static_cast<std::size_t>((a.fold.k0 + r) * m)];
                for (std::int64_t t = lo; t < hi; ++t) {
                    const std::size_t p = slot_of(t - t0);
                    line[p] = line[p + ring_len] = column[t - r - a.fold.start];
                }
            }
        }

        std::fill(window_active.begin(), window_active.end(), 0);
        for (std::int64_t r = 0; r < S; ++r) {
            const std::size_t ru = static_cast<std::size_t>(r);
            for (std::int64_t j = 0; j < B; ++j) {
                const std::int64_t t = t0 + j;
                const std::size_t q = ring_len - 1 - static_cast<std::size_t>(t) % ring_len;
                float* out = &cur_hist[static_cast<std::size_t>(j) * s];
                // The row above, one cycle earlier.
                const float* above =
                    r == 0 ? nullptr
                           : (j == 0 ? prev_old.data() : &prev_hist[static_cast<std::size_t>(j - 1) * s]);
                const float* act = &ring[ru * 2 * ring_len + q];
                for (const ActiveFold& a : slots) {
                    std::int64_t lo = 0, hi = 0;
                    if (!columns(a.fold, t, r, lo, hi)) continue;
                    mac_row(out, above, act, &a.weights[ru * s], static_cast<std::size_t>(lo),
                            static_cast<std::size_t>(hi));
                    if (record_activity && r < a.fold.rows) {
                        // Cells past the fold's used columns only multiply padding.
                        const std::int64_t used = std::min(hi, a.fold.cols - 1) - lo + 1;
                        window_active[static_cast<std::size_t>(j)] +=
                            static_cast<std::int32_t>(std::max<std::int64_t>(used, 0));
                    }
                }
            }
            // Keep this row's sums at the last cycle; hand its window down.
            std::copy(state.begin() + static_cast<std::ptrdiff_t>(ru * s),
                      state.begin() + static_cast<std::ptrdiff_t>((ru + 1) * s), old_row.begin());
            std::copy(cur_hist.begin() + static_cast<std::ptrdiff_t>((b - 1) * s), cur_hist.end(),
                      state.begin() + static_cast<std::ptrdiff_t>(ru * s));
            std::swap(prev_old, old_row);
            std::swap(prev_hist, cur_hist);
        }
        if (record_activity)
            run.active_cells.insert(run.active_cells.end(), window_active.begin(),
                                    window_active.end());

        // Finished sums leave the bottom row into the accumulators.
        for (std::int64_t j = 0; j < B; ++j) {
            const std::int64_t t = t0 + j;
            const float* bottom = &prev_hist[static_cast<std::size_t>(j) * s];
            for (const ActiveFold& a : slots) {
                std::int64_t lo = 0, hi = 0;
                if (!columns(a.fold, t, S - 1, lo, hi)) continue;
                hi = std::min(hi, a.fold.cols - 1);
                for (std::int64_t c = lo; c <= hi; ++c) {
                    const std::int64_t row_m = t - (S - 1) - c - a.fold.start;
                    run.output[static_cast<std::size_t>(row_m * n + a.fold.n0 + c)] +=
                        bottom[static_cast<std::size_t>(c)];
                }
                if (t == a.done) {
                    last_output = t;
                    if (mode == MxuMode::no_overlap && a.index + 1 < folds.size())
                        folds[a.index + 1].start = t + 1 + S;  // load, then stream
                }
            }
        }
        slots.erase(std::remove_if(slots.begin(), slots.end(),
                                   [&](const ActiveFold& a) { return a.done < t_end; }),
                    slots.end());
    }

    run.cycles = last_output + 1;
    if (record_activity) run.active_cells.resize(static_cast<std::size_t>(run.cycles));
    run.exposed_load_cycles = mxu_cycles(m, k, n, array, mode).exposed_load_cycles;
    run.utilization = static_cast<double>(run.macs) /
                      (static_cast<double>(S) * static_cast<double>(S) *
                       static_cast<double>(run.cycles));
    run.provenance = detail::mxu_provenance(m, k, n, array, mode);
    run.provenance.model += " (stepped cycle by cycle)";
    return run;
}

}  // namespace tpusim
