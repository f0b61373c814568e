// The semaphore model: shipped programs, a hand-derived timeline, each kind
// of failure with its details, and the scrubbing state.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tpusim/chips.h"
#include "tpusim/error.h"
#include "tpusim/semaphores.h"

using namespace tpusim;

namespace {

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

SemProgram asset(const std::string& name) {
    const auto path = std::filesystem::path(TPUSIM_SEM_ASSETS) / name;
    return parse_semaphore_program(read(path), name);
}

SemRun run_text(const std::string& text, int devices = 0) {
    return run_semaphores(parse_semaphore_program(text), chip("v5e"), devices);
}

SemStatus expected_from_name(const std::string& name) {
    if (name.find("deadlock") != std::string::npos) return SemStatus::deadlock;
    if (name.find("race") != std::string::npos) return SemStatus::race;
    if (name.find("nonzero") != std::string::npos) return SemStatus::nonzero_semaphore;
    return SemStatus::ok;
}

}  // namespace

TEST_CASE("every shipped program ends the way its name says", "[semaphores]") {
    int count[4] = {0, 0, 0, 0};
    for (const auto& entry : std::filesystem::directory_iterator(TPUSIM_SEM_ASSETS)) {
        if (entry.path().extension() != ".sem") continue;
        const std::string name = entry.path().filename().string();
        INFO(name);
        const SemRun r = run_semaphores(parse_semaphore_program(read(entry.path()), name), chip("v5e"));
        const SemStatus want = expected_from_name(name);
        CHECK(sem_status_name(r.status) == sem_status_name(want));
        ++count[static_cast<int>(want)];
        // The correct ring programs stay correct on other ring sizes.
        if (want == SemStatus::ok)
            for (int n : {2, 3, 5, 8})
                CHECK(run_semaphores(parse_semaphore_program(read(entry.path())), chip("v5e"), n).status ==
                      SemStatus::ok);
    }
    CHECK(count[static_cast<int>(SemStatus::ok)] >= 2);
    CHECK(count[static_cast<int>(SemStatus::deadlock)] >= 2);
    CHECK(count[static_cast<int>(SemStatus::race)] >= 2);
    CHECK(count[static_cast<int>(SemStatus::nonzero_semaphore)] >= 1);
}

TEST_CASE("ring all-gather on 4 v5e chips: hand-derived timeline", "[semaphores]") {
    // v5e: HBM 820 GB/s, ICI link 45 GB/s one way, hop latency 1 us, DMA
    // latency 0.5 us (an assumption). A shard is 4096 bytes.
    //   local copy x -> out[my]:  0.5 us + 4096 / 820e9      =  504.995 ns
    //   one ring step (1 hop):    0.5 us + 1 us + 4096 / 45e9 = 1591.022 ns
    // All devices move in lockstep: the barrier releases at 0, the local
    // copies land at 505.0 ns, step s lands at 505.0 + (s + 1) x 1591.0 ns,
    // and the last wait passes at 504.995 + 3 x 1591.022 = 5278.06 ns.
    const SemRun r = run_semaphores(asset("ring_all_gather.sem"), chip("v5e"));
    REQUIRE(r.status == SemStatus::ok);
    CHECK(r.devices == 4);
    const double local = 0.5e-6 + 4096 / 820e9, step = 1.5e-6 + 4096 / 45e9;
    CHECK(r.end_s == Approx(local + 3 * step).epsilon(1e-9));
    CHECK(r.end_s == Approx(5278.06e-9).epsilon(1e-5));
    std::vector<double> lands;
    int starts = 0;
    for (const SemEvent& e : r.events) {
        if (e.kind == "dma-start") ++starts;
        if (e.kind == "dma-land" && e.device == 1) lands.push_back(e.time_s);
    }
    CHECK(starts == 4 + 4 * 3);  // one local copy and three ring steps per device
    REQUIRE(lands.size() == 4);
    CHECK(lands[0] == Approx(local));
    for (int s = 0; s < 3; ++s) CHECK(lands[static_cast<std::size_t>(s + 1)] == Approx(local + (s + 1) * step));
    // Property: N - 1 steps on any ring size.
    for (int n = 2; n <= 8; ++n)
        CHECK(run_semaphores(asset("ring_all_gather.sem"), chip("v5e"), n).end_s == Approx(local + (n - 1) * step));
    // A chip with twice the link bandwidth moves the same bytes faster.
    CHECK(run_semaphores(asset("ring_all_gather.sem"), chip("v5p")).end_s < r.end_s);
}

