#include <catch2/catch.hpp>

#include <cmath>

#include "tpusim/attention.h"
#include "tpusim/error.h"
#include "tpusim/online_softmax.h"

using namespace tpusim;

namespace {
// Scores in the input dtype (bf16), the accounting of the hand counts below; the
// f32 default is checked on its own.
AttentionSpec spec(std::int64_t seq, std::int64_t d, std::int64_t bq, std::int64_t bk, bool causal = false) {
    AttentionSpec s;
    s.score_dtype = DType::bf16;
    s.seq_q = s.seq_kv = seq;
    s.head_dim = d;
    s.block_q = bq;
    s.block_k = bk;
    s.causal = causal;
    return s;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
    REQUIRE(a.size() == b.size());
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
    return worst;
}
}  // namespace

// N = 256, d = 64, blocks 128, bf16 (2 B), one head.
//   naive: read Q, K (2 x 256 x 64) + write S, read S, write P, read P (4 x 256^2)
//          + read V, write O (2 x 256 x 64) = 65,536 + 262,144 = 327,680 elements = 655,360 B
//   flash: Q and O once (2 x 16,384) + K and V for 2 kv blocks per q block, 2 q blocks
//          (2 x 4 x 128 x 64 = 65,536) = 98,304 elements = 196,608 B
TEST_CASE("attention: naive and flash HBM bytes counted by hand", "[attention]") {
    const AttentionResult r = attention(chip("v5e"), spec(256, 64, 128, 128));
    CHECK(r.naive.hbm_bytes == 655360);
    CHECK(r.flash.hbm_bytes == 196608);
    CHECK(r.kv_block_fetches == 4);
    CHECK(r.tiles_computed == 4);
    CHECK(r.tiles_skipped == 0);
    // Both run the two matmuls in full: 4 N^2 d.
    CHECK(r.naive.mxu_flops == 4.0 * 256 * 256 * 64);
    CHECK(r.flash.mxu_flops == 4.0 * 256 * 256 * 64);
    CHECK(r.useful_flops == 4.0 * 256 * 256 * 64);
}

// Causal, same sizes: q block 0 needs kv block 0 only; q block 1 needs 0 and 1,
// but block 0 is still in VMEM from the step before, so only block 1 is copied.
//   K fetches: 1 + 1 = 2 -> flash = 32,768 + 2 x 2 x 8,192 = 65,536 elements = 131,072 B
//   tiles: (0,0), (1,0), (1,1) computed; (0,1) skipped
//   useful FLOPs: 4 d x (1 + 2 + ... + 256) = 4 x 64 x 32,896
TEST_CASE("attention: causal skips the tile above the diagonal", "[attention]") {
    const AttentionResult r = attention(chip("v5e"), spec(256, 64, 128, 128, true));
    CHECK(r.tiles_computed == 3);
    CHECK(r.tiles_skipped == 1);
    CHECK(r.kv_block_fetches == 2);
    CHECK(r.flash.hbm_bytes == 131072);
    CHECK(r.useful_flops == 4.0 * 64 * 32896);
    CHECK(r.flash.mxu_flops == 3.0 * 4 * 128 * 128 * 64);
    // Naive attention masks but still computes and stores everything.
    CHECK(r.naive.hbm_bytes == 655360);
    CHECK(r.naive.mxu_flops == 4.0 * 256 * 256 * 64);
}

// [FA-TPU]: N = 8192, d = 128, bf16: naive 520 MiB, flash 260 MiB at Bq = 128,
// 132 MiB at 256, 68 MiB at 512, 36 MiB at 1024.
TEST_CASE("attention: the reference's worked example", "[attention]") {
    const double MiB = 1024.0 * 1024.0;
    CHECK(attention(chip("v5e"), spec(8192, 128, 128, 512)).naive.hbm_bytes == 520 * MiB);
    CHECK(attention(chip("v5e"), spec(8192, 128, 128, 512)).flash.hbm_bytes == 260 * MiB);
    CHECK(attention(chip("v5e"), spec(8192, 128, 256, 512)).flash.hbm_bytes == 132 * MiB);
    CHECK(attention(chip("v5e"), spec(8192, 128, 512, 512)).flash.hbm_bytes == 68 * MiB);
    CHECK(attention(chip("v5e"), spec(8192, 128, 1024, 512)).flash.hbm_bytes == 36 * MiB);
}

