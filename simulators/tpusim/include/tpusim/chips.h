#pragma once
// The chip table: v4, v5e, v5p, v6e and v7 (Ironwood). Every figure carries
// its source tag (SOURCES.md is their key); assumptions are marked as such in the
// data so the app can show them.
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/dtype.h"

namespace tpusim {

// One hardware figure. `value` is in SI units (bytes, B/s, FLOP/s, s, Hz),
// a share of a peak (unit "fraction", shown as a percentage) or a plain
// count. A figure that no source publishes has published() false.
struct Fact {
    double value = 0;
    std::string unit;
    std::string source;       // tags such as "[JAX-INFO][SB-TPU]", or "[derived] ..."
    std::string note;         // what other sources say, and why this value was chosen
    bool assumption = false;  // true: our choice, not a published figure
    // A yes/no figure (unit "yes/no") is published whatever its value.
    bool published() const { return value != 0 || unit == "yes/no"; }
};

// A figure that is words rather than a number (topology, wraparound rule).
struct TextFact {
    std::string text;
    std::string source;
};

struct Chip {
    std::string id;    // "v5e"
    std::string name;  // "TPU v5e"

    // Compute, per chip (all TensorCores).
    Fact peak_bf16;  // FLOP/s on the MXUs
    Fact peak_int8;  // OP/s
    Fact peak_fp8;
    Fact peak_int4;
    Fact tensorcores;       // per chip
    bool megacore = false;  // two TensorCores shown as one device (v4, v5p)
    Fact megacore_fact;     // the source of `megacore` (value 1 or 0)
    Fact mxus_per_core;
    Fact mxu_size;            // rows = columns of one systolic array
    Fact clock_hz;            // derived where possible; unpublished on v6e and 7x
    Fact vpu_flops_per_core;  // 32-bit elementwise FLOP/s of one TensorCore's VPU
    Fact vpu_sublanes;
    Fact vpu_lanes;
    Fact vregs_per_core;

    // Memory.
    Fact hbm_capacity;         // bytes per chip
    Fact hbm_bandwidth;        // B/s per chip
    Fact vmem_per_core;        // bytes
    Fact smem_per_core;        // bytes
    Fact scoped_vmem_default;  // bytes a kernel may use by default (an assumption)

    // Interconnect.
    Fact ici_ports;            // links per chip
    Fact ici_link_bandwidth;   // B/s one way, per link
    Fact ici_chip_bandwidth;   // B/s per chip, both directions, all links
    Fact ici_hop_latency;      // s
    Fact host_link_bandwidth;  // B/s one way between host memory and the chip (PCIe)
    Fact wraparound_min_axis;  // an axis gets wraparound links from this size on
    Fact pod_chips;
    TextFact topology;
    TextFact wraparound;

    // Kernel-level modelling choices (assumptions, shown as such).
    Fact dma_latency;         // s per DMA (DMAs issued together overlap their latency)
    Fact grid_step_overhead;  // s: the least time one Pallas grid step takes
    Fact kernel_launch;       // s per Pallas call, as a host timing loop sees it

    // The fractions of the peaks real runs attain, fitted on published
    // timings (validation.h): what a long op bound by that unit reaches.
    Fact mxu_attainable;        // of the MXU peak, long XLA matmuls
    Fact hbm_attainable;        // of HBM bandwidth, long memory-bound ops
    Fact ici_attainable;        // of the links' peak, long collectives
    Fact host_link_attainable;  // of the host link, long copies to and from host memory
    Fact flash_attainable;      // of the MXU and VPU peaks, a flash-attention kernel's work
    Fact flash_step;            // s: the least time of one flash-attention grid step
    Fact collective_floor;      // s: the least time of one collective: its launch and synchronisation
};

// A labelled row of the chip sheet, for tables in the CLI and the app.
struct FactRow {
    std::string group;  // "compute", "memory", "interconnect", "model"
    std::string label;  // "peak bf16"
    Fact fact;
};

// All chips in the order the course teaches them.
const std::vector<Chip>& all_chips();
// The chip with this id ("v4", "v5e", "v5p", "v6e", "v7"; "7x", "tpu7x" and
// "ironwood" mean v7). Throws InputError for an unknown id.
const Chip& chip(std::string_view id);
// Every figure of a chip as labelled rows, numbers first, in a fixed order.
std::vector<FactRow> fact_rows(const Chip& c);

// A figure for people, in its unit: "197 TFLOP/s", "16.0 GiB", "1.00 µs",
// or "not published".
std::string format_fact(const Fact& f);
// Peak MXU rate for a matmul whose operands are `dtype`. f32 and f16 run at
// the bf16 rate (see the assumption in the returned fact's note); int32 and
// rates no source publishes throw InputError.
Fact peak_flops(const Chip& c, DType dtype);
// The device a Pallas kernel runs on: the whole chip on megacore chips and
// single-core chips; one TensorCore on v7, whose cores are separate devices.
double device_fraction(const Chip& c);
// Ridge point of the chip in FLOP per HBM byte for `dtype` on the MXU.
double ridge_point(const Chip& c, DType dtype);

}  // namespace tpusim