TEST_CASE("the trace has a track per device program and per DMA engine", "[semaphores]") {
    const SemRun r = run_semaphores(asset("reduce_scatter_bidirectional.sem"), chip("v5e"));
    const std::vector<TraceEvent> t = semaphore_trace(r);
    REQUIRE(!t.empty());
    bool program = false, right = false, left = false, local = false;
    for (const TraceEvent& e : t) {
        CHECK(e.process.rfind("device ", 0) == 0);
        CHECK(e.duration_s >= 0);
        program = program || e.thread == "program";
        right = right || e.thread == "ICI right";
        left = left || e.thread == "ICI left";
        local = local || e.thread == "DMA local";
    }
    CHECK((program && right && left && local));
    CHECK(chrome_trace_json(t).find("traceEvents") != std::string::npos);
}

TEST_CASE("deadlock: a wait nobody will signal, a cycle, a barrier", "[semaphores]") {
    // Both devices wait for 1 KiB on r; no copy ever signals r.
    const SemRun lonely = run_text("devices 2\nbuffer b 1KiB\ndma_sem r\nwait_dma r b\n");
    REQUIRE(lonely.status == SemStatus::deadlock);
    REQUIRE(lonely.deadlock.size() == 2);
    CHECK(lonely.deadlock[0].semaphore == "r");
    CHECK(lonely.deadlock[0].value == 0);
    CHECK(lonely.deadlock[0].needed == 1024);
    CHECK(lonely.deadlock[0].line == 4);
    CHECK(lonely.deadlock[0].waits_for.empty());
    CHECK(lonely.deadlock[0].reason.find("nobody will signal") != std::string::npos);
    CHECK(lonely.cycle.empty());

    // Each device waits for its right neighbour's "ready" before signalling its left.
    const SemRun ring = run_semaphores(asset("ring_all_gather_deadlock_cycle.sem"), chip("v5e"));
    REQUIRE(ring.status == SemStatus::deadlock);
    REQUIRE(ring.deadlock.size() == 4);
    for (const SemWaiter& w : ring.deadlock) {
        CHECK(w.semaphore == "ready");
        CHECK(w.waits_for == std::vector<int>{(w.device + 1) % 4});
    }
    CHECK(ring.cycle == std::vector<int>{0, 1, 2, 3});

    // Only device 0 goes to the barrier; the others finish without it.
    const SemRun bar = run_text("devices 3\nif my == 0\n  barrier\nend\n");
    REQUIRE(bar.status == SemStatus::deadlock);
    REQUIRE(bar.deadlock.size() == 1);
    CHECK(bar.deadlock[0].device == 0);
    CHECK(bar.deadlock[0].semaphore == "barrier");
    CHECK(bar.deadlock[0].waits_for == std::vector<int>{1, 2});

    // A swap that waits for the send before starting it: each device waits on itself.
    SemProgram p = asset("ring_all_gather.sem");
    std::size_t copy = 0, wait_send = 0;
    for (const SemStatement& s : semaphore_statements(p)) {
        if (s.text.rfind("remote_copy", 0) == 0) copy = s.index;
        if (s.text.rfind("wait_dma send", 0) == 0) wait_send = s.index;
    }
    REQUIRE(wait_send == copy + 1);
    const SemRun swapped = run_semaphores(swap_statements(p, copy, wait_send), chip("v5e"));
    REQUIRE(swapped.status == SemStatus::deadlock);
    CHECK(swapped.deadlock[0].semaphore == "send");
    CHECK(swapped.deadlock[0].waits_for == std::vector<int>{0});
    CHECK(swapped.deadlock[0].reason.find("waits for itself") != std::string::npos);
    CHECK(swapped.cycle == std::vector<int>{0});
}

