#include <catch2/catch.hpp>

#include <cmath>

#include "tpusim/attention.h"
#include "tpusim/chips.h"
#include "tpusim/decode_attention.h"
#include "tpusim/error.h"
#include "tpusim/quantized_matmul.h"
#include "tpusim/roofline.h"

using namespace tpusim;

namespace {
QuantizedMatmulSpec qmm(std::int64_t m, std::int64_t k, std::int64_t n, QuantScheme scheme,
                        ScaleGranularity scales = ScaleGranularity::channel) {
    QuantizedMatmulSpec s;
    s.m = m;
    s.k = k;
    s.n = n;
    s.scheme = scheme;
    s.scales = scales;
    return s;
}

DecodeAttentionSpec decode(std::vector<std::int64_t> context, std::int64_t heads, std::int64_t kv_heads) {
    DecodeAttentionSpec s;
    s.context = std::move(context);
    s.heads = heads;
    s.kv_heads = kv_heads;
    s.head_dim = 128;
    return s;
}
}  // namespace

// m = 8, k = n = 1024, w8a16 with channel scales: one block row (bm = 16),
// two block columns (bn = 1024 covers n: one), so
//   activations 8 x 1024 x 2 B = 16 KiB, weights 1024 x 1024 x 1 B = 1 MiB,
//   scales 1024 x 4 B = 4 KiB, output 8 x 1024 x 2 B = 16 KiB.
TEST_CASE("quantized matmul: bytes counted by hand", "[kernels]") {
    const QuantizedMatmulResult r = quantized_matmul(chip("v5e"), qmm(8, 1024, 1024, QuantScheme::w8a16));
    CHECK(r.bm == 16);
    CHECK(r.bn == 1024);
    CHECK(r.activation_bytes == 16384);
    CHECK(r.weight_bytes == 1048576);
    CHECK(r.scale_bytes == 4096);
    CHECK(r.output_bytes == 16384);
    CHECK(r.hbm_bytes == 16384 + 1048576 + 4096 + 16384);
    CHECK(r.mxu_dtype == DType::bf16);
    CHECK(r.quantize_s == 0);
    CHECK(r.call_s == Approx(r.time_s + chip("v5e").kernel_launch.value));
}

TEST_CASE("quantized matmul: int8 weights halve a decode matmul's time, not a prefill's", "[kernels]") {
    for (const char* id : {"v5e", "v6e"}) {
        const Chip& c = chip(id);
        const double bf16_decode = quantized_matmul(c, qmm(8, 8192, 8192, QuantScheme::bf16)).time_s;
        const QuantizedMatmulResult w8 = quantized_matmul(c, qmm(8, 8192, 8192, QuantScheme::w8a16));
        CHECK(w8.bound == "HBM");
        CHECK(bf16_decode / w8.time_s == Approx(2.0).margin(0.1));
        // Prefill-sized on v5e is MXU-bound: w8a16 runs at the bf16 rate and
        // gains nothing; w8a8 takes the int8 path at twice the rate.
    }
    const Chip& v5e = chip("v5e");
    const QuantizedMatmulResult bf16 = quantized_matmul(v5e, qmm(4096, 8192, 8192, QuantScheme::bf16));
    const QuantizedMatmulResult w8a16 = quantized_matmul(v5e, qmm(4096, 8192, 8192, QuantScheme::w8a16));
    const QuantizedMatmulResult w8a8 = quantized_matmul(v5e, qmm(4096, 8192, 8192, QuantScheme::w8a8));
    CHECK(bf16.bound == "MXU");
    CHECK(bf16.time_s / w8a16.time_s <= 1.0);
    CHECK(bf16.time_s / w8a8.time_s == Approx(v5e.peak_int8.value / v5e.peak_bf16.value).epsilon(0.15));
    CHECK(w8a8.mxu_dtype == DType::int8);
    CHECK(w8a8.quantize_s > 0);
    CHECK(w8a8.quantize_bytes == Approx(4096.0 * 8192 * 3 + 4096 * 4));
}

TEST_CASE("quantized matmul: block scales rescale the accumulator once per group", "[kernels]") {
    const Chip& c = chip("v6e");
    const QuantizedMatmulResult channel = quantized_matmul(c, qmm(1024, 4096, 1024, QuantScheme::w8a8));
    QuantizedMatmulSpec s = qmm(1024, 4096, 1024, QuantScheme::w8a8, ScaleGranularity::block);
    s.scale_block = 256;
    const QuantizedMatmulResult block = quantized_matmul(c, s);
    CHECK(block.vpu_ops == Approx(channel.vpu_ops * 16));
    CHECK(block.scale_bytes > channel.scale_bytes);
    s.scale_block = 300;
    CHECK_THROWS_AS(quantized_matmul(c, s), InputError);
}

