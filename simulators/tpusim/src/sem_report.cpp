// What a finished run means: which devices are stuck and on whom they
// wait, which semaphores are left nonzero, the verdict, and the trace.
#include <algorithm>
#include <string>

#include "sem_machine.h"

namespace tpusim::semdetail {

namespace {

// Could instruction `in`, run on device e, add to semaphore `sem` of device d?
bool signals(const Instr& in, int e, int d, int sem) {
    switch (in.kind) {
        case StmtKind::signal:
            return in.target == d && in.sem == sem;
        case StmtKind::local_copy:
            return e == d && in.sem == sem;
        case StmtKind::remote_copy:
            return (in.target == d && in.sem2 == sem) || (e == d && in.sem == sem);
        default:
            return false;
    }
}

std::string device_list(const std::vector<int>& ds) {
    std::string s;
    for (std::size_t i = 0; i < ds.size(); ++i)
        s += (i == 0 ? "" : i + 1 == ds.size() ? " and " : ", ") + std::to_string(ds[i]);
    return s;
}

// A cycle in the waits-for graph, as the devices along it.
std::vector<int> find_cycle(const std::vector<std::vector<int>>& edges) {
    const std::size_t n = edges.size();
    std::vector<int> color(n, 0), parent(n, -1);
    for (std::size_t start = 0; start < n; ++start) {
        if (color[start] != 0) continue;
        std::vector<std::pair<int, std::size_t>> stack{{static_cast<int>(start), 0}};
        color[start] = 1;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            const auto& out = edges[static_cast<std::size_t>(v)];
            if (next == out.size()) {
                color[static_cast<std::size_t>(v)] = 2;
                stack.pop_back();
                continue;
            }
            const int w = out[next++];
            if (color[static_cast<std::size_t>(w)] == 1) {
                std::vector<int> cycle{w};
                for (int u = v; u != w; u = parent[static_cast<std::size_t>(u)]) cycle.push_back(u);
                std::reverse(cycle.begin() + 1, cycle.end());
                return cycle;
            }
            if (color[static_cast<std::size_t>(w)] == 0) {
                color[static_cast<std::size_t>(w)] = 1;
                parent[static_cast<std::size_t>(w)] = v;
                stack.push_back({w, 0});
            }
        }
    }
    return {};
}

void analyse_deadlock(Machine& m) {
    const int n = m.x.devices;
    std::vector<std::vector<int>> edges(static_cast<std::size_t>(n));
    for (int d = 0; d < n; ++d) {
        const DevState& s = m.dev[static_cast<std::size_t>(d)];
        if (s.status == DevStatus::done) continue;
        const Instr* in = m.current(d);
        if (!in) continue;
        SemWaiter w;
        w.device = d;
        w.line = in->line;
        w.statement = in->text;
        const std::string who = "device " + std::to_string(d);
        if (in->kind == StmtKind::barrier) {
            w.semaphore = "barrier";
            w.needed = n;
            for (int e = 0; e < n; ++e) {
                const Instr* at = m.current(e);
                if (at && at->kind == StmtKind::barrier &&
                    m.dev[static_cast<std::size_t>(e)].status == DevStatus::blocked)
                    ++w.value;
                else
                    w.waits_for.push_back(e);
            }
            w.reason = who + " waits at barrier " + std::to_string(s.barriers) + " (line " + std::to_string(in->line) +
                       ") for device" + (w.waits_for.size() > 1 ? "s " : " ") + device_list(w.waits_for) +
                       ", which never arrive";
        } else {
            w.semaphore = m.sem_name(in->sem);
            w.value = m.sems[static_cast<std::size_t>(d)][static_cast<std::size_t>(in->sem)];
            w.needed = in->amount;
            for (int e = 0; e < n; ++e) {
                const auto& code = m.x.code[static_cast<std::size_t>(e)];
                const DevState& es = m.dev[static_cast<std::size_t>(e)];
                // The blocked statement itself cannot run; everything after it might.
                for (std::size_t k = es.pc + (es.status == DevStatus::done ? 0 : 1); k < code.size(); ++k)
                    if (signals(code[k], e, d, in->sem)) {
                        w.waits_for.push_back(e);
                        break;
                    }
            }
            const std::string what = who + " waits on " + w.semaphore + " (line " + std::to_string(in->line) +
                                     ": has " + std::to_string(w.value) + ", needs " + std::to_string(w.needed) + ")";
            if (w.waits_for == std::vector<int>{d})
                w.reason = what + ", which only a later statement of device " + std::to_string(d) +
                           " itself would signal: it waits for itself";
            else
                w.reason = w.waits_for.empty() ? what +
                                                     ", which nobody will signal: no device has a statement left that "
                                                     "adds to it"
                                               : what + ", which only device" + (w.waits_for.size() > 1 ? "s " : " ") +
                                                     device_list(w.waits_for) + " could still signal, and " +
                                                     (w.waits_for.size() > 1 ? "they are" : "it is") + " stuck too";
        }
        edges[static_cast<std::size_t>(d)] = w.waits_for;
        m.run.deadlock.push_back(std::move(w));
    }
    m.run.cycle = find_cycle(edges);
}

}  // namespace

