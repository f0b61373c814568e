#pragma once
// Decode-time attention over a paged KV cache: each sequence brings one new
// query token per head and attends to every token already in its cache. The
// cache lives in fixed-size pages scattered through HBM; a page table per
// sequence lists them, and the kernel reads it from SMEM (scalar prefetch)
// to fetch the right pages [JAX-PAGED][VLLM-PAPER].
//
// The pages are laid out as JAX's paged-attention kernel takes them,
// (kv_heads, pages, page_size, head_dim): a page holds one KV head's tokens.
// The kernel walks (sequence, KV head, block of pages), the last in order.
// Each step copies `pages_per_block` pages of K and of V, one DMA a page,
// whole blocks even past the sequence's end, and multiplies them by the
// query rows of every query head that shares the KV head. Each K/V byte meets a handful of query rows, so decode sits
// far below the ridge point: its time is HBM traffic, and the kernel's job is
// to reach the HBM roof. XLA's alternative gathers the pages into one padded
// array first and then runs attention on the copy.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

struct DecodeAttentionSpec {
    // Tokens in each sequence's cache, the new one included: one entry per
    // sequence, so ragged batches are a list of unequal lengths.
    std::vector<std::int64_t> context;
    std::int64_t heads = 1;     // query heads
    std::int64_t kv_heads = 0;  // K/V heads; 0 means as many as `heads`; must divide heads
    std::int64_t head_dim = 128;
    std::int64_t page_size = 16;       // tokens per page
    std::int64_t pages_per_block = 8;  // pages one grid step copies, per KV head
    DType kv_dtype = DType::bf16;      // the cache; int8 and fp8 carry one f32 scale per token and head
    DType q_dtype = DType::bf16;       // the query and the output
    // The grid walks every sequence to the longest one's blocks, as a kernel
    // whose index maps read the page table does; the steps past a sequence's
    // end copy and compute nothing but still take a step's least time. False:
    // the kernel skips them, as JAX's paged-attention kernel does.
    bool full_grid = false;
};

struct DecodeAttentionResult {
    std::int64_t sequences = 0;
    std::int64_t tokens = 0;         // context tokens, summed over sequences
    std::int64_t pages = 0;          // pages read, summed over sequences and KV heads
    std::int64_t padded_tokens = 0;  // token slots read past each sequence's end (whole blocks are copied)
    double padding = 0;              // padded_tokens / (tokens + padded_tokens)
    std::int64_t steps = 0;          // grid steps of the kernel
    std::int64_t group = 1;          // query heads per KV head

    double kv_bytes = 0;         // K and V pages read, scales included
    double hbm_bytes = 0;        // everything the kernel moves: cache, query, output, page table, lengths
    double bytes_per_token = 0;  // hbm_bytes / sequences: what one generated token costs in this layer
    double mxu_flops = 0;        // executed: query rows padded to 8 sublanes, head dim to 128 lanes
    double useful_flops = 0;     // 4 * heads * tokens * head_dim
    double vpu_flops = 0;
    double intensity = 0;  // useful FLOPs per HBM byte

    double mxu_s = 0, vpu_s = 0, memory_s = 0;  // at the device's peaks
    double time_s = 0;                          // predicted device time
    double call_s = 0;                          // as a Python caller sees it: time_s plus one call's launch
    double bandwidth = 0;                       // hbm_bytes / time_s over the device's HBM peak
    double sequences_per_s = 0;                 // sequences / time_s: one layer's attention, nothing else
    std::string bound;                          // "HBM", "MXU", "VPU" or "grid steps"

    // XLA: gather every sequence's pages into a contiguous cache padded to
    // the longest sequence, then QK^T, softmax and PV as separate ops.
    double xla_bytes = 0;
    double xla_time_s = 0;

    std::vector<Figure> bytes;       // the kernel's traffic by array
    std::vector<Figure> xla_stages;  // the predicted time of each XLA op
    Provenance provenance;
};

// The lengths of the sequences' caches from text: "4096" or "512,4096,1000".
// With `batch` above 0, one length is repeated for every sequence and a list
// must have `batch` entries. Throws InputError naming what is wrong.
std::vector<std::int64_t> parse_context(std::string_view text, std::int64_t batch = 0);

// Throws InputError for an empty or non-positive context, sizes below 1,
// kv_heads that do not divide heads, a KV dtype other than bf16, f32, int8
// or fp8, or a query dtype the chip has no MXU rate for.
DecodeAttentionResult decode_attention(const Chip& chip, const DecodeAttentionSpec& spec);

}  // namespace tpusim
