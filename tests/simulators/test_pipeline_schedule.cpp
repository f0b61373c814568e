// The per-step schedule EX·08 draws: it is the pipeline model's own walk,
// so its steps, buckets and trace add up to the model's time.
#include <catch2/catch.hpp>

#include <numeric>

#include "mini_json.h"
#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/pipeline_schedule.h"

using namespace tpusim;

namespace {
BlockedMatmul spec(std::int64_t size, std::int64_t bm, std::int64_t bk, std::int64_t bn, const char* order = "mnk") {
    BlockedMatmul s;
    s.m = s.k = s.n = size;
    s.bm = bm;
    s.bk = bk;
    s.bn = bn;
    s.order = order;
    return s;
}
PipelineOptions scheduled() {
    PipelineOptions o;
    o.schedule = true;
    return o;
}
double total(const std::vector<ScheduleBucket>& b, double ScheduleBucket::*f) {
    return std::accumulate(b.begin(), b.end(), 0.0, [f](double a, const ScheduleBucket& x) { return a + x.*f; });
}
}  // namespace

TEST_CASE("schedule: one record per step, ending at the model's time", "[pipeline][schedule]") {
    for (const char* chip_id : {"v5e", "v5p", "v6e"}) {
        for (auto [bm, bk, bn] : {std::tuple{128, 128, 128}, std::tuple{512, 512, 512}, std::tuple{512, 1024, 1024}}) {
            const Kernel k = blocked_matmul(spec(4096, bm, bk, bn));
            const PipelineResult plain = simulate(chip(chip_id), k);
            const PipelineResult r = simulate(chip(chip_id), k, scheduled());
            CHECK(r.time_s == plain.time_s);  // recording changes nothing
            REQUIRE(r.schedule.size() == static_cast<std::size_t>(r.steps));
            CHECK(r.schedule_grid.size() == r.schedule.size() * 3);
            double latest = 0;
            for (int core = 0; core < r.cores; ++core) {
                const CoreSteps c = core_steps(r, core);
                CHECK(r.schedule[c.begin].start_s ==
                      Approx(r.launch_s + r.core_prologue_s[static_cast<std::size_t>(core)]));
                for (std::size_t i = c.begin + 1; i < c.end; ++i)
                    REQUIRE(r.schedule[i].start_s == r.schedule[i - 1].end_s);
                latest = std::max(latest, c.end_s);
            }
            // The timeline's total is the model's time.
            CHECK(latest == Approx(r.time_s).epsilon(1e-12));
        }
    }
}

TEST_CASE("schedule: buckets over the whole call add up to its time, lane by lane", "[pipeline][schedule]") {
    const Kernel k = blocked_matmul(spec(4096, 128, 128, 128));
    const PipelineResult r = simulate(chip("v5e"), k, scheduled());
    const auto b = aggregate_schedule(r, 0, 0, r.time_s, 640);
    const double mxu = total(b, &ScheduleBucket::compute_s) + total(b, &ScheduleBucket::overhead_s) +
                       total(b, &ScheduleBucket::exposed_s) + total(b, &ScheduleBucket::launch_s) +
                       total(b, &ScheduleBucket::prologue_s) + total(b, &ScheduleBucket::epilogue_s);
    CHECK(mxu == Approx(r.time_s));
    CHECK(total(b, &ScheduleBucket::compute_s) == Approx(r.compute_s));
    CHECK(total(b, &ScheduleBucket::exposed_s) == Approx(r.exposed_dma_s - r.prologue_s - r.epilogue_s).margin(1e-12));
    CHECK(total(b, &ScheduleBucket::launch_s) == Approx(r.launch_s));
    CHECK(b.front().first_step == -1);  // the launch
    CHECK(b.back().last_step == r.steps - 1);
    // 128-blocks on v5e: each step is held by its fixed time, not by its copies.
    CHECK(total(b, &ScheduleBucket::overhead_s) > total(b, &ScheduleBucket::exposed_s));
}

