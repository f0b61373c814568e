#include "tpusim/attention.h"

#include <algorithm>

#include "tpusim/error.h"
#include "tpusim/roofline.h"

namespace tpusim {

namespace {

void check_spec(const AttentionSpec& s) {
    const std::pair<const char*, std::int64_t> sizes[] = {
        {"batch", s.batch},     {"heads", s.heads},       {"query length", s.seq_q},
        {"key length", s.seq_kv}, {"head dimension", s.head_dim}, {"block_q", s.block_q},
        {"block_k", s.block_k}};
    for (const auto& [what, v] : sizes)
        if (v < 1) throw InputError(std::string("the ") + what + " must be at least 1");
    if (s.seq_q % s.block_q != 0)
        throw InputError("block_q " + std::to_string(s.block_q) +
                         " does not divide the query length " + std::to_string(s.seq_q));
    if (s.seq_kv % s.block_k != 0)
        throw InputError("block_k " + std::to_string(s.block_k) +
                         " does not divide the key length " + std::to_string(s.seq_kv));
}

// Last K/V block query block `qi` needs: all of them without a mask; with
// the causal mask, the block holding key (qi + 1) * block_q - 1.
std::int64_t last_kv_block(const AttentionSpec& s, std::int64_t qi, std::int64_t kv_blocks) {
    if (!s.causal) return kv_blocks - 1;
    return std::min(kv_blocks - 1, ((qi + 1) * s.block_q - 1) / s.block_k);
}

std::string shapes_text(const AttentionSpec& s) {
    return "B=" + std::to_string(s.batch) + " H=" + std::to_string(s.heads) +
           " Sq=" + std::to_string(s.seq_q) + " Skv=" + std::to_string(s.seq_kv) +
           " D=" + std::to_string(s.head_dim) + " block_q=" + std::to_string(s.block_q) +
           " block_k=" + std::to_string(s.block_k) + (s.causal ? " causal" : "");
}

void finish(AttentionForm& f, const Chip& chip, DType dtype) {
    const Roofline mxu = roofline(chip, generic_cost(f.mxu_flops, f.hbm_bytes, dtype));
    const Roofline vpu = roofline(chip, generic_cost(f.vpu_flops, 0, DType::f32, Engine::vpu));
    f.mxu_s = mxu.compute_s;
    f.memory_s = mxu.memory_s;
    f.vpu_s = vpu.compute_s;
    f.time_s = std::max({f.mxu_s, f.vpu_s, f.memory_s});
    f.bound = f.time_s == f.memory_s ? "HBM" : (f.time_s == f.mxu_s ? "MXU" : "VPU");
}

// Three kernels, each writing its result to HBM for the next to read back:
// S = QK^T in the score dtype, P = softmax(S) cast back to the input dtype
// (the naive program casts P before the second contraction), O = PV.
AttentionForm naive_form(const Chip& chip, const AttentionSpec& s) {
    const double bh = static_cast<double>(s.batch * s.heads);
    const double b = bytes(s.dtype);
    const double sb = bytes(s.score_dtype);
    const double sq = static_cast<double>(s.seq_q), skv = static_cast<double>(s.seq_kv);
    const double d = static_cast<double>(s.head_dim);
    const double scores_count = bh * sq * skv;

    MatmulSpec qk;
    qk.batch = s.batch * s.heads;
    qk.m = s.seq_q;
    qk.k = s.head_dim;
    qk.n = s.seq_kv;
    qk.in = s.dtype;
    qk.out = s.score_dtype;
    MatmulSpec pv;
    pv.batch = qk.batch;
    pv.m = s.seq_q;
    pv.k = s.seq_kv;
    pv.n = s.head_dim;
    pv.in = pv.out = s.dtype;
    const OpCost scores = matmul_cost(qk);
    // The softmax reads S in the score dtype and writes P in the input dtype,
    // so its bytes are spelled out rather than taken from one element width.
    OpCost softmax = generic_cost(scores_count * softmax_ops_per_score, scores_count * (sb + b),
                                  DType::f32, Engine::vpu);
    softmax.op = "elementwise";
    const OpCost output = matmul_cost(pv);

    AttentionForm f;
    f.mxu_flops = scores.flops + output.flops;
    f.vpu_flops = softmax.flops;
    f.hbm_bytes = scores.bytes + softmax.bytes + output.bytes;
    f.bytes = {{"read Q", bh * sq * d * b, "B"},       {"read K", bh * skv * d * b, "B"},
               {"write S", scores_count * sb, "B"},    {"read S", scores_count * sb, "B"},
               {"write P", scores_count * b, "B"},     {"read P", scores_count * b, "B"},
               {"read V", bh * skv * d * b, "B"},      {"write O", bh * sq * d * b, "B"}};
    const double t1 = roofline_time(chip, scores), t2 = roofline_time(chip, softmax),
                 t3 = roofline_time(chip, output);
    f.stages = {{"S = QK^T kernel", t1, "s"}, {"P = softmax(S) kernel", t2, "s"},
                {"O = PV kernel", t3, "s"}};
    finish(f, chip, s.dtype);
    // The kernels run one after another: each is its own roofline.
    f.time_s = t1 + t2 + t3;
    return f;
}

}  // namespace

bool tile_visible(std::int64_t qi, std::int64_t kj, std::int64_t block_q, std::int64_t block_k) {
    // The tile's last row sees keys up to (qi + 1) * block_q - 1.
    return kj * block_k <= (qi + 1) * block_q - 1;
}

AttentionResult attention(const Chip& chip, const AttentionSpec& s) {
    check_spec(s);
    AttentionResult r;
    r.q_blocks = s.seq_q / s.block_q;
    r.kv_blocks = s.seq_kv / s.block_k;
    r.tiles = r.q_blocks * r.kv_blocks;
    // K and V blocks are copied when their block index changes from the
    // previous grid step [JAX-PIPE]; skipped causal tiles point at the last
    // needed block, so they copy nothing [FA-TPU].
    std::int64_t previous_last = -1;
    for (std::int64_t qi = 0; qi < r.q_blocks; ++qi) {
        const std::int64_t last = last_kv_block(s, qi, r.kv_blocks);
        r.tiles_computed += last + 1;
        r.kv_block_fetches += last + 1 - (previous_last == 0 ? 1 : 0);
        previous_last = last;
    }
    r.tiles_skipped = r.tiles - r.tiles_computed;

    const double bh = static_cast<double>(s.batch * s.heads);
    const double b = bytes(s.dtype);
    const double sq = static_cast<double>(s.seq_q), skv = static_cast<double>(s.seq_kv);
    const double d = static_cast<double>(s.head_dim);
    const double bq = static_cast<double>(s.block_q), bk = static_cast<double>(s.block_k);
    double pairs = sq * skv;
    if (s.causal)
        pairs = s.seq_q <= s.seq_kv ? sq * (sq + 1) / 2 : skv * (skv + 1) / 2 + (sq - skv) * skv;
    r.useful_flops = bh * 4 * d * pairs;

    r.naive = naive_form(chip, s);
    r.score_bytes = bh * sq * skv * bytes(s.score_dtype);

    AttentionForm& f = r.flash;
    const double tiles = bh * static_cast<double>(r.tiles_computed);
    f.mxu_flops = tiles * 4 * bq * bk * d;
    // Per tile: the softmax of bq x bk scores, then alpha * l, alpha * acc
    // and the new max per row; at the end one division per output element.
    f.vpu_flops = tiles * (bq * bk * softmax_ops_per_score + bq * (d + 3)) + bh * sq * d;
    const double kv_bytes = bh * static_cast<double>(r.kv_block_fetches) * bk * d * b;
    f.bytes = {{"read Q", bh * sq * d * b, "B"},
               {"read K", kv_bytes, "B"},
               {"read V", kv_bytes, "B"},
               {"write O", bh * sq * d * b, "B"}};
    for (const Figure& fig : f.bytes) f.hbm_bytes += fig.value;
    finish(f, chip, s.dtype);
    r.speedup = r.naive.time_s / r.flash.time_s;

    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = std::string(name(s.dtype)) + " in and out, " + std::string(name(s.score_dtype)) +
              " scores in the naive form, f32 softmax state";
    p.shapes = shapes_text(s);
    p.model = "attention roofline: naive = three kernels through HBM; flash = one kernel "
              "streaming K/V blocks [FA-TPU]";
    p.assumptions = {
        "Naive attention runs three kernels (QK^T, softmax, PV), each a roofline of its own, "
        "and writes S to HBM in the score dtype (f32 unless told otherwise, as a first "
        "contraction with preferred_element_type=float32 produces it) and P in the input dtype.",
        "Naive attention with a causal mask computes and stores the full score matrix and masks "
        "it; only flash attention skips tiles.",
        "Flash attention reads each Q block once, streams the K and V blocks it needs once per "
        "query block, and writes O once; the running max and sum stay in VMEM.",
        "A causal tile wholly above the diagonal is skipped: no matmul, and its K/V copy is "
        "redirected to a block already in VMEM [FA-TPU]. Tiles on the diagonal are computed in "
        "full and masked, so executed FLOPs exceed the useful ones.",
        "Flash attention's MXU work, VPU work and DMAs overlap, so the slowest sets the time.",
        "The softmax costs 5 VPU operations per score (scale, max, exp, sum, normalize), with exp "
        "counted as one.",
        "Grid-step overheads and DMA latencies are left out; the pipeline model includes them.",
    };
    return r;
}

}  // namespace tpusim
