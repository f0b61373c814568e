#pragma once
// A Pallas-style grid pipeline on one chip [JAX-PIPE][DOC-TPU]:
// the grid is walked in row-major order (last axis fastest); each operand
// has a BlockSpec (block shape plus an affine index map of the grid
// indices); a block is copied only when its index changes from the previous
// step; inputs and outputs are double-buffered, so the DMAs for the next
// step overlap the current step's compute.
//
// Per step:  max(the fixed time of a grid step, compute, copies of the next
//            step's new input blocks and the previous step's finished
//            output blocks at the HBM bandwidth)
// plus a prologue (the first step's inputs) and an epilogue (the last
// step's outputs), which nothing overlaps and which pay the DMA latency,
// plus a fixed launch cost per call. The step time and the launch cost are
// fitted on published timings (validation.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

// block_index[axis] = offsets[axis] + sum over g of coeffs[axis][g] * grid[g].
// `lambda i, j, k: (i, k)` is IndexMap::select({0, 2}, 3).
struct IndexMap {
    std::vector<std::vector<std::int64_t>> coeffs;  // [array axis][grid axis]
    std::vector<std::int64_t> offsets;              // [array axis]

    // Array axis a follows grid axis grid_axes[a]; -1 pins it to block 0.
    static IndexMap select(const std::vector<int>& grid_axes, int grid_rank);
    // Every grid step maps to block 0 on every axis.
    static IndexMap constant(int array_rank, int grid_rank);
    std::vector<std::int64_t> apply(const std::vector<std::int64_t>& grid_index) const;
    // "(i, j, k) -> (i, k)"
    std::string text() const;
};

struct BlockSpec {
    std::string name;
    std::vector<std::int64_t> array_shape;
    std::vector<std::int64_t> block_shape;
    IndexMap index_map;
    DType dtype = DType::bf16;
    int buffers = 2;  // double buffering is Pallas's default [JAX-PIPE]
};

enum class Semantics { parallel, arbitrary };

struct ScratchBuffer {
    std::string name;
    std::vector<std::int64_t> shape;
    DType dtype = DType::f32;
};

// Work done by one grid step on the MXU: a (m x k) @ (k x n) block product.
struct MxuWork {
    std::int64_t m = 0, k = 0, n = 0;
    DType dtype = DType::bf16;
};
// Work done by one grid step on the VPU over a rows x cols tile.
struct VpuWork {
    std::int64_t rows = 0, cols = 0;
    double flops_per_element = 1;
};

struct Kernel {
    std::string name;  // "blocked matmul"
    std::vector<std::int64_t> grid;
    std::vector<Semantics> semantics;  // empty: every axis arbitrary (Pallas's default)
    std::vector<BlockSpec> inputs;
    std::vector<BlockSpec> outputs;
    std::vector<ScratchBuffer> scratch;
    std::optional<MxuWork> mxu;
    std::optional<VpuWork> vpu;
    double useful_flops = 0;  // the op's FLOPs without padding, for utilization
    std::string shapes;       // for provenance
    std::string dtype_text;
};

struct PipelineOptions {
    std::optional<double> vmem_limit_bytes;  // default: the chip's scoped default
    std::optional<double> step_overhead_s;   // the least time of a grid step; default: the chip's assumption
    std::optional<double> launch_s;          // per call; default: the chip's assumption
    std::optional<double> dma_latency_s;     // default: the chip's assumption
    std::optional<double> hbm_bandwidth;     // default: the chip's (for what-ifs)
    std::size_t timeline_steps = 0;          // record at most this many steps
    bool schedule = false;                   // record every step, compactly (PipelineResult::schedule)
};

struct StepRecord {
    std::int64_t step = 0;  // position in this core's walk
    int core = 0;
    std::vector<std::int64_t> grid_index;
    std::vector<int> fetched;  // inputs whose block was copied in for this step
    std::vector<int> written;  // outputs written back after this step
    double start_s = 0;
    double compute_s = 0;
    double dma_s = 0;       // DMAs running during this step (next inputs, previous outputs)
    double overhead_s = 0;  // the least time a step takes
    double end_s = 0;
};