// Chapter 13's naive program asks its first contraction for f32 scores, so the
// default score dtype is f32: 2 x 16 heads at N = 4096 hold 32 x 4096^2 x 4 B = 2 GiB
// of scores (1 GiB if they were bf16). Per head, d = 64, N = 256, bf16 in:
//   read Q, K, V, write O: 4 x 256 x 64 x 2 B = 131,072 B
//   write S, read S in f32: 2 x 256^2 x 4 B = 524,288 B
//   write P, read P in bf16: 2 x 256^2 x 2 B = 262,144 B        total 917,504 B
TEST_CASE("attention: the naive form's scores are f32 unless told otherwise", "[attention]") {
    AttentionSpec s;
    CHECK(s.score_dtype == DType::f32);
    s.batch = 2;
    s.heads = 16;
    s.seq_q = s.seq_kv = 4096;
    s.head_dim = 128;
    s.block_q = s.block_k = 512;
    const double GiB = 1024.0 * 1024.0 * 1024.0;
    CHECK(attention(chip("v5e"), s).score_bytes == 2 * GiB);
    s.score_dtype = DType::bf16;
    CHECK(attention(chip("v5e"), s).score_bytes == 1 * GiB);

    AttentionSpec small = spec(256, 64, 128, 128);
    small.score_dtype = DType::f32;
    const AttentionResult r = attention(chip("v5e"), small);
    CHECK(r.naive.hbm_bytes == 917504);
    CHECK(r.score_bytes == 262144);
    // The first kernel writes the wider scores, so it is slower than with bf16 ones;
    // the streaming form never writes scores, so its figures do not move.
    const AttentionResult narrow = attention(chip("v5e"), spec(256, 64, 128, 128));
    CHECK(r.naive.stages[0].value > narrow.naive.stages[0].value);
    CHECK(r.flash.hbm_bytes == narrow.flash.hbm_bytes);
}

TEST_CASE("attention: work at the peaks, time at the attainable fractions and step floors", "[attention]") {
    const Chip& c = chip("v5e");
    AttentionSpec s = spec(4096, 128, 512, 512, true);
    s.batch = 2;
    s.heads = 8;
    const AttentionResult r = attention(c, s);
    // Flash: one kernel, its work counted at the peaks ...
    CHECK(r.flash.mxu_s == Approx(r.flash.mxu_flops / c.peak_bf16.value));
    CHECK(r.flash.memory_s == Approx(r.flash.hbm_bytes / c.hbm_bandwidth.value));
    CHECK(r.flash.peak_s == Approx(std::max(r.flash.mxu_s + r.flash.vpu_s, r.flash.memory_s)));
    // ... its time the longest of its work at the flash fraction, its copies
    // at the HBM fraction and its steps at a step's least time.
    REQUIRE(r.flash.kernels.size() == 1);
    CHECK(r.flash.grid_steps == 2 * 8 * 36);
    CHECK(r.flash.time_s ==
          Approx(std::max({(r.flash.mxu_s + r.flash.vpu_s) / c.flash_attainable.value,
                           r.flash.memory_s / c.hbm_attainable.value, r.flash.grid_steps * c.flash_step.value})));
    CHECK(r.flash.time_s > r.flash.peak_s);
    // Naive: three XLA ops one after another, each its slowest unit.
    REQUIRE(r.naive.stages.size() == 3);
    CHECK(r.naive.time_s == Approx(r.naive.stages[0].value + r.naive.stages[1].value + r.naive.stages[2].value));
    const AttentionKernel& softmax = r.naive.kernels[1];
    CHECK(r.naive.stages[1].value == Approx(std::max(softmax.vpu_s, softmax.memory_s / c.hbm_attainable.value)));
    CHECK(r.flash.time_s < r.naive.time_s);
    CHECK(r.speedup == Approx(r.naive.time_s / r.flash.time_s));
    // Causal: a bit over half the tiles (8 x 9 / 2 = 36 of 64).
    CHECK(r.tiles_computed == 36);
}

TEST_CASE("attention: small blocks are set by their steps, large ones by their work", "[attention]") {
    const Chip& c = chip("v5e");
    AttentionSpec small = spec(2048, 64, 128, 128);
    small.batch = 32;
    small.heads = 8;
    const AttentionResult r = attention(c, small);
    CHECK(r.flash.bound == "grid steps");
    CHECK(r.flash.time_s == Approx(r.flash.grid_steps * c.flash_step.value));
    AttentionSpec large = spec(2048, 128, 512, 512);
    large.batch = 2;
    large.heads = 40;
    CHECK(attention(c, large).flash.bound == "MXU");
}

TEST_CASE("attention: a head dim of 64 pays for 128 on the MXU", "[attention]") {
    const AttentionResult r64 = attention(chip("v5e"), spec(1024, 64, 128, 128));
    CHECK(r64.flash.mxu_s == Approx(2 * r64.flash.mxu_flops / chip("v5e").peak_bf16.value));
    const AttentionResult r128 = attention(chip("v5e"), spec(1024, 128, 128, 128));
    CHECK(r128.flash.mxu_s == Approx(r128.flash.mxu_flops / chip("v5e").peak_bf16.value));
}