TEST_CASE("quantized matmul: no prediction where no rate is published", "[kernels]") {
    CHECK_THROWS_AS(quantized_matmul(chip("v7"), qmm(128, 128, 128, QuantScheme::w8a8)), InputError);
    CHECK_THROWS_AS(quantized_matmul(chip("v5e"), qmm(128, 128, 128, QuantScheme::fp8)), InputError);
    CHECK_NOTHROW(quantized_matmul(chip("v7"), qmm(128, 128, 128, QuantScheme::fp8)));
    CHECK_THROWS_AS(quantized_matmul(chip("v5e"), qmm(0, 128, 128, QuantScheme::w8a8)), InputError);
    CHECK(parse_scheme("w8a16") == QuantScheme::w8a16);
    CHECK_THROWS_AS(parse_scheme("int8"), InputError);
    CHECK_THROWS_AS(parse_scales("row"), InputError);
}

// One sequence of 20 tokens, 2 KV heads of 128, pages of 16, one page a
// step: 2 blocks of 16 slots (12 past the end), so per KV head 2 pages of K
// and 2 of V: 2 x 32 x 2 x 128 x 2 B = 32 KiB of bf16 cache, 4 grid steps.
TEST_CASE("decode attention: pages, padding and bytes counted by hand", "[kernels]") {
    DecodeAttentionSpec s = decode({20}, 4, 2);
    s.page_size = 16;
    s.pages_per_block = 1;
    const DecodeAttentionResult r = decode_attention(chip("v5e"), s);
    CHECK(r.tokens == 20);
    CHECK(r.padded_tokens == 12);
    CHECK(r.padding == Approx(12.0 / 32));
    CHECK(r.pages == 4);
    CHECK(r.steps == 4);
    CHECK(r.group == 2);
    CHECK(r.kv_bytes == 32768);
    // + queries in and outputs out (4 heads x 128 x 2 B each) + 2 page ids and 1 length.
    CHECK(r.hbm_bytes == 32768 + 1024 + 1024 + 12);
    CHECK(r.useful_flops == 4.0 * 4 * 20 * 128);
}

TEST_CASE("decode attention: a whole block is copied past a sequence's end", "[kernels]") {
    DecodeAttentionSpec s = decode({20}, 8, 8);
    s.page_size = 16;
    s.pages_per_block = 8;
    const DecodeAttentionResult r = decode_attention(chip("v5e"), s);
    CHECK(r.padded_tokens == 128 - 20);
    CHECK(r.steps == 8);
}

TEST_CASE("decode attention: memory-bound, and grouped KV heads read less", "[kernels]") {
    const Chip& c = chip("v6e");
    DecodeAttentionSpec mha = decode({4096, 4096, 4096, 4096}, 32, 32);
    mha.page_size = 256;  // 2048 tokens, 1 MiB of K and V a step: past the step floor
    DecodeAttentionSpec gqa = mha;
    gqa.kv_heads = 8;
    const DecodeAttentionResult a = decode_attention(c, mha), g = decode_attention(c, gqa);
    CHECK(a.bound == "HBM");
    CHECK(a.intensity < 2);  // one query row per K/V row: about 1 FLOP per byte in bf16
    CHECK(g.kv_bytes == Approx(a.kv_bytes / 4));
    CHECK(g.time_s < a.time_s);
    CHECK(a.bandwidth <= c.hbm_attainable.value + 1e-9);
    CHECK(a.xla_bytes > 2 * a.kv_bytes);
    CHECK(a.xla_time_s > a.time_s);
    CHECK(a.sequences_per_s == Approx(4 / a.time_s));
}

TEST_CASE("decode attention: small steps are priced by the step floor", "[kernels]") {
    const Chip& c = chip("v5e");
    DecodeAttentionSpec small = decode({4096}, 8, 8);
    small.page_size = 16;
    small.pages_per_block = 1;
    const DecodeAttentionResult r = decode_attention(c, small);
    CHECK(r.bound == "grid steps");
    CHECK(r.time_s == Approx(static_cast<double>(r.steps) * c.flash_step.value + c.dma_latency.value));
}

TEST_CASE("decode attention: ragged lengths and a quantized cache", "[kernels]") {
    const Chip& c = chip("v5e");
    DecodeAttentionSpec ragged = decode({100, 5000, 33}, 8, 8);
    const DecodeAttentionResult r = decode_attention(c, ragged);
    CHECK(r.sequences == 3);
    CHECK(r.tokens == 5133);
    DecodeAttentionSpec int8 = ragged;
    int8.kv_dtype = DType::int8;
    const DecodeAttentionResult q = decode_attention(c, int8);
    const double slots = static_cast<double>(r.tokens + r.padded_tokens);
    CHECK(q.kv_bytes == Approx(r.kv_bytes / 2 + 2 * slots * 8 * 4));
    CHECK_THROWS_AS(decode_attention(c, decode({}, 8, 8)), InputError);
    CHECK_THROWS_AS(decode_attention(c, decode({10, 0}, 8, 8)), InputError);
    CHECK_THROWS_AS(decode_attention(c, decode({10}, 8, 3)), InputError);
    DecodeAttentionSpec int4 = ragged;
    int4.kv_dtype = DType::int4;
    CHECK_THROWS_AS(decode_attention(c, int4), InputError);
}