TEST_CASE("races: read before landing, overwrite while sending, two writers", "[semaphores]") {
    // Device 0 sends a to device 1's b; device 1 computes on b without waiting.
    const SemRun early = run_text(
        "devices 2\nbuffer a 4KiB\nbuffer b 4KiB\ndma_sem s\ndma_sem r\n"
        "if my == 0\n  remote_copy a -> b to 1 send s recv r\n  wait_dma s a\nelse\n"
        "  compute 5us reads b\n  wait_dma r a\nend\n");
    REQUIRE(early.status == SemStatus::race);
    REQUIRE(early.races.size() == 1);
    CHECK(early.races[0].kind == "read-before-landed");
    CHECK(early.races[0].device == 1);
    CHECK(early.races[0].buffer == "b");
    CHECK(early.races[0].line == 10);
    CHECK(early.races[0].dma_line == 7);
    CHECK(early.races[0].dma_from == 0);

    // A local copy out of a, then a compute writes a before the wait.
    const SemRun over = run_text(
        "devices 1\nbuffer a 1MiB\nbuffer b 1MiB\ndma_sem c\n"
        "local_copy a -> b sem c\ncompute 1us writes a\nwait_dma c a\n");
    REQUIRE(over.status == SemStatus::race);
    CHECK(over.races[0].kind == "overwrite-while-sending");
    CHECK(over.races[0].buffer == "a");
    CHECK(over.races[0].line == 6);
    CHECK(over.races[0].dma_line == 5);

    // Devices 1 and 2 both copy into device 0's b at once.
    const SemRun two = run_text(
        "devices 3\nbuffer b 4KiB\ndma_sem s\ndma_sem r\n"
        "if my != 0\n  remote_copy b -> b to 0 send s recv r\n  wait_dma s b\nelse\n"
        "  wait_dma r 8KiB\nend\n");
    REQUIRE(two.status == SemStatus::race);
    CHECK(two.races[0].kind == "two-writers");
    CHECK(two.races[0].device == 0);
    CHECK(two.races[0].buffer == "b");
    // The same with waits between the copies is clean.
    CHECK(run_text("devices 3\nbuffer b 4KiB\ndma_sem s\ndma_sem r\nsem turn\n"
                   "if my == 1\n  remote_copy b -> b to 0 send s recv r\n  wait_dma s b\n"
                   "  signal turn to 0\nend\nif my == 2\n  wait turn\n"
                   "  remote_copy b -> b to 0 send s recv r\n  wait_dma s b\nend\n"
                   "if my == 0\n  wait_dma r b\n  signal turn to 2\n  wait turn\n  wait_dma r b\nend\n")
              .status == SemStatus::ok);
}

TEST_CASE("semaphores left nonzero at exit are reported with their values", "[semaphores]") {
    const SemRun r = run_semaphores(asset("ring_all_gather_nonzero_send_never_waited.sem"), chip("v5e"));
    REQUIRE(r.status == SemStatus::nonzero_semaphore);
    REQUIRE(r.nonzero.size() == 4);
    for (const SemNonzero& z : r.nonzero) {
        CHECK(z.semaphore == "send");
        CHECK(z.value == 3 * 4096);  // three steps' copies, never waited
    }
    // A regular semaphore signalled twice, waited once.
    const SemRun over = run_text("devices 1\nsem s\nsignal s 2\nwait s\n");
    REQUIRE(over.status == SemStatus::nonzero_semaphore);
    CHECK(over.nonzero[0].value == 1);
}

