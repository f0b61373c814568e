// The event loop of the semaphore model. Time only moves forward: at each
// step the earliest of (a copy landing, a remote signal arriving, a device
// ready to issue its next statement) happens; ties go in that order, then
// by device, so every run of the same program is the same run.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "sem_machine.h"
#include "tpusim/error.h"

namespace tpusim::semdetail {

namespace {

constexpr const char* kEngines[] = {"DMA local", "ICI right", "ICI left"};
constexpr std::size_t kMaxRaces = 64;

// Hops and engine from `from` to `to` on a ring with wraparound: the
// shorter way round, to the right on a tie.
std::pair<int, int> route(int from, int to, int n) {
    if (from == to) return {0, 0};
    const int right = ((to - from) % n + n) % n;
    const int left = n - right;
    return right <= left ? std::pair{right, 1} : std::pair{left, 2};
}

}  // namespace

Machine::Machine(const Expanded& program, const Chip& c) : x(program), chip(c) {
    const std::size_t n = static_cast<std::size_t>(x.devices);
    dev.resize(n);
    sems.assign(n, std::vector<std::int64_t>(x.layout.sem_names.size(), 0));
    engine_free.assign(n, std::vector<double>(3, 0.0));
    run.devices = x.devices;
}

const Instr* Machine::current(int d) const {
    const auto& code = x.code[static_cast<std::size_t>(d)];
    const std::size_t pc = dev[static_cast<std::size_t>(d)].pc;
    return pc < code.size() ? &code[pc] : nullptr;
}

void Machine::event(double t, int d, const std::string& kind, const std::string& text, int line) {
    run.events.push_back(SemEvent{t, d, kind, "device " + std::to_string(d) + ": " + text, line});
}

void Machine::span(int d, const std::string& track, const std::string& name, const std::string& cat, double a, double b,
                   int line) {
    run.spans.push_back(SemSpan{d, track, name, cat, a, b, line});
}

void Machine::race(const std::string& kind, int device, int buffer, int line, double t, const Dma& dma,
                   const std::string& sentence) {
    for (const SemRace& r : run.races)
        if (r.kind == kind && r.device == device && r.line == line && r.dma_line == dma.line &&
            r.buffer == buffer_name(buffer))
            return;
    if (run.races.size() >= kMaxRaces) return;
    run.races.push_back(SemRace{kind, device, buffer_name(buffer), t, line, dma.line, dma.from, dma.to, sentence});
}

// A statement on `device` reads or writes `buffer` at time t: it races with
// any copy that still owns the buffer (started, and not yet taken by a wait).
void Machine::touch(int device, int buffer, bool write, int line, double t, const std::string& who) {
    auto b = [&] { return buffer_name(buffer) + " on device " + std::to_string(device); };
    for (std::size_t i : open) {
        const Dma& m = dmas[i];
        auto copy = [&] {
            return "the copy of line " + std::to_string(m.line) + " from device " + std::to_string(m.from);
        };
        if (m.to == device && m.dst == buffer && !m.dst_released) {
            if (write)
                race("two-writers", device, buffer, line, t, m,
                     who + " writes " + b() + " while " + copy() + " still owns it (nothing waited for it)");
            else
                race("read-before-landed", device, buffer, line, t, m,
                     who + " reads " + b() + " before anyone waited for " + copy() +
                         (m.landed ? " (it has landed, but nothing waited for it)" : " (still in flight)"));
        }
        if (write && m.from == device && m.src == buffer && !m.src_released)
            race("overwrite-while-sending", device, buffer, line, t, m,
                 who + " overwrites " + b() + " while " + copy() + " still reads it (nothing waited on its " +
                     (m.send >= 0 ? "send semaphore" : "semaphore") + " yet)");
    }
}

void Machine::issue_copy(int d, const Instr& in, double t) {
    Dma m;
    m.line = in.line;
    m.from = d;
    m.to = in.kind == StmtKind::remote_copy ? in.target : d;
    m.src = in.src;
    m.dst = in.dst;
    m.bytes = in.amount;
    m.issue_s = t;
    const bool remote = in.kind == StmtKind::remote_copy && in.target != d;
    const auto [hops, engine] = route(m.from, m.to, x.devices);
    double duration = chip.dma_latency.value;
    if (remote) {
        m.send = in.sem;
        m.recv = in.sem2;
        duration += hops * chip.ici_hop_latency.value + static_cast<double>(m.bytes) / chip.ici_link_bandwidth.value;
    } else {
        m.recv = in.kind == StmtKind::remote_copy ? in.sem2 : in.sem;
        m.send = in.kind == StmtKind::remote_copy ? in.sem : -1;
        duration += static_cast<double>(m.bytes) / chip.hbm_bandwidth.value;
    }
    double& free_at = engine_free[static_cast<std::size_t>(d)][static_cast<std::size_t>(engine)];
    m.start_s = std::max(t, free_at);
    m.end_s = m.start_s + duration;
    free_at = m.end_s;
    m.engine = kEngines[engine];
    m.send_open = m.send >= 0 ? m.bytes : 0;
    m.recv_open = m.bytes;
    const std::string who = "the copy of line " + std::to_string(in.line) + " from device " + std::to_string(d);
    touch(m.from, m.src, false, in.line, t, who);
    touch(m.to, m.dst, true, in.line, t, who);
    // Computes running now on either end.
    const DevState& src_dev = dev[static_cast<std::size_t>(m.from)];
    const DevState& dst_dev = dev[static_cast<std::size_t>(m.to)];
    auto has = [](const std::vector<int>& v, int b) { return std::find(v.begin(), v.end(), b) != v.end(); };
    if (src_dev.compute_end > t && has(src_dev.compute_writes, m.src))
        race("overwrite-while-sending", m.from, m.src, src_dev.compute_line, t, m,
             "the copy of line " + std::to_string(m.line) + " reads " + buffer_name(m.src) + " on device " +
                 std::to_string(m.from) + " while the compute of line " + std::to_string(src_dev.compute_line) +
                 " writes it");
    if (dst_dev.compute_end > t && (has(dst_dev.compute_reads, m.dst) || has(dst_dev.compute_writes, m.dst)))
        race("read-before-landed", m.to, m.dst, dst_dev.compute_line, t, m,
             "the copy of line " + std::to_string(m.line) + " lands in " + buffer_name(m.dst) + " on device " +
                 std::to_string(m.to) + " while the compute of line " + std::to_string(dst_dev.compute_line) +
                 " uses it");
    event(t, d, "dma-start",
          in.text + " (" + format_bytes(static_cast<double>(m.bytes)) + ", lands at " + format_time(m.end_s) + ")",
          in.line);
    span(d, m.engine,
         buffer_name(m.src) + " -> " + (remote ? "device " + std::to_string(m.to) + " " : "") + buffer_name(m.dst),
         "dma", m.start_s, m.end_s, in.line);
    landings.push({m.end_s, dmas.size()});
    open.push_back(dmas.size());
    dmas.push_back(m);
}

// Takes `amount` from semaphore `sem` of device d and hands the bytes back
// to the copies that put them there, oldest first.
void Machine::release(int d, int sem, std::int64_t amount) {
    sems[static_cast<std::size_t>(d)][static_cast<std::size_t>(sem)] -= amount;
    if (!x.layout.sem_is_dma[static_cast<std::size_t>(sem)]) return;
    for (std::size_t i : open) {
        if (amount <= 0) break;
        Dma& m = dmas[i];
        if (!m.landed) continue;
        if (m.to == d && m.recv == sem && m.recv_open > 0) {
            const std::int64_t take = std::min(amount, m.recv_open);
            m.recv_open -= take;
            amount -= take;
            if (m.recv_open == 0) {
                m.dst_released = true;
                if (m.send < 0) m.src_released = true;  // a local copy's one semaphore
            }
        }
        if (amount > 0 && m.from == d && m.send == sem && m.send_open > 0) {
            const std::int64_t take = std::min(amount, m.send_open);
            m.send_open -= take;
            amount -= take;
            if (m.send_open == 0) m.src_released = true;
        }
    }
    open.erase(std::remove_if(open.begin(), open.end(),
                              [&](std::size_t i) { return dmas[i].src_released && dmas[i].dst_released; }),
               open.end());
}

bool Machine::try_wait(int d, const Instr& in, double t) {
    const std::int64_t have = sems[static_cast<std::size_t>(d)][static_cast<std::size_t>(in.sem)];
    if (have < in.amount) return false;
    release(d, in.sem, in.amount);
    (void)t;
    return true;
}

void Machine::wake(int d, double t) {
    DevState& s = dev[static_cast<std::size_t>(d)];
    if (s.status != DevStatus::blocked) return;
    const Instr* in = current(d);
    if (!in || in->kind == StmtKind::barrier || !try_wait(d, *in, t)) return;
    span(d, "program", in->text, "wait", s.blocked_since, t, in->line);
    event(t, d, "resume", in->text + " passes", in->line);
    s.status = DevStatus::running;
    s.ready_s = t;
    ++s.pc;
}

void Machine::land(Dma& m) {
    m.landed = true;
    if (m.send >= 0) sems[static_cast<std::size_t>(m.from)][static_cast<std::size_t>(m.send)] += m.bytes;
    sems[static_cast<std::size_t>(m.to)][static_cast<std::size_t>(m.recv)] += m.bytes;
    event(
        m.end_s, m.to, "dma-land",
        buffer_name(m.dst) + " landed from device " + std::to_string(m.from) + " (line " + std::to_string(m.line) + ")",
        m.line);
    wake(m.to, m.end_s);
    if (m.from != m.to) wake(m.from, m.end_s);
}

void Machine::deliver(Signal& s) {
    s.delivered = true;
    sems[static_cast<std::size_t>(s.to)][static_cast<std::size_t>(s.sem)] += s.amount;
    event(s.time_s, s.to, "signal",
          sem_name(s.sem) + " += " + std::to_string(s.amount) + " from device " + std::to_string(s.from), s.line);
    wake(s.to, s.time_s);
}

void Machine::execute(int d) {
    DevState& s = dev[static_cast<std::size_t>(d)];
    const double t = s.ready_s;
    const Instr* in = current(d);
    if (!in) {
        s.status = DevStatus::done;
        event(t, d, "done", "finished", 0);
        return;
    }
    switch (in->kind) {
        case StmtKind::local_copy:
        case StmtKind::remote_copy:
            issue_copy(d, *in, t);
            break;
        case StmtKind::wait_dma:
        case StmtKind::wait:
            if (!try_wait(d, *in, t)) {
                s.status = DevStatus::blocked;
                s.blocked_since = t;
                event(t, d, "block", in->text + " blocks", in->line);
                return;
            }
            event(t, d, "issue", in->text + " passes at once", in->line);
            break;
        case StmtKind::signal:
            if (in->target == d) {
                sems[static_cast<std::size_t>(d)][static_cast<std::size_t>(in->sem)] += in->amount;
                event(t, d, "issue", in->text, in->line);
            } else {
                const int hops = route(d, in->target, x.devices).first;
                arrivals.push({t + hops * chip.ici_hop_latency.value, signals.size()});
                signals.push_back(
                    Signal{t + hops * chip.ici_hop_latency.value, d, in->target, in->sem, in->amount, in->line, false});
                event(t, d, "issue", in->text, in->line);
            }
            break;
        case StmtKind::compute:
            for (int b : in->reads) touch(d, b, false, in->line, t, "the compute of line " + std::to_string(in->line));
            for (int b : in->writes) touch(d, b, true, in->line, t, "the compute of line " + std::to_string(in->line));
            s.compute_end = t + in->duration_s;
            s.compute_reads = in->reads;
            s.compute_writes = in->writes;
            s.compute_line = in->line;
            event(t, d, "issue", in->text + " for " + format_time(in->duration_s), in->line);
            span(d, "program", in->text, "compute", t, s.compute_end, in->line);
            s.ready_s = s.compute_end;
            break;
        default: {  // barrier
            ++s.barriers;
            s.status = DevStatus::blocked;
            s.blocked_since = t;
            event(t, d, "block", "barrier " + std::to_string(s.barriers), in->line);
            bool all = true;
            for (std::size_t e = 0; e < dev.size(); ++e) {
                const Instr* at = current(static_cast<int>(e));
                all = all && dev[e].status == DevStatus::blocked && dev[e].barriers == s.barriers && at &&
                      at->kind == StmtKind::barrier;
            }
            if (!all) return;
            for (std::size_t e = 0; e < dev.size(); ++e) {
                DevState& o = dev[e];
                span(static_cast<int>(e), "program", "barrier", "barrier", o.blocked_since, t, in->line);
                o.status = DevStatus::running;
                o.ready_s = t;
                ++o.pc;
            }
            event(t, d, "resume", "barrier " + std::to_string(s.barriers) + " releases every device", in->line);
            return;
        }
    }
    ++s.pc;
}

bool Machine::step() {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    Dma* landing = landings.empty() ? nullptr : &dmas[landings.top().second];
    Signal* arriving = arrivals.empty() ? nullptr : &signals[arrivals.top().second];
    int device = -1;
    for (std::size_t d = 0; d < dev.size(); ++d)
        if (dev[d].status == DevStatus::running &&
            (device < 0 || dev[d].ready_s < dev[static_cast<std::size_t>(device)].ready_s))
            device = static_cast<int>(d);
    const double tl = landing ? landing->end_s : kNever;
    const double ts = arriving ? arriving->time_s : kNever;
    const double td = device >= 0 ? dev[static_cast<std::size_t>(device)].ready_s : kNever;
    if (tl == kNever && ts == kNever && td == kNever) return false;
    if (tl <= ts && tl <= td) {
        landings.pop();
        land(*landing);
    } else if (ts <= td) {
        arrivals.pop();
        deliver(*arriving);
    } else {
        execute(device);
    }
    return true;
}

}  // namespace tpusim::semdetail

