#include "tpusim/bench.h"

#include "tpusim/error.h"

namespace tpusim {

namespace {

BenchRow row(const Chip& chip, const char* id, const char* group, std::string label, OpCost cost) {
    Roofline r = roofline(chip, cost);
    return BenchRow{id, group, std::move(label), std::move(cost), std::move(r)};
}

// Adds the row only when the chip publishes a rate for its dtype.
void add_if_rated(std::vector<BenchRow>& rows, const Chip& chip, const char* id, const char* group, std::string label,
                  OpCost cost) {
    try {
        rows.push_back(row(chip, id, group, std::move(label), std::move(cost)));
    } catch (const InputError&) {
    }
}

MatmulSpec mm(std::int64_t m, std::int64_t k, std::int64_t n, DType in = DType::bf16, DType acc = DType::f32,
              DType out = DType::bf16) {
    MatmulSpec s;
    s.m = m;
    s.k = k;
    s.n = n;
    s.in = in;
    s.acc = acc;
    s.out = out;
    return s;
}

}  // namespace

std::vector<BenchRow> landing_bench(const Chip& chip) {
    const std::int64_t n = bench_n;
    std::vector<BenchRow> rows;
    rows.push_back(row(chip, "matmul_nnn", "landing", "matmul NxNxN", matmul_cost(mm(n, n, n))));
    rows.push_back(row(chip, "matmul_skinny", "landing", "matmul skinny 8xNxN", matmul_cost(mm(8, n, n))));
    rows.push_back(
        row(chip, "elementwise_add", "landing", "elementwise add", elementwise_cost({n, n}, 2, 1, DType::bf16, 1)));
    return rows;
}

std::vector<BenchRow> full_bench(const Chip& chip) {
    const std::int64_t n = bench_n;
    std::vector<BenchRow> rows = landing_bench(chip);

    add_if_rated(rows, chip, "matmul_nnn_int8", "matmul", "matmul NxNxN int8 (int32 acc)",
                 matmul_cost(mm(n, n, n, DType::int8, DType::int32, DType::bf16)));
    add_if_rated(rows, chip, "matmul_nnn_fp8", "matmul", "matmul NxNxN fp8",
                 matmul_cost(mm(n, n, n, DType::fp8, DType::f32, DType::bf16)));
    MatmulSpec batched = mm(512, 512, 512);
    batched.batch = 64;
    rows.push_back(row(chip, "batched_matmul", "matmul", "batched matmul 64 × 512^3", matmul_cost(batched)));
    rows.push_back(row(chip, "matmul_square_f32", "matmul", "matmul NxNxN f32",
                       matmul_cost(mm(n, n, n, DType::f32, DType::f32, DType::f32))));

    rows.push_back(
        row(chip, "reduce_rows", "reduction", "sum NxN over the last axis", reduction_cost({n, n}, {1}, DType::bf16)));
    rows.push_back(
        row(chip, "reduce_all", "reduction", "sum NxN f32 to a scalar", reduction_cost({n, n}, {0, 1}, DType::f32)));

    // One layer of a transformer with model width D = 4096, MLP width F = 4D,
    // and 8192 tokens in the batch (training or prefill).
    const std::int64_t d = 4096, f = 4 * d, t = 8192;
    rows.push_back(
        row(chip, "layer_qkv", "transformer layer", "QKV projection (T=8192, D=4096)", matmul_cost(mm(t, d, 3 * d))));
    rows.push_back(
        row(chip, "layer_attn_out", "transformer layer", "attention output projection", matmul_cost(mm(t, d, d))));
    rows.push_back(row(chip, "layer_mlp_up", "transformer layer", "MLP up (F=4D)", matmul_cost(mm(t, d, f))));
    rows.push_back(row(chip, "layer_mlp_down", "transformer layer", "MLP down", matmul_cost(mm(t, f, d))));
    rows.push_back(
        row(chip, "decode_mlp_up", "transformer layer", "decode MLP up (8 tokens)", matmul_cost(mm(8, d, f))));
    return rows;
}

}  // namespace tpusim
