// EX·10's recompute: a run records the state after every event, so a scrub
// is a lookup; an edit (drop a statement) re-runs the model and lists the
// statements again.
#include <benchmark/benchmark.h>

#include "tpusim/chips.h"
#include "tpusim/semaphores.h"

#include <fstream>
#include <sstream>
#include <string>

namespace {

tpusim::SemProgram shipped(const std::string& name) {
    std::ifstream f(TPUSIM_SEM_ASSETS "/" + name + ".sem");
    std::stringstream text;
    text << f.rdbuf();
    return tpusim::parse_semaphore_program(text.str(), name + ".sem");
}

tpusim::SemProgram ring() {
    return shipped("ring_all_gather");
}

// What the piece does per run (open, edit, chip switch): the run, and the
// state after every event, so that scrubbing is a lookup.
void BM_Ex10RunAndRecordStates(benchmark::State& state, const std::string& program) {
    const tpusim::SemProgram p = shipped(program);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) {
        std::vector<tpusim::SemState> states;
        benchmark::DoNotOptimize(tpusim::run_semaphores(p, chip, 0, &states, 20000).end_s);
        benchmark::DoNotOptimize(states.size());
    }
}
BENCHMARK_CAPTURE(BM_Ex10RunAndRecordStates, ring_all_gather, std::string("ring_all_gather"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex10RunAndRecordStates, reduce_scatter, std::string("reduce_scatter_bidirectional"))
    ->Unit(benchmark::kMicrosecond);

// A scrub as the piece does it: the state after an event, read from the
// states the run recorded (copied out, as the model converts it).
void BM_Ex10ScrubToLastEvent(benchmark::State& state, const std::string& program) {
    const tpusim::SemProgram p = shipped(program);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    std::vector<tpusim::SemState> states;
    tpusim::run_semaphores(p, chip, 0, &states, 20000);
    for (auto _ : state) {
        const tpusim::SemState s = states.back();
        benchmark::DoNotOptimize(s.time_s);
    }
}
BENCHMARK_CAPTURE(BM_Ex10ScrubToLastEvent, ring_all_gather, std::string("ring_all_gather"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex10ScrubToLastEvent, reduce_scatter, std::string("reduce_scatter_bidirectional"))
    ->Unit(benchmark::kMicrosecond);

// Past the recorded states (a run of more than 20,000 events), the model
// runs up to the event: the state after the last event, re-run.
void BM_Ex10StateRerunToLastEvent(benchmark::State& state, const std::string& program) {
    const tpusim::SemProgram p = shipped(program);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    const std::size_t last = tpusim::run_semaphores(p, chip).events.size() - 1;
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::semaphore_state_at(p, chip, 0, last).time_s);
}
BENCHMARK_CAPTURE(BM_Ex10StateRerunToLastEvent, ring_all_gather, std::string("ring_all_gather"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Ex10StateRerunToLastEvent, reduce_scatter, std::string("reduce_scatter_bidirectional"))
    ->Unit(benchmark::kMicrosecond);

// The edit: drop the remote copy, re-run, list the statements, show event 0.
void BM_Ex10DropCopyAndRerun(benchmark::State& state) {
    const tpusim::SemProgram p = ring();
    const tpusim::Chip& chip = tpusim::chip("v5e");
    std::size_t copy = 0;
    for (const tpusim::SemStatement& s : tpusim::semaphore_statements(p))
        if (s.text.rfind("remote_copy", 0) == 0) copy = s.index;
    for (auto _ : state) {
        const tpusim::SemProgram edited = tpusim::drop_statement(p, copy);
        benchmark::DoNotOptimize(tpusim::semaphore_statements(edited).size());
        benchmark::DoNotOptimize(tpusim::run_semaphores(edited, chip).end_s);
        benchmark::DoNotOptimize(tpusim::semaphore_state_at(edited, chip, 0, 0).time_s);
    }
}
BENCHMARK(BM_Ex10DropCopyAndRerun)->Unit(benchmark::kMicrosecond);

// Opening the largest shipped program: the two-way reduce-scatter, parsed,
// listed, run, and its state at the last event.
void BM_Ex10OpenReduceScatter(benchmark::State& state) {
    std::ifstream f(TPUSIM_SEM_ASSETS "/reduce_scatter_bidirectional.sem");
    std::stringstream text;
    text << f.rdbuf();
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) {
        const tpusim::SemProgram p = tpusim::parse_semaphore_program(text.str(), "reduce_scatter_bidirectional.sem");
        benchmark::DoNotOptimize(tpusim::semaphore_statements(p).size());
        const tpusim::SemRun run = tpusim::run_semaphores(p, chip);
        benchmark::DoNotOptimize(tpusim::semaphore_state_at(p, chip, 0, run.events.size() - 1).time_s);
    }
}
BENCHMARK(BM_Ex10OpenReduceScatter)->Unit(benchmark::kMicrosecond);

}  // namespace
