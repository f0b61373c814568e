// The sandbox's recompute: parse the three maps, check the three blocks,
// walk the output's coverage, size VMEM and run the pipeline model. Kept to
// one pass over the grid per question so a scrub stays well under 1 ms at
// the default sizes.
#include "tpusim/blockspec_sandbox.h"

#include <algorithm>
#include <string>

#include "tpusim/error.h"
#include "tpusim/index_map_text.h"
#include "tpusim/roofline.h"
#include "tpusim/vmem_budget.h"

namespace tpusim {

namespace {

constexpr int kGridRank = 3;
constexpr double kMostSteps = 16.0 * 1024 * 1024;  // as check_coverage: beyond it a walk takes seconds

std::string shapes_text(const SandboxInputs& in) {
    return "M=" + std::to_string(in.m) + " K=" + std::to_string(in.k) + " N=" + std::to_string(in.n) +
           ", blocks bm=" + std::to_string(in.bm) + " bk=" + std::to_string(in.bk) + " bn=" + std::to_string(in.bn) +
           ", grid " + format_tuple(in.grid);
}

void require_positive(const SandboxInputs& in) {
    for (std::int64_t v : {in.m, in.k, in.n, in.bm, in.bk, in.bn})
        if (v < 1) throw InputError("every size and block dimension must be a positive integer");
    if (in.grid.size() != kGridRank || in.semantics.size() != kGridRank)
        throw InputError("the sandbox's grid has three axes, each with its semantics");
    for (std::int64_t g : in.grid)
        if (g < 1) throw InputError("every grid axis must be a positive integer");
    if (in.reduction_axis < 0 || in.reduction_axis >= kGridRank)
        throw InputError("the kernel's reduction index must be one of the grid's three axes");
}

}  // namespace

std::vector<std::int64_t> sandbox_grid(const SandboxInputs& in, const std::string& order) {
    if (order.size() != 3 || order.find('i') == std::string::npos || order.find('j') == std::string::npos ||
        order.find('k') == std::string::npos)
        throw InputError("the grid order must be a permutation of ijk (got '" + order + "')");
    for (std::int64_t v : {in.m, in.k, in.n, in.bm, in.bk, in.bn})
        if (v < 1) throw InputError("every size and block dimension must be a positive integer");
    auto blocks = [](std::int64_t size, std::int64_t block) { return (size + block - 1) / block; };
    std::vector<std::int64_t> grid;
    for (char axis : order)
        grid.push_back(axis == 'i' ? blocks(in.m, in.bm) : axis == 'j' ? blocks(in.n, in.bn) : blocks(in.k, in.bk));
    return grid;
}

Kernel sandbox_kernel(const SandboxInputs& in, const IndexMap& x, const IndexMap& y, const IndexMap& out) {
    Kernel k;
    k.name = "blocked matmul (sandbox)";
    k.grid = in.grid;
    k.semantics = in.semantics;
    k.inputs.push_back(BlockSpec{"x", {in.m, in.k}, {in.bm, in.bk}, x, in.dtype, 2});
    k.inputs.push_back(BlockSpec{"y", {in.k, in.n}, {in.bk, in.bn}, y, in.dtype, 2});
    k.outputs.push_back(BlockSpec{"out", {in.m, in.n}, {in.bm, in.bn}, out, in.dtype, 2});
    k.scratch.push_back(ScratchBuffer{"acc", {in.bm, in.bn}, DType::f32});
    k.mxu = MxuWork{in.bm, in.bk, in.bn, in.dtype};
    k.useful_flops = 2.0 * static_cast<double>(in.m) * static_cast<double>(in.k) * static_cast<double>(in.n);
    k.shapes = shapes_text(in);
    k.dtype_text = std::string(name(in.dtype)) + " in, f32 acc, " + std::string(name(in.dtype)) + " out";
    return k;
}

SandboxReport evaluate_sandbox(const Chip& chip, const SandboxInputs& in, std::int64_t window) {
    require_positive(in);
    SandboxReport r;
    r.operands = {{"x", {in.m, in.k}, {in.bm, in.bk}, "", {}, {}},
                  {"y", {in.k, in.n}, {in.bk, in.bn}, "", {}, {}},
                  {"out", {in.m, in.n}, {in.bm, in.bn}, "", {}, {}}};
    const std::string* texts[] = {&in.x_map, &in.y_map, &in.out_map};
    bool parsed = true, legal = true;
    for (std::size_t i = 0; i < r.operands.size(); ++i) {
        SandboxOperand& op = r.operands[i];
        try {
            op.map = parse_index_map(*texts[i], kGridRank, 2);
        } catch (const InputError& e) {
            op.map_error = e.what();
            parsed = false;
        }
        op.legality = check_block(op.array, op.block, in.dtype);
        legal = legal && op.legality.legal;
    }

    const SandboxOperand& out = r.operands[2];
    if (out.map_error.empty()) {
        try {
            r.coverage = check_coverage(in.grid, in.semantics,
                                        BlockSpec{"out", out.array, out.block, out.map, in.dtype, 2}, window);
        } catch (const InputError& e) {
            r.coverage_error = e.what();
        }
    } else {
        r.coverage_error = "the output's index map does not parse, so its coverage is unknown";
    }

    const Kernel kernel = sandbox_kernel(in, r.operands[0].map, r.operands[1].map, out.map);
    r.vmem_bytes = vmem_bytes(chip, kernel);
    r.vmem_limit_bytes = chip.scoped_vmem_default.value;
    r.vmem_provenance.chip = chip.id;
    r.vmem_provenance.dtype = kernel.dtype_text;
    r.vmem_provenance.shapes = kernel.shapes;
    r.vmem_provenance.model = "VMEM footprint of the pipeline";
    r.vmem_provenance.assumptions = {"Each input and output block is double-buffered, as Pallas does by default.",
                                     "Blocks are padded to the tiles they are stored in: 128 lanes, and " +
                                         std::to_string(memory_tiling(chip, in.dtype).rows) + " rows for " +
                                         std::string(name(in.dtype)) + " on " + chip.id +
                                         " [JAX-INFO]; the f32 accumulator (bm, bn) is scratch.",
                                     chip.scoped_vmem_default.note};
    r.vmem_provenance.working = vmem_working(chip, kernel);

    double steps = 1;
    for (std::int64_t g : in.grid) steps *= static_cast<double>(g);
    if (!parsed) {
        r.prediction_error = "no prediction until every index map parses";
    } else if (steps > kMostSteps) {
        r.prediction_error = "the grid has " + std::to_string(static_cast<std::int64_t>(steps)) +
                             " steps; the sandbox predicts grids of up to 16 million";
    } else if (!legal) {
        r.prediction_error = "no prediction for an illegal block: Mosaic would refuse to compile it";
    } else {
        try {
            r.prediction = simulate(chip, kernel);
            // The sandbox shows one figure of the run, its time: the card's working is the time's.
            r.prediction->provenance.working = time_working(*r.prediction);
        } catch (const InputError& e) {
            r.prediction_error = e.what();
        }
    }
    const bool covered = r.coverage && r.coverage->ok;
    r.sound = parsed && legal && covered;
    r.broken = !legal || (r.coverage && !r.coverage->ok);
    return r;
}

SandboxVerification verify_sandbox(const SandboxInputs& in, std::uint64_t seed) {
    require_positive(in);
    SandboxVerification v;
    MatmulSchedule& s = v.run;
    s.m = in.m;
    s.k = in.k;
    s.n = in.n;
    s.bm = in.bm;
    s.bk = in.bk;
    s.bn = in.bn;
    s.grid = in.grid;
    s.semantics = in.semantics;
    s.x_map = parse_index_map(in.x_map, kGridRank, 2);
    s.y_map = parse_index_map(in.y_map, kGridRank, 2);
    s.out_map = parse_index_map(in.out_map, kGridRank, 2);
    s.reduction_axis = in.reduction_axis;
    s.dtype = in.dtype;
    s.order = "as the index maps say";
    // Divisibility is the schedule's own property; only the size is ours to shrink.
    const std::int64_t sizes[][2] = {{in.m, in.bm}, {in.k, in.bk}, {in.n, in.bn}};
    const char* names[][2] = {{"bm", "M"}, {"bk", "K"}, {"bn", "N"}};
    for (int i = 0; i < 3; ++i)
        if (sizes[i][0] % sizes[i][1] != 0)
            throw InputError(std::string(names[i][0]) + "=" + std::to_string(sizes[i][1]) + " does not divide " +
                             names[i][1] + "=" + std::to_string(sizes[i][0]) +
                             ": the host run needs whole blocks, as verify_matmul does");
    if (static_cast<double>(in.m) * static_cast<double>(in.k) * static_cast<double>(in.n) > 16777216.0) {
        v.shrunk = true;
        s.bm = std::min<std::int64_t>(in.bm, 8);
        s.bk = std::min<std::int64_t>(in.bk, 128);
        s.bn = std::min<std::int64_t>(in.bn, 128);
        s.m = in.m / in.bm * s.bm;
        s.k = in.k / in.bk * s.bk;
        s.n = in.n / in.bn * s.bn;
        if (static_cast<double>(s.m) * static_cast<double>(s.k) * static_cast<double>(s.n) > 16777216.0)
            throw InputError("even with blocks shrunk to " + std::to_string(s.bm) + " × " + std::to_string(s.bk) +
                             " × " + std::to_string(s.bn) + " the run is M=" + std::to_string(s.m) +
                             " K=" + std::to_string(s.k) + " N=" + std::to_string(s.n) +
                             ", over the 2^24 products a quick host run allows: use fewer blocks per axis");
    }
    v.ran = "M=" + std::to_string(s.m) + " K=" + std::to_string(s.k) + " N=" + std::to_string(s.n) + " in blocks " +
            std::to_string(s.bm) + " × " + std::to_string(s.bk) + " × " + std::to_string(s.bn) + ", grid " +
            format_tuple(s.grid);
    v.result = verify_matmul(s, seed);
    v.result.provenance.shapes =
        v.ran + (v.shrunk ? " (blocks shrunk from " + std::to_string(in.bm) + " × " + std::to_string(in.bk) + " × " +
                                std::to_string(in.bn) + " for a quick host run)"
                          : std::string());
    return v;
}

}  // namespace tpusim
