#pragma once
// The discrete-event machine that runs expanded .sem programs: devices
// stepping through their instructions, DMAs queued on per-device engines,
// semaphore counters, barriers. One step() handles one moment's event.
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "sem_detail.h"

namespace tpusim::semdetail {

struct Dma {
    int line = 0;
    int from = 0, to = 0;      // source and destination devices
    int src = -1, dst = -1;    // buffers
    int send = -1, recv = -1;  // semaphores: send on `from` (-1 for local), recv on `to`
    std::int64_t bytes = 0;
    double issue_s = 0, start_s = 0, end_s = 0;
    std::string engine;  // "DMA local", "ICI right", "ICI left"
    bool landed = false;
    std::int64_t send_open = 0, recv_open = 0;  // bytes no wait has taken yet
    bool src_released = false, dst_released = false;
};

struct Signal {
    double time_s = 0;
    int from = 0, to = 0, sem = -1;
    std::int64_t amount = 0;
    int line = 0;
    bool delivered = false;
};

enum class DevStatus { running, blocked, done };

struct DevState {
    std::size_t pc = 0;
    double ready_s = 0;
    DevStatus status = DevStatus::running;
    double blocked_since = 0;
    int barriers = 0;  // barriers reached
    // The compute in progress, for race checks against copies.
    double compute_end = -1;
    std::vector<int> compute_reads, compute_writes;
    int compute_line = 0;
};

class Machine {
public:
    Machine(const Expanded& program, const Chip& chip);
    // Handles the earliest pending event; false when nothing is left.
    bool step();

    const Expanded& x;
    const Chip& chip;
    std::vector<DevState> dev;
    std::vector<std::vector<std::int64_t>> sems;  // [device][semaphore]
    std::vector<Dma> dmas;
    std::vector<Signal> signals;
    // Copies that still own a buffer (not yet released at both ends), in start order.
    std::vector<std::size_t> open;
    // Pending landings and signal arrivals: (time, index), earliest first.
    using Queue = std::priority_queue<std::pair<double, std::size_t>, std::vector<std::pair<double, std::size_t>>,
                                      std::greater<>>;
    Queue landings, arrivals;
    std::vector<std::vector<double>> engine_free;  // [device][engine]
    SemRun run;

    const Instr* current(int d) const;
    std::string sem_name(int s) const { return x.layout.sem_names[static_cast<std::size_t>(s)]; }
    std::string buffer_name(int b) const { return x.layout.buffer_names[static_cast<std::size_t>(b)]; }

private:
    void execute(int d);
    void issue_copy(int d, const Instr& in, double t);
    bool try_wait(int d, const Instr& in, double t);
    void release(int d, int sem, std::int64_t amount);
    void land(Dma& dma);
    void deliver(Signal& s);
    void wake(int d, double t);
    void touch(int device, int buffer, bool write, int line, double t, const std::string& who);
    void race(const std::string& kind, int device, int buffer, int line, double t, const Dma& dma,
              const std::string& sentence);
    void event(double t, int d, const std::string& kind, const std::string& text, int line);
    void span(int d, const std::string& track, const std::string& name, const std::string& cat, double a, double b,
              int line);
};

// After the last step: status, deadlock analysis, nonzero semaphores, summary.
void finish(Machine& m);

}  // namespace tpusim::semdetail
