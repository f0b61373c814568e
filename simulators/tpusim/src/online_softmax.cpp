#include "tpusim/online_softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "tpusim/attention.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

constexpr double minus_infinity = -std::numeric_limits<double>::infinity();

std::size_t idx(std::int64_t i) {
    return static_cast<std::size_t>(i);
}

void check(const OnlineSoftmaxProblem& p) {
    if (p.seq_q < 1 || p.seq_kv < 1 || p.head_dim < 1 || p.block_q < 1 || p.block_k < 1)
        throw InputError("sequence lengths, head dimension and blocks must be at least 1");
    if (p.seq_q % p.block_q != 0)
        throw InputError("block_q " + std::to_string(p.block_q) + " does not divide the query length " +
                         std::to_string(p.seq_q));
    if (p.seq_kv % p.block_k != 0)
        throw InputError("block_k " + std::to_string(p.block_k) + " does not divide the key length " +
                         std::to_string(p.seq_kv));
    if (p.q.size() != idx(p.seq_q * p.head_dim) || p.k.size() != idx(p.seq_kv * p.head_dim) ||
        p.v.size() != idx(p.seq_kv * p.head_dim))
        throw InputError("Q must hold seq_q × head_dim values and K and V seq_kv × head_dim");
    if (!std::isfinite(p.scale) || p.scale < 0)
        throw InputError("the score scale must be a finite number above 0 (or 0 for 1/sqrt(d))");
}

double effective_scale(const OnlineSoftmaxProblem& p) {
    return p.scale > 0 ? p.scale : 1.0 / std::sqrt(static_cast<double>(p.head_dim));
}

// Keys row `row` may see within [c0, c0 + width).
std::int64_t visible_keys(bool causal, std::int64_t row, std::int64_t c0, std::int64_t width) {
    if (!causal) return width;
    return std::clamp<std::int64_t>(row - c0 + 1, 0, width);
}

// The hot loops, four rows at a time so each load of K or V feeds four
// rows; the innermost loops run over contiguous memory and vectorize. On
// x86-64 Linux the compiler also builds an AVX2/FMA copy, picked at load
// time when the processor has it (about three times faster).
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
#define TPUSIM_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define TPUSIM_VECTOR_CLONES
#endif

// c (rows x cols) += a (rows x inner) times b (inner rows, stride ldb, cols
// wide), four rows of c at a time so each b row is loaded once per four.
// Both products of a tile are this: S = Q K^T (K stored transposed) and
// acc += P V.
TPUSIM_VECTOR_CLONES void multiply_add(const double* __restrict a, std::int64_t inner, const double* __restrict b,
                                       std::int64_t ldb, std::int64_t rows, std::int64_t cols, double* __restrict c) {
    std::int64_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        double* __restrict c0 = c + r * cols;
        double* __restrict c1 = c0 + cols;
        double* __restrict c2 = c1 + cols;
        double* __restrict c3 = c2 + cols;
        for (std::int64_t x = 0; x < inner; ++x) {
            const double a0 = a[r * inner + x], a1 = a[(r + 1) * inner + x], a2 = a[(r + 2) * inner + x],
                         a3 = a[(r + 3) * inner + x];
            const double* __restrict brow = b + x * ldb;
            for (std::int64_t j = 0; j < cols; ++j) {
                const double bv = brow[j];
                c0[j] += a0 * bv;
                c1[j] += a1 * bv;
                c2[j] += a2 * bv;
                c3[j] += a3 * bv;
            }
        }
    }
    for (; r < rows; ++r) {
        double* __restrict c0 = c + r * cols;
        for (std::int64_t x = 0; x < inner; ++x) {
            const double a0 = a[r * inner + x];
            const double* __restrict brow = b + x * ldb;
            for (std::int64_t j = 0; j < cols; ++j) c0[j] += a0 * brow[j];
        }
    }
}

}  // namespace

OnlineSoftmaxProblem random_attention_problem(std::int64_t seq_q, std::int64_t seq_kv, std::int64_t head_dim,
                                              std::int64_t block_q, std::int64_t block_k, bool causal,
                                              std::uint64_t seed) {
    OnlineSoftmaxProblem p;
    p.seq_q = seq_q;
    p.seq_kv = seq_kv;
    p.head_dim = head_dim;
    p.block_q = block_q;
    p.block_k = block_k;
    p.causal = causal;
    if (seq_q < 1 || seq_kv < 1 || head_dim < 1)
        throw InputError("sequence lengths and head dimension must be at least 1");
    std::uint64_t state = seed;
    auto next = [&state] {  // splitmix64
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
    };
    for (auto* array : {&p.q, &p.k, &p.v}) {
        const std::int64_t rows = array == &p.q ? seq_q : seq_kv;
        array->resize(idx(rows * head_dim));
        for (double& x : *array) x = next();
    }
    return p;
}

OnlineSoftmaxStepper::OnlineSoftmaxStepper(OnlineSoftmaxProblem problem) : p_(std::move(problem)) {
    check(p_);
    kv_blocks_ = p_.seq_kv / p_.block_k;
    kt_.resize(p_.k.size());
    for (std::int64_t key = 0; key < p_.seq_kv; ++key)
        for (std::int64_t c = 0; c < p_.head_dim; ++c) kt_[idx(c * p_.seq_kv + key)] = p_.k[idx(key * p_.head_dim + c)];
    tile_.assign(idx(p_.block_q * p_.block_k), 0.0);
    reset();
}

