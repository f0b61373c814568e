#pragma once
// The per-step schedule of a pipeline run (PipelineOptions::schedule) read
// the ways EX·08 draws it: one core's steps bucketed per pixel over any span
// of the call, the step under a point in time, what one step does, and the
// whole schedule as a Chrome trace. Every time is on the call's clock: the
// launch from 0, then the prologue, the steps and the epilogue, ending at
// PipelineResult::time_s for the slowest core.
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/pipeline.h"
#include "tpusim/trace.h"

namespace tpusim {

// Seconds of each kind of activity inside one bucket of time. The MXU lane:
// compute, step overhead (idle because a step takes at least its fixed
// time), exposed DMA (idle, waiting on copies longer than the compute);
// before the first step and after the last it is idle through the launch,
// the prologue and the epilogue. The DMA lane: copies in and copies out,
// hidden under a step or exposed (prologue and epilogue).
struct ScheduleBucket {
    double compute_s = 0;
    double overhead_s = 0;
    double exposed_s = 0;  // MXU idle waiting on DMA inside steps
    double dma_in_s = 0;
    double dma_out_s = 0;
    double launch_s = 0;
    double prologue_s = 0;         // first copies in, nothing to overlap
    double epilogue_s = 0;         // last copies out, nothing to overlap
    std::int64_t first_step = -1;  // steps overlapping the bucket (-1: none)
    std::int64_t last_step = -1;
};

// One core's steps in the schedule: [begin, end) into PipelineResult::schedule.
struct CoreSteps {
    std::size_t begin = 0, end = 0;
    double start_s = 0;  // the launch's end: the prologue starts here
    double steps_start_s = 0;
    double steps_end_s = 0;
    double end_s = 0;  // after the epilogue
};
CoreSteps core_steps(const PipelineResult& r, int core);

// `buckets` equal buckets over [t0, t1) of `core`'s schedule. Takes time in
// the steps that fall inside the span, plus the buckets. Throws InputError
// for a run without a schedule, a core it does not have, or an empty span.
std::vector<ScheduleBucket> aggregate_schedule(const PipelineResult& r, int core, double t0, double t1, int buckets);

// The index into PipelineResult::schedule of `core`'s step running at time
// t, or the nearest step when t falls in the launch, prologue or epilogue; -1
// for a run without steps on that core.
std::int64_t step_at(const PipelineResult& r, int core, double t);

// What one step does, in words and numbers, for a hover card.
struct StepDetail {
    std::int64_t index = 0;  // into the schedule
    std::int64_t step = 0;   // position in its core's walk
    int core = 0;
    std::vector<std::int32_t> grid_index;
    double start_s = 0, end_s = 0, compute_s = 0, dma_in_s = 0, dma_out_s = 0;
    double overhead_s = 0;  // idle for the step's fixed time
    double exposed_s = 0;   // idle waiting on DMA
    std::string copies_in;  // "x, y" or "-"
    std::string copies_out;
};
StepDetail step_detail(const Kernel& kernel, const PipelineResult& r, std::int64_t index);

// The schedule as trace events: per core, an "MXU" track (launch, each
// step's compute, the gaps as "step overhead" or "waiting on DMA") and a
// "DMA" track (prologue, each step's copies in and out, epilogue). At most
// `max_steps` steps per core (0: all); the last event ends at time_s when
// every step is in.
std::vector<TraceEvent> schedule_trace(const Kernel& kernel, const PipelineResult& r, std::size_t max_steps = 0);

}  // namespace tpusim
