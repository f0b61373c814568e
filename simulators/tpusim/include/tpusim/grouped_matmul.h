#pragma once
// The grouped (ragged) matmul of a mixture-of-experts layer, as a Pallas
// kernel in the manner of megablox: the tokens sorted by group, walked in
// row tiles of tm, each tile visited once for every group it holds rows of
// (a tile across a group boundary is computed twice, masked), the visits
// and their groups handed to the kernel by scalar prefetch.
//
//   forward  gmm: out[M, N] = x[M, K] @ W[g][K, N], each row by its group's W
//   tgmm     the weight gradient: dW[g] = x_gᵀ @ dy_g, out[G, K, N]. The
//            ragged M is now the reduction axis: each (k, n) output tile
//            accumulates over its group's row tiles and is written when the
//            group ends; an empty group still writes its zeros.
//
// Priced with the pipeline model as the dense tiled matmul over the rows
// the kernel computes: forward as (rows x K) @ (K x N) in (tm, tk, tn)
// blocks, tgmm as (K x rows) @ (rows x N) in (tk, tm, tn) blocks, plus the
// output tiles a group boundary writes beyond one. Set beside two programs
// XLA can run with static shapes: every group padded to the largest, and
// every token through every group's weights.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

enum class GroupedPass { forward, tgmm };
std::string_view grouped_pass_name(GroupedPass pass);  // "forward", "tgmm"
// "forward" (or "gmm") and "tgmm"; throws InputError otherwise.
GroupedPass parse_grouped_pass(std::string_view text);

struct GroupedMatmulSpec {
    std::vector<std::int64_t> groups;  // rows of each group, in order; zeros allowed
    std::int64_t k = 0, n = 0;
    std::int64_t tm = 128, tk = 512, tn = 512;
    GroupedPass pass = GroupedPass::forward;
    DType dtype = DType::bf16;
};

struct GroupedMatmulResult {
    std::int64_t m = 0;                  // tokens, all groups together
    std::int64_t row_tiles = 0;          // ceil(M / tm)
    std::int64_t visits = 0;             // (row tile, group) pairs the kernel walks
    std::int64_t boundaries_inside = 0;  // group boundaries that fall inside a row tile
    std::int64_t empty_groups = 0;
    std::int64_t rows = 0;   // visits x tm: the rows the kernel computes
    double overhead = 0;     // rows / M - 1
    std::int64_t steps = 0;  // grid steps
    double flops = 0;        // useful: 2 M K N
    double hbm_bytes = 0;
    double time_s = 0;         // device time
    double call_s = 0;         // as a Python caller sees one call
    std::string bound;         // "MXU", "HBM" or "grid steps"
    double padded_time_s = 0;  // XLA: every group padded to the largest
    double dense_time_s = 0;   // XLA: every token through every group
    Provenance provenance;
};

// Throws InputError for no groups, a negative group, sizes below 1, tiles
// that do not divide K and N, or an M of zero.
GroupedMatmulResult grouped_matmul(const Chip& chip, const GroupedMatmulSpec& spec);
// "1200,300,0,900": the group sizes; throws InputError naming a bad entry.
std::vector<std::int64_t> parse_groups(std::string_view text);

}  // namespace tpusim
