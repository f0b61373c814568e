#pragma once
// The BlockSpec sandbox's questions about one matmul schedule, answered in
// one call: are the three blocks legal, do the index maps parse, does the
// output's map cover every block without races, how much VMEM do the
// buffers take against the limit, and how long does the pipeline take?
// Then, on request, the schedule run numerically on the host.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tpusim/blockspec.h"
#include "tpusim/chips.h"
#include "tpusim/pipeline.h"

namespace tpusim {

// x [M, K] @ y [K, N] -> out [M, N], each with its block and index map text.
struct SandboxInputs {
    std::int64_t m = 1024, k = 1024, n = 1024;
    std::int64_t bm = 256, bk = 256, bn = 256;
    DType dtype = DType::bf16;
    std::vector<std::int64_t> grid{4, 4, 4};
    std::vector<Semantics> semantics{Semantics::parallel, Semantics::parallel, Semantics::arbitrary};
    std::string x_map = "lambda i, j, k: (i, k)";
    std::string y_map = "lambda i, j, k: (k, j)";
    std::string out_map = "lambda i, j, k: (i, j)";
    int reduction_axis = 2;  // the kernel body's k is program_id(reduction_axis)
};

// One operand: its shapes, whether its map parsed, and its block's legality.
struct SandboxOperand {
    std::string name;  // "x", "y", "out"
    std::vector<std::int64_t> array, block;
    std::string map_error;  // the parser's sentence; empty when the map parsed
    IndexMap map;
    Legality legality;
};

struct SandboxReport {
    std::vector<SandboxOperand> operands;  // x, y, out
    std::optional<Coverage> coverage;      // when the output's map parsed
    std::string coverage_error;
    double vmem_bytes = 0;        // buffers x padded blocks + the f32 accumulator
    double vmem_limit_bytes = 0;  // the chip's scoped default
    Provenance vmem_provenance;
    std::optional<PipelineResult> prediction;
    std::string prediction_error;  // why there is no prediction
    // Every block legal, every map parsed, the output covered without races.
    bool sound = false;
    // A block illegal, an output block never written, or a race: a schedule
    // broken in one of the ways the chapter asks the learner to try.
    bool broken = false;
};

// The grid that walks every block once in `order`, a permutation of "ijk"
// (i over M's blocks, j over N's, k over K's), ragged blocks included.
std::vector<std::int64_t> sandbox_grid(const SandboxInputs& in, const std::string& order);

// `window` caps the coverage map recorded per axis (Coverage::visits).
SandboxReport evaluate_sandbox(const Chip& chip, const SandboxInputs& in, std::int64_t window = 64);

// The kernel the pipeline model runs for these inputs (maps already parsed).
Kernel sandbox_kernel(const SandboxInputs& in, const IndexMap& x, const IndexMap& y, const IndexMap& out);

struct SandboxVerification {
    Verification result;
    bool shrunk = false;  // the blocks were shrunk so the host run stays quick
    MatmulSchedule run;   // what was run: shapes, blocks, grid, maps
    std::string ran;      // "M=32 K=512 N=512 in blocks 8 x 128 x 128, grid (4, 4, 4)"
};

// Runs the schedule numerically with verify_matmul. When M*K*N is too large
// for a quick host run, runs the same grid, semantics and index maps with
// each block shrunk to at most 8 x 128 x 128 (the smallest legal ones) and
// says so. Throws InputError when a map does not parse, a block does not
// divide its size, or even the shrunk run is too large.
SandboxVerification verify_sandbox(const SandboxInputs& in, std::uint64_t seed = 1);

}  // namespace tpusim
