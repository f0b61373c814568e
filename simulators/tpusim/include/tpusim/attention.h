#pragma once
// Attention on one chip: the naive form, which writes the score matrix
// S = QK^T and the probabilities P = softmax(S) to HBM between three
// kernels, against the streaming (flash) form, which keeps one
// (block_q x block_k) tile on chip and carries a running max, denominator
// and accumulator per query row [FA-TPU][SPLASH][FA-PAPER].
//
// Each form's work and traffic are counted at the chip's peaks; its
// predicted time then takes the attainable fractions `tpusim validate` fits
// on published runs (and, for the flash kernel, a grid step's least time),
// so the instruments and the validation table price attention alike. The
// stepper in online_softmax.h runs the same recurrence on numbers.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

// Which passes a call runs: the forward, the backward (given the forward's
// residuals), or both, as jax.grad of a loss through attention does.
enum class AttentionPass { forward, backward, forward_backward };

struct AttentionSpec {
    std::int64_t batch = 1;
    std::int64_t heads = 1;
    std::int64_t seq_q = 0;   // query length
    std::int64_t seq_kv = 0;  // key/value length (equal to seq_q for self-attention)
    std::int64_t head_dim = 0;
    std::int64_t block_q = 128;
    std::int64_t block_k = 128;
    // Query row r sees keys 0..r (the mask is aligned top-left, as in the
    // Pallas TPU flash-attention kernel).
    bool causal = false;
    DType dtype = DType::bf16;  // Q, K, V, O, and the naive form's P
    // The naive form's score matrix S = QK^T. A program that asks the first
    // contraction for preferred_element_type=float32, as chapter 13's naive
    // attention does, writes S in f32: twice the bytes of bf16 scores.
    DType score_dtype = DType::f32;
    // Heads of K and V: 0 for as many as the queries; fewer for grouped-
    // query attention (each shared by heads / kv_heads query heads), 1 for
    // multi-query. Must divide heads.
    std::int64_t kv_heads = 0;
    AttentionPass pass = AttentionPass::forward;
    // An additive (batch, heads, seq_q, seq_kv) bias in dtype, read from HBM.
    bool bias = false;
    // A local (sliding-window) mask: with causal, query q sees the `window`
    // keys q - window + 1 .. q. 0 for no window.
    std::int64_t window = 0;
    // Packed sequences: the rows hold `documents` equal documents and a query
    // sees only its own document's keys (the segment-id mask), causally
    // when `causal` is set. 1 for one document. Self-attention only.
    std::int64_t documents = 1;
};

// One kernel (or XLA op) of a form, at the chip's peaks.
struct AttentionKernel {
    std::string name;
    double mxu_s = 0;        // its matmuls at the MXU peak, a head dim below 128 padded to 128
    double vpu_s = 0;        // its elementwise work at the VPU peak
    double memory_s = 0;     // its HBM traffic at peak bandwidth
    std::int64_t steps = 0;  // a Pallas kernel's computed grid steps; 0 for an XLA op
};

// One form of attention evaluated on a chip.
struct AttentionForm {
    double mxu_flops = 0;  // matmul FLOPs executed (masked work included)
    double vpu_flops = 0;  // softmax and rescaling work on the VPU
    double hbm_bytes = 0;
    double mxu_s = 0;                      // at the MXU peak, padding included
    double vpu_s = 0;                      // vpu_flops / VPU peak
    double memory_s = 0;                   // hbm_bytes / HBM bandwidth
    double peak_s = 0;                     // the same work with every unit at its peak and no step costs
    double time_s = 0;                     // predicted: the attainable fractions and, flash, the step floor
    std::int64_t grid_steps = 0;           // flash: the computed steps of its grids
    std::string bound;                     // what sets the predicted time: "MXU", "VPU", "HBM", "grid steps"
    std::vector<Figure> bytes;             // the HBM traffic by array, "read Q", "write S", ...
    std::vector<Figure> stages;            // the predicted time of each kernel
    std::vector<AttentionKernel> kernels;  // naive: its XLA ops; flash: its kernel(s) as one
};

struct AttentionResult {
    AttentionForm naive;
    AttentionForm flash;
    double useful_flops = 0;  // 4 * head_dim * (query, key) pairs the mask allows
    double score_bytes = 0;   // the naive form's S, batch x heads x Sq x Skv in score_dtype
    std::int64_t q_blocks = 0;
    std::int64_t kv_blocks = 0;
    std::int64_t tiles = 0;           // q_blocks x kv_blocks, per (batch, head)
    std::int64_t tiles_computed = 0;  // per (batch, head)
    std::int64_t tiles_skipped =
        0;  // tiles the mask leaves wholly empty (above the diagonal, outside a window or document)
    std::int64_t kv_block_fetches = 0;  // K (and V) blocks copied in, per (batch, head)
    double speedup = 0;                 // naive time / flash time
    Provenance provenance;
};

// VPU operations per score element in a softmax: scale, running max,
// subtract-and-exp, row sum, normalize (exp counted as one). An assumption,
// listed in every result's provenance.
inline constexpr double softmax_ops_per_score = 5;

// Throws InputError for sizes below 1, blocks that do not divide their
// sequence, kv_heads that do not divide heads, or a dtype the chip
// publishes no MXU rate for.
AttentionResult attention(const Chip& chip, const AttentionSpec& spec);

// The predicted time of a flash kernel's work at the peaks (compute: its
// MXU and VPU time added, the softmax waiting on the matmuls) given the
// attainable fractions and a step's least time: each of the alike steps
// takes the longest of its share of the work, of the copies and the floor.
double flash_kernel_time(double compute_s, double memory_s, std::int64_t steps, double flash_fraction,
                         double hbm_fraction, double step_s);
// An XLA op's predicted time: its slowest unit at its attainable fraction.
double xla_op_time(double mxu_s, double vpu_s, double memory_s, double mxu_fraction, double hbm_fraction);

// Whether the causal tile (qi, kj) has at least one visible (row, key) pair.
bool tile_visible(std::int64_t qi, std::int64_t kj, std::int64_t block_q, std::int64_t block_k);
// The first and last K/V block query block `qi` needs under the spec's
// mask (causal, window, documents); every block between them holds at
// least one visible pair.
std::pair<std::int64_t, std::int64_t> kv_block_range(const AttentionSpec& spec, std::int64_t qi);

}  // namespace tpusim
