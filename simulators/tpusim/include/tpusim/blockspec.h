#pragma once
// BlockSpecs: is a block shape legal under Mosaic's rules, does an index map
// cover the output safely, and does a schedule compute the right numbers?
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/dtype.h"
#include "tpusim/pipeline.h"
#include "tpusim/provenance.h"

namespace tpusim {

enum class MemorySpace { vmem, any, smem };

struct Legality {
    bool legal = false;
    std::string reason;              // one sentence, for legal and illegal blocks alike
    std::vector<std::string> notes;  // advice that does not affect legality (packing)
};

// Mosaic's block-shape check ([JAX-LOWER], `_check_block_mappings`):
// rank >= 2: the last dim equal to the array's or a multiple of 128, the
// second-to-last equal to the array's or a multiple of 8; rank 1: equal, a
// multiple of 1024, or a power of two of at least 128 * (32 / bits);
// rank 0 is refused; in ANY (HBM) only the whole array. The check is the
// same for every dtype; the dtype only adds packing advice.
// Throws InputError for malformed shapes (rank mismatch, sizes below 1).
Legality check_block(const std::vector<std::int64_t>& array, const std::vector<std::int64_t>& block, DType dtype,
                     MemorySpace space = MemorySpace::vmem);

// Who wrote one output block, for drawing the coverage map.
struct BlockVisit {
    std::int64_t writes = 0;       // grid steps that write it
    std::int64_t first_step = -1;  // positions in the row-major walk; -1: never written
    std::int64_t last_step = -1;
    bool race = false;             // written by steps that differ on a parallel axis
    bool non_consecutive = false;  // revisited after another block was written
};

struct Coverage {
    bool ok = false;          // complete, race-free and revisits consecutive
    std::int64_t blocks = 0;  // output blocks in the array
    std::int64_t blocks_written = 0;
    std::int64_t writes = 0;                         // grid steps, each writing one block
    bool race = false;                               // two steps that differ on a parallel axis write one block
    bool non_consecutive = false;                    // a block is revisited after another block was written
    std::vector<std::vector<std::int64_t>> missing;  // the first few unwritten blocks
    std::vector<std::string> problems;               // one sentence each
    // With a window: the blocks whose every index is below it, row-major over
    // min(blocks, window) per axis; window_shape holds those sizes.
    std::vector<BlockVisit> visits;
    std::vector<std::int64_t> window_shape;
};

// Walks the grid and checks an output's index map: every block written, no
// two parallel steps writing one block, revisits only on consecutive steps.
// Throws InputError for grids or block counts above about 16 million.
// A `window` above 0 also records, per block, who wrote it (Coverage::visits)
// for the blocks below `window` on every axis.
Coverage check_coverage(const std::vector<std::int64_t>& grid, const std::vector<Semantics>& semantics,
                        const BlockSpec& output, std::int64_t window = 0);

// A matmul schedule to run numerically: the docs' kernel body (zero the f32
// accumulator when the reduction index is 0, accumulate x @ y, store on the
// last reduction index) driven by a grid and three index maps.
struct MatmulSchedule {
    std::int64_t m = 0, k = 0, n = 0;
    std::int64_t bm = 0, bk = 0, bn = 0;
    std::vector<std::int64_t> grid;
    std::vector<Semantics> semantics;
    IndexMap x_map, y_map, out_map;
    int reduction_axis = 2;  // the grid axis whose index is the kernel's program_id(k)
    DType dtype = DType::bf16;
    std::string order = "ijk";
};

// The docs' schedule with the grid axes in `order`, a permutation of "ijk"
// (i over M blocks, j over N blocks, k over K blocks; "ijk" is the docs').
MatmulSchedule matmul_schedule(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t bm, std::int64_t bk,
                               std::int64_t bn, DType dtype, const std::string& order = "ijk");

struct Verification {
    bool passed = false;
    std::string reason;  // one sentence
    std::int64_t elements = 0;
    std::int64_t mismatches = 0;
    double max_abs_error = 0;
    double tolerance = 0;  // relative to the size of the products summed
    std::int64_t steps = 0;
    Coverage coverage;
    Provenance provenance;  // always verified_off_chip, pass or fail
};

// Runs the schedule on the host with real arithmetic (inputs rounded to the
// dtype, f32 accumulation, output rounded to the dtype; a fresh output
// buffer holds NaN like interpret mode) and compares with a reference
// matmul in double precision. Throws InputError for shapes that are not
// divisible or too large for a quick host run (M*K*N above 2^24).
Verification verify_matmul(const MatmulSchedule& schedule, std::uint64_t seed = 1);

}  // namespace tpusim
