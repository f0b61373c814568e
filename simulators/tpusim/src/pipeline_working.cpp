// The working shown first on a pipeline figure's card: the sums that make
// the VMEM, the time and the HBM traffic, in the units the figures use.
#include <numeric>
#include <string>
#include <vector>

#include "tpusim/pipeline.h"
#include "tpusim/vmem_budget.h"

namespace tpusim {

namespace {

// "x block (256, 100) bf16: 2 x 64.0 KiB (50.0 KiB padded to tiles) = 128.0 KiB"
std::string buffer_line(const Chip& chip, const std::string& what, const std::vector<std::int64_t>& shape, DType dtype,
                        int buffers) {
    const double padded = padded_vmem_bytes(chip, shape, dtype);
    const double raw = std::accumulate(shape.begin(), shape.end(), bytes(dtype),
                                       [](double a, std::int64_t d) { return a * static_cast<double>(d); });
    std::string line = what + " " + format_tuple(shape) + " " + std::string(name(dtype)) + ": ";
    line += buffers > 1 ? std::to_string(buffers) + " × " + format_bytes(padded) : format_bytes(padded);
    if (padded > raw) line += " (" + format_bytes(raw) + " padded to tiles)";
    if (buffers > 1) line += " = " + format_bytes(buffers * padded);
    return line;
}

}  // namespace

std::vector<std::string> vmem_working(const Chip& chip, const Kernel& kernel) {
    std::vector<std::string> lines;
    for (const auto* list : {&kernel.inputs, &kernel.outputs})
        for (const BlockSpec& b : *list)
            lines.push_back(buffer_line(chip, b.name + " block", b.block_shape, b.dtype, b.buffers));
    for (const ScratchBuffer& s : kernel.scratch)
        lines.push_back(buffer_line(chip, s.name + " scratch", s.shape, s.dtype, 1));
    lines.push_back("in all: " + format_bytes(vmem_bytes(chip, kernel)) + " per core");
    return lines;
}

std::vector<std::string> time_working(const PipelineResult& r) {
    // simulate()'s sum: the launch, the copies before the first step and
    // after the last, and the steps between; a step lasts the longest of
    // its MXU work, its copies and the least step time, so the MXU's share
    // is said of the steps, not added to them.
    const double steps_s = r.time_s - r.launch_s - r.prologue_s - r.epilogue_s;
    std::vector<std::string> lines{format_time(r.launch_s) + " launch, the call's fixed cost"};
    if (r.prologue_s > 0) lines.push_back("+ " + format_time(r.prologue_s) + " first copies in, before any step");
    lines.push_back("+ " + format_time(steps_s) + " for the grid's steps" +
                    (r.cores > 1 ? " on the slower of " + std::to_string(r.cores) + " TensorCores" : std::string()) +
                    ", each as long as the longest of its MXU work, its copies and the least step time (" +
                    format_time(r.step_floor_s) + ")");
    if (r.compute_s > 0) lines.push_back("  the MXU works " + format_time(r.compute_s) + " of them");
    if (r.epilogue_s > 0) lines.push_back("+ " + format_time(r.epilogue_s) + " the last copy out, after the last step");
    lines.push_back("= " + format_time(r.time_s));
    return lines;
}

std::vector<std::string> hbm_working(const PipelineResult& r) {
    return {format_count(static_cast<double>(r.input_copies)) + " block copies in and " +
                format_count(static_cast<double>(r.output_copies)) + " out",
            "= " + format_bytes(r.hbm_bytes) + " through HBM"};
}

}  // namespace tpusim
