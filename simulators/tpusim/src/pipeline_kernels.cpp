// Index maps, the VMEM footprint, and the two ready-made kernels.
#include <algorithm>
#include <string>

#include "pipeline_detail.h"
#include "tpusim/blockspec.h"
#include "tpusim/error.h"
#include "tpusim/roofline.h"
#include "tpusim/vmem_budget.h"

namespace tpusim {

IndexMap IndexMap::select(const std::vector<int>& grid_axes, int grid_rank) {
    IndexMap m;
    for (int g : grid_axes) {
        std::vector<std::int64_t> row(static_cast<std::size_t>(grid_rank), 0);
        if (g >= grid_rank)
            throw InputError("an index map names grid axis " + std::to_string(g) + " of a grid of rank " +
                             std::to_string(grid_rank));
        if (g >= 0) row[static_cast<std::size_t>(g)] = 1;
        m.coeffs.push_back(std::move(row));
        m.offsets.push_back(0);
    }
    return m;
}

IndexMap IndexMap::constant(int array_rank, int grid_rank) {
    return select(std::vector<int>(static_cast<std::size_t>(array_rank), -1), grid_rank);
}

std::vector<std::int64_t> IndexMap::apply(const std::vector<std::int64_t>& grid_index) const {
    std::vector<std::int64_t> out(offsets);
    for (std::size_t d = 0; d < coeffs.size(); ++d)
        for (std::size_t g = 0; g < coeffs[d].size() && g < grid_index.size(); ++g)
            out[d] += coeffs[d][g] * grid_index[g];
    return out;
}

std::string IndexMap::text() const {
    static const char* names[] = {"i", "j", "k", "l", "m", "n"};
    const std::size_t grid_rank = coeffs.empty() ? 0 : coeffs.front().size();
    auto var = [&](std::size_t g) { return g < 6 ? std::string(names[g]) : "g" + std::to_string(g); };
    std::string s = "(";
    for (std::size_t g = 0; g < grid_rank; ++g) s += (g ? ", " : "") + var(g);
    s += ") -> (";
    for (std::size_t d = 0; d < coeffs.size(); ++d) {
        if (d) s += ", ";
        std::string term;
        for (std::size_t g = 0; g < coeffs[d].size(); ++g) {
            const std::int64_t c = coeffs[d][g];
            if (c == 0) continue;
            if (!term.empty())
                term += c > 0 ? " + " : " - ";
            else if (c < 0)
                term += "-";
            const std::int64_t a = c < 0 ? -c : c;
            if (a != 1) term += std::to_string(a) + "*";
            term += var(g);
        }
        if (offsets[d] != 0 || term.empty()) {
            if (!term.empty()) term += offsets[d] < 0 ? " - " : " + ";
            term += std::to_string(term.empty() ? offsets[d] : (offsets[d] < 0 ? -offsets[d] : offsets[d]));
        }
        s += term;
    }
    return s + ")";
}

double vmem_bytes(const Chip& chip, const Kernel& kernel) {
    double total = 0;
    for (const auto* list : {&kernel.inputs, &kernel.outputs})
        for (const BlockSpec& b : *list) total += b.buffers * padded_vmem_bytes(chip, b.block_shape, b.dtype);
    for (const ScratchBuffer& s : kernel.scratch) total += padded_vmem_bytes(chip, s.shape, s.dtype);
    return total;
}

namespace {
void require_divides(std::int64_t block, std::int64_t size, const char* bname, const char* sname) {
    if (block < 1 || size < 1) throw InputError(std::string(bname) + " and " + sname + " must be positive integers");
    if (size % block != 0)
        throw InputError(std::string(bname) + "=" + std::to_string(block) + " does not divide " + sname + "=" +
                         std::to_string(size));
}

void require_legal(const std::vector<std::int64_t>& array, const std::vector<std::int64_t>& block, DType dtype,
                   const std::string& name) {
    const Legality l = check_block(array, block, dtype);
    if (!l.legal) throw InputError("the " + name + " block is illegal: " + l.reason);
}
}  // namespace

Kernel blocked_matmul(const BlockedMatmul& s) {
    require_divides(s.bm, s.m, "bm", "M");
    require_divides(s.bk, s.k, "bk", "K");
    require_divides(s.bn, s.n, "bn", "N");
    require_legal({s.m, s.k}, {s.bm, s.bk}, s.in, "x");
    require_legal({s.k, s.n}, {s.bk, s.bn}, s.in, "y");
    require_legal({s.m, s.n}, {s.bm, s.bn}, s.out, "output");
    if (s.order.size() != 3 || std::count(s.order.begin(), s.order.end(), 'm') != 1 ||
        std::count(s.order.begin(), s.order.end(), 'n') != 1 || std::count(s.order.begin(), s.order.end(), 'k') != 1)
        throw InputError("the grid order must name m, n and k once each, like mnk (got '" + s.order + "')");
    // Grid axis of each of m, n, k.
    const int gm = static_cast<int>(s.order.find('m'));
    const int gn = static_cast<int>(s.order.find('n'));
    const int gk = static_cast<int>(s.order.find('k'));
    Kernel k;
    k.name = "blocked matmul";
    k.grid.assign(3, 0);
    k.semantics.assign(3, Semantics::parallel);
    k.grid[static_cast<std::size_t>(gm)] = s.m / s.bm;
    k.grid[static_cast<std::size_t>(gn)] = s.n / s.bn;
    k.grid[static_cast<std::size_t>(gk)] = s.k / s.bk;
    k.semantics[static_cast<std::size_t>(gk)] = Semantics::arbitrary;
    k.inputs.push_back(BlockSpec{"x", {s.m, s.k}, {s.bm, s.bk}, IndexMap::select({gm, gk}, 3), s.in, 2});
    k.inputs.push_back(BlockSpec{"y", {s.k, s.n}, {s.bk, s.bn}, IndexMap::select({gk, gn}, 3), s.in, 2});
    k.outputs.push_back(BlockSpec{"out", {s.m, s.n}, {s.bm, s.bn}, IndexMap::select({gm, gn}, 3), s.out, 2});
    k.scratch.push_back(ScratchBuffer{"acc", {s.bm, s.bn}, DType::f32});
    k.mxu = MxuWork{s.bm, s.bk, s.bn, s.in};
    k.useful_flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.k) * static_cast<double>(s.n);
    k.shapes = "M=" + std::to_string(s.m) + " K=" + std::to_string(s.k) + " N=" + std::to_string(s.n) +
               ", blocks bm=" + std::to_string(s.bm) + " bk=" + std::to_string(s.bk) + " bn=" + std::to_string(s.bn) +
               (s.order == "mnk" ? std::string() : ", grid order " + s.order);
    k.dtype_text = std::string(name(s.in)) + " in, f32 acc, " + std::string(name(s.out)) + " out";
    return k;
}

