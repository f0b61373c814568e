// The off-chip verification: run a blocked matmul schedule with real
// arithmetic on the host, buffer by buffer as the pipeline would, and
// compare with a reference.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "tpusim/blockspec.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

// Round a float to `mantissa` explicit bits, to nearest even (bf16 is 7).
float round_mantissa(float f, int mantissa) {
    if (mantissa >= 23 || !std::isfinite(f)) return f;
    std::uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    const int drop = 23 - mantissa;
    const std::uint32_t half = (1u << (drop - 1)) - 1 + ((u >> drop) & 1u);
    u = (u + half) & ~((1u << drop) - 1);
    std::memcpy(&f, &u, sizeof f);
    return f;
}

int mantissa_bits(DType d) {
    switch (d) {
        case DType::f32:
            return 23;
        case DType::bf16:
            return 7;
        case DType::f16:
            return 10;
        case DType::fp8:
            return 3;  // e4m3
        default:
            return 23;  // integers: values are small whole numbers, exact
    }
}

// A small deterministic generator (splitmix64), so a run is reproducible.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [-1, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0; }
};

std::string tuple2(std::int64_t a, std::int64_t b) {
    return "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

}  // namespace

MatmulSchedule matmul_schedule(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t bm, std::int64_t bk,
                               std::int64_t bn, DType dtype, const std::string& order) {
    const std::int64_t sizes[][2] = {{m, bm}, {k, bk}, {n, bn}};
    const char* names[] = {"M", "K", "N"};
    const char* bnames[] = {"bm", "bk", "bn"};
    for (int i = 0; i < 3; ++i) {
        if (sizes[i][0] < 1 || sizes[i][1] < 1)
            throw InputError(std::string(names[i]) + " and " + bnames[i] + " must be positive integers");
        if (sizes[i][0] % sizes[i][1] != 0)
            throw InputError(std::string(bnames[i]) + "=" + std::to_string(sizes[i][1]) + " does not divide " +
                             names[i] + "=" + std::to_string(sizes[i][0]));
    }
    if (static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n) > 16777216.0)
        throw InputError("M*K*N is too large for a quick host run: keep it at most 2^24 (256^3)");
    if (order.size() != 3 || order.find('i') == std::string::npos || order.find('j') == std::string::npos ||
        order.find('k') == std::string::npos)
        throw InputError("the grid order must be a permutation of ijk (got '" + order + "')");
    const int pi = static_cast<int>(order.find('i'));
    const int pj = static_cast<int>(order.find('j'));
    const int pk = static_cast<int>(order.find('k'));
    MatmulSchedule s;
    s.m = m;
    s.k = k;
    s.n = n;
    s.bm = bm;
    s.bk = bk;
    s.bn = bn;
    s.dtype = dtype;
    s.order = order;
    s.grid.assign(3, 0);
    s.semantics.assign(3, Semantics::parallel);
    s.grid[static_cast<std::size_t>(pi)] = m / bm;
    s.grid[static_cast<std::size_t>(pj)] = n / bn;
    s.grid[static_cast<std::size_t>(pk)] = k / bk;
    s.semantics[static_cast<std::size_t>(pk)] = Semantics::arbitrary;
    s.x_map = IndexMap::select({pi, pk}, 3);
    s.y_map = IndexMap::select({pk, pj}, 3);
    s.out_map = IndexMap::select({pi, pj}, 3);
    s.reduction_axis = pk;
    return s;
}

