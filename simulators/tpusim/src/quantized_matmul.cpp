#include "tpusim/quantized_matmul.h"

#include <algorithm>
#include <cmath>

#include "tpusim/attention.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

double ceil_div(std::int64_t a, std::int64_t b) {
    return static_cast<double>((a + b - 1) / b);
}

// The kernel's blocks: up to `most` on an axis, the whole axis when it is
// shorter (rounded up to the operand's tile). 1024 x 512 x 1024 keeps the
// double-buffered blocks and the f32 accumulator near 12 MiB of VMEM.
std::int64_t block_of(std::int64_t extent, std::int64_t tile, std::int64_t most) {
    const std::int64_t whole = (extent + tile - 1) / tile * tile;
    return std::min<std::int64_t>(most, whole);
}

DType operand_dtype(QuantScheme s, bool weights) {
    switch (s) {
        case QuantScheme::bf16:
            return DType::bf16;
        case QuantScheme::w8a16:
            return weights ? DType::int8 : DType::bf16;
        case QuantScheme::w8a8:
            return DType::int8;
        case QuantScheme::fp8:
            return DType::fp8;
    }
    return DType::bf16;
}

DType mxu_dtype_of(QuantScheme s) {
    return s == QuantScheme::w8a8 ? DType::int8 : s == QuantScheme::fp8 ? DType::fp8 : DType::bf16;
}

}  // namespace

std::string_view scheme_name(QuantScheme s) {
    switch (s) {
        case QuantScheme::bf16:
            return "bf16";
        case QuantScheme::w8a16:
            return "w8a16";
        case QuantScheme::w8a8:
            return "w8a8";
        case QuantScheme::fp8:
            return "fp8";
    }
    return "?";
}

std::string_view scales_name(ScaleGranularity g) {
    switch (g) {
        case ScaleGranularity::tensor:
            return "tensor";
        case ScaleGranularity::channel:
            return "channel";
        case ScaleGranularity::block:
            return "block";
    }
    return "?";
}

QuantScheme parse_scheme(std::string_view t) {
    for (QuantScheme s : {QuantScheme::bf16, QuantScheme::w8a16, QuantScheme::w8a8, QuantScheme::fp8})
        if (t == scheme_name(s)) return s;
    throw InputError("\"" + std::string(t) + "\" is not a quantization scheme: use bf16, w8a16, w8a8 or fp8");
}

ScaleGranularity parse_scales(std::string_view t) {
    for (ScaleGranularity g : {ScaleGranularity::tensor, ScaleGranularity::channel, ScaleGranularity::block})
        if (t == scales_name(g)) return g;
    throw InputError("\"" + std::string(t) + "\" is not a scale granularity: use tensor, channel or block");
}

