// Validation, rates and provenance for the pipeline model.
#include <algorithm>
#include <string>

#include "pipeline_detail.h"
#include "tpusim/error.h"

namespace tpusim::detail {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}
std::int64_t round_up(std::int64_t a, std::int64_t b) {
    return ceil_div(a, b) * b;
}

void validate_spec(const BlockSpec& b, std::size_t grid_rank) {
    const std::string who = "operand '" + b.name + "'";
    if (b.array_shape.empty()) throw InputError(who + " has an empty array shape");
    if (b.block_shape.size() != b.array_shape.size())
        throw InputError(who + ": the block has rank " + std::to_string(b.block_shape.size()) +
                         " but the array has rank " + std::to_string(b.array_shape.size()));
    for (std::size_t d = 0; d < b.array_shape.size(); ++d)
        if (b.array_shape[d] < 1 || b.block_shape[d] < 1)
            throw InputError(who + ": every array and block dimension must be a positive integer");
    if (b.buffers < 1) throw InputError(who + " needs at least one buffer");
    const IndexMap& m = b.index_map;
    if (m.coeffs.size() != b.array_shape.size() || m.offsets.size() != b.array_shape.size())
        throw InputError(who + ": the index map must return one block index per array axis");
    for (std::size_t d = 0; d < m.coeffs.size(); ++d) {
        if (m.coeffs[d].size() != grid_rank)
            throw InputError(who + ": the index map must take one index per grid axis");
    }
}

}  // namespace

void validate(const Kernel& kernel) {
    for (std::size_t g = 0; g < kernel.grid.size(); ++g)
        if (kernel.grid[g] < 1)
            throw InputError("grid axis " + std::to_string(g) + " must be a positive integer (got " +
                             std::to_string(kernel.grid[g]) + ")");
    if (!kernel.semantics.empty() && kernel.semantics.size() != kernel.grid.size())
        throw InputError("Length of grid does not match length of dimension semantics.");
    if (kernel.outputs.empty()) throw InputError("a kernel needs at least one output");
    for (const auto* list : {&kernel.inputs, &kernel.outputs})
        for (const BlockSpec& b : *list) validate_spec(b, kernel.grid.size());
    if (kernel.mxu && (kernel.mxu->m < 1 || kernel.mxu->k < 1 || kernel.mxu->n < 1))
        throw InputError("the MXU work per step needs positive m, k and n");
    if (kernel.vpu && (kernel.vpu->rows < 1 || kernel.vpu->cols < 1))
        throw InputError("the VPU work per step needs positive rows and columns");
    for (const ScratchBuffer& s : kernel.scratch)
        for (std::int64_t d : s.shape)
            if (d < 1) throw InputError("scratch '" + s.name + "' has a dimension below 1");
}

double Operand::block_bytes_at(const std::vector<std::int64_t>& g) const {
    if (!ragged) return full_block_bytes;
    const std::vector<std::int64_t> idx = spec->index_map.apply(g);
    double elements = 1;
    for (std::size_t d = 0; d < idx.size(); ++d) {
        const std::int64_t start = idx[d] * spec->block_shape[d];
        elements *= static_cast<double>(std::min(spec->block_shape[d], spec->array_shape[d] - start));
    }
    return elements * tpusim::bytes(spec->dtype);
}