TEST_CASE("attention: the backward pass as its own kernels", "[attention]") {
    const Chip& c = chip("v4");
    AttentionSpec s = spec(2048, 128, 512, 512, true);
    s.batch = 2;
    s.heads = 40;
    s.score_dtype = DType::f32;  // as AXLearn's reference computes its scores
    const AttentionResult fwd = attention(c, s);
    s.pass = AttentionPass::backward;
    const AttentionResult bwd = attention(c, s);
    s.pass = AttentionPass::forward_backward;
    const AttentionResult both = attention(c, s);
    // Flash: two kernels over two grids, seven matmuls against two.
    CHECK(bwd.flash.grid_steps == 2 * fwd.flash.grid_steps);
    CHECK(bwd.flash.mxu_flops == Approx(3.5 * fwd.flash.mxu_flops));
    CHECK(both.flash.time_s == Approx(fwd.flash.time_s + bwd.flash.time_s));
    // XLA: five ops keeping P: dP (f32) written and read, P read twice, dS
    // written once and read twice.
    REQUIRE(bwd.naive.kernels.size() == 5);
    CHECK(both.naive.kernels.size() == 8);
    CHECK(bwd.naive.mxu_flops == Approx(2 * fwd.naive.mxu_flops));
    const double scores = 2.0 * 40 * 2048 * 2048;
    // ... and ten (sequence, head) arrays: Q, K, V, O read once, dO three
    // times, dQ, dK, dV written.
    const double array = 2.0 * 40 * 2048 * 128 * 2;
    CHECK(bwd.naive.hbm_bytes == Approx(scores * (2 * 4 + 5 * 2) + 10 * array));
    // The measured ratio in AXLearn's v4 table is 2.3 to 2.5 (validation.h).
    CHECK(both.naive.time_s / fwd.naive.time_s > 2.0);
    CHECK(both.naive.time_s / fwd.naive.time_s < 2.6);
}

TEST_CASE("attention: grouped K/V heads and an additive bias", "[attention]") {
    const Chip& c = chip("v5e");
    AttentionSpec s = spec(2048, 128, 512, 512);
    s.heads = 8;
    const AttentionResult mha = attention(c, s);
    s.kv_heads = 1;
    const AttentionResult mqa = attention(c, s);
    // XLA reads one K and one V head instead of eight; the scores are the same.
    CHECK(mqa.naive.hbm_bytes == Approx(mha.naive.hbm_bytes - 2 * 7 * 2048 * 128 * 2.0));
    // The flash kernel fetches each query head's K/V blocks all the same.
    CHECK(mqa.flash.hbm_bytes == mha.flash.hbm_bytes);
    s.kv_heads = 3;
    CHECK_THROWS_AS(attention(c, s), InputError);
    s.kv_heads = 0;
    s.bias = true;
    s.causal = true;
    const AttentionResult biased = attention(c, s);
    s.bias = false;
    const AttentionResult plain = attention(c, s);
    // XLA reads the whole bias; the kernel only its computed tiles'.
    CHECK(biased.naive.hbm_bytes - plain.naive.hbm_bytes == Approx(8.0 * 2048 * 2048 * 2));
    CHECK(biased.flash.hbm_bytes - plain.flash.hbm_bytes == Approx(8.0 * plain.tiles_computed * 512 * 512 * 2));
}

TEST_CASE("attention: bad sizes are refused", "[attention]") {
    CHECK_THROWS_AS(attention(chip("v5e"), spec(256, 64, 96, 128)), InputError);
    CHECK_THROWS_AS(attention(chip("v5e"), spec(256, 64, 128, 100)), InputError);
    CHECK_THROWS_AS(attention(chip("v5e"), spec(256, 0, 128, 128)), InputError);
}