void finish(Machine& m) {
    SemRun& r = m.run;
    bool stuck = false;
    for (const DevState& s : m.dev) stuck = stuck || s.status != DevStatus::done;
    for (const SemEvent& e : r.events) r.end_s = std::max(r.end_s, e.time_s);
    if (stuck) {
        analyse_deadlock(m);
        r.status = SemStatus::deadlock;
        r.summary = "deadlock: " + r.deadlock.front().reason;
        if (r.cycle.size() == 1) {
            r.summary += "; device " + std::to_string(r.cycle.front()) + " waits on itself";
        } else if (!r.cycle.empty()) {
            std::string ring;
            for (int d : r.cycle) ring += std::to_string(d) + " -> ";
            r.summary += "; devices wait on each other in a cycle " + ring + std::to_string(r.cycle.front());
        }
    } else {
        for (int d = 0; d < m.x.devices; ++d)
            for (std::size_t s = 0; s < m.x.layout.sem_names.size(); ++s) {
                const std::int64_t v = m.sems[static_cast<std::size_t>(d)][s];
                if (v == 0) continue;
                r.nonzero.push_back(SemNonzero{d, m.x.layout.sem_names[s], v,
                                               "device " + std::to_string(d) + " exits with " +
                                                   m.x.layout.sem_names[s] + " = " + std::to_string(v) +
                                                   (m.x.layout.sem_is_dma[s] ? " bytes" : "") +
                                                   ": Pallas requires every semaphore to be zero at exit"});
            }
        if (!r.races.empty()) {
            r.status = SemStatus::race;
            r.summary = "race: " + r.races.front().text;
        } else if (!r.nonzero.empty()) {
            r.status = SemStatus::nonzero_semaphore;
            r.summary = "nonzero semaphore: " + r.nonzero.front().text;
        } else {
            r.status = SemStatus::ok;
            r.summary = "ok: every device finished at " + format_time(r.end_s) + " with every semaphore back at zero";
        }
    }
    Provenance& p = r.provenance;
    p.kind = tpusim::Kind::predicted;
    p.chip = m.chip.id;
    p.dtype = "sizes in bytes";
    p.shapes = std::to_string(m.x.devices) + " devices";
    p.model = "discrete events: per-device programs, DMA engines, semaphores, barriers";
    p.assumptions = {
        "The devices form one ring with wraparound links; a remote copy takes the shorter way "
        "round.",
        "A copy costs the DMA latency (" + format_time(m.chip.dma_latency.value) +
            ", an assumption) plus, for a remote one, the ICI hop latency per hop plus its bytes "
            "over one link (" +
            format_rate(m.chip.ici_link_bandwidth.value, "B/s") + ").",
        "A local copy moves its bytes at the HBM bandwidth (" + format_rate(m.chip.hbm_bandwidth.value, "B/s") + ").",
        "Each device has one local DMA engine and one per ring direction; copies on one engine run "
        "one after another.",
        "A remote signal arrives after the ICI hop latency per hop; a local one at once. Issuing a "
        "statement takes no time.",
        "A buffer belongs to a copy from its start until a wait takes the copy's bytes from the "
        "semaphore it signals."};
}

}  // namespace tpusim::semdetail

namespace tpusim {

std::string_view sem_status_name(SemStatus s) {
    switch (s) {
        case SemStatus::ok:
            return "ok";
        case SemStatus::deadlock:
            return "deadlock";
        case SemStatus::race:
            return "race";
        case SemStatus::nonzero_semaphore:
            return "nonzero-semaphore";
    }
    return "ok";
}

std::vector<TraceEvent> semaphore_trace(const SemRun& run) {
    std::vector<TraceEvent> out;
    // Program tracks first, so each device's lanes read program, then engines.
    std::vector<const SemSpan*> spans;
    for (const SemSpan& s : run.spans) spans.push_back(&s);
    std::stable_sort(spans.begin(), spans.end(), [](const SemSpan* a, const SemSpan* b) {
        if (a->device != b->device) return a->device < b->device;
        return (a->track == "program") > (b->track == "program");
    });
    for (const SemSpan* s : spans) {
        TraceEvent e;
        e.name = s->name;
        e.category = s->category;
        e.process = "device " + std::to_string(s->device);
        e.thread = s->track;
        e.start_s = s->start_s;
        e.duration_s = std::max(0.0, s->end_s - s->start_s);
        e.args = {{"line", std::to_string(s->line)}};
        out.push_back(std::move(e));
    }
    return out;
}

}  // namespace tpusim
