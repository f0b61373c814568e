#pragma once
// The VMEM budget of a Pallas kernel: every operand's block times its
// buffers, the scratch and the body's large temporaries, each padded to the
// tiles it is stored in, stacked against the chip's scoped VMEM limit and
// its physical VMEM per TensorCore [JAX-INFO][JAX-CP]. Over the
// limit, the kernel does not compile; the budget says what the compiler
// reports, and the largest blocks that would fit.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tpusim/blockspec.h"
#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/layout.h"
#include "tpusim/provenance.h"

namespace tpusim {

// The tile an array of `dtype` is stored in, in HBM and in the VMEM copies
// of its blocks: 128 lanes, and rows per TpuInfo.get_sublane_tiling
// [JAX-INFO]: 8 for 32- and 16-bit types before TPU7x, 8 x (32 / bits) for
// narrower ones, and 8 x (32 / bits) for every type from TPU7x on
// (bf16 16 rows). Mosaic's vreg tiling (native_tiling) may differ.
Tiling memory_tiling(const Chip& chip, DType dtype);
// The rows of the tile a block with `rows` rows is stored in: memory_tiling's
// for a block at least that tall; for a shorter one the packing factor,
// doubled until it holds the rows (a one-row f32 block: 1; bf16: 2)
// [MOSAIC-LAYOUT].
std::int64_t block_tile_rows(const Chip& chip, DType dtype, std::int64_t rows);

// Bytes one buffer of `shape` takes once padded to its tile: the last
// dimension to 128, the second-to-last to block_tile_rows; a rank-1
// block to a whole number of 1024 elements (one (8,128) tile). The pipeline
// model's VMEM count (vmem_bytes) uses the same padding.
double padded_vmem_bytes(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype);

enum class BudgetRole { input, output, scratch, temporary };
std::string_view role_name(BudgetRole role);  // "input", "output", "scratch", "temporary"

// The three kernels the instrument budgets. Each has named sizes and block
// dimensions; a block dimension that is a second-to-last array axis snaps to
// the dtype's rows, one that is a last axis to 128 lanes.
enum class BudgetKernelKind { tiled_matmul, flash_attention, layernorm };

struct BudgetDimension {
    std::string name;  // "bm", "block_q", "M"
    std::int64_t default_value = 0;
    bool lanes = false;  // a block dimension on the lane axis (snaps to 128)
};

struct BudgetKernelInfo {
    BudgetKernelKind kind;
    std::string id;     // "matmul", "attention", "layernorm"
    std::string title;  // "tiled matmul"
    std::vector<BudgetDimension> sizes;
    std::vector<BudgetDimension> blocks;
    DType default_dtype = DType::bf16;
};

// The three kernels in the order the instrument offers them, with their
// preset sizes and blocks: the Pallas docs' matmul (4096^3, 512 x 1024 x
// 1024 [JAX-MM]), flash attention forward (8 heads, 4096 tokens, head_dim
// 128, 512-row blocks), and a layernorm over 8192 rows of 4096.
const std::vector<BudgetKernelInfo>& budget_kernels();
// Throws InputError for an id that is none of the three.
const BudgetKernelInfo& budget_kernel_info(std::string_view id);

struct BudgetKernelSpec {
    BudgetKernelKind kind = BudgetKernelKind::tiled_matmul;
    DType dtype = DType::bf16;
    std::vector<std::int64_t> sizes;   // in the order of BudgetKernelInfo::sizes
    std::vector<std::int64_t> blocks;  // in the order of BudgetKernelInfo::blocks
    int input_buffers = 2;             // streamed inputs: 2 (the default) or 3 (pl.Buffered(3))
};

// A kernel's preset: its default sizes, blocks and dtype.
BudgetKernelSpec budget_preset(BudgetKernelKind kind);

// One row of the budget.
struct BudgetLine {
    std::string name;  // "x block", "acc", "scores"
    BudgetRole role = BudgetRole::input;
    std::string what;                 // "(512, 1024) bf16 at (i, k)", or what the body keeps
    std::vector<std::int64_t> array;  // empty for scratch and temporaries
    std::vector<std::int64_t> block;
    std::vector<std::int64_t> padded;  // the block padded to its tiles
    DType dtype = DType::bf16;
    Tiling tile;
    int buffers = 1;
    double logical_bytes = 0;  // one buffer, unpadded
    double padded_bytes = 0;   // one buffer, padded
    double total_bytes = 0;    // buffers x padded_bytes
    Legality legality;         // scratch and temporaries are always legal
};

// What the compiler says when the kernel does not compile, quoted only
// where a published message exists, with its source.
struct CompilerMessage {
    std::string stage;        // "lowering" or "compile"
    std::string quoted;       // the message's fixed words, verbatim
    std::string source;       // where that text comes from
    std::string explanation;  // what follows it, and what it means, in our words
};

struct VmemBudget {
    std::vector<BudgetLine> lines;
    double total_bytes = 0;          // every line, padded, with its buffers
    double logical_bytes = 0;        // the same without padding
    double limit_bytes = 0;          // the scoped limit in force
    double default_limit_bytes = 0;  // the chip's scoped default (an assumption)
    double physical_bytes = 0;       // VMEM per TensorCore
    bool limit_raised = false;       // vmem_limit_bytes above the default
    bool legal = true;               // every block passes Mosaic's shape check
    bool fits = false;               // legal and total <= limit
    bool fits_physical = false;      // total <= physical VMEM
    // The least vmem_limit_bytes that would let it compile, when it is
    // legal, over the limit and within physical VMEM; 0 otherwise.
    double limit_needed_bytes = 0;
    double hbm_bytes = 0;    // what the grid copies in and out with these blocks
    std::int64_t steps = 0;  // grid steps
    std::string verdict;     // one sentence
    std::optional<CompilerMessage> error;
    Provenance provenance;
};

// The budget of a kernel against `vmem_limit_bytes` (default: the chip's
// scoped default). Throws InputError for a limit that is not above zero or
// is more than the chip's physical VMEM, and for malformed specs (sizes or
// blocks below 1, the wrong count of them, buffers other than 2 or 3).
VmemBudget vmem_budget(const Chip& chip, const BudgetKernelSpec& spec,
                       std::optional<double> vmem_limit_bytes = std::nullopt);

// The largest legal blocks that fit the limit for the same kernel, sizes,
// dtype and buffers: each block dimension a divisor of its size that is a
// power-of-two multiple of its tile (the dtype's rows or 128 lanes), or the
// whole size. "Largest" is the fewest HBM bytes copied (bigger blocks are
// re-read fewer times), then the fewest grid steps, then the least VMEM.
struct BlockSuggestion {
    bool found = false;
    std::vector<std::int64_t> blocks;
    double total_bytes = 0;  // its VMEM budget
    double hbm_bytes = 0;    // what the grid copies in and out
    std::int64_t steps = 0;  // grid steps
    std::string reason;      // one sentence: what it optimised, or why none fits
};
BlockSuggestion largest_fitting_blocks(const Chip& chip, const BudgetKernelSpec& spec,
                                       std::optional<double> vmem_limit_bytes = std::nullopt);

}  // namespace tpusim