std::vector<Operand> prepare_operands(const Kernel& kernel) {
    std::vector<Operand> ops;
    const std::size_t grid_rank = kernel.grid.size();
    for (const auto* list : {&kernel.inputs, &kernel.outputs}) {
        for (const BlockSpec& b : *list) {
            Operand op;
            op.spec = &b;
            const std::size_t rank = b.array_shape.size();
            std::vector<std::int64_t> blocks(rank), stride(rank);
            double elements = 1;
            for (std::size_t d = 0; d < rank; ++d) {
                blocks[d] = ceil_div(b.array_shape[d], b.block_shape[d]);
                op.ragged = op.ragged || b.array_shape[d] % b.block_shape[d] != 0;
                elements *= static_cast<double>(b.block_shape[d]);
            }
            op.full_block_bytes = elements * bytes(b.dtype);
            for (std::size_t d = rank; d-- > 0;) stride[d] = d + 1 == rank ? 1 : stride[d + 1] * blocks[d + 1];

            // The index map must stay inside the array: an affine map takes
            // its extremes at the corners of the grid.
            for (std::size_t d = 0; d < rank; ++d) {
                std::int64_t lo = b.index_map.offsets[d], hi = lo;
                for (std::size_t g = 0; g < grid_rank; ++g) {
                    const std::int64_t span = b.index_map.coeffs[d][g] * (kernel.grid[g] - 1);
                    (span < 0 ? lo : hi) += span;
                }
                if (lo < 0 || hi >= blocks[d])
                    throw InputError("the index map of '" + b.name + "' reaches block " +
                                     std::to_string(lo < 0 ? lo : hi) + " on axis " + std::to_string(d) +
                                     ", but that axis has blocks 0 to " + std::to_string(blocks[d] - 1));
            }
            op.key_coeff.assign(grid_rank, 0);
            for (std::size_t d = 0; d < rank; ++d) {
                op.key_const += b.index_map.offsets[d] * stride[d];
                for (std::size_t g = 0; g < grid_rank; ++g) op.key_coeff[g] += b.index_map.coeffs[d][g] * stride[d];
            }
            ops.push_back(std::move(op));
        }
    }
    return ops;
}

double vmem_limit(const Chip& chip, const PipelineOptions& options) {
    if (!options.vmem_limit_bytes) return chip.scoped_vmem_default.value;
    const double limit = *options.vmem_limit_bytes;
    if (!(limit > 0)) throw InputError("the VMEM limit must be above zero");
    if (limit > chip.vmem_per_core.value)
        throw InputError("a VMEM limit of " + format_bytes(limit) + " is more than the " +
                         format_bytes(chip.vmem_per_core.value) + " of VMEM a " + chip.id + " TensorCore has");
    return limit;
}

CoreSplit split_cores(const Chip& chip, const Kernel& kernel) {
    CoreSplit split;
    if (!chip.megacore || kernel.semantics.empty()) return split;
    for (std::size_t g = 0; g < kernel.grid.size(); ++g) {
        if (kernel.semantics[g] == Semantics::parallel && kernel.grid[g] >= 2) {
            split.cores = static_cast<int>(chip.tensorcores.value);
            split.axis = g;
            return split;
        }
    }
    return split;
}

DeviceRates device_rates(const Chip& chip, const Kernel& kernel, const PipelineOptions& options, int cores) {
    DeviceRates r;
    const double tcs = chip.tensorcores.value;
    const double chip_bw = options.hbm_bandwidth.value_or(chip.hbm_bandwidth.value);
    if (!(chip_bw > 0)) throw InputError("HBM bandwidth must be above zero");
    // v7's TensorCores are separate devices, each with half the HBM bandwidth;
    // on megacore chips both cores share the chip's HBM.
    r.device_bandwidth = chip.megacore ? chip_bw : chip_bw / tcs;
    r.core_bandwidth = r.device_bandwidth / cores;

    const double vpu_core = chip.vpu_flops_per_core.value;
    double mxu_core = 0;
    if (kernel.mxu) mxu_core = peak_flops(chip, kernel.mxu->dtype).value / tcs;
    const double device_cores = chip.megacore ? tcs : 1;
    r.device_flops = kernel.mxu ? mxu_core * device_cores : vpu_core * device_cores;

    double t = 0;
    if (kernel.mxu) {
        const std::int64_t s = static_cast<std::int64_t>(chip.mxu_size.value);
        const std::int64_t mp = round_up(kernel.mxu->m, 8);
        const std::int64_t kp = round_up(kernel.mxu->k, s);
        const std::int64_t np = round_up(kernel.mxu->n, s);
        r.mxus = static_cast<int>(chip.mxus_per_core.value);
        const std::int64_t tiles = (kp / s) * (np / s);
        r.active_mxus = static_cast<int>(std::min<std::int64_t>(r.mxus, tiles));
        const double rate = mxu_core * r.active_mxus / r.mxus;
        t += 2.0 * static_cast<double>(mp) * static_cast<double>(kp) * static_cast<double>(np) / rate;
    }
    if (kernel.vpu) {
        const double elements =
            static_cast<double>(round_up(kernel.vpu->rows, 8)) * static_cast<double>(round_up(kernel.vpu->cols, 128));
        t += elements * kernel.vpu->flops_per_element / vpu_core;
    }
    r.step_compute_s = t;
    return r;
}

