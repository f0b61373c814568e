// Speed of the semaphore model: the app re-runs it on every edit and scrubs
// it event by event, so the 4-device ring all-gather must run in well
// under 1 ms, parsing included.
#include <benchmark/benchmark.h>

#include "tpusim/chips.h"
#include "tpusim/semaphores.h"

namespace {

// The shipped assets/semaphores/ring_all_gather.sem, without its comments.
constexpr const char* kRingAllGather = R"(devices 4
buffer x 4KiB
buffer out[N] 4KiB
dma_sem local
dma_sem send
dma_sem recv[N - 1]
barrier
local_copy x -> out[my] sem local
wait_dma local x
for s in 0 .. N - 2
    remote_copy out[(my - s) % N] -> out[(my - s) % N] to (my + 1) % N send send recv recv[s]
    wait_dma send x
    wait_dma recv[s] x
end
)";

void BM_SemRingAllGather4(benchmark::State& state) {
    const tpusim::SemProgram p = tpusim::parse_semaphore_program(kRingAllGather);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::run_semaphores(p, chip).end_s);
}
BENCHMARK(BM_SemRingAllGather4)->Unit(benchmark::kMicrosecond);

void BM_SemRingAllGather4ParseAndRun(benchmark::State& state) {
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state)
        benchmark::DoNotOptimize(tpusim::run_semaphores(tpusim::parse_semaphore_program(kRingAllGather), chip).end_s);
}
BENCHMARK(BM_SemRingAllGather4ParseAndRun)->Unit(benchmark::kMicrosecond);

// A learner's edit: drop the receive wait, re-run, then look at the state
// halfway through the run.
void BM_SemRingAllGather4EditRunScrub(benchmark::State& state) {
    const tpusim::SemProgram p = tpusim::parse_semaphore_program(kRingAllGather);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    std::size_t recv_wait = 0;
    for (const tpusim::SemStatement& s : tpusim::semaphore_statements(p))
        if (s.text.rfind("wait_dma recv", 0) == 0) recv_wait = s.index;
    for (auto _ : state) {
        const tpusim::SemProgram edited = tpusim::drop_statement(p, recv_wait);
        const tpusim::SemRun r = tpusim::run_semaphores(edited, chip);
        const tpusim::SemState s = tpusim::semaphore_state_at(edited, chip, 0, r.events.size() / 2);
        benchmark::DoNotOptimize(s.time_s);
    }
}
BENCHMARK(BM_SemRingAllGather4EditRunScrub)->Unit(benchmark::kMicrosecond);

void BM_SemRingAllGather64(benchmark::State& state) {
    const tpusim::SemProgram p = tpusim::parse_semaphore_program(kRingAllGather);
    const tpusim::Chip& chip = tpusim::chip("v5e");
    for (auto _ : state) benchmark::DoNotOptimize(tpusim::run_semaphores(p, chip, 64).end_s);
}
BENCHMARK(BM_SemRingAllGather64)->Unit(benchmark::kMillisecond);

}  // namespace
