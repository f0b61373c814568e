#pragma once
// Per-device programs of DMAs and semaphores, run as discrete events: the
// model behind Pallas's make_async_copy / make_async_remote_copy and
// semaphore_signal / semaphore_wait. It finds deadlocks (who waits on what),
// races (a buffer read before its copy was waited on, a buffer overwritten
// while an outgoing copy still owns it, two copies into one buffer) and
// semaphores left nonzero at exit, which Pallas treats as a crash.
//
// The text format (.sem), one statement per line, `#` starts a comment:
//
//   devices 4                      default device count (tpusim --devices overrides)
//   buffer x 4KiB                  a buffer on every device; sizes in B, KiB, MiB, GiB
//   buffer out[N] 4KiB             an array of buffers, out[0] .. out[N-1]
//   dma_sem recv[N - 1]            DMA semaphores (counted in bytes), scalar or array
//   sem ready                      a regular semaphore (a counter)
//
//   local_copy SRC -> DST sem S [bytes SIZE]
//       start a copy between two buffers of this device; S gains the bytes when it lands
//   remote_copy SRC -> DST to DEV send S recv R [bytes SIZE]
//       start a copy from this device's SRC into device DEV's DST; on landing the
//       sender's S and the receiver's R each gain the bytes (Pallas's send/recv sems)
//   wait_dma S AMOUNT              block until S holds AMOUNT bytes (a size or a buffer,
//                                  meaning its size), then take them
//   signal S [AMOUNT] [to DEV]     add AMOUNT (default 1) to S here or on device DEV
//   wait S [VALUE]                 block until S reaches VALUE (default 1), then take it
//   compute 2us [reads A, B] [writes C]
//                                  busy for a time (ns, us, ms, s) using those buffers
//   barrier                        every device waits until all have arrived
//   for s in 0 .. N - 2  ...  end  a loop, both bounds included
//   if EXPR  ...  [else  ...]  end
//
// Expressions are integers: my (this device), N (the device count), loop
// variables, + - * / % (the remainder is never negative, as with Python's %),
// parentheses, comparisons (== != < <= > >=) and `and`, `or`, `not`. One text
// serves every device of a ring: `to (my + 1) % N`.
//
// Bad text throws InputError "line L, column C: ...". A statement that is
// valid text but wrong on some device (a device or index out of range, a
// regular wait on a DMA semaphore) throws the same way, naming the device.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/provenance.h"
#include "tpusim/trace.h"

