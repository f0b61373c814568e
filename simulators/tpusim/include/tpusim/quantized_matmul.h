#pragma once
// A matmul y = x W with quantized operands, as one tiled Pallas kernel:
// x is (m, k) activations, W is (k, n) weights, y is (m, n) in bf16.
//
//   bf16   both operands bf16, the baseline
//   w8a16  int8 weights, bf16 activations: each weight block is converted to
//          bf16 in VMEM and the MXU runs at its bf16 rate
//   w8a8   int8 both: the MXU's int8 path into an int32 accumulator; the
//          activations are quantized by an op before the kernel
//   fp8    fp8 both, at the chip's fp8 rate, into an f32 accumulator
//
// Scales are per tensor, per channel (a weight column, and an activation
// row for w8a8 and fp8), or per block of `scale_block` K rows: block scales
// multiply each block's partial sum inside the K loop, the others the
// finished accumulator once. The time is the slowest unit at the fractions
// `tpusim validate` fits, like an XLA matmul's.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

enum class QuantScheme { bf16, w8a16, w8a8, fp8 };
enum class ScaleGranularity { tensor, channel, block };

struct QuantizedMatmulSpec {
    std::int64_t m = 0, k = 0, n = 0;
    QuantScheme scheme = QuantScheme::w8a8;
    ScaleGranularity scales = ScaleGranularity::channel;
    std::int64_t scale_block = 128;  // K rows per scale, for block scales; must divide k
};

struct QuantizedMatmulResult {
    DType mxu_dtype = DType::bf16;        // what the MXU multiplies
    double mxu_rate = 0;                  // its peak on the device, OP/s
    std::int64_t bm = 0, bk = 0, bn = 0;  // the kernel's blocks

    double flops = 0;  // 2 m k n
    double activation_bytes = 0, weight_bytes = 0, scale_bytes = 0, output_bytes = 0;
    double hbm_bytes = 0;       // the kernel's traffic, re-reads across the grid included
    double quantize_bytes = 0;  // w8a8 and fp8: the op that quantizes the activations
    double vpu_ops = 0;         // conversions and scaling in the kernel

    double mxu_s = 0, vpu_s = 0, memory_s = 0;  // at the device's peaks
    double kernel_s = 0;                        // the kernel at the attainable fractions
    double quantize_s = 0;                      // the activation quantization op, 0 for bf16 and w8a16
    double time_s = 0;                          // device time: kernel_s + quantize_s
    double call_s = 0;                          // as a Python caller sees it: time_s plus one call's launch
    double intensity = 0;                       // FLOPs per byte of the kernel's traffic
    std::string bound;                          // the kernel's: "MXU", "VPU" or "HBM"

    std::vector<Figure> bytes;  // the traffic by array
    Provenance provenance;
};

std::string_view scheme_name(QuantScheme s);       // "bf16", "w8a16", "w8a8", "fp8"
std::string_view scales_name(ScaleGranularity g);  // "tensor", "channel", "block"
// Throw InputError naming the accepted words.
QuantScheme parse_scheme(std::string_view text);
ScaleGranularity parse_scales(std::string_view text);

// Throws InputError for sizes below 1, a scale block that does not divide
// k, or a scheme whose MXU dtype the chip publishes no rate for (int8 on
// TPU7x; fp8 on v4 and v5e).
QuantizedMatmulResult quantized_matmul(const Chip& chip, const QuantizedMatmulSpec& spec);

}  // namespace tpusim