double array_bytes(const Kernel& kernel) {
    double total = 0;
    for (const auto* list : {&kernel.inputs, &kernel.outputs})
        for (const BlockSpec& b : *list) {
            double e = 1;
            for (std::int64_t d : b.array_shape) e *= static_cast<double>(d);
            total += e * bytes(b.dtype);
        }
    return total;
}

Provenance provenance(const Chip& chip, const Kernel& kernel, const PipelineOptions& options, const CoreSplit& split,
                      const DeviceRates& rates) {
    Provenance p;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = kernel.dtype_text;
    p.shapes = kernel.shapes;
    p.model =
        "Pallas grid pipeline: each grid step takes the longest of its compute, its "
        "double-buffered copies and a fixed step time, plus the unhidden first and last "
        "copies and a fixed launch cost per call [JAX-PIPE][DOC-TPU]; validated against "
        "published timings (tpusim validate)";
    auto& a = p.assumptions;
    if (!options.step_overhead_s) a.push_back(chip.grid_step_overhead.note);
    if (!options.launch_s) a.push_back(chip.kernel_launch.note);
    if (!options.dma_latency_s) a.push_back(chip.dma_latency.note);
    a.emplace_back(
        "A block is copied only when its index changes between consecutive steps; "
        "the DMAs of one step share the HBM bandwidth.");
    if (kernel.mxu)
        a.push_back("MXU work is padded: rows to 8, K and N to the " + format_fixed(chip.mxu_size.value, 0) +
                    "-wide MXU. The MXUs of a core split a block by weight tiles, so a block "
                    "with fewer tiles than MXUs leaves some idle [SB-TPU] (" +
                    std::to_string(rates.active_mxus) + " of " + std::to_string(rates.mxus) +
                    " busy here). The accumulator update is not counted.");
    if (kernel.vpu)
        a.push_back("VPU work is padded to (8,128) tiles and runs at " +
                    format_rate(chip.vpu_flops_per_core.value, "FLOP/s") + " per core" +
                    (chip.vpu_flops_per_core.assumption ? " (an assumed rate)." : "."));
    if (split.cores > 1)
        a.push_back("Grid axis " + std::to_string(split.axis) +
                    " is parallel, so it is split between the two TensorCores of the megacore, "
                    "which share the HBM bandwidth equally.");
    else if (chip.megacore)
        a.emplace_back(
            "No parallel grid axis: one of the two TensorCores runs the kernel, at "
            "half the chip's peak but with all of its HBM bandwidth.");
    else if (chip.tensorcores.value > 1)
        a.emplace_back(
            "The kernel runs on one TensorCore, a device of its own: half the chip's "
            "peak and half its HBM bandwidth.");
    a.emplace_back(
        "VMEM use counts each buffer of each block, padded to the tiles it is stored in (128 "
        "lanes; 8 rows for 32- and 16-bit types before TPU7x, 8 × 32/bits from it and for narrower "
        "types), plus scratch; Mosaic's internal scratch and spills are not counted.");
    if (!options.vmem_limit_bytes) a.push_back(chip.scoped_vmem_default.note);
    return p;
}

}  // namespace tpusim::detail