namespace tpusim {

namespace semdetail {
struct Source;  // the parsed statements; see src/sem_detail.h
}

// A parsed program. Cheap to copy; edits return a new program.
struct SemProgram {
    std::string name;  // the file name, for messages
    int default_devices = 0;
    std::vector<std::string> lines;  // the source, for showing statements
    std::shared_ptr<const semdetail::Source> source;
};

SemProgram parse_semaphore_program(std::string_view text, std::string name = "program");

// One statement as the learner sees it, in source order. Statements that
// open a block (for, if) own the lines up to their `end`.
struct SemStatement {
    std::size_t index = 0;  // what drop/swap take
    int line = 0;           // 1-based
    int depth = 0;          // nesting level
    std::string text;       // the source line, trimmed
    bool block = false;     // a for/if: dropping it drops its body
};
std::vector<SemStatement> semaphore_statements(const SemProgram& p);
// Removes statement `index` (a whole block for for/if). `else` and `end`
// cannot be dropped alone; declarations can.
SemProgram drop_statement(const SemProgram& p, std::size_t index);
// Exchanges two statements that are not block openers, else or end.
SemProgram swap_statements(const SemProgram& p, std::size_t a, std::size_t b);

enum class SemStatus { ok, deadlock, race, nonzero_semaphore };
std::string_view sem_status_name(SemStatus s);  // "ok", "deadlock", "race", "nonzero-semaphore"

// One change of state, in time order; the index into SemRun::events is the
// scrubbing position.
struct SemEvent {
    double time_s = 0;
    int device = 0;
    std::string kind;  // "issue", "block", "resume", "dma-start", "dma-land", "signal", "done", ...
    std::string text;  // "device 1: remote_copy out[0] -> out[0] to 2 (4.0 KiB)"
    int line = 0;      // the statement behind it (0 for none)
};

// A device stuck at the end of a deadlocked run.
struct SemWaiter {
    int device = 0;
    int line = 0;
    std::string statement;       // the blocking statement's text
    std::string semaphore;       // "recv[1]", or "barrier"
    std::int64_t value = 0;      // the semaphore's value
    std::int64_t needed = 0;     // what the wait needs
    std::vector<int> waits_for;  // devices whose later statements could signal it
    std::string reason;          // one sentence: who waits on what and why nobody comes
};

struct SemRace {
    std::string kind;  // "read-before-landed", "overwrite-while-sending", "two-writers"
    int device = 0;    // the device owning the buffer
    std::string buffer;
    double time_s = 0;
    int line = 0;      // the statement that touched the buffer
    int dma_line = 0;  // the copy it collided with
    int dma_from = 0, dma_to = 0;
    std::string text;  // one sentence
};

struct SemNonzero {
    int device = 0;
    std::string semaphore;
    std::int64_t value = 0;
    std::string text;
};

// A span on a timeline track, for traces and the app's lanes.
struct SemSpan {
    int device = 0;
    std::string track;  // "program", "DMA local", "ICI right", "ICI left"
    std::string name;
    std::string category;  // "compute", "wait", "dma", "barrier"
    double start_s = 0, end_s = 0;
    int line = 0;
};

struct SemRun {
    SemStatus status = SemStatus::ok;
    int devices = 0;
    double end_s = 0;  // when the last device finished (or got stuck)
    std::vector<SemEvent> events;
    std::vector<SemWaiter> deadlock;
    std::vector<int> cycle;  // devices waiting on each other in a ring, when one exists
    std::vector<SemRace> races;
    std::vector<SemNonzero> nonzero;
    std::vector<SemSpan> spans;
    std::string summary;  // one sentence
    Provenance provenance;
};

// Runs the program on `devices` devices (0: the program's own count).
// Throws InputError for fewer than 1 or more than 4096 devices, or a
// statement that is wrong on some device.
SemRun run_semaphores(const SemProgram& p, const Chip& chip, int devices = 0);
struct SemState;
// The same run, also recording in `states` the state after each of its
// first `max_states` events (see semaphore_state_at), for scrubbing.
SemRun run_semaphores(const SemProgram& p, const Chip& chip, int devices, std::vector<SemState>* states,
                      std::size_t max_states);

// The state after events [0, event_index] of the run (event_index may be
// past the end: the final state). Events recorded together, such as a copy
// landing and the wait it lets pass, are taken together. Re-runs the model
// up to that point, which takes microseconds for the shipped programs.
struct SemDeviceState {
    int device = 0;
    std::string status;  // "running", "blocked", "done"
    int line = 0;        // the statement it is at (0 when done)
    std::string statement;
    std::vector<std::int64_t> semaphores;  // values, in SemState::semaphore_names order
    std::vector<std::string> buffers;      // per buffer: "idle", "in flight", "landed, not waited", "sending"
};
struct SemState {
    double time_s = 0;
    std::size_t event_index = 0;
    std::vector<std::string> semaphore_names;  // "local", "recv[0]", ...
    std::vector<std::string> buffer_names;     // "x", "out[0]", ...
    std::vector<SemDeviceState> devices;
};
SemState semaphore_state_at(const SemProgram& p, const Chip& chip, int devices, std::size_t event_index);
// The state after each of the run's first `max_states` events, from one
// simulation: entry k equals semaphore_state_at(..., k). For scrubbing
// without re-running; past the cap, ask semaphore_state_at.
std::vector<SemState> semaphore_states(const SemProgram& p, const Chip& chip, int devices,
                                       std::size_t max_states = 20000);

// One track per device program and per DMA engine.
std::vector<TraceEvent> semaphore_trace(const SemRun& run);

}  // namespace tpusim