Kernel blocked_elementwise(std::int64_t rows, std::int64_t cols, std::int64_t br, std::int64_t bc, int inputs,
                           DType dtype, double flops_per_element) {
    require_divides(br, rows, "block rows", "rows");
    require_divides(bc, cols, "block columns", "columns");
    if (inputs < 1) throw InputError("an elementwise kernel needs at least one input");
    if (!(flops_per_element >= 0)) throw InputError("FLOPs per element must be zero or more");
    require_legal({rows, cols}, {br, bc}, dtype, "elementwise");
    Kernel k;
    k.name = "blocked elementwise";
    k.grid = {rows / br, cols / bc};
    k.semantics = {Semantics::parallel, Semantics::parallel};
    for (int i = 0; i < inputs; ++i)
        k.inputs.push_back(
            BlockSpec{"x" + std::to_string(i), {rows, cols}, {br, bc}, IndexMap::select({0, 1}, 2), dtype, 2});
    k.outputs.push_back(BlockSpec{"out", {rows, cols}, {br, bc}, IndexMap::select({0, 1}, 2), dtype, 2});
    k.vpu = VpuWork{br, bc, flops_per_element};
    k.useful_flops = static_cast<double>(rows) * static_cast<double>(cols) * flops_per_element;
    k.shapes = shape_text({rows, cols}) + ", " + std::to_string(inputs) + " in, 1 out, blocks " + shape_text({br, bc});
    k.dtype_text = std::string(name(dtype));
    return k;
}

}  // namespace tpusim