TEST_CASE("schedule: a step in numbers, and the step under a time", "[pipeline][schedule]") {
    // 256^3 with 128-blocks (test_pipeline.cpp): 8 steps, out written after 1, 3, 5, 7.
    const Kernel k = blocked_matmul(spec(256, 128, 128, 128));
    const PipelineResult r = simulate(chip("v5e"), k, scheduled());
    REQUIRE(r.schedule.size() == 8);
    const StepDetail d0 = step_detail(k, r, 0);
    CHECK(d0.grid_index == std::vector<std::int32_t>{0, 0, 0});
    CHECK(d0.copies_in == "x, y");  // step 1's blocks come in during step 0
    CHECK(d0.copies_out == "-");
    CHECK(step_detail(k, r, 2).copies_out == "out");  // step 1 finished out block (0,0)
    CHECK(step_detail(k, r, 7).copies_in == "-");
    CHECK(step_detail(k, r, 5).grid_index == std::vector<std::int32_t>{1, 0, 1});
    const ScheduleStep& s3 = r.schedule[3];
    CHECK(step_at(r, 0, (s3.start_s + s3.end_s) / 2) == 3);
    CHECK(step_at(r, 0, 0) == 0);
    CHECK(step_at(r, 0, r.time_s + 1) == 7);
    const StepDetail d3 = step_detail(k, r, 3);
    CHECK(d3.compute_s + d3.overhead_s + d3.exposed_s == Approx(d3.end_s - d3.start_s));
    CHECK_THROWS_AS(step_detail(k, r, 8), InputError);
    CHECK_THROWS_AS(aggregate_schedule(simulate(chip("v5e"), k), 0, 0, 1, 10), InputError);
    CHECK_THROWS_AS(aggregate_schedule(r, 1, 0, 1, 10), InputError);
    CHECK_THROWS_AS(aggregate_schedule(r, 0, 1, 1, 10), InputError);
}

TEST_CASE("schedule: the grid order moves the copies", "[pipeline][schedule]") {
    // K first: the output block changes every step, so it is written back every step.
    const PipelineResult mnk = simulate(chip("v5e"), blocked_matmul(spec(1024, 256, 256, 256, "mnk")), scheduled());
    const PipelineResult kmn = simulate(chip("v5e"), blocked_matmul(spec(1024, 256, 256, 256, "kmn")), scheduled());
    CHECK(mnk.steps == kmn.steps);
    CHECK(mnk.output_copies == 16);
    CHECK(kmn.output_copies == 64);
    // ... while x, its index (i, k) fixed along the innermost n, is copied a quarter as often.
    CHECK(mnk.input_copies == 64 + 64);
    CHECK(kmn.input_copies == 16 + 64);
    // n outermost: each y block stays for a whole column of output blocks when bk = K.
    const PipelineResult nmk = simulate(chip("v5e"), blocked_matmul(spec(1024, 256, 1024, 256, "nmk")));
    CHECK(nmk.input_copies == 16 + 4);
    CHECK_THROWS_WITH(blocked_matmul(spec(1024, 256, 256, 256, "mmk")),
                      "the grid order must name m, n and k once each, like mnk (got 'mmk')");
}

TEST_CASE("schedule: megacore runs two cores, each ending by the model's time", "[pipeline][schedule]") {
    const PipelineResult r = simulate(chip("v5p"), blocked_matmul(spec(4096, 512, 1024, 1024)), scheduled());
    REQUIRE(r.cores == 2);
    CHECK(core_steps(r, 0).end - core_steps(r, 0).begin == 64);
    CHECK(core_steps(r, 1).end - core_steps(r, 1).begin == 64);
    CHECK(std::max(core_steps(r, 0).end_s, core_steps(r, 1).end_s) == Approx(r.time_s));
}

TEST_CASE("schedule: 262,144 steps bucketed to a strip of pixels", "[pipeline][schedule]") {
    const Kernel k = blocked_matmul(spec(8192, 128, 128, 128));
    const PipelineResult r = simulate(chip("v5e"), k, scheduled());
    REQUIRE(r.schedule.size() == 262144);
    const auto b = aggregate_schedule(r, 0, 0, r.time_s, 1200);
    CHECK(total(b, &ScheduleBucket::compute_s) == Approx(r.compute_s));
    CHECK(b.back().last_step == 262143);
}

TEST_CASE("schedule: the trace holds every step and ends at the model's time", "[pipeline][schedule][trace]") {
    const Kernel k = blocked_matmul(spec(1024, 256, 256, 256));
    const PipelineResult r = simulate(chip("v5e"), k, scheduled());
    const mini_json::Value doc = mini_json::parse(chrome_trace_json(schedule_trace(k, r)));
    double end = 0;
    int compute = 0;
    for (const auto& e : doc["traceEvents"].a)
        if (e["ph"].s == "X") {
            end = std::max(end, e["ts"].n + e["dur"].n);
            if (e["cat"].s == "compute") ++compute;
        }
    CHECK(compute == r.steps);
    CHECK(end == Approx(r.time_s * 1e6).margin(1e-3));  // the trace keeps nanoseconds
    // Capped: only the first steps, and no epilogue.
    const auto capped = schedule_trace(k, r, 4);
    CHECK(std::count_if(capped.begin(), capped.end(), [](const TraceEvent& e) { return e.category == "compute"; }) ==
          4);
}
