#pragma once
// A device's ops as one table: measured self time beside what libtpusim
// predicts for the same op on the chip the profile names, and a summary that
// says where the device's time went, gaps included.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tpuprofile/profile.h"
#include "tpusim/chips.h"

namespace tpuprofile {

// What an op is, in the course's words.
enum class Family {
    fusion,         // a loop, input or output fusion
    matmul,         // a dot or convolution, fused or not
    pallas,         // a Pallas kernel (a tpu_custom_call)
    custom_call,    // any other custom call
    copy,           // copies and layout changes in HBM
    host_transfer,  // copies to or from host memory
    collective,     // all-reduce, all-gather, reduce-scatter, all-to-all, permutes
    async_start,    // the start of an asynchronous op; its done waits for it
    control,        // while, conditional, call
    gpu_kernel,     // a kernel on a GPU
    other
};

std::string_view family_name(Family f);    // "fusion", "matmul", "Pallas kernel", ...
std::string_view family_plural(Family f);  // "Fusions", "Matmuls", "Pallas kernels", ...

struct Prediction {
    bool available = false;
    double time_s = 0;   // one occurrence, on one device
    std::string model;   // "roofline", "host link", "ring collective"
    std::string bound;   // "HBM", "MXU", "VPU", "PCIe", "ICI"
    std::string reason;  // when not available: why, in one sentence
    std::vector<std::string> assumptions;
};

// The simulator's own reading of the same instruction: the program's HLO
// (decoded from the profile) costed by libtpusim's HLO cost model, with
// its FLOPs and bytes counted from the shapes rather than taken from XLA.
struct InstructionCost {
    bool available = false;
    double flops = 0, bytes = 0;  // one run's
    double time_s = 0;            // one run's, on the device
    std::string bound;            // "HBM", "MXU", "VPU"
    std::string reason;           // when not available
};

struct OpRow {
    std::int32_t op = -1;  // index into Device::ops
    Family family = Family::other;
    std::string kind;  // "loop fusion", "copy-done (host to HBM)", "Pallas kernel"
    double self_total_s = 0;
    double self_per_call_s = 0;
    double share = 0;         // of the device's busy time
    double flops_per_s = -1;  // achieved, from the profile's FLOPs and the self time
    double bytes_per_s = -1;
    double intensity = -1;  // FLOP per byte
    std::string dtype;      // of the result: "f32", "bf16"
    // An asynchronous op's done: its start op, and the mean measured time
    // from the start's beginning to the done's end (the whole transfer).
    std::int32_t start_op = -1;
    double transfer_s = -1;
    Prediction predicted;                                     // per occurrence
    InstructionCost tpusim_cost;                              // the same instruction as libtpusim costs it from the HLO
    double error = std::numeric_limits<double>::quiet_NaN();  // (predicted - measured) / measured
};

struct Gap {
    std::int64_t start_ps = 0, duration_ps = 0;
    std::int32_t before = -1, after = -1;  // ops either side (indices into Device::ops)
};

struct ProgramSummary {
    std::uint64_t id = 0;
    std::string name;
    std::int64_t runs = 0;
    std::int64_t total_ps = 0;  // of its runs on the XLA Modules line
    std::int64_t op_self_ps = 0;
};

// Copies between host memory and HBM in one direction, measured: the bytes
// moved and the time some copy was in flight (from a start to its done's end).
struct HostLinkUse {
    std::string direction;  // "host to HBM", "HBM to host"
    double bytes = 0;
    double busy_s = 0;
    std::int64_t transfers = 0;
};

struct DeviceSummary {
    std::int64_t busy_ps = 0;  // time some op was running
    std::int64_t span_ps = 0;  // first op's start to the last one's end
    std::int64_t idle_ps = 0;  // span less busy: gaps between ops
    std::int64_t op_events = 0;
    std::vector<Gap> largest_gaps;  // up to five, longest first
    std::vector<ProgramSummary> programs;
    std::vector<HostLinkUse> host_link;  // where the device copied to or from the host
    std::string finding;                 // what took the time and why, in a sentence or two
};

struct OpTable {
    const Device* device = nullptr;
    const tpusim::Chip* chip = nullptr;  // nullptr when the simulator does not know it
    std::string chip_note;               // why there are no predictions, when there are none
    std::vector<OpRow> rows;             // longest self time first
    DeviceSummary summary;
};

// The table of `profile.devices[device]`. Predictions use the chip the
// device names; `chip_override` ("v5e") asks for another one.
OpTable op_table(const Profile& profile, std::size_t device, const std::string& chip_override = "");

// The first array's element type in a shape text: "f32[5,1024]{...}" -> "f32".
std::string element_of(std::string_view shape_text);
// Bytes of every array in a shape text ("(f32[8,128], bf16[4])"), or -1.
double shape_bytes(std::string_view shape_text);

}  // namespace tpuprofile
