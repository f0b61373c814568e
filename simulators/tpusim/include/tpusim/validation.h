#pragma once
// How wrong the models are on real chips: every published timing of the
// tables in published.h set against what libtpusim predicts for the same
// run, family by family.
//
// Each prediction is a device time (what a profiler or on-device timer
// sees) and a call time (what Python's clock sees: the device time plus
// dispatch). A handful of constants per chip, the attainable fractions of
// the MXU, HBM, ICI and host-link peaks and the floors of a small op, are
// fitted on the rows a fixed rule leaves in: a third of every family's
// priced rows (the lowest by a hash of the row's id) is kept out of every
// fit, and its errors are reported apart. A row its own source contradicts
// is in doubt: no fit uses it, it is not counted among the held out, and
// its errors are reported apart again. The constants name the rows they
// came from.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tpusim/provenance.h"
#include "tpusim/published.h"

namespace tpusim {

// True for the rows the rule keeps out of every fit. Each family's rows the
// models can price (a published time, expressible, not in doubt) are ranked
// by a hash of their ids, and the first third of them, rounded up, is held
// out: a third of every family, however few its rows, and adding a row
// moves at most one other across the line.
bool held_out_by_rule(std::string_view id);

// The hash the rule ranks by: FNV-1a of the id's bytes, the same on every
// platform.
std::uint64_t held_out_rank(std::string_view id);

// One fitted constant, as the validation page and the command line show it.
struct FittedConstant {
    std::string key;   // "mxu_efficiency"
    std::string name;  // "attainable MXU fraction"
    std::string chip;  // "v6e", or "all" for one value for every chip
    double value = 0;
    std::string unit;                    // "" for a fraction, "s"
    std::vector<std::string> fitted_on;  // the row ids that fixed it
    std::string how;                     // "fitted on 12 v6e rows", "no v7 row fixes it: the value of every chip"
};

struct ValidationRow {
    const PublishedRow* row = nullptr;
    bool expressible = true;
    std::string not_expressible;  // why the models cannot predict this run
    bool held_out = false;        // kept out of every fit by the rule
    bool fitted = false;          // a fit used it
    std::string model;            // "pipeline", "roofline, attainable", "flash attention", ...
    std::int64_t grid_steps = 0;  // Pallas rows
    double device_s = 0;
    double call_s = 0;
    double predicted_s = 0;  // the one the row's timing compares: device or call
    double error = 0;        // predicted / published - 1
    Provenance provenance;
};

struct FamilyErrors {
    Family family = Family::matmul;
    int rows = 0;  // published with a time
    int expressible = 0;
    int fitted = 0, held_out = 0;                    // rows a fit used; rows the rule kept out
    double held_out_median = 0, held_out_worst = 0;  // of |error|
    int in_doubt = 0;                                // priced rows their own sources contradict
    double in_doubt_median = 0, in_doubt_worst = 0;  // of |error|
    double fitted_median = 0, fitted_worst = 0;
    double all_median = 0;  // over every expressible row: held out, fitted and the rest
    std::vector<std::string> chips;
};

// One chip's fitted constants, as the validation prices a run's device
// and call times with them.
struct DeviceConstants {
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

struct Validation {
    std::vector<ValidationRow> rows;
    std::vector<FamilyErrors> families;  // every family with a row
    std::vector<FittedConstant> constants;
    std::map<std::string, DeviceConstants> per_chip;  // by chip id, every chip of the table
};

// Every row predicted, after fitting the constants on the rows the rule
// leaves in. Computed once and kept: the tables are built into the library.
const Validation& validation();

// One op met outside the tables (a profile's), as its times at the peaks:
// the MXU at the dtype's rate, the VPU, HBM, the links, the host link.
struct OpAtPeaks {
    double mxu_s = 0, vpu_s = 0, hbm_s = 0, ici_s = 0, link_s = 0;
    bool f32_mxu = false;     // f32 operands on the MXU, at default precision
    bool collective = false;  // pays the least time of a collective
};

struct FittedTime {
    double time_s = 0;
    std::string bound;  // the unit whose time is longest at the fitted rates: "MXU", "VPU", "HBM", "ICI" or "PCIe"
};

// Its device time priced as the validation prices a row of its chip: each
// unit's time over its attainable fraction, the slowest of the MXU, VPU and
// HBM, the links' and host link's times added, then the least time of an
// op (and of a collective, for one). What binds at those rates may differ
// from what binds at the peaks. Throws InputError for an unknown chip.
FittedTime fitted_device_time(const std::string& chip_id, const OpAtPeaks& op);

// The pipeline model's fixed step time and launch cost that reproduce the
// two Pallas matmul rows of the fit with the most and the fewest grid
// steps, everything else as the chip table has it: what the chip table's
// two constants were set from.
struct PipelineFit {
    double step_s = 0;
    double launch_s = 0;
    std::string many_steps_row, few_steps_row;
};
PipelineFit fit_pipeline_constants();

}  // namespace tpusim
