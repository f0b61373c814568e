#include "tpusim/chips.h"

#include <string>

#include "chip_table.h"
#include "tpusim/error.h"
#include "tpusim/provenance.h"

namespace tpusim {

const std::vector<Chip>& all_chips() {
    static const std::vector<Chip> table = detail::build_chip_table();
    return table;
}

const Chip& chip(std::string_view id) {
    std::string_view wanted = id;
    if (wanted == "7x" || wanted == "tpu7x" || wanted == "v7x" || wanted == "ironwood") wanted = "v7";
    if (wanted == "trillium") wanted = "v6e";
    for (const Chip& c : all_chips())
        if (c.id == wanted) return c;
    throw InputError("unknown chip '" + std::string(id) + "': use one of v4, v5e, v5p, v6e, v7");
}

std::string format_fact(const Fact& f) {
    if (!f.published()) return "not published";
    if (f.unit == "yes/no") return f.value != 0 ? "yes" : "no";
    if (f.unit == "FLOP/s" || f.unit == "OP/s" || f.unit == "B/s" || f.unit == "Hz")
        return format_rate(f.value, f.unit);
    if (f.unit == "B") return format_bytes(f.value);
    if (f.unit == "s") return format_time(f.value);
    if (f.unit == "fraction") return format_fixed(100 * f.value, 1) + " %";
    return format_fixed(f.value, 0);
}

std::vector<FactRow> fact_rows(const Chip& c) {
    return {
        {"compute", "peak bf16", c.peak_bf16},
        {"compute", "peak int8", c.peak_int8},
        {"compute", "peak fp8", c.peak_fp8},
        {"compute", "peak int4", c.peak_int4},
        {"compute", "TensorCores per chip", c.tensorcores},
        {"compute", "megacore", c.megacore_fact},
        {"compute", "MXUs per TensorCore", c.mxus_per_core},
        {"compute", "MXU size", c.mxu_size},
        {"compute", "clock", c.clock_hz},
        {"compute", "VPU FLOP/s per TensorCore", c.vpu_flops_per_core},
        {"compute", "VPU sublanes", c.vpu_sublanes},
        {"compute", "VPU lanes", c.vpu_lanes},
        {"compute", "vregs per TensorCore", c.vregs_per_core},
        {"memory", "HBM capacity", c.hbm_capacity},
        {"memory", "HBM bandwidth", c.hbm_bandwidth},
        {"memory", "VMEM per TensorCore", c.vmem_per_core},
        {"memory", "SMEM per TensorCore", c.smem_per_core},
        {"memory", "scoped VMEM default", c.scoped_vmem_default},
        {"interconnect", "ICI links per chip", c.ici_ports},
        {"interconnect", "ICI bandwidth per link, one way", c.ici_link_bandwidth},
        {"interconnect", "ICI bandwidth per chip, both ways", c.ici_chip_bandwidth},
        {"interconnect", "ICI hop latency", c.ici_hop_latency},
        {"interconnect", "host link (PCIe), one way", c.host_link_bandwidth},
        {"interconnect", "wraparound from axis size", c.wraparound_min_axis},
        {"interconnect", "chips per pod", c.pod_chips},
        {"model", "DMA latency", c.dma_latency},
        {"model", "grid step overhead", c.grid_step_overhead},
        {"model", "kernel launch", c.kernel_launch},
        {"model", "attainable MXU fraction", c.mxu_attainable},
        {"model", "attainable HBM fraction", c.hbm_attainable},
        {"model", "attainable ICI fraction", c.ici_attainable},
        {"model", "attainable host-link fraction", c.host_link_attainable},
        {"model", "attainable flash-attention fraction", c.flash_attainable},
        {"model", "least flash-attention grid step", c.flash_step},
        {"model", "least time of a collective", c.collective_floor},
    };
}

Fact peak_flops(const Chip& c, DType dtype) {
    auto need = [&](const Fact& f, const char* what) {
        if (!f.published()) throw InputError(c.id + " has no published " + what + " rate. " + f.note);
        return f;
    };
    switch (dtype) {
        case DType::bf16:
            return c.peak_bf16;
        case DType::f16:
        case DType::f32: {
            Fact f = c.peak_bf16;
            f.assumption = true;
            f.note = std::string(name(dtype)) +
                     " operands run at the bf16 rate: at default precision the MXU rounds them "
                     "to bf16 [JAX-DET]; full-precision f32 takes several passes, not modelled.";
            return f;
        }
        case DType::int8:
            return need(c.peak_int8, "int8");
        case DType::fp8:
            return need(c.peak_fp8, "fp8");
        case DType::int4:
            return need(c.peak_int4, "int4");
        case DType::int32:
            break;
    }
    throw InputError("int32 is not an MXU input type: use int8 operands with int32 accumulation");
}

double device_fraction(const Chip& c) {
    if (c.megacore) return 1.0;
    return 1.0 / c.tensorcores.value;
}

double ridge_point(const Chip& c, DType dtype) {
    return peak_flops(c, dtype).value / c.hbm_bandwidth.value;
}

}  // namespace tpusim
