#pragma once
// The roofline: time = max(FLOPs / peak, bytes / HBM bandwidth) [SB-ROOF].
// Costs (FLOPs and bytes) are built per op first, then evaluated on a chip,
// so the app can re-evaluate one cost on every chip cheaply.
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

// Which unit does the arithmetic: matmuls run on the MXUs, everything
// elementwise on the VPU (32-bit lanes).
enum class Engine { mxu, vpu };

struct OpCost {
    std::string op;  // "matmul", "elementwise", "reduction", "generic"
    double flops = 0;
    double bytes = 0;  // HBM traffic, each operand read or written once
    Engine engine = Engine::mxu;
    DType compute_dtype = DType::bf16;     // picks the MXU rate
    std::string dtype_text;                // for provenance: "bf16 in, f32 acc, bf16 out"
    std::string shapes;                    // for provenance: "M=4096 K=4096 N=4096"
    std::vector<std::string> assumptions;  // op-specific ones
};

struct MatmulSpec {
    std::int64_t m = 0, k = 0, n = 0;
    std::int64_t batch = 1;  // batched matmul: `batch` independent [M,K]x[K,N]
    DType in = DType::bf16;
    DType acc = DType::f32;  // stays on chip; shown, not costed
    DType out = DType::bf16;
};

// FLOPs 2*B*M*K*N; bytes B*(M*K + K*N)*in + B*M*N*out. Throws InputError
// for a size below 1.
OpCost matmul_cost(const MatmulSpec& spec);
// `inputs` arrays of `shape` in, `outputs` out; `flops_per_element` VPU
// operations per output element (1 for add; more for exp and friends).
OpCost elementwise_cost(const std::vector<std::int64_t>& shape, int inputs, int outputs, DType dtype,
                        double flops_per_element = 1);
// Sum over `axes` of an array of `shape`: one add per input element; reads
// the input once and writes the reduced output.
OpCost reduction_cost(const std::vector<std::int64_t>& shape, const std::vector<int>& axes, DType dtype);
// Anything else, given its FLOPs and HBM bytes.
OpCost generic_cost(double flops, double bytes, DType dtype, Engine engine = Engine::mxu);

enum class Bound { compute, memory };

struct Roofline {
    double time_s = 0;  // max(compute_s, memory_s): the floor
    double compute_s = 0;
    double memory_s = 0;
    double flops = 0;
    double bytes = 0;
    double intensity = 0;   // FLOP per HBM byte
    double ridge = 0;       // peak / bandwidth: intensity where the bound flips
    double peak_flops = 0;  // the rate used (MXU for the dtype, or the VPU)
    double bandwidth = 0;   // HBM B/s
    Bound bound = Bound::memory;
    std::string resource;  // what binds: "MXU", "VPU" or "HBM"
    // The same op at the fractions of the peaks real runs attain (the
    // chip's fitted mxu_attainable and hbm_attainable; the VPU at its peak,
    // which no published row fixes): a floor nearer what a chip shows.
    double attainable_s = 0;
    double attainable_peak_flops = 0;
    double attainable_bandwidth = 0;
    Provenance provenance;
};

// Evaluate a cost on a chip (the whole chip, all TensorCores). Throws
// InputError when the chip publishes no rate for the dtype.
Roofline roofline(const Chip& chip, const OpCost& cost);
// The arithmetic behind a roofline, a step a line, for a card's working
// (Provenance::working): FLOPs over the peak, bytes over the bandwidth,
// the larger (or, for a sequence, each op's larger, added), and the
// intensity against the ridge. Made when shown: roofline() leaves it out,
// since a dump's thousands of ops never show theirs.
std::vector<std::string> roofline_working(const Roofline& r);
// Only the time, without provenance strings: for sweeps and plots.
double roofline_time(const Chip& chip, const OpCost& cost);
// The generic answer type for the app: time, with intensity, ridge and bound as details.
Estimate to_estimate(const Roofline& r, const std::string& label);
std::string_view bound_name(Bound bound);  // "compute", "memory"

// "4096x4096"
std::string shape_text(const std::vector<std::int64_t>& shape);

// Which passes of y = x w a call runs: the forward, the backward (dx =
// dy w^T and dw = x^T dy, two matmuls of the forward's FLOPs each), or both,
// as jax.grad of a loss through the matmul does.
enum class MatmulPass { forward, backward, forward_backward };
// The matmuls of those passes, each an op of its own as XLA runs them:
// forward, then dx (M x N by N x K), then dw (K x M by M x N).
std::vector<OpCost> matmul_pass_costs(const MatmulSpec& spec, MatmulPass pass);
// Ops run one after another: times, FLOPs and bytes added, no overlap
// between them; what binds is what binds the slowest op.
Roofline roofline_sequence(const Chip& chip, const std::vector<OpCost>& ops);

}  // namespace tpusim