TEST_CASE("parse errors name the line and column", "[semaphores]") {
    struct Case {
        const char* text;
        const char* where;
        const char* what;
    };
    const Case cases[] = {
        {"devices 2\nfoo bar\n", "line 2, column 1", "unknown statement 'foo'"},
        {"buffer a 4KiB\nbuffer b 4KiB\ndma_sem s\nlocal_copy a b sem s\n", "line 4, column 14", "expected '->'"},
        {"dma_sem s\nwait_dma q 4\n", "line 2, column 10", "'q' is not declared"},
        {"buffer out[4] 1KiB\ndma_sem s\nwait_dma s out\n", "line 3, column 12", "is an array"},
        {"sem s\nwait_dma s 4\n", "line 2, column 10", "'s' is a regular semaphore, but a DMA"},
        {"dma_sem s\nwait s\n", "line 2, column 6", "use wait_dma"},
        {"for i in 0 .. 3\nbarrier\n", "line 1, column 1", "no 'end'"},
        {"else\n", "line 1, column 1", "'else' without an if"},
        {"compute 5\n", "line 1, column 10", "needs a unit"},
        {"barrier $\n", "line 1, column 9", "unexpected character"},
        {"sem s\nsignal s to k\n", "line 2, column 13", "unknown name 'k'"},
        {"devices 2\nbuffer a[N] 4KiB\ndma_sem s\nwait_dma s a[my + 1]\n", "line 4, column 12",
         "index 2 is outside a[0..1] on device 1"},
        {"devices 2\nsem s\nsignal s to my + 1\n", "line 3, column 16",
         "device 2 does not exist (devices 0..1) on device 1"},
        {"devices 2\nsem s\nsignal s to (my + 1) % (N - 2)\n", "line 3, column 22", "division by zero"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        try {
            run_text(c.text, 2);
            FAIL("no error");
        } catch (const InputError& e) {
            const std::string msg = e.what();
            CHECK(msg.find(c.where) == 0);
            CHECK(msg.find(c.what) != std::string::npos);
        }
    }
    // Nesting that would overflow the stack while reading or evaluating.
    const std::string parens =
        "devices 2\nsem s\nsignal s to " + std::string(5000, '(') + "my" + std::string(5000, ')') + "\n";
    CHECK_THROWS_WITH(run_text(parens, 2),
                      Catch::Contains("line 3, column") && Catch::Contains("levels of parentheses or prefixes deep"));
    std::string chain = "devices 2\nsem s\nsignal s to my";
    for (int n = 0; n < 5000; ++n) chain += " + 0";
    CHECK_THROWS_WITH(run_text(chain + "\n", 2), Catch::Contains("operations deep"));
    std::string nots = "devices 2\nsem s\nif ";
    for (int n = 0; n < 5000; ++n) nots += "not ";
    CHECK_THROWS_WITH(run_text(nots + "my == 0\nbarrier\nend\n", 2), Catch::Contains("deep"));
    CHECK_THROWS_AS(run_text("sem s\n"), InputError);  // no device count anywhere
    CHECK_THROWS_AS(run_text("devices 0\n"), InputError);
    CHECK_THROWS_AS(run_text("devices 2\n", 5000), InputError);
}

TEST_CASE("edits: drop and swap statements, with refusals", "[semaphores]") {
    const SemProgram p = asset("ring_all_gather.sem");
    const std::vector<SemStatement> list = semaphore_statements(p);
    std::size_t recv_wait = 0, loop = 0, end = 0, decl = 0;
    for (const SemStatement& s : list) {
        if (s.text.rfind("wait_dma recv", 0) == 0) recv_wait = s.index;
        if (s.text.rfind("for ", 0) == 0) loop = s.index;
        if (s.text == "end") end = s.index;
        if (s.text.rfind("dma_sem send", 0) == 0) decl = s.index;
    }
    CHECK(list[loop].block);
    CHECK(list[recv_wait].depth == 1);
    // Without the receive wait the next step forwards an unwaited slot.
    const SemRun dropped = run_semaphores(drop_statement(p, recv_wait), chip("v5e"));
    CHECK(dropped.status == SemStatus::race);
    // Dropping the whole loop leaves only the local copy: clean, and fast.
    const SemRun no_loop = run_semaphores(drop_statement(p, loop), chip("v5e"));
    CHECK(no_loop.status == SemStatus::ok);
    CHECK(no_loop.end_s == Approx(0.5e-6 + 4096 / 820e9));
    CHECK_THROWS_AS(drop_statement(p, end), InputError);
    CHECK_THROWS_AS(drop_statement(p, decl), InputError);  // still used by the loop
    CHECK_THROWS_AS(drop_statement(p, 999), InputError);
    CHECK_THROWS_AS(swap_statements(p, loop, recv_wait), InputError);
    // The original program is untouched by edits.
    CHECK(run_semaphores(p, chip("v5e")).status == SemStatus::ok);
}

TEST_CASE("every event's state from one run equals the state asked for one by one", "[semaphores]") {
    for (const char* name : {"ring_all_gather.sem", "reduce_scatter_bidirectional.sem",
                             "ring_all_gather_deadlock_cycle.sem", "ring_all_gather_race_no_wait.sem"}) {
        INFO(name);
        const SemProgram p = asset(name);
        const SemRun r = run_semaphores(p, chip("v5e"));
        const std::vector<SemState> all = semaphore_states(p, chip("v5e"), 0);
        REQUIRE(all.size() == r.events.size());
        for (std::size_t e = 0; e < all.size(); ++e) {
            const SemState one = semaphore_state_at(p, chip("v5e"), 0, e);
            CHECK(all[e].event_index == e);
            CHECK(all[e].time_s == one.time_s);
            REQUIRE(all[e].devices.size() == one.devices.size());
            for (std::size_t d = 0; d < one.devices.size(); ++d) {
                CHECK(all[e].devices[d].status == one.devices[d].status);
                CHECK(all[e].devices[d].line == one.devices[d].line);
                CHECK(all[e].devices[d].semaphores == one.devices[d].semaphores);
                CHECK(all[e].devices[d].buffers == one.devices[d].buffers);
            }
        }
        // A cap keeps the first states only.
        CHECK(semaphore_states(p, chip("v5e"), 0, 7).size() == std::min<std::size_t>(7, r.events.size()));
    }
}

TEST_CASE("scrubbing: the state at any event", "[semaphores]") {
    const SemProgram p = asset("ring_all_gather.sem");
    const SemRun r = run_semaphores(p, chip("v5e"));
    // The moment device 0's first ring copy lands on device 1, before any wait.
    std::size_t land = 0;
    for (std::size_t i = 0; i < r.events.size(); ++i)
        if (r.events[i].kind == "dma-land" && r.events[i].device == 1 &&
            r.events[i].text.find("out[0]") != std::string::npos) {
            land = i;
            break;
        }
    REQUIRE(land > 0);
    const SemState s = semaphore_state_at(p, chip("v5e"), 0, land);
    CHECK(s.time_s == Approx(r.events[land].time_s));
    const auto sem_index =
        std::find(s.semaphore_names.begin(), s.semaphore_names.end(), "recv[0]") - s.semaphore_names.begin();
    const auto buf_index = std::find(s.buffer_names.begin(), s.buffer_names.end(), "out[0]") - s.buffer_names.begin();
    REQUIRE(static_cast<std::size_t>(sem_index) < s.semaphore_names.size());
    CHECK(s.devices[1].semaphores[static_cast<std::size_t>(sem_index)] == 4096);
    CHECK(s.devices[1].buffers[static_cast<std::size_t>(buf_index)] == "landed, not waited");
    CHECK(s.devices[1].status == "blocked");  // on its own send
    // Just after the local copies started, they are in flight.
    const SemState early = semaphore_state_at(p, chip("v5e"), 0, 5);
    CHECK(early.devices[0].buffers[static_cast<std::size_t>(buf_index)] == "in flight");
    // Past the end: everyone done, every semaphore zero.
    const SemState last = semaphore_state_at(p, chip("v5e"), 0, 1u << 30);
    for (const SemDeviceState& d : last.devices) {
        CHECK(d.status == "done");
        for (std::int64_t v : d.semaphores) CHECK(v == 0);
    }
}
