// The grid walk and its timing. Kept allocation-free per step so that a
// 262,144-step grid runs in a few milliseconds.
#include "tpusim/pipeline.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "pipeline_detail.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

using detail::Operand;

struct CoreRun {
    double time_s = 0, compute_s = 0, overhead_s = 0, exposed_dma_s = 0;
    double prologue_s = 0, epilogue_s = 0, hbm_bytes = 0;
    std::int64_t steps = 0, input_copies = 0, output_copies = 0;
};

struct Rates {
    double step_compute_s = 0;
    double bandwidth = 0;  // HBM B/s seen by one core
    double latency_s = 0;
    double step_floor_s = 0;
};

// A copy nothing overlaps (the first inputs, the last outputs) pays the DMA latency.
double exposed_copy_time(double bytes, const Rates& r) {
    return bytes > 0 ? r.latency_s + bytes / r.bandwidth : 0;
}

// Behind the double buffer several DMAs are in flight, so only their bytes count.
double copy_time(double bytes, const Rates& r) {
    return bytes / r.bandwidth;
}

// Walks the grid points [lo, hi) of one core in row-major order.
CoreRun run_core(std::vector<Operand>& ops, std::size_t n_inputs, const std::vector<std::int64_t>& lo,
                 const std::vector<std::int64_t>& hi, const Rates& rates, int core, std::size_t timeline_cap,
                 std::vector<StepRecord>& timeline, PipelineResult* schedule, double clock0) {
    CoreRun run;
    const std::size_t rank = lo.size();
    std::vector<std::int64_t> g(lo);
    std::vector<std::int64_t> prev_g;
    std::vector<int> fetched_prev, fetched_now;
    const bool recording = timeline_cap > 0;
    const double c = rates.step_compute_s;
    double pending_out = 0;  // bytes finished two steps back, written during the last step
    std::uint32_t pending_out_mask = 0;
    // The schedule: bit masks of the operands each step copies, and the grid index of the step before.
    std::uint32_t in_mask = 0, out_mask = 0;
    std::vector<std::int32_t> sched_prev_g(rank, 0);

    for (std::int64_t s = 0;; ++s) {
        double in_now = 0, out_prev = 0;
        if (recording) fetched_now.clear();
        in_mask = 0;
        out_mask = 0;
        std::vector<int> written_prev;
        for (std::size_t o = 0; o < ops.size(); ++o) {
            Operand& op = ops[o];
            const std::int64_t key = op.key_at(g);
            const bool changed = s == 0 || key != op.key;
            if (o < n_inputs) {
                if (changed) {
                    op.key = key;
                    op.bytes = op.block_bytes_at(g);
                    in_now += op.bytes;
                    ++run.input_copies;
                    if (o < 32) in_mask |= 1u << o;
                    if (recording) fetched_now.push_back(static_cast<int>(o));
                }
            } else if (changed) {
                if (s > 0) {  // the block finished at the previous step goes back to HBM
                    out_prev += op.bytes;
                    ++run.output_copies;
                    if (o - n_inputs < 32) out_mask |= 1u << (o - n_inputs);
                    if (recording && static_cast<std::size_t>(s - 1) < timeline_cap)
                        written_prev.push_back(static_cast<int>(o - n_inputs));
                }
                op.key = key;
                op.bytes = op.block_bytes_at(g);
            }
        }
        run.hbm_bytes += in_now + out_prev;
        if (s == 0) {
            run.prologue_s = exposed_copy_time(in_now, rates);
            run.time_s = run.prologue_s;
            if (schedule) schedule->core_prologue_s.push_back(run.prologue_s);
        } else {
            // Step s-1 ran while the DMAs for step s's inputs and step s-2's outputs flew.
            const double dma = copy_time(in_now + pending_out, rates);
            const double step = std::max({rates.step_floor_s, c, dma});
            if (recording && static_cast<std::size_t>(s - 1) < timeline_cap)
                timeline.push_back(StepRecord{s - 1, core, prev_g, fetched_prev, written_prev, run.time_s, c, dma,
                                              rates.step_floor_s, run.time_s + step});
            if (schedule) {
                schedule->schedule.push_back(ScheduleStep{clock0 + run.time_s, clock0 + (run.time_s + step), c,
                                                          copy_time(in_now, rates), copy_time(pending_out, rates),
                                                          in_mask, pending_out_mask, core});
                schedule->schedule_grid.insert(schedule->schedule_grid.end(), sched_prev_g.begin(), sched_prev_g.end());
            }
            run.time_s += step;
            run.exposed_dma_s += std::max(0.0, dma - std::max(c, rates.step_floor_s));
            run.overhead_s += std::max(0.0, rates.step_floor_s - std::max(c, dma));
            pending_out = out_prev;
            pending_out_mask = out_mask;
        }
        if (schedule)
            for (std::size_t a = 0; a < rank; ++a) sched_prev_g[a] = static_cast<std::int32_t>(g[a]);
        if (recording) {
            prev_g = g;
            std::swap(fetched_prev, fetched_now);
        }

        // Advance the odometer; the last axis moves fastest.
        bool done = true;
        for (std::size_t axis = rank; axis-- > 0;) {
            if (++g[axis] < hi[axis]) {
                done = false;
                break;
            }
            g[axis] = lo[axis];
        }
        if (done) {
            run.steps = s + 1;
            break;
        }
    }

    // The last step: only the previous step's outputs are in flight.
    const double dma = copy_time(pending_out, rates);
    const double step = std::max({rates.step_floor_s, c, dma});
    std::vector<int> written_last;
    double out_last = 0;
    for (std::size_t o = n_inputs; o < ops.size(); ++o) {
        out_last += ops[o].bytes;
        ++run.output_copies;
        written_last.push_back(static_cast<int>(o - n_inputs));
    }
    if (recording && static_cast<std::size_t>(run.steps - 1) < timeline_cap)
        timeline.push_back(StepRecord{run.steps - 1, core, prev_g, fetched_prev, written_last, run.time_s, c, dma,
                                      rates.step_floor_s, run.time_s + step});
    if (schedule) {
        schedule->schedule.push_back(
            ScheduleStep{clock0 + run.time_s, clock0 + (run.time_s + step), c, 0, dma, 0, pending_out_mask, core});
        schedule->schedule_grid.insert(schedule->schedule_grid.end(), sched_prev_g.begin(), sched_prev_g.end());
    }
    run.time_s += step;
    run.exposed_dma_s += std::max(0.0, dma - std::max(c, rates.step_floor_s));
    run.overhead_s += std::max(0.0, rates.step_floor_s - std::max(c, dma));
    run.epilogue_s = exposed_copy_time(out_last, rates);
    if (schedule) schedule->core_epilogue_s.push_back(run.epilogue_s);
    run.time_s += run.epilogue_s;
    run.hbm_bytes += out_last;
    run.exposed_dma_s += run.prologue_s + run.epilogue_s;
    run.compute_s = c * static_cast<double>(run.steps);
    return run;
}

}  // namespace

