#pragma once
// The bench: roofline floors for a fixed set of ops, per chip. The landing
// page shows the first three rows for v5e (697.7 µs, 41.1 µs, 122.8 µs).
#include <string>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/roofline.h"

namespace tpusim {

struct BenchRow {
    std::string id;     // stable key: "matmul_nnn", "matmul_skinny", "elementwise_add", ...
    std::string group;  // "landing", "matmul", "reduction", "transformer layer"
    std::string label;  // "matmul NxNxN"
    OpCost cost;
    Roofline result;
};

// N used by the landing rows.
inline constexpr int bench_n = 4096;

// The landing page's three rows: matmul NxNxN, matmul skinny 8xNxN and
// elementwise add (two inputs, one output), all bf16 with N = 4096.
std::vector<BenchRow> landing_bench(const Chip& chip);
// The landing rows, then int8/fp8 matmuls where the chip publishes a rate,
// a batched matmul, reductions and a transformer layer's matmuls. Rows a
// chip has no rate for are left out. Attention and collectives come later.
std::vector<BenchRow> full_bench(const Chip& chip);

}  // namespace tpusim
