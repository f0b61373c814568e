#pragma once
// A profile as jax.profiler wrote it, reduced to what the course shows: per
// device, the ops the device ran with their measured times, the programs
// they belong to, and the op timeline. Plain C++, no Qt.
//
// Times are integer picoseconds, as the profiler records them, so that sums
// are exact; a value the profile does not carry is -1 (or empty).
#include <cstdint>
#include <string>
#include <vector>

namespace tpuprofile {

enum class DeviceKind { tensor_core, sparse_core, gpu, other };

// One op (an HLO instruction on a TPU, a kernel on a GPU) on one device,
// summed over every time it ran.
struct Op {
    std::string name;      // "copy-done.4", "fusion.12", a GPU kernel's name
    std::string hlo_text;  // the instruction as HLO text, when the profile has it
    std::string opcode;    // "fusion", "copy-done", "custom-call"; "" when unknown
    std::string category;  // the profiler's hlo_category: "loop fusion", "copy-done", ...
    std::string hlo_op;    // GPU: the HLO instruction a kernel belongs to
    std::uint64_t program_id = 0;
    bool has_program_id = false;
    std::int64_t occurrences = 0;
    std::int64_t total_ps = 0;              // wall time of every occurrence
    std::int64_t self_ps = 0;               // less the time of events nested inside
    std::int64_t min_ps = -1, max_ps = -1;  // one occurrence's self time
    std::int64_t flops = -1;                // per occurrence, as XLA's cost analysis counts them
    std::int64_t bytes_accessed = -1;       // per occurrence
    std::string tf_op;                      // "jit(f)/jit(main)/add": the JAX operation it came from
    std::string source;                     // "model.py:29"
    std::string shape_with_layout;
    std::string custom_call_target;  // "tpu_custom_call" for a Pallas kernel
};

// One occurrence on the op timeline.
struct OpEvent {
    std::int64_t start_ps = 0;  // from the device line's start
    std::int64_t duration_ps = 0;
    std::int32_t op = -1;    // index into Device::ops
    std::int32_t depth = 0;  // 0 at top level; nested events are deeper
    std::int32_t lane = 0;   // index into Device::lanes: the line it was read from
};

// One run of a program (an XLA module) or one step.
struct Span {
    std::string name;  // "jit_f", "step 3"
    std::uint64_t program_id = 0;
    std::int64_t start_ps = 0;
    std::int64_t duration_ps = 0;
};

struct Device {
    std::string plane;  // "/device:TPU:0"
    int ordinal = -1;   // the N of .../TPU:N
    DeviceKind kind = DeviceKind::other;
    std::string device_type;         // the plane's device_type_string: "TPU v6 Lite"
    std::string chip;                // the simulator's chip id ("v6e"), "" when not a known TPU
    double peak_flops = 0;           // FLOP/s as the profile states it; 0 when absent
    double peak_hbm_bandwidth = 0;   // B/s, likewise
    std::string ops_line;            // the lines the ops were read from: "XLA Ops", "Stream #16(Kernel)"
    std::vector<std::string> lanes;  // each of those lines' names, in order
    std::vector<Op> ops;
    std::vector<OpEvent> timeline;   // every op event, sorted by start
    std::vector<Span> modules;       // the "XLA Modules" line
    std::vector<Span> steps;         // the "Steps" line, where present
    std::int64_t line_start_ns = 0;  // the ops line's timestamp
    std::int64_t events_read = 0;
};

// A program's optimized HLO, where the profile carries it.
struct Program {
    std::uint64_t id = 0;
    std::string name;       // "jit_f"
    std::string hlo_text;   // the module printed as HLO text; "" when not decodable
    std::string hlo_error;  // why it could not be decoded, in one sentence
};

struct Profile {
    std::string format;                     // "xplane.pb" or "trace.json"
    std::vector<Device> devices;            // accelerator devices, in the profile's order
    std::vector<std::string> other_planes;  // planes not read as devices ("/host:CPU", ...)
    std::vector<Program> programs;
    std::vector<std::string> hostnames;
    std::vector<std::string> notes;            // what the reader could not do, one sentence each
    std::int64_t start_ns = -1, stop_ns = -1;  // the profile's own start and stop times

    const Program* program(std::uint64_t id) const;
};

// The device to show first: the first TensorCore with ops, else the device
// whose ops took the most time.
std::size_t first_device(const Profile& profile);

// An op's name for a table: the HLO instruction where a GPU kernel names
// one, else the op's own name.
const std::string& display_name(const Op& op);

std::string_view kind_name(DeviceKind kind);  // "TensorCore", "SparseCore", "GPU", "other"

// The simulator's chip for a device kind string: "TPU v6 Lite" -> "v6e",
// "TPU v5 lite" -> "v5e", "TPU7x" -> "v7"; "" when it is not a TPU the
// simulator knows.
std::string chip_for_device_type(std::string_view device_type);

}  // namespace tpuprofile