Verification verify_matmul(const MatmulSchedule& s, std::uint64_t seed) {
    // Re-check what the schedule itself cannot promise.
    (void)matmul_schedule(s.m, s.k, s.n, s.bm, s.bk, s.bn, s.dtype, "ijk");
    const std::size_t grid_rank = s.grid.size();
    if (s.reduction_axis < 0 || static_cast<std::size_t>(s.reduction_axis) >= grid_rank)
        throw InputError("the reduction axis must be one of the grid's axes");

    Verification v;
    v.provenance.kind = Kind::verified_off_chip;
    v.provenance.chip = "host CPU (no TPU)";
    v.provenance.dtype = std::string(name(s.dtype)) + " in, f32 acc, " + std::string(name(s.dtype)) + " out";
    v.provenance.shapes = "M=" + std::to_string(s.m) + " K=" + std::to_string(s.k) + " N=" + std::to_string(s.n) +
                          ", blocks " + std::to_string(s.bm) + "x" + std::to_string(s.bk) + "x" + std::to_string(s.bn) +
                          ", grid order " + s.order;
    v.provenance.model =
        "host run of the schedule, buffer by buffer, against a float64 "
        "reference matmul";
    v.provenance.assumptions = {
        "Checks correctness only, never speed.",
        "Inputs are rounded to the dtype, products accumulate in f32, and the output is rounded "
        "back like the kernel's final cast.",
        "A fresh output buffer holds NaN, as in interpret mode; on a chip it holds whatever was "
        "there."};

    BlockSpec out_spec{"out", {s.m, s.n}, {s.bm, s.bn}, s.out_map, s.dtype, 2};
    v.coverage = check_coverage(s.grid, s.semantics, out_spec);

    const int mant = mantissa_bits(s.dtype);
    const bool integer = is_integer(s.dtype);
    Random rng{seed};
    auto draw = [&]() -> float {
        if (integer) return static_cast<float>(static_cast<int>(rng.next() % 9) - 4);
        return round_mantissa(static_cast<float>(rng.uniform()), mant);
    };
    const std::size_t M = static_cast<std::size_t>(s.m), K = static_cast<std::size_t>(s.k),
                      N = static_cast<std::size_t>(s.n);
    const std::size_t bm = static_cast<std::size_t>(s.bm), bk = static_cast<std::size_t>(s.bk),
                      bn = static_cast<std::size_t>(s.bn);
    std::vector<float> X(M * K), Y(K * N);
    for (float& x : X) x = draw();
    for (float& y : Y) y = draw();
    const float garbage = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> O(M * N, garbage);

    std::vector<float> xb(bm * bk), yb(bk * bn), ob(bm * bn, garbage), acc(bm * bn, 0.0f);
    std::vector<std::int64_t> g(grid_rank, 0), xi, yi, oi, prev_x, prev_y, prev_o;
    const std::int64_t mb = s.m / s.bm, kb = s.k / s.bk, nb = s.n / s.bn;
    auto in_range = [](const std::vector<std::int64_t>& idx, std::int64_t r, std::int64_t c) {
        return idx.size() == 2 && idx[0] >= 0 && idx[0] < r && idx[1] >= 0 && idx[1] < c;
    };
    auto write_back = [&](const std::vector<std::int64_t>& at) {
        for (std::size_t r = 0; r < bm; ++r)
            for (std::size_t c = 0; c < bn; ++c)
                O[(static_cast<std::size_t>(at[0]) * bm + r) * N + static_cast<std::size_t>(at[1]) * bn + c] =
                    ob[r * bn + c];
    };
    const std::int64_t last_k = s.grid[static_cast<std::size_t>(s.reduction_axis)] - 1;
    for (std::int64_t step = 0;; ++step) {
        xi = s.x_map.apply(g);
        yi = s.y_map.apply(g);
        oi = s.out_map.apply(g);
        if (!in_range(xi, mb, kb) || !in_range(yi, kb, nb) || !in_range(oi, mb, nb)) {
            v.passed = false;
            v.steps = step;
            v.reason = "an index map points outside its array at grid step " + std::to_string(step);
            return v;
        }
        if (step == 0 || xi != prev_x)
            for (std::size_t r = 0; r < bm; ++r)
                std::memcpy(&xb[r * bk],
                            &X[(static_cast<std::size_t>(xi[0]) * bm + r) * K + static_cast<std::size_t>(xi[1]) * bk],
                            bk * sizeof(float));
        if (step == 0 || yi != prev_y)
            for (std::size_t r = 0; r < bk; ++r)
                std::memcpy(&yb[r * bn],
                            &Y[(static_cast<std::size_t>(yi[0]) * bk + r) * N + static_cast<std::size_t>(yi[1]) * bn],
                            bn * sizeof(float));
        if (step > 0 && oi != prev_o) {  // the finished block goes back; the new one is garbage
            write_back(prev_o);
            std::fill(ob.begin(), ob.end(), garbage);
        }
        // The kernel body, as in the docs.
        const std::int64_t pid = g[static_cast<std::size_t>(s.reduction_axis)];
        if (pid == 0) std::fill(acc.begin(), acc.end(), 0.0f);
        for (std::size_t r = 0; r < bm; ++r)
            for (std::size_t t = 0; t < bk; ++t) {
                const float a = xb[r * bk + t];
                for (std::size_t c = 0; c < bn; ++c) acc[r * bn + c] += a * yb[t * bn + c];
            }
        if (pid == last_k)
            for (std::size_t i = 0; i < ob.size(); ++i) ob[i] = round_mantissa(acc[i], mant);
        prev_x = xi;
        prev_y = yi;
        prev_o = oi;

        bool done = true;
        for (std::size_t a = grid_rank; a-- > 0;) {
            if (++g[a] < s.grid[a]) {
                done = false;
                break;
            }
            g[a] = 0;
        }
        if (done) {
            v.steps = step + 1;
            break;
        }
    }
    write_back(prev_o);

    // Compare with the reference, element by element.
    const double eps_out = integer ? 0 : std::ldexp(1.0, -(mant + 1));
    v.tolerance = eps_out + static_cast<double>(K) * 0x1.0p-24;
    v.elements = static_cast<std::int64_t>(M * N);
    std::int64_t first_r = -1, first_c = -1;
    double got_first = 0, want_first = 0;
    for (std::size_t r = 0; r < M; ++r)
        for (std::size_t c = 0; c < N; ++c) {
            double want = 0, scale = 0;
            for (std::size_t t = 0; t < K; ++t) {
                const double p = static_cast<double>(X[r * K + t]) * Y[t * N + c];
                want += p;
                scale += std::fabs(p);
            }
            const double got = O[r * N + c];
            const double err = std::fabs(got - want);
            const bool bad = !std::isfinite(got) || err > v.tolerance * scale + 1e-30;
            if (std::isfinite(err) && err > v.max_abs_error) v.max_abs_error = err;
            if (!bad) continue;
            if (v.mismatches++ == 0) {
                first_r = static_cast<std::int64_t>(r);
                first_c = static_cast<std::int64_t>(c);
                got_first = got;
                want_first = want;
            }
        }
    v.passed = v.mismatches == 0;
    if (v.passed) {
        v.reason = "all " + std::to_string(v.elements) + " outputs match the reference matmul within rounding";
    } else {
        v.reason = std::to_string(v.mismatches) + " of " + std::to_string(v.elements) +
                   " outputs differ from the reference, the first at " + tuple2(first_r, first_c) + ": got " +
                   (std::isfinite(got_first) ? std::to_string(got_first) : std::string("garbage")) + ", expected " +
                   std::to_string(want_first);
        if (!v.coverage.problems.empty()) v.reason += "; " + v.coverage.problems.front();
    }
    return v;
}

}  // namespace tpusim
