#include "tpusim/attention.h"

#include <algorithm>
#include <cmath>

#include "tpusim/error.h"
#include "tpusim/roofline.h"

namespace tpusim {

namespace {

void check_spec(const AttentionSpec& s) {
    const std::pair<const char*, std::int64_t> sizes[] = {{"batch", s.batch},
                                                          {"heads", s.heads},
                                                          {"query length", s.seq_q},
                                                          {"key length", s.seq_kv},
                                                          {"head dimension", s.head_dim},
                                                          {"block_q", s.block_q},
                                                          {"block_k", s.block_k}};
    for (const auto& [what, v] : sizes)
        if (v < 1) throw InputError(std::string("the ") + what + " must be at least 1");
    if (s.seq_q % s.block_q != 0)
        throw InputError("block_q " + std::to_string(s.block_q) + " does not divide the query length " +
                         std::to_string(s.seq_q));
    if (s.seq_kv % s.block_k != 0)
        throw InputError("block_k " + std::to_string(s.block_k) + " does not divide the key length " +
                         std::to_string(s.seq_kv));
    if (s.kv_heads < 0 || (s.kv_heads > 0 && s.heads % s.kv_heads != 0))
        throw InputError("kv_heads " + std::to_string(s.kv_heads) + " does not divide the " + std::to_string(s.heads) +
                         " query heads");
    if (s.window < 0) throw InputError("a window must be at least 1 key (or 0 for none)");
    if (s.window > 0 && !s.causal)
        throw InputError("a local window counts back from each query's own position: ask for the causal mask too");
    if (s.documents < 1) throw InputError("the number of packed documents must be at least 1");
    if ((s.window > 0 || s.documents > 1) && s.seq_q != s.seq_kv)
        throw InputError(
            "windows and packed documents are masks of self-attention: the query and key lengths must match");
    if (s.seq_q % s.documents != 0)
        throw InputError(std::to_string(s.documents) + " documents do not divide the sequence of " +
                         std::to_string(s.seq_q));
}

// Query/key pairs one query row of position q sees.
double visible_keys(const AttentionSpec& s, double q) {
    const double skv = static_cast<double>(s.seq_kv);
    const double doc = static_cast<double>(s.seq_q / s.documents);
    const double start = s.documents > 1 ? std::floor(q / doc) * doc : 0;  // its document's first key
    double keys = s.causal ? q - start + 1 : (s.documents > 1 ? doc : skv);
    if (s.window > 0) keys = std::min(keys, static_cast<double>(s.window));
    return keys;
}

std::string shapes_text(const AttentionSpec& s) {
    std::string t = "B=" + std::to_string(s.batch) + " H=" + std::to_string(s.heads);
    if (s.kv_heads > 0 && s.kv_heads != s.heads) t += " KV heads=" + std::to_string(s.kv_heads);
    t += " Sq=" + std::to_string(s.seq_q) + " Skv=" + std::to_string(s.seq_kv) + " D=" + std::to_string(s.head_dim) +
         " block_q=" + std::to_string(s.block_q) + " block_k=" + std::to_string(s.block_k) +
         (s.causal ? " causal" : "");
    if (s.bias) t += " bias";
    if (s.window > 0) t += " window=" + std::to_string(s.window);
    if (s.documents > 1) t += " documents=" + std::to_string(s.documents);
    if (s.pass == AttentionPass::backward) t += ", backward";
    if (s.pass == AttentionPass::forward_backward) t += ", forward and backward";
    return t;
}

// The chip's rates, read once: the MXU's for the dtype, the VPU's, HBM's.
struct Rates {
    double mxu = 0, vpu = 0, hbm = 0;
    double pad = 1;  // the MXU works in 128-wide tiles: a head dim of 64 pays for 128
    double mxu_fraction = 1, hbm_fraction = 1, flash_fraction = 1, step_s = 0;
};

Rates rates_of(const Chip& chip, const AttentionSpec& s) {
    Rates r;
    r.mxu = peak_flops(chip, s.dtype).value;
    r.vpu = chip.vpu_flops_per_core.value * chip.tensorcores.value;
    r.hbm = chip.hbm_bandwidth.value;
    r.pad = std::ceil(static_cast<double>(s.head_dim) / 128.0) * 128.0 / static_cast<double>(s.head_dim);
    const auto fraction = [](const Fact& f) { return f.value > 0 ? f.value : 1.0; };
    r.mxu_fraction = fraction(chip.mxu_attainable);
    r.hbm_fraction = fraction(chip.hbm_attainable);
    r.flash_fraction = fraction(chip.flash_attainable);
    r.step_s = chip.flash_step.value > 0 ? chip.flash_step.value : chip.grid_step_overhead.value;
    return r;
}

AttentionKernel kernel(std::string name, double mxu_flops, double vpu_flops, double bytes, const Rates& r) {
    return {std::move(name), mxu_flops * r.pad / r.mxu, vpu_flops / r.vpu, bytes / r.hbm, 0};
}

// Totals, the peak time and the predicted time of a form from its kernels.
void finish(AttentionForm& f, const Rates& r, bool flash) {
    f.mxu_s = f.vpu_s = f.memory_s = f.peak_s = f.time_s = 0;
    f.grid_steps = 0;
    f.stages.clear();
    double by_mxu = 0, by_vpu = 0, by_hbm = 0, by_steps = 0;
    for (const AttentionKernel& k : f.kernels) {
        f.mxu_s += k.mxu_s;
        f.vpu_s += k.vpu_s;
        f.memory_s += k.memory_s;
        f.grid_steps += k.steps;
        double t = 0;
        if (flash) {
            f.peak_s += std::max(k.mxu_s + k.vpu_s, k.memory_s);
            t = flash_kernel_time(k.mxu_s + k.vpu_s, k.memory_s, k.steps, r.flash_fraction, r.hbm_fraction, r.step_s);
            const double compute = (k.mxu_s + k.vpu_s) / r.flash_fraction, memory = k.memory_s / r.hbm_fraction;
            (t == memory ? by_hbm : t == compute ? (k.mxu_s >= k.vpu_s ? by_mxu : by_vpu) : by_steps) += t;
        } else {
            f.peak_s += std::max({k.mxu_s, k.vpu_s, k.memory_s});
            t = xla_op_time(k.mxu_s, k.vpu_s, k.memory_s, r.mxu_fraction, r.hbm_fraction);
            (t == k.memory_s / r.hbm_fraction ? by_hbm : t == k.mxu_s / r.mxu_fraction ? by_mxu : by_vpu) += t;
        }
        f.time_s += t;
        f.stages.push_back({k.name, t, "s"});
    }
    const double top = std::max({by_mxu, by_vpu, by_hbm, by_steps});
    f.bound = top == by_hbm ? "HBM" : top == by_mxu ? "MXU" : top == by_vpu ? "VPU" : "grid steps";
}

// XLA's ops, each writing its result to HBM for the next to read back.
// Forward: S = QK^T in the score dtype (plus the bias), P = softmax(S)
// cast back to the input dtype (the naive program casts P before the
// second contraction), O = PV. Backward, keeping P from the forward:
// dP = dO V^T in the score dtype, dS = P (dP - rowsum(dO O)) in the input
// dtype, then dQ = dS K, dK = dS^T Q and dV = P^T dO.
AttentionForm naive_form(const AttentionSpec& s, const Rates& r) {
    const double bh = static_cast<double>(s.batch * s.heads);
    const double bkv = static_cast<double>(s.batch * (s.kv_heads > 0 ? s.kv_heads : s.heads));
    const double b = bytes(s.dtype), sb = bytes(s.score_dtype);
    const double sq = static_cast<double>(s.seq_q), skv = static_cast<double>(s.seq_kv);
    const double d = static_cast<double>(s.head_dim);
    const double scores = bh * sq * skv;
    const double q = bh * sq * d * b, kv = bkv * skv * d * b;  // one query-sized or one K/V-sized array
    const double contraction = 2 * scores * d;
    const double bias = s.bias ? scores * b : 0;

    AttentionForm f;
    const bool forward = s.pass != AttentionPass::backward, backward = s.pass != AttentionPass::forward;
    if (forward) {
        f.bytes.insert(f.bytes.end(), {{"read Q", q, "B"},
                                       {"read K", kv, "B"},
                                       {"write S", scores * sb, "B"},
                                       {"read S", scores * sb, "B"},
                                       {"write P", scores * b, "B"},
                                       {"read P", scores * b, "B"},
                                       {"read V", kv, "B"},
                                       {"write O", q, "B"}});
        if (s.bias) f.bytes.push_back({"read bias", bias, "B"});
        f.kernels.push_back(kernel("S = QK^T kernel", contraction, 0, q + kv + bias + scores * sb, r));
        f.kernels.push_back(kernel("P = softmax(S) kernel", 0, scores * softmax_ops_per_score, scores * (sb + b), r));
        f.kernels.push_back(kernel("O = PV kernel", contraction, 0, scores * b + kv + q, r));
        f.mxu_flops += 2 * contraction;
        f.vpu_flops += scores * softmax_ops_per_score;
    }
    if (backward) {
        f.bytes.insert(f.bytes.end(), {{"write dP", scores * sb, "B"},
                                       {"read dP", scores * sb, "B"},
                                       {"read P (backward)", 2 * scores * b, "B"},
                                       {"write dS", scores * b, "B"},
                                       {"read dS", 2 * scores * b, "B"},
                                       {"read Q, K, V, O", 2 * q + 2 * kv, "B"},
                                       {"read dO", 3 * q, "B"},
                                       {"write dQ, dK, dV", q + 2 * kv, "B"}});
        f.kernels.push_back(kernel("dP = dO V^T kernel", contraction, 0, q + kv + scores * sb, r));
        f.kernels.push_back(kernel("dS = P (dP - rowsum(dO O)) kernel", 0, scores * 3 + 2 * bh * sq * d,
                                   scores * (b + sb + b) + 2 * q, r));
        f.kernels.push_back(kernel("dQ = dS K kernel", contraction, 0, scores * b + kv + q, r));
        f.kernels.push_back(kernel("dK = dS^T Q kernel", contraction, 0, scores * b + q + kv, r));
        f.kernels.push_back(kernel("dV = P^T dO kernel", contraction, 0, scores * b + q + kv, r));
        f.mxu_flops += 4 * contraction;
        f.vpu_flops += scores * 3 + 2 * bh * sq * d;
    }
    for (const Figure& fig : f.bytes) f.hbm_bytes += fig.value;
    finish(f, r, false);
    return f;
}

}  // namespace

bool tile_visible(std::int64_t qi, std::int64_t kj, std::int64_t block_q, std::int64_t block_k) {
    // The tile's last row sees keys up to (qi + 1) * block_q - 1.
    return kj * block_k <= (qi + 1) * block_q - 1;
}

std::pair<std::int64_t, std::int64_t> kv_block_range(const AttentionSpec& s, std::int64_t qi) {
    const std::int64_t kv_blocks = s.seq_kv / s.block_k;
    const std::int64_t row0 = qi * s.block_q, row1 = (qi + 1) * s.block_q - 1;  // the tile's first and last rows
    std::int64_t first_key = 0, last_key = s.seq_kv - 1;
    if (s.documents > 1) {
        const std::int64_t doc = s.seq_q / s.documents;
        first_key = row0 / doc * doc;           // the first row's document starts here
        last_key = (row1 / doc + 1) * doc - 1;  // the last row's document ends here
    }
    if (s.causal) last_key = std::min(last_key, row1);
    if (s.window > 0) first_key = std::max(first_key, row0 - s.window + 1);
    return {std::max<std::int64_t>(0, first_key) / s.block_k, std::min(kv_blocks - 1, last_key / s.block_k)};
}

AttentionResult attention(const Chip& chip, const AttentionSpec& s) {
    check_spec(s);
    AttentionResult r;
    r.q_blocks = s.seq_q / s.block_q;
    r.kv_blocks = s.seq_kv / s.block_k;
    r.tiles = r.q_blocks * r.kv_blocks;
    // K and V blocks are copied when their block index changes from the
    // previous grid step [JAX-PIPE]; skipped tiles point at a block already
    // in VMEM, so they copy nothing [FA-TPU], and a mask's empty tiles are
    // not visited at all [SPLASH-MASK].
    std::int64_t previous_last = -1;
    for (std::int64_t qi = 0; qi < r.q_blocks; ++qi) {
        const auto [first, last] = kv_block_range(s, qi);
        r.tiles_computed += last - first + 1;
        r.kv_block_fetches += last - first + 1 - (first == previous_last ? 1 : 0);
        previous_last = last;
    }
    r.tiles_skipped = r.tiles - r.tiles_computed;

    const double bh = static_cast<double>(s.batch * s.heads);
    const double b = bytes(s.dtype);
    const double sq = static_cast<double>(s.seq_q), skv = static_cast<double>(s.seq_kv);
    const double d = static_cast<double>(s.head_dim);
    const double bq = static_cast<double>(s.block_q), bk = static_cast<double>(s.block_k);
    double pairs = sq * skv;
    if (s.causal && s.window == 0 && s.documents == 1)
        pairs = s.seq_q <= s.seq_kv ? sq * (sq + 1) / 2 : skv * (skv + 1) / 2 + (sq - skv) * skv;
    else if (s.window > 0 || s.documents > 1) {
        pairs = 0;
        for (std::int64_t q = 0; q < s.seq_q; ++q) pairs += visible_keys(s, static_cast<double>(q));
    }
    r.useful_flops = bh * 4 * d * pairs;

    const Rates rates = rates_of(chip, s);
    r.naive = naive_form(s, rates);
    r.score_bytes = bh * sq * skv * bytes(s.score_dtype);

    // The flash kernel's grid walks (batch, head, query block, key block);
    // a query head's index map picks its group's K/V head, so with fewer
    // K/V heads the blocks are fetched as often: the copies follow the
    // query heads [FA-TPU].
    AttentionForm& f = r.flash;
    const double tiles = bh * static_cast<double>(r.tiles_computed);
    const std::int64_t steps = s.batch * s.heads * r.tiles_computed;
    const double forward_mxu = tiles * 4 * bq * bk * d;
    // Per tile: the softmax of bq x bk scores, then alpha * l, alpha * acc
    // and the new max per row; at the end one division per output element.
    const double forward_vpu = tiles * (bq * bk * softmax_ops_per_score + bq * (d + 3)) + bh * sq * d;
    const double kv_bytes = bh * static_cast<double>(r.kv_block_fetches) * bk * d * b;
    const double bias_bytes = s.bias ? tiles * bq * bk * b : 0;  // only the computed tiles' bias
    const double forward_bytes = 2 * bh * sq * d * b + 2 * kv_bytes + bias_bytes;
    const bool forward = s.pass != AttentionPass::backward, backward = s.pass != AttentionPass::forward;
    if (forward) {
        f.bytes = {{"read Q", bh * sq * d * b, "B"},
                   {"read K", kv_bytes, "B"},
                   {"read V", kv_bytes, "B"},
                   {"write O", bh * sq * d * b, "B"}};
        if (s.bias) f.bytes.push_back({"read bias", bias_bytes, "B"});
        AttentionKernel k = kernel("flash forward kernel", forward_mxu, forward_vpu, forward_bytes, rates);
        k.steps = steps;
        f.kernels.push_back(k);
        f.mxu_flops += forward_mxu;
        f.vpu_flops += forward_vpu;
    }
    if (backward) {
        // Two kernels, each recomputing the scores from Q, K and the saved
        // log-sum-exp: dK/dV (QK^T, dO V^T, P^T dO, dS^T Q) and dQ (QK^T,
        // dO V^T, dS K), seven matmuls against the forward's two [FA-TPU];
        // they read Q, K, V, O, dO (and the bias) and write dQ, dK, dV,
        // about twice the forward's traffic.
        f.bytes.push_back({"backward: read Q, K, V, O, dO; write dQ, dK, dV", 2 * forward_bytes, "B"});
        AttentionKernel k = kernel("flash backward kernels (dK/dV, dQ)", 3.5 * forward_mxu, 3.5 * forward_vpu,
                                   2 * forward_bytes, rates);
        k.steps = 2 * steps;
        f.kernels.push_back(k);
        f.mxu_flops += 3.5 * forward_mxu;
        f.vpu_flops += 3.5 * forward_vpu;
    }
    for (const Figure& fig : f.bytes) f.hbm_bytes += fig.value;
    finish(f, rates, true);
    r.speedup = r.naive.time_s / r.flash.time_s;

    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = std::string(name(s.dtype)) + " in and out, " + std::string(name(s.score_dtype)) +
              " scores in the naive form, f32 softmax state";
    p.shapes = shapes_text(s);
    p.model =
        "attention: naive = XLA's ops through HBM, each its own roofline at the attainable fractions; "
        "flash = Pallas kernels streaming K/V blocks over their grids [FA-TPU]";
    p.assumptions = {
        "Naive attention runs XLA's ops one after another (forward: QK^T, softmax, PV), each taking its slowest "
        "unit at the attainable fraction, and writes S to HBM in the score dtype (f32 unless told otherwise, as a "
        "first contraction with preferred_element_type=float32 produces it) and P in the input dtype.",
        "Naive attention with a causal mask computes and stores the full score matrix and masks it; only flash "
        "attention skips tiles.",
        "Flash attention reads each Q block once, streams the K and V blocks it needs once per query block, and "
        "writes O once; the running max and sum stay in VMEM.",
        "A causal tile wholly above the diagonal is skipped: no matmul, and its K/V copy is redirected to a block "
        "already in VMEM [FA-TPU]. Tiles on the diagonal are computed in full and masked, so executed FLOPs exceed "
        "the useful ones.",
        "A head dim below 128 pays for 128 on the MXU, which works in 128-wide tiles.",
        "Within a flash step the softmax waits for QK^T and PV for the softmax: the MXU and VPU work add, at the "
        "attainable fraction " +
            format_fixed(rates.flash_fraction * 100, 1) + " % fitted on published flash runs.",
        "Each flash grid step takes the longest of its share of the work, its share of the copies and a step's "
        "least time, " +
            format_time(rates.step_s) + " (fitted on published flash runs).",
        "XLA's ops reach " + format_fixed(rates.mxu_fraction * 100, 1) + " % of the MXU peak and " +
            format_fixed(rates.hbm_fraction * 100, 1) +
            " % of HBM bandwidth, fitted on published matmuls and "
            "memory-bound ops.",
        "The softmax costs 5 VPU operations per score (scale, max, exp, sum, normalize), with exp counted as one.",
    };
    if (s.kv_heads > 0 && s.kv_heads != s.heads)
        p.assumptions.push_back(
            "Grouped K/V heads: XLA reads each K/V head once; the flash kernel fetches a K/V "
            "block for every query head that uses it.");
    if (backward)
        p.assumptions.push_back(
            "The backward keeps the forward's residuals: XLA keeps P and runs dP, dS, dQ, dK "
            "and dV as five ops; the flash kernels keep the log-sum-exp and recompute the scores "
            "in a dK/dV kernel and a dQ kernel, 3.5 times the forward's work over two grids.");
    if (s.window > 0 || s.documents > 1)
        p.assumptions.push_back(
            "The flash kernel walks only the tiles the mask leaves a visible pair in, listed "
            "ahead of the grid as splash attention's mask metadata does [SPLASH-MASK]; a partly "
            "masked tile costs as much as a full one. XLA computes the whole score matrix and "
            "masks it.");
    if (s.bias)
        p.assumptions.push_back(
            "The additive bias is read from HBM: whole by XLA, the computed tiles' share by the "
            "flash kernel.");
    return r;
}

double flash_kernel_time(double compute_s, double memory_s, std::int64_t steps, double flash_fraction,
                         double hbm_fraction, double step_s) {
    return std::max({compute_s / flash_fraction, memory_s / hbm_fraction, static_cast<double>(steps) * step_s});
}

double xla_op_time(double mxu_s, double vpu_s, double memory_s, double mxu_fraction, double hbm_fraction) {
    return std::max({mxu_s / mxu_fraction, vpu_s, memory_s / hbm_fraction});
}

}  // namespace tpusim
