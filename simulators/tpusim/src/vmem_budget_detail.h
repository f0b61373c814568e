#pragma once
// Shared by the VMEM budget's kernels, its accounting and its block search.
#include <array>
#include <cstdint>

#include "tpusim/vmem_budget.h"

namespace tpusim::detail {

// One buffer set of a kernel; shapes hold `rank` dimensions (array is
// unused for scratch and temporaries).
struct BudgetOperand {
    const char* name = "";
    BudgetRole role = BudgetRole::input;
    int rank = 2;
    std::array<std::int64_t, 3> array{};
    std::array<std::int64_t, 3> block{};
    DType dtype = DType::bf16;
    int buffers = 1;
    const char* what = "";  // the index map, or what the buffer holds
};

struct Operands {
    std::array<BudgetOperand, 8> list{};
    int count = 0;
    void add(const BudgetOperand& op) { list[static_cast<std::size_t>(count++)] = op; }
};

struct Traffic {
    double hbm_bytes = 0;
    std::int64_t steps = 0;
};

// The kernel's names and presets; throws InputError for an unknown kind.
const BudgetKernelInfo& info_of(BudgetKernelKind kind);
// Throws InputError for a spec the kernels cannot take.
void validate(const BudgetKernelSpec& spec);
Operands operands_of(const BudgetKernelSpec& spec);
Traffic traffic_of(const BudgetKernelSpec& spec);
// Padded bytes of one buffer, from the raw dimensions (no allocation).
double padded_bytes(const Chip& chip, const std::int64_t* shape, int rank, DType dtype);
// The scoped limit in force; throws InputError past the physical VMEM.
double scoped_limit(const Chip& chip, std::optional<double> requested);

}  // namespace tpusim::detail