namespace tpusim {

namespace {

// Each instruction makes at most a few events (issue or block, resume, a
// landing or an arrival), so a run within the instruction cap stays far
// below this; it only guards against a modelling mistake looping for ever.
constexpr std::size_t kMaxEvents = 16000000;

semdetail::Expanded expanded(const SemProgram& p, int devices) {
    if (!p.source) throw InputError("this program was never parsed");
    const int n = devices > 0 ? devices : p.default_devices;
    if (n < 1 || n > 4096)
        throw InputError(devices == 0 && p.default_devices == 0
                             ? "the program has no 'devices' line: give a device count"
                             : "the device count must be between 1 and 4096 (got " + std::to_string(n) + ")");
    return semdetail::expand(*p.source, n);
}

}  // namespace

namespace {

// The machine's state as the app shows it, labelled as after `event_index`.
SemState snapshot(const semdetail::Machine& m, const semdetail::Expanded& x, std::size_t event_index) {
    SemState s;
    s.event_index = std::min(event_index, m.run.events.empty() ? 0 : m.run.events.size() - 1);
    s.time_s = m.run.events.empty() ? 0 : m.run.events[s.event_index].time_s;
    s.semaphore_names = x.layout.sem_names;
    s.buffer_names = x.layout.buffer_names;
    // Each buffer's state from one pass over the copies: the last copy into
    // it that nothing has waited for, else any copy still reading it.
    const std::size_t buffers = x.layout.buffer_names.size();
    std::vector<const char*> into(static_cast<std::size_t>(x.devices) * buffers, nullptr);
    std::vector<bool> sending(into.size(), false);
    const auto slot = [&](int device, int buffer) -> std::ptrdiff_t {
        if (device < 0 || device >= x.devices || buffer < 0 || static_cast<std::size_t>(buffer) >= buffers) return -1;
        return static_cast<std::ptrdiff_t>(static_cast<std::size_t>(device) * buffers +
                                           static_cast<std::size_t>(buffer));
    };
    for (const semdetail::Dma& dma : m.dmas) {
        if (const auto k = slot(dma.to, dma.dst); !dma.dst_released && k >= 0)
            into[static_cast<std::size_t>(k)] = dma.landed ? "landed, not waited" : "in flight";
        if (const auto k = slot(dma.from, dma.src); !dma.src_released && k >= 0)
            sending[static_cast<std::size_t>(k)] = true;
    }
    for (int d = 0; d < x.devices; ++d) {
        const semdetail::DevState& ds = m.dev[static_cast<std::size_t>(d)];
        SemDeviceState out;
        out.device = d;
        out.status = ds.status == semdetail::DevStatus::done      ? "done"
                     : ds.status == semdetail::DevStatus::blocked ? "blocked"
                                                                  : "running";
        if (const semdetail::Instr* in = m.current(d)) {
            out.line = in->line;
            out.statement = in->text;
        }
        out.semaphores = m.sems[static_cast<std::size_t>(d)];
        for (std::size_t b = 0; b < buffers; ++b) {
            const std::size_t k = static_cast<std::size_t>(d) * buffers + b;
            out.buffers.emplace_back(into[k] ? into[k] : sending[k] ? "sending" : "idle");
        }
        s.devices.push_back(std::move(out));
    }
    return s;
}

}  // namespace

SemState semaphore_state_at(const SemProgram& p, const Chip& chip, int devices, std::size_t event_index) {
    const semdetail::Expanded x = expanded(p, devices);
    semdetail::Machine m(x, chip);
    while (m.run.events.size() <= event_index && m.run.events.size() < kMaxEvents && m.step()) {
    }
    return snapshot(m, x, event_index);
}

SemRun run_semaphores(const SemProgram& p, const Chip& chip, int devices, std::vector<SemState>* states,
                      std::size_t max_states) {
    const semdetail::Expanded x = expanded(p, devices);
    semdetail::Machine m(x, chip);
    // Events a step adds share the state after that step, as
    // semaphore_state_at sees them.
    const auto record = [&] {
        if (!states) return;
        for (std::size_t e = states->size(); e < m.run.events.size() && states->size() < max_states; ++e)
            states->push_back(snapshot(m, x, e));
    };
    while (m.step()) {
        if (m.run.events.size() > kMaxEvents)
            throw InputError("the run needs more than " + std::to_string(kMaxEvents) + " events");
        record();
    }
    record();
    semdetail::finish(m);
    return std::move(m.run);
}

SemRun run_semaphores(const SemProgram& p, const Chip& chip, int devices) {
    return run_semaphores(p, chip, devices, nullptr, 0);
}

std::vector<SemState> semaphore_states(const SemProgram& p, const Chip& chip, int devices, std::size_t max_states) {
    std::vector<SemState> states;
    run_semaphores(p, chip, devices, &states, max_states);
    return states;
}

}  // namespace tpusim
