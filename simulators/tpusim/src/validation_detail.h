#pragma once
// What a published run costs at the chip's peaks, worked out once per row,
// and the few fitted constants that turn it into a time. Fitting re-times
// every row many times; keeping the peak costs apart makes that cheap.
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/pipeline.h"
#include "tpusim/provenance.h"
#include "tpusim/published.h"

namespace tpusim::detail {

// One kernel's work at the chip's peaks: its time is the slowest of the
// three once each is divided by its attainable fraction.
struct Stage {
    double mxu_s = 0;  // at the MXU's peak for the dtype (bf16 rate for f32)
    double vpu_s = 0;
    double hbm_s = 0;        // at HBM's peak bandwidth
    bool f32_mxu = false;    // f32 operands: multiplied by the fitted passes
    bool flash = false;      // a flash-attention kernel: its MXU and VPU work at the kernel's own fraction
    std::int64_t steps = 0;  // a flash kernel's computed grid steps, each at least a step's least time
};

struct RowCost {
    bool expressible = true;
    std::string why_not;
    std::string model;
    std::vector<Stage> stages;     // one per XLA op or kernel
    double ici_s = 0;              // a collective at the links' peak
    double link_s = 0;             // a copy at the host link's peak
    double fixed_s = 0;            // already final: Pallas grid steps, the pipeline model's time
    bool pipeline = false;         // fixed_s is the pipeline model's time, launch included
    double pipeline_launch_s = 0;  // the launch inside it, left out for a device timing
    bool collective = false;       // pays the collective floor
    std::int64_t flash_steps = 0;  // a flash kernel's computed grid steps ...
    double grid_step_s = 0;        // ... each at least this, unless a flash step time is fitted
    std::int64_t grid_steps = 0;
    Provenance provenance;
};

// The fitted constants of one chip.
struct ChipConstants {
    double mxu_efficiency = 1;
    double hbm_efficiency = 1;
    double flash_efficiency = 1;  // of the flash kernel's MXU and VPU work
    double flash_step_s = 0;      // least time of a flash grid step; 0: the chip's grid-step overhead
    double ici_efficiency = 1;
    double link_efficiency = 1;
    double op_floor_s = 0;          // least device time of one XLA op or kernel
    double collective_floor_s = 0;  // least device time of one collective
    double dispatch_s = 0;          // Python's share of a call, beyond the device time
    double f32_over_bf16 = 1;       // an f32 matmul's MXU time over bf16's, at default precision
};

// A Pallas matmul row's kernel: its dims, its blocks (512 where the row
// gives none) and its dtype in and out.
BlockedMatmul pallas_matmul_of(const PublishedRow& row);

// Throws nothing: a run the models cannot express says why instead.
RowCost cost_of(const PublishedRow& row);

// A flash step's least time: the fitted one, else the chip's grid-step overhead.
double flash_step_time(const RowCost& cost, const ChipConstants& k);
// A flash kernel's computed steps (all its stages'), each at a step's least time.
double flash_steps_time(const RowCost& cost, const ChipConstants& k);
double device_time(const RowCost& cost, const ChipConstants& k);
double call_time(const RowCost& cost, const ChipConstants& k);
// The time the row's own timing compares.
double compared_time(const PublishedRow& row, const RowCost& cost, const ChipConstants& k);

}  // namespace tpusim::detail
