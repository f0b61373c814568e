// The VMEM budget: lines, padding, the limit, the verdict and what the
// compiler says; and the search for the largest blocks that fit.
#include "tpusim/vmem_budget.h"

#include <algorithm>
#include <string>

#include "tpusim/error.h"
#include "tpusim/roofline.h"
#include "vmem_budget_detail.h"

namespace tpusim {

namespace {

std::int64_t round_up(std::int64_t v, std::int64_t to) {
    return (v + to - 1) / to * to;
}

std::string tuple(const std::vector<std::int64_t>& v) {
    std::string t = "(";
    for (std::size_t i = 0; i < v.size(); ++i) t += (i ? ", " : "") + std::to_string(v[i]);
    return t + ")";
}

std::vector<std::int64_t> dims(const std::array<std::int64_t, 3>& a, int rank) {
    return {a.begin(), a.begin() + rank};
}

std::vector<std::int64_t> padded_shape(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype) {
    std::vector<std::int64_t> p = shape;
    const std::size_t r = p.size();
    if (r == 1) {
        p[0] = round_up(p[0], 1024);
    } else if (r >= 2) {
        p[r - 1] = round_up(p[r - 1], 128);
        p[r - 2] = round_up(p[r - 2], block_tile_rows(chip, dtype, p[r - 2]));
    }
    return p;
}

// "fits" or not, and how the compiler answers when it does not.
void judge(const Chip& chip, VmemBudget& b) {
    const std::string limit = format_bytes(b.limit_bytes);
    const std::string physical = format_bytes(b.physical_bytes);
    const std::string which = b.limit_raised                          ? "raised"
                              : b.limit_bytes < b.default_limit_bytes ? "lowered"
                                                                      : "assumed default";
    b.fits_physical = b.total_bytes <= b.physical_bytes;
    b.fits = b.legal && b.total_bytes <= b.limit_bytes;
    if (!b.legal) {
        // Not legal means some line is not: the first one is named.
        const BudgetLine& bad =
            *std::find_if(b.lines.begin(), b.lines.end(), [](const BudgetLine& l) { return !l.legality.legal; });
        b.verdict = "does not lower: the " + bad.name + " " + tuple(bad.block) +
                    " breaks Mosaic's block rule: " + bad.legality.reason + "; the compiler never gets as far as VMEM";
        CompilerMessage e;
        e.stage = "lowering";
        if (bad.block.size() >= 2) {
            e.quoted =
                "The Pallas TPU lowering currently requires that the last two dimensions of your block "
                "shape are divisible by 8 and 128 respectively, or be equal to the respective dimensions "
                "of the overall array.";
            e.source = "jax-ml/jax, jax/_src/pallas/mosaic/lowering.py, _check_block_mappings";
        }
        e.explanation =
            "Raised by pallas_call when it lowers the kernel, before any compiling; the message goes "
            "on with the block shape " +
            tuple(bad.block) + ", the array shape " + tuple(bad.array) + ", the index map and the memory space.";
        b.error = e;
        return;
    }
    if (b.fits) {
        b.verdict = "fits: " + format_bytes(b.total_bytes) + " of the " + limit + " scoped limit (" + which + "), " +
                    format_bytes(b.limit_bytes - b.total_bytes) + " to spare";
        return;
    }
    CompilerMessage e;
    e.stage = "compile";
    e.quoted = "RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem while allocating on stack for";
    e.source = "XLA's page for this error, E1001 (Scoped VMEM OOM): openxla.org/xla/errors/error_1001";
    e.explanation =
        "It goes on with the kernel's HLO instruction, a custom-call to tpu_custom_call: the scoped allocations "
        "of this one instruction (these buffers, plus Mosaic's internal scratch and spills) exceed its scoped "
        "limit. Releases word the figures differently; one public report on tpu7x reads \"Used 65.05M of "
        "64.00M vmem\" (jax-ml/jax issue 38988). It fails at compile time, on the first call, not while running.";
    if (b.fits_physical) {
        b.limit_needed_bytes = b.total_bytes;
        b.verdict = "over the " + limit + " scoped limit (" + which + ") by " +
                    format_bytes(b.total_bytes - b.limit_bytes) + ": it does not compile; a vmem_limit_bytes of " +
                    format_bytes(b.total_bytes) + " or more would let it, within the " + physical +
                    " of VMEM per TensorCore";
        e.explanation +=
            " Raise the kernel's limit with pltpu.CompilerParams(vmem_limit_bytes=...); JAX's "
            "docstring pairs it with --xla_tpu_scoped_vmem_limit_kib set above that value [JAX-CP].";
    } else {
        b.verdict = format_bytes(b.total_bytes) + " is more than the " + physical + " of VMEM a " + chip.id +
                    " TensorCore has: no limit lets it compile; use smaller blocks or fewer buffers";
        e.explanation += " No limit can go past the physical VMEM, so only smaller blocks or fewer buffers help.";
    }
    b.error = e;
}

}  // namespace

Tiling memory_tiling(const Chip& chip, DType dtype) {
    const int b = bits(dtype);
    const bool large_second_minor = chip.id == "v7";  // 8 x (32 / bits) rows for every type from TPU7x on
    if (b >= 16 && !large_second_minor) return Tiling{8, 128};
    return Tiling{8 * (32 / b), 128};
}

std::int64_t block_tile_rows(const Chip& chip, DType dtype, std::int64_t rows) {
    const std::int64_t full = memory_tiling(chip, dtype).rows;
    if (rows >= full) return full;
    // A short block is tiled tighter: from the packing factor, doubled until
    // it holds the block's rows [MOSAIC-LAYOUT] (infer_memref_layout).
    std::int64_t t = packing(dtype);
    while (t < rows) t *= 2;
    return std::min(t, full);
}

double padded_vmem_bytes(const Chip& chip, const std::vector<std::int64_t>& shape, DType dtype) {
    return detail::padded_bytes(chip, shape.data(), static_cast<int>(shape.size()), dtype);
}

std::string_view role_name(BudgetRole role) {
    switch (role) {
        case BudgetRole::input:
            return "input";
        case BudgetRole::output:
            return "output";
        case BudgetRole::scratch:
            return "scratch";
        case BudgetRole::temporary:
            return "temporary";
    }
    return "input";
}

namespace detail {

double padded_bytes(const Chip& chip, const std::int64_t* shape, int rank, DType dtype) {
    double elements = 1;
    for (int d = 0; d < rank; ++d) {
        std::int64_t v = shape[d];
        if (rank == 1)
            v = round_up(v, 1024);
        else if (d + 1 == rank)
            v = round_up(v, 128);
        else if (d + 2 == rank)
            v = round_up(v, block_tile_rows(chip, dtype, v));
        elements *= static_cast<double>(v);
    }
    return elements * bytes(dtype);
}

double scoped_limit(const Chip& chip, std::optional<double> requested) {
    if (!requested) return chip.scoped_vmem_default.value;
    if (!(*requested > 0)) throw InputError("the VMEM limit must be above zero");
    if (*requested > chip.vmem_per_core.value)
        throw InputError("a VMEM limit of " + format_bytes(*requested) + " is more than the " +
                         format_bytes(chip.vmem_per_core.value) + " of VMEM a " + chip.id + " TensorCore has");
    return *requested;
}

}  // namespace detail

VmemBudget vmem_budget(const Chip& chip, const BudgetKernelSpec& spec, std::optional<double> vmem_limit_bytes) {
    detail::validate(spec);
    VmemBudget b;
    b.default_limit_bytes = chip.scoped_vmem_default.value;
    b.physical_bytes = chip.vmem_per_core.value;
    b.limit_bytes = detail::scoped_limit(chip, vmem_limit_bytes);
    b.limit_raised = b.limit_bytes > b.default_limit_bytes;
    const detail::Operands ops = detail::operands_of(spec);
    for (int i = 0; i < ops.count; ++i) {
        const detail::BudgetOperand& op = ops.list[static_cast<std::size_t>(i)];
        BudgetLine l;
        l.name = op.name;
        l.role = op.role;
        l.block = dims(op.block, op.rank);
        l.padded = padded_shape(chip, l.block, op.dtype);
        l.dtype = op.dtype;
        l.tile = memory_tiling(chip, op.dtype);
        if (op.rank >= 2)
            l.tile.rows = block_tile_rows(chip, op.dtype, op.block[static_cast<std::size_t>(op.rank - 2)]);
        l.buffers = op.buffers;
        double elements = 1;
        for (std::int64_t d : l.block) elements *= static_cast<double>(d);
        l.logical_bytes = elements * bytes(op.dtype);
        l.padded_bytes = detail::padded_bytes(chip, op.block.data(), op.rank, op.dtype);
        l.total_bytes = l.padded_bytes * op.buffers;
        if (op.role == BudgetRole::input || op.role == BudgetRole::output) {
            l.array = dims(op.array, op.rank);
            l.legality = check_block(l.array, l.block, op.dtype);
            l.what =
                shape_text(l.block) + " " + std::string(name(op.dtype)) + " of " + shape_text(l.array) + " " + op.what;
            b.legal = b.legal && l.legality.legal;
        } else {
            l.legality.legal = true;
            l.legality.reason = "legal: scratch and the body's values are not BlockSpec'd";
            l.what = shape_text(l.block) + " " + std::string(name(op.dtype)) + ", " + op.what;
        }
        b.total_bytes += l.total_bytes;
        b.logical_bytes += l.logical_bytes * op.buffers;
        b.lines.push_back(std::move(l));
    }
    const detail::Traffic traffic = detail::traffic_of(spec);
    b.hbm_bytes = traffic.hbm_bytes;
    b.steps = traffic.steps;
    judge(chip, b);

    Provenance& p = b.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = std::string(name(spec.dtype));
    const BudgetKernelInfo& info = detail::info_of(spec.kind);
    p.shapes = info.title + ":";
    for (std::size_t i = 0; i < spec.sizes.size(); ++i)
        p.shapes += " " + info.sizes[i].name + "=" + std::to_string(spec.sizes[i]);
    p.shapes += ", blocks";
    for (std::size_t i = 0; i < spec.blocks.size(); ++i)
        p.shapes += " " + info.blocks[i].name + "=" + std::to_string(spec.blocks[i]);
    p.shapes += ", " + std::to_string(spec.input_buffers) + " buffers per streamed input";
    p.model = "VMEM budget: buffers × blocks padded to tiles, plus scratch and the body's large values";
    p.assumptions = {
        "Each BlockSpec'd operand takes two buffers by default; pl.Buffered(3) gives an input a third, and "
        "outputs stay at two [JAX-PIPE].",
        "Blocks are padded to the tile they are stored in: 128 lanes, and " +
            std::to_string(memory_tiling(chip, spec.dtype).rows) + " rows for " + std::string(name(spec.dtype)) +
            " on " + chip.id +
            " [JAX-INFO]; a block with fewer rows takes the fewest that hold them, from "
            "the packing factor up in powers of two [MOSAIC-LAYOUT].",
        "Values the body makes that are too large for the vector registers (a flash tile's f32 scores, a "
        "layernorm block upcast to f32) are counted once each; Mosaic's own scratch and register spills are "
        "not counted, so leave headroom [JAX-CP].",
        chip.scoped_vmem_default.note};
    return b;
}

BlockSuggestion largest_fitting_blocks(const Chip& chip, const BudgetKernelSpec& spec,
                                       std::optional<double> vmem_limit_bytes) {
    detail::validate(spec);
    const double limit = detail::scoped_limit(chip, vmem_limit_bytes);
    const BudgetKernelInfo& info = detail::info_of(spec.kind);

    // Candidates per block dimension: power-of-two multiples of its tile that
    // divide its size, and the size itself (always legal: it equals the array's).
    const std::int64_t rows = native_tiling(spec.dtype).rows;
    std::vector<std::vector<std::int64_t>> candidates;
    for (std::size_t d = 0; d < info.blocks.size(); ++d) {
        // The size the block walks: bm over M, bk over K, bn over N; both
        // attention blocks over the sequence; the layernorm's over its rows.
        const std::int64_t size = spec.kind == BudgetKernelKind::tiled_matmul      ? spec.sizes[d]
                                  : spec.kind == BudgetKernelKind::flash_attention ? spec.sizes[1]
                                                                                   : spec.sizes[0];
        std::vector<std::int64_t> c;
        for (std::int64_t v = info.blocks[d].lanes ? 128 : rows; v < size; v *= 2)
            if (size % v == 0) c.push_back(v);
        c.push_back(size);
        candidates.push_back(std::move(c));
    }

    BlockSuggestion best;
    BudgetKernelSpec trial = spec;
    std::vector<std::size_t> at(candidates.size(), 0);
    for (;;) {
        for (std::size_t d = 0; d < at.size(); ++d) trial.blocks[d] = candidates[d][at[d]];
        const detail::Operands ops = detail::operands_of(trial);
        double total = 0;
        for (int i = 0; i < ops.count; ++i) {
            const detail::BudgetOperand& op = ops.list[static_cast<std::size_t>(i)];
            total += op.buffers * detail::padded_bytes(chip, op.block.data(), op.rank, op.dtype);
        }
        if (total <= limit) {
            const detail::Traffic t = detail::traffic_of(trial);
            const bool better = !best.found || t.hbm_bytes < best.hbm_bytes ||
                                (t.hbm_bytes == best.hbm_bytes &&
                                 (t.steps < best.steps || (t.steps == best.steps && total < best.total_bytes)));
            if (better) {
                best.found = true;
                best.blocks = trial.blocks;
                best.total_bytes = total;
                best.hbm_bytes = t.hbm_bytes;
                best.steps = t.steps;
            }
        }
        std::size_t d = 0;
        while (d < at.size() && ++at[d] == candidates[d].size()) at[d++] = 0;
        if (d == at.size()) break;
    }
    if (best.found) {
        best.reason = "the legal blocks that copy the fewest HBM bytes (" + format_bytes(best.hbm_bytes) +
                      ") in the fewest steps (" + std::to_string(best.steps) + ") within the " + format_bytes(limit) +
                      " limit: " + format_bytes(best.total_bytes) +
                      " of VMEM, with Mosaic's own scratch and spills still to come on top";
    } else {
        best.reason = "no legal blocks fit the " + format_bytes(limit) +
                      " limit at these sizes, not even the smallest tiles: raise the limit or shrink the sizes";
    }
    return best;
}

}  // namespace tpusim
