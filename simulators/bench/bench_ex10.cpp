// EX·10's recompute: a scrub asks semaphore_state_at for one event, and an
// edit (drop a statement) re-runs the model and lists the statements again.
// Both must stay well under 1 ms for the 4-device ring all-gather.
#include <benchmark/benchmark.h>

#include "tpusim/chips.h"
#include "tpusim/semaphores.h"

#include <fstream>
#include <sstream>

namespace {

tpusim::SemProgram ring()
{
    std::ifstream f(TPUSIM_SEM_ASSETS "/ring_all_gather.sem");
    std::stringstream text;
    text << f.rdbuf();
    return tpusim::parse_semaphore_program(text.str(), "ring_all_gather.sem");
}

// The scrub at its dearest: the state after the last event.
void BM_Ex10ScrubToLastEvent(benchmark::State& state) {
    const tpusim::SemProgram p = ring();
    const tpusim::Chip& chip = tpusim::chip("v5e");
    const std::size_t last = tpusim::run_semaphores(p, chip).events.size() - 1;
    for (auto _ : state)
        benchmark::DoNotOptimize(tpusim::semaphore_state_at(p, chip, 0, last).time_s);
}
BENCHMARK(BM_Ex10ScrubToLastEvent)->Unit(benchmark::kMicrosecond);

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

}  // namespace
