// The three kernels the VMEM budget knows, as lists of operands: their
// blocks, buffers, scratch and temporaries, in a fixed-size list so the
// block search can rebuild them thousands of times without allocating.
#include "vmem_budget_detail.h"

#include <string>

#include "tpusim/error.h"

namespace tpusim {

namespace {

BudgetKernelInfo matmul_info() {
    return {BudgetKernelKind::tiled_matmul,
            "matmul",
            "tiled matmul",
            {{"M", 4096, false}, {"K", 4096, false}, {"N", 4096, false}},
            {{"bm", 512, false}, {"bk", 1024, true}, {"bn", 1024, true}},
            DType::bf16};
}

BudgetKernelInfo attention_info() {
    return {BudgetKernelKind::flash_attention,
            "attention",
            "flash attention",
            {{"heads", 8, false}, {"seq", 4096, false}, {"head_dim", 128, false}},
            {{"block_q", 512, false}, {"block_k", 512, false}},
            DType::bf16};
}

BudgetKernelInfo layernorm_info() {
    return {BudgetKernelKind::layernorm,  "layernorm", "layernorm", {{"rows", 8192, false}, {"hidden", 4096, false}},
            {{"block_rows", 256, false}}, DType::bf16};
}

}  // namespace

const std::vector<BudgetKernelInfo>& budget_kernels() {
    static const std::vector<BudgetKernelInfo> kernels{matmul_info(), attention_info(), layernorm_info()};
    return kernels;
}

const BudgetKernelInfo& budget_kernel_info(std::string_view id) {
    for (const BudgetKernelInfo& k : budget_kernels())
        if (k.id == id) return k;
    throw InputError("there is no kernel called '" + std::string(id) +
                     "' in the VMEM budget: choose matmul, attention or layernorm");
}

BudgetKernelSpec budget_preset(BudgetKernelKind kind) {
    const BudgetKernelInfo& k = detail::info_of(kind);
    BudgetKernelSpec s;
    s.kind = kind;
    s.dtype = k.default_dtype;
    for (const BudgetDimension& d : k.sizes) s.sizes.push_back(d.default_value);
    for (const BudgetDimension& d : k.blocks) s.blocks.push_back(d.default_value);
    return s;
}

namespace detail {

const BudgetKernelInfo& info_of(BudgetKernelKind kind) {
    for (const BudgetKernelInfo& k : budget_kernels())
        if (k.kind == kind) return k;
    throw InputError("the VMEM budget knows the tiled matmul, flash attention and the layernorm only");
}

void validate(const BudgetKernelSpec& spec) {
    const BudgetKernelInfo& info = info_of(spec.kind);
    if (spec.sizes.size() != info.sizes.size() || spec.blocks.size() != info.blocks.size())
        throw InputError("the " + info.title + " takes " + std::to_string(info.sizes.size()) + " sizes and " +
                         std::to_string(info.blocks.size()) + " block dimensions");
    for (std::int64_t v : spec.sizes)
        if (v < 1) throw InputError("every size must be a positive integer");
    for (std::int64_t v : spec.blocks)
        if (v < 1) throw InputError("every block dimension must be a positive integer");
    if (spec.input_buffers != 2 && spec.input_buffers != 3)
        throw InputError("inputs take 2 buffers (the default) or 3 (pl.Buffered(3)); outputs always take 2");
    if (spec.dtype == DType::int4)
        throw InputError("the VMEM budget takes f32, bf16, f16, int8, fp8 or int32 operands, not int4");
}

Operands operands_of(const BudgetKernelSpec& spec) {
    Operands ops;
    const DType acc = is_integer(spec.dtype) ? DType::int32 : DType::f32;
    const int in_buf = spec.input_buffers;
    const auto& s = spec.sizes;
    const auto& b = spec.blocks;
    switch (spec.kind) {
        case BudgetKernelKind::tiled_matmul: {
            const std::int64_t m = s[0], k = s[1], n = s[2], bm = b[0], bk = b[1], bn = b[2];
            ops.add({"x block", BudgetRole::input, 2, {m, k, 0}, {bm, bk, 0}, spec.dtype, in_buf, "at (i, k)"});
            ops.add({"y block", BudgetRole::input, 2, {k, n, 0}, {bk, bn, 0}, spec.dtype, in_buf, "at (k, j)"});
            ops.add({"out block", BudgetRole::output, 2, {m, n, 0}, {bm, bn, 0}, spec.dtype, 2, "at (i, j)"});
            ops.add({"acc",
                     BudgetRole::scratch,
                     2,
                     {0, 0, 0},
                     {bm, bn, 0},
                     acc,
                     1,
                     "the accumulator, kept across the k steps"});
            break;
        }
        case BudgetKernelKind::flash_attention: {
            const std::int64_t h = s[0], seq = s[1], d = s[2], bq = b[0], bkv = b[1];
            ops.add({"q block", BudgetRole::input, 3, {h, seq, d}, {1, bq, d}, spec.dtype, in_buf, "at (h, i, 0)"});
            ops.add({"k block", BudgetRole::input, 3, {h, seq, d}, {1, bkv, d}, spec.dtype, in_buf, "at (h, j, 0)"});
            ops.add({"v block", BudgetRole::input, 3, {h, seq, d}, {1, bkv, d}, spec.dtype, in_buf, "at (h, j, 0)"});
            ops.add({"o block", BudgetRole::output, 3, {h, seq, d}, {1, bq, d}, spec.dtype, 2, "at (h, i, 0)"});
            // The running max and sum are kept lane-replicated, (block_q, 128) f32 [FA-TPU].
            ops.add({"m",
                     BudgetRole::scratch,
                     2,
                     {0, 0, 0},
                     {bq, 128, 0},
                     DType::f32,
                     1,
                     "the running max per query row, replicated over 128 lanes"});
            ops.add({"l",
                     BudgetRole::scratch,
                     2,
                     {0, 0, 0},
                     {bq, 128, 0},
                     DType::f32,
                     1,
                     "the running sum per query row, replicated over 128 lanes"});
            ops.add({"acc",
                     BudgetRole::scratch,
                     2,
                     {0, 0, 0},
                     {bq, d, 0},
                     DType::f32,
                     1,
                     "the output accumulator, kept across the kv steps"});
            ops.add({"scores",
                     BudgetRole::temporary,
                     2,
                     {0, 0, 0},
                     {bq, bkv, 0},
                     DType::f32,
                     1,
                     "q k^T of one tile in f32, made by the body each step"});
            break;
        }
        case BudgetKernelKind::layernorm: {
            const std::int64_t rows = s[0], hidden = s[1], br = b[0];
            ops.add(
                {"x block", BudgetRole::input, 2, {rows, hidden, 0}, {br, hidden, 0}, spec.dtype, in_buf, "at (i, 0)"});
            // gamma and beta map every step to block (0, 0): fetched once, yet
            // given the default two buffers like any BlockSpec'd operand.
            ops.add({"gamma",
                     BudgetRole::input,
                     2,
                     {1, hidden, 0},
                     {1, hidden, 0},
                     spec.dtype,
                     2,
                     "at (0, 0), the same block every step"});
            ops.add({"beta",
                     BudgetRole::input,
                     2,
                     {1, hidden, 0},
                     {1, hidden, 0},
                     spec.dtype,
                     2,
                     "at (0, 0), the same block every step"});
            ops.add(
                {"out block", BudgetRole::output, 2, {rows, hidden, 0}, {br, hidden, 0}, spec.dtype, 2, "at (i, 0)"});
            if (spec.dtype != DType::f32)
                ops.add({"x in f32",
                         BudgetRole::temporary,
                         2,
                         {0, 0, 0},
                         {br, hidden, 0},
                         DType::f32,
                         1,
                         "the block upcast to f32 for the mean and variance, made by the body each step"});
            break;
        }
    }
    return ops;
}

Traffic traffic_of(const BudgetKernelSpec& spec) {
    auto cdiv = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
    const double e = bytes(spec.dtype);
    const auto& s = spec.sizes;
    const auto& b = spec.blocks;
    Traffic t;
    switch (spec.kind) {
        case BudgetKernelKind::tiled_matmul: {
            const double m = double(s[0]), k = double(s[1]), n = double(s[2]);
            const std::int64_t gi = cdiv(s[0], b[0]), gj = cdiv(s[2], b[2]), gk = cdiv(s[1], b[1]);
            t.steps = gi * gj * gk;
            // x's block (i, k) changes every step unless K is one block; then it
            // changes only with i. y's block (k, j) stays put only when both K
            // and N are one block [JAX-MM].
            const double x_reads = gk > 1 ? double(gj) : 1.0;
            const double y_reads = gk > 1 || gj > 1 ? double(gi) : 1.0;
            t.hbm_bytes = (m * k * x_reads + k * n * y_reads + m * n) * e;
            break;
        }
        case BudgetKernelKind::flash_attention: {
            const double h = double(s[0]), seq = double(s[1]), d = double(s[2]);
            const std::int64_t gq = cdiv(s[1], b[0]), gkv = cdiv(s[1], b[1]);
            t.steps = s[0] * gq * gkv;
            // K and V are streamed once per query block, unless one block holds them all.
            const double kv_reads = gkv > 1 ? double(gq) : 1.0;
            t.hbm_bytes = h * (2 * seq * d + 2 * seq * d * kv_reads) * e;
            break;
        }
        case BudgetKernelKind::layernorm: {
            const double rows = double(s[0]), hidden = double(s[1]);
            t.steps = cdiv(s[0], b[0]);
            t.hbm_bytes = (2 * rows * hidden + 2 * hidden) * e;
            break;
        }
    }
    return t;
}

}  // namespace detail

}  // namespace tpusim