// One grid step as the schedule records it, on the call's clock (the launch
// first, then the prologue): the MXU computes from start_s for compute_s;
// the DMA engine copies the next step's new input blocks in (dma_in_s), then
// writes the output blocks finished the step before back (dma_out_s); the
// step ends at end_s = start_s + max(its fixed time, compute, DMA).
struct ScheduleStep {
    double start_s = 0;
    double end_s = 0;
    double compute_s = 0;
    double dma_in_s = 0;
    double dma_out_s = 0;
    std::uint32_t in_mask = 0;   // inputs copied in during this step (bit per input)
    std::uint32_t out_mask = 0;  // outputs written back during this step (bit per output)
    int core = 0;
};

struct PipelineResult {
    double time_s = 0;
    std::int64_t steps = 0;  // grid points in total
    int cores = 1;           // TensorCores the grid was split over
    double vmem_bytes = 0;   // buffers x blocks + scratch, per core
    double vmem_limit_bytes = 0;
    double hbm_bytes = 0;  // everything copied in and out
    std::int64_t input_copies = 0;
    std::int64_t output_copies = 0;
    double flops = 0;          // useful FLOPs
    double utilization = 0;    // flops / (time x the device's peak)
    double compute_s = 0;      // summed over the slowest core's steps
    double overhead_s = 0;     // time steps spent at their fixed least time beyond their work
    double launch_s = 0;       // the fixed cost of the call
    double step_floor_s = 0;   // the least time of a grid step
    double exposed_dma_s = 0;  // DMA time not hidden under compute or the step's fixed time
    double prologue_s = 0;
    double epilogue_s = 0;
    double floor_s = 0;  // roofline floor of the same op on the same device
    std::vector<StepRecord> timeline;
    // With PipelineOptions::schedule: every step of every core, core by core
    // in walk order; schedule_grid holds each step's grid index (grid rank
    // numbers a step), core_prologue_s / core_epilogue_s each core's unhidden
    // first and last copies (the epilogue starts at its last step's end).
    std::vector<ScheduleStep> schedule;
    std::vector<std::int32_t> schedule_grid;
    std::vector<double> core_prologue_s, core_epilogue_s;
    Provenance provenance;
};

// Runs the model. Throws InputError for inconsistent kernels (shapes,
// index maps pointing outside the array, semantics of the wrong length)
// and when the VMEM needed exceeds the limit.
PipelineResult simulate(const Chip& chip, const Kernel& kernel, const PipelineOptions& options = {});

// VMEM one core needs: buffers x block bytes + scratch, each padded to the
// tiles it is stored in on this chip (memory_tiling in vmem_budget.h).
double vmem_bytes(const Chip& chip, const Kernel& kernel);

// The arithmetic behind a figure, a step a line, for the card that explains
// it (Provenance::working): the VMEM of `kernel` buffer by buffer, ending in
// vmem_bytes; a result's time term by term, ending in time_s; its HBM
// traffic as the copies that make it.
std::vector<std::string> vmem_working(const Chip& chip, const Kernel& kernel);
std::vector<std::string> time_working(const PipelineResult& r);
std::vector<std::string> hbm_working(const PipelineResult& r);

// The blocked matmul of the Pallas TPU docs [JAX-MM]: grid (M/bm, N/bn, K/bk)
// with semantics (parallel, parallel, arbitrary), x block (bm, bk) at (i, k),
// y block (bk, bn) at (k, j), output block (bm, bn) at (i, j), and an f32
// (bm, bn) accumulator in scratch. Blocks must divide the sizes and be legal
// BlockSpecs; otherwise InputError.
//
// `order` names the grid's axes outermost first: "mnk" is the docs' grid
// (m/bm, n/bn, k/bk); "kmn" puts the contraction first (each output block is
// then revisited non-consecutively, so its partial sums are written back
// and the result is wrong, chapter 11's worked example 3). m and n stay
// parallel and k arbitrary wherever they sit.
struct BlockedMatmul {
    std::int64_t m = 0, k = 0, n = 0;
    std::int64_t bm = 0, bk = 0, bn = 0;
    DType in = DType::bf16;
    DType out = DType::bf16;
    std::string order = "mnk";
};
Kernel blocked_matmul(const BlockedMatmul& spec);

// An elementwise op over `inputs` arrays of rows x cols, blocks (br, bc),
// grid (rows/br, cols/bc), both axes parallel.
Kernel blocked_elementwise(std::int64_t rows, std::int64_t cols, std::int64_t br, std::int64_t bc, int inputs,
                           DType dtype, double flops_per_element = 1);

}  // namespace tpusim
