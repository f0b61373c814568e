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
#include "tpusim/validation.h"

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

// A Pallas matmul row's kernel: its dims, its blocks (512 where the row
// gives none) and its dtype in and out.
BlockedMatmul pallas_matmul_of(const PublishedRow& row);

// Throws nothing: a run the models cannot express says why instead.
RowCost cost_of(const PublishedRow& row);

// A flash step's least time: the fitted one, else the chip's grid-step overhead.
double flash_step_time(const RowCost& cost, const DeviceConstants& k);
// A flash kernel's computed steps (all its stages'), each at a step's least time.
double flash_steps_time(const RowCost& cost, const DeviceConstants& k);
double device_time(const RowCost& cost, const DeviceConstants& k);
double call_time(const RowCost& cost, const DeviceConstants& k);
// The time the row's own timing compares.
double compared_time(const PublishedRow& row, const RowCost& cost, const DeviceConstants& k);

}  // namespace tpusim::detail
