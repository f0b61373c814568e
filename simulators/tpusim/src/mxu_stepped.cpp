// The systolic array stepped one cycle at a time, with values.
//
// Each cell holds a weight, an activation register and a partial-sum
// register. Every cycle every cell passes its activation to the right and
// its partial sum, plus activation x weight, down. The activation registers
// of one array row form a delay line: the cell in column c holds what
// entered the row c cycles ago. We keep that delay line as a small ring per
// row (stored twice over so any window of it is contiguous), and update the
// partial sums bottom row first so each row reads the row above as it was
// last cycle. Only cells that hold a real row of the left operand are
// updated: the rest hold nothing that can reach an output.
#include <algorithm>
#include <array>
#include <string>

#include "mxu_detail.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

struct ActiveFold {
    std::size_t index = 0;
    detail::Fold fold;
    std::vector<float> weights;  // S x S, zero outside the fold's rows and columns
};

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
    std::vector<detail::Fold> folds = detail::plan_folds(k, n, array);
    // Overlapped mode: the next fold may start max(M, S) cycles after the
    // last (its rows have entered, its weights have loaded). Without overlap
    // a fold starts S load cycles after the previous one's last sum leaves.
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

    std::vector<float> psum(s * s, 0.0f);
    std::vector<float> ring(s * 2 * s, 0.0f);  // per row: the delay line, twice over
    std::array<ActiveFold, 4> slots;           // at most three folds are ever in flight
    std::array<bool, 4> live{};
    std::size_t next_fold = 0;                 // first fold not yet given a slot
    std::int64_t last_output = -1;

    auto fold_columns = [&](const detail::Fold& f, std::int64_t t, std::int64_t r,
                            std::int64_t& lo, std::int64_t& hi) {
        // Cells (r, c) holding tokens e = t - r - c with start <= e < start + M.
        lo = std::max<std::int64_t>(0, t - r - (f.start + m - 1));
        hi = std::min<std::int64_t>(S - 1, t - r - f.start);
        return lo <= hi;
    };

    for (std::int64_t t = 0;; ++t) {
        // Admit folds whose first row enters this cycle.
        while (next_fold < folds.size() && folds[next_fold].start >= 0 &&
               folds[next_fold].start <= t) {
            const std::size_t slot = next_fold % slots.size();
            ActiveFold& a = slots[slot];
            a.index = next_fold;
            a.fold = folds[next_fold];
            a.weights.assign(s * s, 0.0f);
            for (std::int64_t r = 0; r < a.fold.rows; ++r)
                for (std::int64_t c = 0; c < a.fold.cols; ++c)
                    a.weights[static_cast<std::size_t>(r) * s + static_cast<std::size_t>(c)] =
                        w[static_cast<std::size_t>((a.fold.k0 + r) * n + a.fold.n0 + c)];
            live[slot] = true;
            ++next_fold;
        }
        bool any_live = false;
        for (bool l : live) any_live = any_live || l;
        if (!any_live && next_fold >= folds.size()) break;

        // Feed each row's delay line with what enters it this cycle.
        const std::size_t q = s - 1 - static_cast<std::size_t>(t % S);
        for (std::int64_t r = 0; r < S; ++r) {
            float v = 0.0f;
            for (std::size_t i = 0; i < slots.size(); ++i) {
                if (!live[i]) continue;
                const detail::Fold& f = slots[i].fold;
                const std::int64_t e = t - r - f.start;
                if (e >= 0 && e < m && r < f.rows)
                    v = x[static_cast<std::size_t>(e * k + f.k0 + r)];
            }
            float* line = &ring[static_cast<std::size_t>(r) * 2 * s];
            line[q] = v;
            line[q + s] = v;
        }

        // Partial sums move down one row, picking up activation x weight.
        std::int32_t active = 0;
        for (std::int64_t r = S - 1; r >= 0; --r) {
            float* row = &psum[static_cast<std::size_t>(r) * s];
            const float* above = r > 0 ? &psum[static_cast<std::size_t>(r - 1) * s] : nullptr;
            const float* act = &ring[static_cast<std::size_t>(r) * 2 * s + q];
            for (std::size_t i = 0; i < slots.size(); ++i) {
                if (!live[i]) continue;
                std::int64_t lo = 0, hi = 0;
                if (!fold_columns(slots[i].fold, t, r, lo, hi)) continue;
                const float* wt = &slots[i].weights[static_cast<std::size_t>(r) * s];
                const std::size_t a = static_cast<std::size_t>(lo), b = static_cast<std::size_t>(hi);
                if (above)
                    for (std::size_t c = a; c <= b; ++c) row[c] = above[c] + act[c] * wt[c];
                else
                    for (std::size_t c = a; c <= b; ++c) row[c] = act[c] * wt[c];
                if (record_activity && r < slots[i].fold.rows) {
                    // Cells past the fold's used columns only multiply padding.
                    const std::int64_t used = std::min(hi, slots[i].fold.cols - 1) - lo + 1;
                    active += static_cast<std::int32_t>(std::max<std::int64_t>(used, 0));
                }
            }
        }
        if (record_activity) run.active_cells.push_back(active);

        // Finished sums leave the bottom row into the accumulators.
        const float* bottom = &psum[(s - 1) * s];
        for (std::size_t i = 0; i < slots.size(); ++i) {
            if (!live[i]) continue;
            const detail::Fold& f = slots[i].fold;
            std::int64_t lo = 0, hi = 0;
            if (fold_columns(f, t, S - 1, lo, hi)) {
                hi = std::min(hi, f.cols - 1);
                for (std::int64_t c = lo; c <= hi; ++c) {
                    const std::int64_t row_m = t - (S - 1) - c - f.start;
                    run.output[static_cast<std::size_t>(row_m * n + f.n0 + c)] +=
                        bottom[static_cast<std::size_t>(c)];
                }
            }
            // The fold's last useful sum: row M-1 in its last used column.
            if (t == f.start + m - 1 + (S - 1) + (f.cols - 1)) {
                live[i] = false;
                last_output = t;
                const std::size_t after = slots[i].index + 1;
                if (mode == MxuMode::no_overlap && after < folds.size())
                    folds[after].start = t + 1 + S;  // load the next weights, then stream
            }
        }
    }

    run.cycles = last_output + 1;
    run.exposed_load_cycles = mxu_cycles(m, k, n, array, mode).exposed_load_cycles;
    run.utilization = static_cast<double>(run.macs) /
                      (static_cast<double>(S) * static_cast<double>(S) *
                       static_cast<double>(run.cycles));
    run.provenance = detail::mxu_provenance(m, k, n, array, mode);
    run.provenance.model += " (stepped cycle by cycle)";
    return run;
}

}  // namespace tpusim