void OnlineSoftmaxStepper::reset() {
    done_ = 0;
    m_.assign(idx(p_.seq_q), minus_infinity);
    l_.assign(idx(p_.seq_q), 0.0);
    acc_.assign(idx(p_.seq_q * p_.head_dim), 0.0);
    alpha_.assign(idx(p_.seq_q), 1.0);
    std::fill(tile_.begin(), tile_.end(), 0.0);
    tile_qi_ = tile_kj_ = -1;
    tiles_computed_ = tiles_skipped_ = 0;
}

void OnlineSoftmaxStepper::fold_tile(std::int64_t qi, std::int64_t kj) {
    const std::int64_t d = p_.head_dim, bq = p_.block_q, bk = p_.block_k;
    const std::int64_t r0 = qi * bq, c0 = kj * bk;
    const double scale = effective_scale(p_);
    double* tile = tile_.data();
    std::fill(tile, tile + bq * bk, 0.0);  // S = Q K^T for this tile
    multiply_add(p_.q.data() + r0 * d, d, kt_.data() + c0, p_.seq_kv, bq, bk, tile);
    for (std::int64_t lr = 0; lr < bq; ++lr) {
        const std::int64_t row = r0 + lr;
        double* s = tile + lr * bk;
        const std::int64_t visible = visible_keys(p_.causal, row, c0, bk);
        std::fill(s + visible, s + bk, 0.0);  // masked keys weigh nothing
        if (visible == 0) {
            alpha_[idx(row)] = 1.0;
            continue;
        }
        double block_max = minus_infinity;
        for (std::int64_t j = 0; j < visible; ++j) {
            s[j] *= scale;
            block_max = std::max(block_max, s[j]);
        }
        const double m_old = m_[idx(row)];
        const double m_new = std::max(m_old, block_max);
        const double alpha = m_old == minus_infinity ? 0.0 : std::exp(m_old - m_new);
        double row_sum = 0;
        for (std::int64_t j = 0; j < visible; ++j) {
            s[j] = std::exp(s[j] - m_new);
            row_sum += s[j];
        }
        m_[idx(row)] = m_new;
        alpha_[idx(row)] = alpha;
        l_[idx(row)] = alpha * l_[idx(row)] + row_sum;
        double* acc = acc_.data() + row * d;
        for (std::int64_t c = 0; c < d; ++c) acc[c] *= alpha;
    }
    multiply_add(tile, bk, p_.v.data() + c0 * d, d, bq, d, acc_.data() + r0 * d);  // acc += P V
    tile_qi_ = qi;
    tile_kj_ = kj;
    ++tiles_computed_;
}

bool OnlineSoftmaxStepper::step() {
    if (finished()) return false;
    const std::int64_t kj = done_;
    for (std::int64_t qi = 0; qi < p_.seq_q / p_.block_q; ++qi) {
        if (p_.causal && !tile_visible(qi, kj, p_.block_q, p_.block_k)) {
            // Above the diagonal: nothing to fold, the state carries over.
            std::fill(alpha_.begin() + qi * p_.block_q, alpha_.begin() + (qi + 1) * p_.block_q, 1.0);
            ++tiles_skipped_;
            continue;
        }
        fold_tile(qi, kj);
    }
    ++done_;
    return true;
}

void OnlineSoftmaxStepper::run() {
    while (step()) {
    }
}

std::vector<double> OnlineSoftmaxStepper::output() const {
    std::vector<double> out(acc_.size(), 0.0);
    const std::int64_t d = p_.head_dim;
    for (std::int64_t row = 0; row < p_.seq_q; ++row) {
        const double l = l_[idx(row)];
        if (l == 0) continue;
        for (std::int64_t c = 0; c < d; ++c) out[idx(row * d + c)] = acc_[idx(row * d + c)] / l;
    }
    return out;
}

std::vector<double> attention_reference(const OnlineSoftmaxProblem& p) {
    check(p);
    const double scale = effective_scale(p);
    const std::int64_t d = p.head_dim;
    std::vector<double> out(idx(p.seq_q * d), 0.0);
    std::vector<double> scores(idx(p.seq_kv));
    for (std::int64_t row = 0; row < p.seq_q; ++row) {
        const std::int64_t visible = visible_keys(p.causal, row, 0, p.seq_kv);
        double mx = minus_infinity;
        for (std::int64_t key = 0; key < visible; ++key) {
            double dot = 0;
            for (std::int64_t c = 0; c < d; ++c) dot += p.q[idx(row * d + c)] * p.k[idx(key * d + c)];
            scores[idx(key)] = scale * dot;
            mx = std::max(mx, scores[idx(key)]);
        }
        double sum = 0;
        for (std::int64_t key = 0; key < visible; ++key) {
            scores[idx(key)] = std::exp(scores[idx(key)] - mx);
            sum += scores[idx(key)];
        }
        for (std::int64_t key = 0; key < visible; ++key)
            for (std::int64_t c = 0; c < d; ++c)
                out[idx(row * d + c)] += scores[idx(key)] / sum * p.v[idx(key * d + c)];
    }
    return out;
}

}  // namespace tpusim
