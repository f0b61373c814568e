// Reading a pipeline's recorded schedule: buckets per pixel, the step under
// a time, one step in words, and the schedule as a Chrome trace.
#include "tpusim/pipeline_schedule.h"

#include <algorithm>
#include <cmath>

#include "tpusim/error.h"

namespace tpusim {

namespace {

void require_schedule(const PipelineResult& r, int core) {
    if (r.core_prologue_s.empty())
        throw InputError("the run has no schedule: simulate it with PipelineOptions::schedule");
    if (core < 0 || core >= static_cast<int>(r.core_prologue_s.size()))
        throw InputError("the run has no core " + std::to_string(core));
}

// Adds the overlap of [a, b) with each bucket to field `f` of the buckets it touches.
template <typename Field>
void spread(std::vector<ScheduleBucket>& out, double t0, double width, double a, double b, Field f,
            std::int64_t step = -1) {
    if (!(b > a)) return;
    const double n = static_cast<double>(out.size());
    const double lo_f = std::floor((a - t0) / width), hi_f = std::floor((b - t0) / width);
    if (hi_f < 0 || lo_f >= n) return;
    const auto lo = static_cast<std::size_t>(std::max(0.0, lo_f));
    const auto hi = static_cast<std::size_t>(std::min(n - 1, hi_f));
    for (std::size_t i = lo; i <= hi; ++i) {
        const double s = t0 + width * static_cast<double>(i), e = s + width;
        const double overlap = std::min(b, e) - std::max(a, s);
        if (overlap <= 0) continue;
        out[i].*f += overlap;
        if (step >= 0) {
            if (out[i].first_step < 0) out[i].first_step = step;
            out[i].last_step = step;
        }
    }
}

std::string names(std::uint32_t mask, const std::vector<BlockSpec>& specs) {
    std::string s;
    for (std::size_t i = 0; i < specs.size() && i < 32; ++i)
        if (mask & (1u << i)) s += (s.empty() ? "" : ", ") + specs[i].name;
    return s.empty() ? "-" : s;
}

std::string grid_text(const std::int32_t* g, std::size_t rank) {
    std::string s = "(";
    for (std::size_t i = 0; i < rank; ++i) s += (i ? ", " : "") + std::to_string(g[i]);
    return s + ")";
}

}  // namespace

CoreSteps core_steps(const PipelineResult& r, int core) {
    require_schedule(r, core);
    CoreSteps c;
    // Cores are recorded one after another.
    const auto first =
        std::find_if(r.schedule.begin(), r.schedule.end(), [core](const ScheduleStep& s) { return s.core == core; });
    c.begin = static_cast<std::size_t>(first - r.schedule.begin());
    c.end = c.begin;
    while (c.end < r.schedule.size() && r.schedule[c.end].core == core) ++c.end;
    c.start_s = r.launch_s;
    const auto ci = static_cast<std::size_t>(core);
    c.steps_start_s = r.launch_s + r.core_prologue_s[ci];
    c.steps_end_s = c.end > c.begin ? r.schedule[c.end - 1].end_s : c.steps_start_s;
    c.end_s = c.steps_end_s + r.core_epilogue_s[ci];
    return c;
}

std::vector<ScheduleBucket> aggregate_schedule(const PipelineResult& r, int core, double t0, double t1, int buckets) {
    const CoreSteps c = core_steps(r, core);
    if (!(t1 > t0) || buckets < 1 || !std::isfinite(t0) || !std::isfinite(t1))
        throw InputError("a schedule is bucketed over a span of time that is not empty, in at least one bucket");
    std::vector<ScheduleBucket> out(static_cast<std::size_t>(buckets));
    const double w = (t1 - t0) / buckets;
    spread(out, t0, w, 0, r.launch_s, &ScheduleBucket::launch_s);
    spread(out, t0, w, c.start_s, c.steps_start_s, &ScheduleBucket::prologue_s);
    spread(out, t0, w, c.steps_end_s, c.end_s, &ScheduleBucket::epilogue_s);
    // The steps inside the span: the first whose end is past t0, up to the first starting at t1.
    const auto* base = r.schedule.data();
    const auto* lo =
        std::upper_bound(base + c.begin, base + c.end, t0, [](double t, const ScheduleStep& s) { return t < s.end_s; });
    for (const ScheduleStep* s = lo; s < base + c.end && s->start_s < t1; ++s) {
        const std::int64_t idx = s - (base + c.begin);
        const double c_end = s->start_s + s->compute_s;
        const double dma = s->dma_in_s + s->dma_out_s;
        // The MXU idles from the end of compute to the end of the step: up
        // to the step's fixed time that is step overhead, past it the step
        // waits on copies (the exposed DMA the model counts).
        const double held = s->start_s + std::max(s->compute_s, r.step_floor_s);
        const double exposed = s->end_s - held > 1e-12 ? s->end_s - std::max(c_end, held) : 0.0;
        // Most steps of a long grid fall inside one bucket: added whole, at once.
        const double fa = std::floor((s->start_s - t0) / w), fb = std::floor((s->end_s - t0) / w);
        if (fa == fb && fa >= 0 && fa < buckets) {
            ScheduleBucket& b = out[static_cast<std::size_t>(fa)];
            b.compute_s += s->compute_s;
            b.overhead_s += std::max(0.0, held - c_end);
            b.exposed_s += exposed;
            b.dma_in_s += s->dma_in_s;
            b.dma_out_s += s->dma_out_s;
            if (b.first_step < 0) b.first_step = idx;
            b.last_step = idx;
            continue;
        }
        spread(out, t0, w, s->start_s, c_end, &ScheduleBucket::compute_s, idx);
        spread(out, t0, w, c_end, held, &ScheduleBucket::overhead_s, idx);
        if (exposed > 0) spread(out, t0, w, std::max(c_end, held), s->end_s, &ScheduleBucket::exposed_s, idx);
        spread(out, t0, w, s->start_s, s->start_s + s->dma_in_s, &ScheduleBucket::dma_in_s, idx);
        spread(out, t0, w, s->start_s + s->dma_in_s, s->start_s + dma, &ScheduleBucket::dma_out_s, idx);
    }
    return out;
}

std::int64_t step_at(const PipelineResult& r, int core, double t) {
    const CoreSteps c = core_steps(r, core);
    if (c.end == c.begin) return -1;
    const auto* base = r.schedule.data();
    const auto* it =
        std::upper_bound(base + c.begin, base + c.end, t, [](double v, const ScheduleStep& s) { return v < s.end_s; });
    if (it == base + c.end) --it;
    return it - base;
}

StepDetail step_detail(const Kernel& kernel, const PipelineResult& r, std::int64_t index) {
    if (index < 0 || static_cast<std::size_t>(index) >= r.schedule.size())
        throw InputError("the schedule has no step " + std::to_string(index));
    const ScheduleStep& s = r.schedule[static_cast<std::size_t>(index)];
    const CoreSteps c = core_steps(r, s.core);
    StepDetail d;
    d.index = index;
    d.step = index - static_cast<std::int64_t>(c.begin);
    d.core = s.core;
    const std::size_t rank = kernel.grid.size();
    const auto gi = static_cast<std::size_t>(index) * rank;
    if (gi + rank <= r.schedule_grid.size())
        d.grid_index.assign(r.schedule_grid.begin() + static_cast<std::ptrdiff_t>(gi),
                            r.schedule_grid.begin() + static_cast<std::ptrdiff_t>(gi + rank));
    d.start_s = s.start_s;
    d.end_s = s.end_s;
    d.compute_s = s.compute_s;
    d.dma_in_s = s.dma_in_s;
    d.dma_out_s = s.dma_out_s;
    const double held = std::max(s.compute_s, r.step_floor_s);
    d.overhead_s = held - s.compute_s;
    // Under a picosecond is the rounding of end - start, not a wait.
    d.exposed_s = (s.end_s - s.start_s) - held > 1e-12 ? (s.end_s - s.start_s) - held : 0.0;
    d.copies_in = names(s.in_mask, kernel.inputs);
    d.copies_out = names(s.out_mask, kernel.outputs);
    return d;
}

std::vector<TraceEvent> schedule_trace(const Kernel& kernel, const PipelineResult& r, std::size_t max_steps) {
    std::vector<TraceEvent> events;
    const std::size_t rank = kernel.grid.size();
    for (int core = 0; core < static_cast<int>(r.core_prologue_s.size()); ++core) {
        const CoreSteps c = core_steps(r, core);
        const std::string process = "TensorCore " + std::to_string(core);
        const std::size_t end = max_steps > 0 ? std::min(c.end, c.begin + max_steps) : c.end;
        if (r.launch_s > 0) events.push_back({"launch", "launch", process, "MXU", 0, r.launch_s, {}});
        if (c.steps_start_s > c.start_s)
            events.push_back(
                {"prologue: first blocks in", "dma", process, "DMA", c.start_s, c.steps_start_s - c.start_s, {}});
        for (std::size_t i = c.begin; i < end; ++i) {
            const ScheduleStep& s = r.schedule[i];
            const std::string grid = grid_text(r.schedule_grid.data() + i * rank, rank);
            const std::string step = "step " + std::to_string(i - c.begin);
            events.push_back(
                {step + " " + grid, "compute", process, "MXU", s.start_s, s.compute_s, {{"grid index", grid}}});
            const double held = std::max(s.compute_s, r.step_floor_s);
            if (held > s.compute_s)
                events.push_back({"step overhead",
                                  "overhead",
                                  process,
                                  "MXU",
                                  s.start_s + s.compute_s,
                                  held - s.compute_s,
                                  {{"step", step}}});
            if (s.end_s - s.start_s > held)
                events.push_back({"waiting on DMA",
                                  "bubble",
                                  process,
                                  "MXU",
                                  s.start_s + held,
                                  s.end_s - s.start_s - held,
                                  {{"step", step}}});
            if (s.dma_in_s > 0)
                events.push_back({"in: " + names(s.in_mask, kernel.inputs),
                                  "dma",
                                  process,
                                  "DMA",
                                  s.start_s,
                                  s.dma_in_s,
                                  {{"during", step}, {"for", "the next step"}}});
            if (s.dma_out_s > 0)
                events.push_back({"out: " + names(s.out_mask, kernel.outputs),
                                  "dma",
                                  process,
                                  "DMA",
                                  s.start_s + s.dma_in_s,
                                  s.dma_out_s,
                                  {{"during", step}, {"of", "the step before"}}});
        }
        if (end == c.end && c.end_s > c.steps_end_s)
            events.push_back(
                {"epilogue: last blocks out", "dma", process, "DMA", c.steps_end_s, c.end_s - c.steps_end_s, {}});
    }
    return events;
}

}  // namespace tpusim