// N = 4096 in 512-blocks: 8 x 8 = 64 tiles. Causal: 36. A causal window of
// 1024 keys: each query block reaches back two blocks and a bit, so row i
// visits blocks max(0, i - 2) .. i: 1 + 2 + 3 x 6 = 21. Four packed causal
// documents of 1024: each is 2 x 2 blocks with 3 visible, 12 in all.
TEST_CASE("attention: windows and packed documents leave their empty tiles unvisited", "[kernels][attention]") {
    AttentionSpec s;
    s.seq_q = s.seq_kv = 4096;
    s.head_dim = 128;
    s.block_q = s.block_k = 512;
    s.causal = true;
    const Chip& c = chip("v5e");
    CHECK(attention(c, s).tiles_computed == 36);
    AttentionSpec window = s;
    window.window = 1024;
    const AttentionResult w = attention(c, window);
    CHECK(w.tiles_computed == 21);
    CHECK(w.tiles_skipped == 43);
    // Pairs: the first 1024 queries see q + 1 keys, the rest 1024 each.
    CHECK(w.useful_flops == Approx(4.0 * 128 * (1024.0 * 1025 / 2 + 3072.0 * 1024)));
    AttentionSpec docs = s;
    docs.documents = 4;
    const AttentionResult d = attention(c, docs);
    CHECK(d.tiles_computed == 12);
    CHECK(d.useful_flops == Approx(4.0 * 128 * 4 * (1024.0 * 1025 / 2)));
    CHECK(d.flash.time_s < attention(c, s).flash.time_s);
    CHECK(d.naive.time_s == Approx(attention(c, s).naive.time_s));  // XLA computes it all and masks it
    // Non-causal documents: each query sees its whole document, 2 x 2 blocks each.
    docs.causal = false;
    CHECK(attention(c, docs).tiles_computed == 16);
    // A window without the causal mask, documents that do not divide, cross-attention: refused.
    AttentionSpec bad = window;
    bad.causal = false;
    CHECK_THROWS_AS(attention(c, bad), InputError);
    bad = s;
    bad.documents = 3;
    CHECK_THROWS_AS(attention(c, bad), InputError);
    bad = window;
    bad.seq_kv = 8192;
    CHECK_THROWS_AS(attention(c, bad), InputError);
}

// y = x w with x (M x K), w (K x N): the backward is dx = dy w^T (M x N by
// N x K) and dw = x^T dy (K x M by M x N), each the forward's FLOPs; each
// reads two of the three matrices and writes the third.
TEST_CASE("matmul backward: two matmuls of the forward's work, run one after another", "[kernels][roofline]") {
    MatmulSpec s;
    s.m = 8;
    s.k = 4096;
    s.n = 14336;
    const std::vector<OpCost> back = matmul_pass_costs(s, MatmulPass::backward);
    REQUIRE(back.size() == 2);
    CHECK(back[0].flops == Approx(2.0 * 8 * 4096 * 14336));
    CHECK(back[1].flops == back[0].flops);
    const double elems = 8.0 * 4096 + 4096.0 * 14336 + 8.0 * 14336;
    CHECK(back[0].bytes == Approx(elems * 2));
    CHECK(back[1].bytes == Approx(elems * 2));
    CHECK(back[0].shapes == "M=8 K=14336 N=4096");
    CHECK(back[1].shapes == "M=4096 K=8 N=14336");
    const Chip& c = chip("v5e");
    const Roofline both = roofline_sequence(c, matmul_pass_costs(s, MatmulPass::forward_backward));
    const Roofline fwd = roofline(c, matmul_cost(s));
    CHECK(both.flops == Approx(3 * fwd.flops));
    CHECK(both.time_s == Approx(fwd.time_s + roofline(c, back[0]).time_s + roofline(c, back[1]).time_s));
    // A decode-sized matmul is memory-bound forward and backward: three reads of the weights' size.
    CHECK(both.resource == "HBM");
    CHECK(both.time_s == Approx(3 * fwd.time_s).epsilon(0.01));
    CHECK(matmul_pass_costs(s, MatmulPass::forward).size() == 1);
    CHECK_THROWS_AS(roofline_sequence(c, {}), InputError);
}

TEST_CASE("decode attention: context lengths read from text", "[kernels]") {
    CHECK(parse_context("4096") == std::vector<std::int64_t>{4096});
    CHECK(parse_context("512,4096,1000") == std::vector<std::int64_t>{512, 4096, 1000});
    CHECK(parse_context("100", 3) == std::vector<std::int64_t>{100, 100, 100});
    CHECK(parse_context("1,2,3", 3).size() == 3);
    CHECK_THROWS_AS(parse_context("1,2", 3), InputError);
    CHECK_THROWS_AS(parse_context(""), InputError);
    CHECK_THROWS_AS(parse_context("512,,4096"), InputError);
    CHECK_THROWS_AS(parse_context("512,0"), InputError);
    CHECK_THROWS_AS(parse_context("4k"), InputError);
}
