#pragma once
// Pieces of the pipeline model shared by its source files.
#include <cstdint>
#include <vector>

#include "tpusim/pipeline.h"

namespace tpusim::detail {

// One BlockSpec prepared for the walk: its block index as a single integer
// key (so "did the block change?" is one comparison) and its copy size.
struct Operand {
    std::vector<std::int64_t> key_coeff;  // per grid axis
    std::int64_t key_const = 0;
    bool ragged = false;  // a block runs past the array's edge
    double full_block_bytes = 0;
    const BlockSpec* spec = nullptr;

    std::int64_t key = -1;  // block key at the current step
    double bytes = 0;       // bytes of the current block

    std::int64_t key_at(const std::vector<std::int64_t>& g) const {
        std::int64_t k = key_const;
        for (std::size_t i = 0; i < g.size(); ++i) k += key_coeff[i] * g[i];
        return k;
    }
    // Only the in-bounds part of a ragged block is copied.
    double block_bytes_at(const std::vector<std::int64_t>& g) const;
};

struct CoreSplit {
    int cores = 1;
    std::size_t axis = 0;  // the grid axis split between cores
};

struct DeviceRates {
    double step_compute_s = 0;
    double core_bandwidth = 0;    // B/s one core sees while all cores run
    double device_flops = 0;      // peak of the device the kernel runs on
    double device_bandwidth = 0;  // HBM B/s of that device
    int active_mxus = 0;
    int mxus = 0;
};

void validate(const Kernel& kernel);
std::vector<Operand> prepare_operands(const Kernel& kernel);
double vmem_limit(const Chip& chip, const PipelineOptions& options);
CoreSplit split_cores(const Chip& chip, const Kernel& kernel);
DeviceRates device_rates(const Chip& chip, const Kernel& kernel, const PipelineOptions& options, int cores);
double array_bytes(const Kernel& kernel);  // every input and output array once
Provenance provenance(const Chip& chip, const Kernel& kernel, const PipelineOptions& options, const CoreSplit& split,
                      const DeviceRates& rates);

}  // namespace tpusim::detail
