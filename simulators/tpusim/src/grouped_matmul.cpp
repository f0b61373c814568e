#include "tpusim/grouped_matmul.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <string>

#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/roofline.h"

namespace tpusim {

std::string_view grouped_pass_name(GroupedPass pass) {
    return pass == GroupedPass::forward ? "forward" : "tgmm";
}

GroupedPass parse_grouped_pass(std::string_view text) {
    if (text == "forward" || text == "gmm") return GroupedPass::forward;
    if (text == "tgmm") return GroupedPass::tgmm;
    throw InputError("\"" + std::string(text) + "\" is not a pass: forward (gmm) or tgmm (the weight gradient)");
}

std::vector<std::int64_t> parse_groups(std::string_view text) {
    std::vector<std::int64_t> out;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find(',', at), text.size());
        const std::string_view part = text.substr(at, end - at);
        std::int64_t v = -1;
        const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (ec != std::errc() || p != part.data() + part.size() || v < 0)
            throw InputError("\"" + std::string(part) + "\" in \"" + std::string(text) +
                             "\" is not a group size (a whole number of rows, 0 or more)");
        out.push_back(v);
        at = end + 1;
    }
    return out;
}

namespace {

void check(const GroupedMatmulSpec& s) {
    if (s.groups.empty()) throw InputError("a grouped matmul needs at least one group");
    for (std::int64_t g : s.groups)
        if (g < 0) throw InputError("a group cannot hold fewer than 0 rows");
    if (s.k < 1 || s.n < 1 || s.tm < 1 || s.tk < 1 || s.tn < 1)
        throw InputError("k, n and the tiles tm, tk, tn must each be at least 1");
    if (s.k % s.tk != 0 || s.n % s.tn != 0)
        throw InputError("the tiles must divide the matrix: tk=" + std::to_string(s.tk) + " into k=" +
                         std::to_string(s.k) + ", tn=" + std::to_string(s.tn) + " into n=" + std::to_string(s.n));
    if (std::accumulate(s.groups.begin(), s.groups.end(), std::int64_t{0}) == 0)
        throw InputError("every group is empty: there are no rows to multiply");
}

// XLA's static-shape programs as the roofline prices a batched matmul.
double batched_time(const Chip& chip, std::int64_t batch, std::int64_t m, std::int64_t k, std::int64_t n, DType dtype) {
    MatmulSpec s;
    s.batch = batch, s.m = m, s.k = k, s.n = n;
    s.in = s.out = dtype;
    return roofline_time(chip, matmul_cost(s));
}

}  // namespace

GroupedMatmulResult grouped_matmul(const Chip& chip, const GroupedMatmulSpec& s) {
    check(s);
    GroupedMatmulResult r;
    const auto groups = static_cast<std::int64_t>(s.groups.size());
    r.m = std::accumulate(s.groups.begin(), s.groups.end(), std::int64_t{0});
    r.row_tiles = (r.m + s.tm - 1) / s.tm;
    // Walk the groups over the row tiles: a group spanning rows [start, end)
    // is visited in every tile it touches.
    std::int64_t start = 0;
    for (std::int64_t g : s.groups) {
        if (g == 0) {
            ++r.empty_groups;
            continue;
        }
        const std::int64_t end = start + g;
        r.visits += (end - 1) / s.tm - start / s.tm + 1;
        if (end < r.m && end % s.tm != 0) ++r.boundaries_inside;
        start = end;
    }
    r.rows = r.visits * s.tm;
    r.overhead = static_cast<double>(r.rows) / static_cast<double>(r.m) - 1;
    r.flops = 2.0 * static_cast<double>(r.m) * static_cast<double>(s.k) * static_cast<double>(s.n);

    PipelineOptions device;
    device.launch_s = 0;
    BlockedMatmul b;
    b.in = b.out = s.dtype;
    const double e = bytes(s.dtype);
    double extra_bytes = 0;  // beyond the dense tiled matmul's traffic
    if (s.pass == GroupedPass::forward) {
        b.m = r.rows, b.k = s.k, b.n = s.n;
        b.bm = s.tm, b.bk = s.tk, b.bn = s.tn;
    } else {
        b.m = s.k, b.k = r.rows, b.n = s.n;
        b.bm = s.tk, b.bk = s.tm, b.bn = s.tn;
        // One output tile per (k, n) per group, where the dense matmul writes
        // one per (k, n): the other groups' tiles, empty groups' zeros included.
        extra_bytes = static_cast<double>(groups - 1) * static_cast<double>(s.k) * static_cast<double>(s.n) * e;
    }
    const PipelineResult p = simulate(chip, blocked_matmul(b), device);
    const double extra_s = extra_bytes / (chip.hbm_bandwidth.value * chip.hbm_attainable.value);
    r.steps = p.steps + (s.pass == GroupedPass::tgmm ? r.empty_groups * (s.k / s.tk) * (s.n / s.tn) : 0);
    r.hbm_bytes = p.hbm_bytes + extra_bytes;
    r.time_s = p.time_s + extra_s;
    r.call_s = r.time_s + chip.kernel_launch.value;
    const double step_part = p.overhead_s, dma_part = p.exposed_dma_s + extra_s;
    r.bound = step_part > p.compute_s && step_part >= dma_part ? "grid steps" : dma_part > p.compute_s ? "HBM" : "MXU";

    const std::int64_t largest = *std::max_element(s.groups.begin(), s.groups.end());
    if (s.pass == GroupedPass::forward) {
        r.padded_time_s = batched_time(chip, groups, largest, s.k, s.n, s.dtype);
        r.dense_time_s = batched_time(chip, groups, r.m, s.k, s.n, s.dtype);
    } else {
        r.padded_time_s = batched_time(chip, groups, s.k, largest, s.n, s.dtype);
        r.dense_time_s = batched_time(chip, groups, s.k, r.m, s.n, s.dtype);
    }

    Provenance& pv = r.provenance;
    pv = p.provenance;
    pv.kind = Kind::predicted;
    pv.chip = chip.id;
    pv.dtype = std::string(name(s.dtype)) + " in and out, f32 accumulation";
    pv.shapes = std::string(grouped_pass_name(s.pass)) + ": M=" + std::to_string(r.m) + " in " +
                std::to_string(groups) + " groups, K=" + std::to_string(s.k) + " N=" + std::to_string(s.n) +
                ", tiles (" + std::to_string(s.tm) + ", " + std::to_string(s.tk) + ", " + std::to_string(s.tn) + ")";
    pv.model = "the pipeline model of a dense tiled matmul over the rows the kernel computes";
    pv.assumptions.insert(
        pv.assumptions.begin(),
        {"A row tile across a group boundary is computed once per group it holds, in full, and masked.",
         s.pass == GroupedPass::forward
             ? "Each visit reloads its group's weight tiles, as a dense tiled matmul reloads them every k step."
             : "Each group's (k, n) tile of dW is written when its last row tile is done; an empty group writes "
               "zeros, a grid step each, with no arithmetic.",
         "XLA's alternatives are priced as batched matmuls at the roofline: every group padded to the largest, "
         "and every token through every group's weights."});
    return r;
}

}  // namespace tpusim