// One query, two keys, one block each, d = 1, scale 1: q = 1, k = (1, 2), v = (10, 20).
//   block 0: s = 1; m = 1, alpha = 0 (first block), p = 1, l = 1, acc = 10
//   block 1: s = 2; m = 2, alpha = e^(1-2) = 1/e, p = 1, l = 1/e + 1, acc = 10/e + 20
//   O = (10/e + 20) / (1/e + 1) = (10 + 20e) / (1 + e), the softmax of (1, 2) applied to v.
TEST_CASE("online softmax: two blocks by hand", "[attention][stepper]") {
    OnlineSoftmaxProblem p;
    p.seq_q = 1;
    p.seq_kv = 2;
    p.head_dim = 1;
    p.block_q = 1;
    p.block_k = 1;
    p.scale = 1;
    p.q = {1};
    p.k = {1, 2};
    p.v = {10, 20};
    OnlineSoftmaxStepper st(p);
    REQUIRE(st.kv_blocks() == 2);
    REQUIRE(st.step());
    CHECK(st.m()[0] == 1);
    CHECK(st.alpha()[0] == 0);
    CHECK(st.l()[0] == 1);
    CHECK(st.acc()[0] == 10);
    CHECK(st.output()[0] == 10);
    REQUIRE(st.step());
    const double e = std::exp(1.0);
    CHECK(st.m()[0] == 2);
    CHECK(st.alpha()[0] == Approx(1 / e));
    CHECK(st.l()[0] == Approx(1 / e + 1));
    CHECK(st.acc()[0] == Approx(10 / e + 20));
    CHECK(st.output()[0] == Approx((10 + 20 * e) / (1 + e)));
    CHECK_FALSE(st.step());
    CHECK(st.finished());

    // Keys the other way round: the max does not move in block 1, so alpha = 1
    // and the new block enters with p = e^(1-2).
    p.k = {2, 1};
    OnlineSoftmaxStepper back(p);
    back.run();
    CHECK(back.alpha()[0] == 1);
    CHECK(back.l()[0] == Approx(1 + 1 / e));
    CHECK(back.output()[0] == Approx((10 * e + 20) / (e + 1)));
}

TEST_CASE("online softmax: equals softmax(QK^T)V to 1e-12", "[attention][stepper]") {
    struct Case {
        std::int64_t sq, skv, d, bq, bk;
        bool causal;
    };
    const Case cases[] = {{64, 64, 64, 16, 16, false}, {64, 64, 64, 16, 32, true}, {128, 256, 32, 32, 64, false},
                          {96, 48, 8, 32, 16, true},   {32, 32, 4, 32, 32, true},  {8, 8, 3, 1, 1, true}};
    for (const Case& c : cases) {
        INFO("sq " << c.sq << " skv " << c.skv << " d " << c.d << " causal " << c.causal);
        OnlineSoftmaxStepper st(random_attention_problem(c.sq, c.skv, c.d, c.bq, c.bk, c.causal, 7));
        st.run();
        CHECK(max_abs_diff(st.output(), attention_reference(st.problem())) < 1e-12);
        // One tile of scores at a time, never the whole matrix.
        CHECK(st.last_tile().size() == static_cast<std::size_t>(c.bq * c.bk));
    }
}

TEST_CASE("online softmax: after j blocks, the softmax over the first j blocks", "[attention][stepper]") {
    const OnlineSoftmaxProblem p = random_attention_problem(64, 128, 16, 16, 32, false, 3);
    OnlineSoftmaxStepper st(p);
    for (std::int64_t j = 1; j <= st.kv_blocks(); ++j) {
        REQUIRE(st.step());
        OnlineSoftmaxProblem prefix = p;
        prefix.seq_kv = j * p.block_k;
        prefix.k.resize(static_cast<std::size_t>(prefix.seq_kv * p.head_dim));
        prefix.v.resize(prefix.k.size());
        CHECK(max_abs_diff(st.output(), attention_reference(prefix)) < 1e-12);
        // Rescale factors are in (0, 1] after the first block.
        for (double a : st.alpha()) CHECK((j == 1 ? a == 0 : (a > 0 && a <= 1)));
    }
}

// 4 x 4 tiles of 64 with a causal mask: tile (qi, kj) is visible iff kj <= qi,
// 10 computed and 6 skipped, as attention() counts them.
TEST_CASE("online softmax: skips the same causal tiles the cost model counts", "[attention][stepper]") {
    OnlineSoftmaxStepper st(random_attention_problem(256, 256, 8, 64, 64, true, 1));
    st.run();
    CHECK(st.tiles_computed() == 10);
    CHECK(st.tiles_skipped() == 6);
    const AttentionResult r = attention(chip("v5e"), spec(256, 8, 64, 64, true));
    CHECK(r.tiles_computed == st.tiles_computed());
    // Reset returns to the initial state.
    st.reset();
    CHECK(st.blocks_done() == 0);
    CHECK(std::isinf(st.m()[0]));
    CHECK(st.l()[0] == 0);
}

TEST_CASE("online softmax: bad problems are refused", "[attention][stepper]") {
    OnlineSoftmaxProblem p = random_attention_problem(16, 16, 4, 8, 8, false, 1);
    p.block_k = 5;
    CHECK_THROWS_AS(OnlineSoftmaxStepper(p), InputError);
    p.block_k = 8;
    p.v.pop_back();
    CHECK_THROWS_AS(OnlineSoftmaxStepper(p), InputError);
}