PipelineResult simulate(const Chip& chip, const Kernel& kernel, const PipelineOptions& options) {
    detail::validate(kernel);
    std::vector<Operand> ops = detail::prepare_operands(kernel);
    const std::size_t n_inputs = kernel.inputs.size();

    PipelineResult result;
    result.vmem_bytes = vmem_bytes(chip, kernel);
    result.vmem_limit_bytes = detail::vmem_limit(chip, options);
    if (result.vmem_bytes > result.vmem_limit_bytes)
        throw InputError("the kernel needs " + format_bytes(result.vmem_bytes) +
                         " of VMEM (buffers × blocks + scratch), over the " + format_bytes(result.vmem_limit_bytes) +
                         " scoped limit on " + chip.id +
                         (options.vmem_limit_bytes ? std::string() : std::string(" (an assumed default)")) +
                         ": use smaller blocks or raise the limit");

    const detail::CoreSplit split = detail::split_cores(chip, kernel);
    result.cores = split.cores;
    const detail::DeviceRates dev = detail::device_rates(chip, kernel, options, split.cores);

    Rates rates;
    rates.step_compute_s = dev.step_compute_s;
    rates.bandwidth = dev.core_bandwidth;
    rates.latency_s = options.dma_latency_s.value_or(chip.dma_latency.value);
    rates.step_floor_s = options.step_overhead_s.value_or(chip.grid_step_overhead.value);
    const double launch_s = options.launch_s.value_or(chip.kernel_launch.value);
    if (!(rates.latency_s >= 0) || !(rates.step_floor_s >= 0) || !(launch_s >= 0) || !(rates.bandwidth > 0))
        throw InputError("latency, step time and launch cost must be zero or more, and bandwidth above zero");

    const std::size_t rank = kernel.grid.size();
    if (options.schedule) {
        std::int64_t points = 1;
        for (std::int64_t d : kernel.grid) points *= d;
        result.schedule.reserve(static_cast<std::size_t>(points));
        result.schedule_grid.reserve(static_cast<std::size_t>(points) * rank);
    }
    CoreRun slowest;
    double hbm = 0;
    std::int64_t steps = 0, in_copies = 0, out_copies = 0;
    for (int core = 0; core < split.cores; ++core) {
        std::vector<std::int64_t> lo(rank, 0), hi(kernel.grid);
        if (split.cores > 1) {
            const std::int64_t half = (kernel.grid[split.axis] + 1) / 2;
            lo[split.axis] = core == 0 ? 0 : half;
            hi[split.axis] = core == 0 ? half : kernel.grid[split.axis];
        }
        const CoreRun run = run_core(ops, n_inputs, lo, hi, rates, core, options.timeline_steps, result.timeline,
                                     options.schedule ? &result : nullptr, launch_s);
        hbm += run.hbm_bytes;
        steps += run.steps;
        in_copies += run.input_copies;
        out_copies += run.output_copies;
        if (run.time_s > slowest.time_s) slowest = run;
    }

    result.launch_s = launch_s;
    result.step_floor_s = rates.step_floor_s;
    result.time_s = launch_s + slowest.time_s;
    result.steps = steps;
    result.hbm_bytes = hbm;
    result.input_copies = in_copies;
    result.output_copies = out_copies;
    result.compute_s = slowest.compute_s;
    result.overhead_s = slowest.overhead_s;
    result.exposed_dma_s = slowest.exposed_dma_s;
    result.prologue_s = slowest.prologue_s;
    result.epilogue_s = slowest.epilogue_s;
    result.flops = kernel.useful_flops;
    result.utilization = result.flops > 0 ? result.flops / (result.time_s * dev.device_flops) : 0;
    result.floor_s = std::max(result.flops / dev.device_flops, detail::array_bytes(kernel) / dev.device_bandwidth);
    result.provenance = detail::provenance(chip, kernel, options, split, dev);
    return result;
}

}  // namespace tpusim