QuantizedMatmulResult quantized_matmul(const Chip& chip, const QuantizedMatmulSpec& s) {
    if (s.m < 1 || s.k < 1 || s.n < 1) throw InputError("a matmul's m, k and n must each be at least 1");
    const bool blocked = s.scales == ScaleGranularity::block;
    if (blocked && (s.scale_block < 1 || s.k % s.scale_block != 0))
        throw InputError("the scale block (" + std::to_string(s.scale_block) + " K rows) must divide k (" +
                         std::to_string(s.k) + ")");
    const auto fraction = [](const Fact& f) { return f.value > 0 ? f.value : 1.0; };
    const double share = device_fraction(chip);
    QuantizedMatmulResult r;
    r.mxu_dtype = mxu_dtype_of(s.scheme);
    r.mxu_rate = peak_flops(chip, r.mxu_dtype).value * share;
    const double vpu = chip.vpu_flops_per_core.value * chip.tensorcores.value * share;
    const double hbm = chip.hbm_bandwidth.value * share;
    const double mxu_fraction = fraction(chip.mxu_attainable), hbm_fraction = fraction(chip.hbm_attainable);

    const DType x_dtype = operand_dtype(s.scheme, false), w_dtype = operand_dtype(s.scheme, true);
    const std::int64_t x_tile = 32 / bits(x_dtype) * 8;  // rows of one (rows, 128) tile: 16 bf16, 32 int8
    r.bm = block_of(s.m, x_tile, 1024);
    r.bk = block_of(s.k, 128, 512);
    r.bn = block_of(s.n, 128, 1024);
    const double m = static_cast<double>(s.m), k = static_cast<double>(s.k), n = static_cast<double>(s.n);
    const double m_blocks = ceil_div(s.m, r.bm), n_blocks = ceil_div(s.n, r.bn);
    const double k_groups = blocked ? k / static_cast<double>(s.scale_block) : 1;
    const bool scaled_x = s.scheme == QuantScheme::w8a8 || s.scheme == QuantScheme::fp8;

    // Traffic: x is read once per column of blocks, W once per row of
    // blocks, each with its scales; y is written once.
    r.flops = 2 * m * k * n;
    r.activation_bytes = m * k * bytes(x_dtype) * n_blocks;
    r.weight_bytes = k * n * bytes(w_dtype) * m_blocks;
    if (s.scheme != QuantScheme::bf16) {
        const double w_scales = s.scales == ScaleGranularity::tensor ? 1 : n * k_groups;
        const double x_scales = !scaled_x ? 0 : s.scales == ScaleGranularity::tensor ? 1 : m * k_groups;
        r.scale_bytes = 4 * (w_scales * m_blocks + x_scales * n_blocks);
    }
    r.output_bytes = m * n * 2;
    r.bytes = {{"read activations", r.activation_bytes, "B"}, {"read weights", r.weight_bytes, "B"}};
    if (r.scale_bytes > 0) r.bytes.push_back({"read scales", r.scale_bytes, "B"});
    r.bytes.push_back({"write output", r.output_bytes, "B"});
    r.hbm_bytes = r.activation_bytes + r.weight_bytes + r.scale_bytes + r.output_bytes;

    // VPU work: w8a16 converts every weight block it multiplies (and, with
    // block scales, scales it on the way); block scales otherwise multiply
    // each group's partial sums; the finished accumulator is converted and
    // scaled once per output element.
    if (s.scheme == QuantScheme::w8a16)
        r.vpu_ops = k * n * m_blocks * (blocked ? 2 : 1) + m * n;
    else if (s.scheme != QuantScheme::bf16)
        r.vpu_ops = m * n * (blocked ? 3 * k_groups : 3);

    r.mxu_s = r.flops / r.mxu_rate;
    r.vpu_s = r.vpu_ops / vpu;
    r.memory_s = r.hbm_bytes / hbm;
    r.kernel_s = xla_op_time(r.mxu_s, r.vpu_s, r.memory_s, mxu_fraction, hbm_fraction);
    r.bound = r.kernel_s == r.memory_s / hbm_fraction ? "HBM" : r.kernel_s == r.mxu_s / mxu_fraction ? "MXU" : "VPU";
    if (scaled_x) {
        // Quantizing x: read it in bf16, find each row's (or block's) absolute
        // maximum, divide and round: about 4 operations an element.
        r.quantize_bytes =
            m * k * 2 + m * k * bytes(x_dtype) + 4 * (s.scales == ScaleGranularity::tensor ? 1 : m * k_groups);
        r.quantize_s = xla_op_time(0, 4 * m * k / vpu, r.quantize_bytes / hbm, mxu_fraction, hbm_fraction);
    }
    r.time_s = r.kernel_s + r.quantize_s;
    r.call_s = r.time_s + chip.kernel_launch.value;
    r.intensity = r.flops / r.hbm_bytes;

    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = std::string(name(x_dtype)) + " activations, " + std::string(name(w_dtype)) + " weights, " +
              (s.scheme == QuantScheme::w8a8 ? "int32" : "f32") + " accumulator, bf16 out";
    p.shapes =
        "M=" + std::to_string(s.m) + " K=" + std::to_string(s.k) + " N=" + std::to_string(s.n) + ", " +
        std::string(scheme_name(s.scheme)) +
        (s.scheme == QuantScheme::bf16 ? std::string()
                                       : ", " + std::string(scales_name(s.scales)) + " scales" +
                                             (blocked ? " of " + std::to_string(s.scale_block) + " K rows" : ""));
    p.model = "quantized matmul: one tiled kernel, its slowest unit at the attainable fractions";
    p.assumptions = {
        "The MXU multiplies " + std::string(name(r.mxu_dtype)) + " at the chip's published " +
            std::string(name(r.mxu_dtype)) + " rate, " +
            format_rate(r.mxu_rate, is_integer(r.mxu_dtype) ? "OP/s" : "FLOP/s") + " on this device.",
        "Blocks of " + std::to_string(r.bm) + " × " + std::to_string(r.bk) + " × " + std::to_string(r.bn) +
            ": activations are re-read for each column of blocks, weights for each row of blocks.",
        "The kernel reaches " + format_fixed(mxu_fraction * 100, 1) + " % of the MXU peak and " +
            format_fixed(hbm_fraction * 100, 1) +
            " % of HBM bandwidth, the fractions fitted on published bf16 "
            "XLA matmuls and memory-bound ops; that an int8 or fp8 MXU reaches the same share is assumed.",
        "A call as Python times it adds " + format_time(chip.kernel_launch.value) +
            " of launch (the fitted Pallas "
            "launch).",
    };
    if (s.scheme == QuantScheme::w8a16)
        p.assumptions.push_back(
            "Each weight block is converted to bf16 on the VPU once for every row of blocks "
            "that multiplies it (one operation an element, two with block scales).");
    if (scaled_x)
        p.assumptions.push_back("The activations are quantized by an op before the kernel (read in bf16, written in " +
                                std::string(name(x_dtype)) + " with their scales), about 4 VPU operations an element.");
    if (blocked)
        p.assumptions.push_back("Block scales multiply each group of " + std::to_string(s.scale_block) +
                                " K rows' partial sums inside the K loop, so the accumulator is rescaled " +
                                format_fixed(k_groups, 0) + " times.");
    if (share < 1)
        p.assumptions.push_back("The kernel runs on one of the chip's " + format_fixed(chip.tensorcores.value, 0) +
                                " TensorCores, each its own device, with its share of the chip's peaks.");
    return r;
}

}  // namespace tpusim
