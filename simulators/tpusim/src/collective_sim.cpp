// The hop-by-hop event simulation of a collective plan.
//
// Events are taken in time order: a chunk arriving at a device, or a link
// finishing a chunk. A chunk ready at a device goes on its next link at
// once if the link is idle, or waits in the link's queue; it keeps the link
// for bytes / bandwidth and is at the next device one hop latency later.
// Links are shared by every part and phase that uses them, so chunks queue
// behind each other (contention); a freed link serves the waiting part that
// has sent the fewest bytes over it (fair sharing), first come first served
// within a part.
//
// Symmetry keeps it small: translating the whole mesh along an axis with
// wraparound maps the collective onto itself, so all rings along an axis
// that differ only in wrapped coordinates carry identical traffic at
// identical times. One representative per class of equivalent rings is
// simulated (with all its devices, links and chunks); the rest copy it.
// Along axes without wraparound nothing is equivalent and every line runs.
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "collective_detail.h"
#include "tpusim/error.h"

namespace tpusim::detail {

namespace {

constexpr double unknown = -1;
// Beyond this the answer would take seconds (and event counters would overflow).
constexpr double max_chunk_hops = 3e7;

std::size_t at(std::int64_t i) {
    return static_cast<std::size_t>(i);
}

std::string op_name(PhaseOp op) {
    switch (op) {
        case PhaseOp::gather:
            return "gather";
        case PhaseOp::reduce:
            return "reduce";
        case PhaseOp::exchange:
            return "all-to-all";
        case PhaseOp::permute:
            return "permute";
    }
    return "";
}

struct Chunk {
    std::uint32_t stage;  // index into Engine::stages
    std::uint32_t line;
    std::uint32_t flow;
    std::uint32_t hop;  // hops done
};

// 16 bytes, so the heap stays small in cache; ties go in push order.
struct Event {
    double time;
    std::uint32_t seq;
    std::uint32_t id;  // a chunk, or a link (with link_bit) waking up
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};
constexpr std::uint32_t link_bit = 0x80000000u;

// One phase of one part, on every representative line of its axis.
struct Stage {
    int part = 0;
    int phase = 0;
    Phase ph;
    std::int64_t n = 0;
    std::int64_t lines = 0;
    std::vector<Flow> flows;
    std::vector<std::vector<std::uint32_t>> by_origin;  // flow ids per position
    std::vector<int> expected;                          // deliveries per position
    // Per (line, position):
    std::vector<double> ready, last;
    std::vector<int> pending;
    std::vector<std::vector<std::uint32_t>> parked;  // reduce chunks waiting for the device
    // Per class: devices still to finish, and the latest finish.
    std::vector<int> remaining;
    std::vector<double> class_done;
};

class Engine {
public:
    Engine(const Mesh& mesh, const Plan& plan, const CollectiveOptions& options)
        : mesh_(mesh), plan_(plan), options_(options) {
        const int axes = static_cast<int>(plan.n.size());
        classes_ = 1;
        for (int a = 0; a < axes; ++a)
            if (!plan.wraps[at(a)]) classes_ *= plan.n[at(a)];
        out_.link_bytes.resize(at(axes));
        out_.link_busy.resize(at(axes));
        link_base_.resize(at(axes) + 1, 0);
        std::vector<bool> used(at(axes), false);
        double estimate = 0;
        for (std::size_t p = 0; p < plan.parts.size(); ++p) {
            stage_of_.emplace_back();
            for (std::size_t k = 0; k < plan.parts[p].size(); ++k) {
                stage_of_[p].push_back(static_cast<int>(stages_.size()));
                stages_.push_back(make_stage(static_cast<int>(p), static_cast<int>(k)));
                const Stage& s = stages_.back();
                used[at(s.ph.axis)] = true;
                for (const Flow& f : s.flows)
                    estimate += static_cast<double>(s.lines) * f.count * static_cast<double>(f.hops);
            }
        }
        if (estimate > max_chunk_hops)
            throw InputError("this collective needs about " + format_fixed(estimate / 1e6, 0) +
                             " million chunk hops, too many to simulate quickly; use fewer chunks "
                             "or a mesh with wraparound");
        for (int a = 0; a < axes; ++a) {
            const std::size_t links = at(line_count(plan, a) * plan.n[at(a)] * 2);
            out_.link_bytes[at(a)].assign(links, 0.0);
            out_.link_busy[at(a)].assign(links, 0.0);
            link_base_[at(a) + 1] = link_base_[at(a)] + links;
            if (used[at(a)]) out_.lines_simulated += line_count(plan, a);
        }
        const std::size_t links = link_base_.back();
        link_free_at_.assign(links, 0.0);
        link_wakeup_.assign(links, 0);
        waiting_.resize(links * plan.parts.size());
        waiting_head_.assign(links * plan.parts.size(), 0);
        part_bytes_.assign(links * plan.parts.size(), 0.0);
    }

    Simulation run() {
        for (std::size_t p = 0; p < plan_.parts.size(); ++p) {
            Stage& s = stages_[at(stage_of_[p][0])];
            for (std::int64_t line = 0; line < s.lines; ++line)
                for (std::int64_t pos = 0; pos < s.n; ++pos) set_ready(stage_of_[p][0], line, pos, 0.0);
        }
        while (!queue_.empty()) {
            const Event e = queue_.top();
            queue_.pop();
            if (e.id & link_bit)
                link_free(e.id & ~link_bit, e.time);
            else
                advance(e.id, e.time);
        }
        return std::move(out_);
    }

private:
    Stage make_stage(int part, int phase) {
        Stage s;
        s.part = part;
        s.phase = phase;
        s.ph = plan_.parts[at(part)][at(phase)];
        s.n = plan_.n[at(s.ph.axis)];
        s.lines = line_count(plan_, s.ph.axis);
        s.flows = phase_flows(plan_, s.ph);
        s.by_origin.resize(at(s.n));
        s.expected.assign(at(s.n), 0);
        for (std::uint32_t f = 0; f < s.flows.size(); ++f) {
            const Flow& fl = s.flows[f];
            s.by_origin[at(fl.origin)].push_back(f);
            if (s.ph.op == PhaseOp::gather) {
                for (std::int64_t h = 1; h <= fl.hops; ++h)
                    s.expected[at(step_position(fl.origin, fl.direction, h, s.n))] += fl.count;
            } else {
                s.expected[at(step_position(fl.origin, fl.direction, fl.hops, s.n))] += fl.count;
            }
        }
        // A device sends the chunks with the farthest to go first, so the
        // last ones to leave finish soon after they leave.
        for (auto& ids : s.by_origin)
            std::stable_sort(ids.begin(), ids.end(),
                             [&s](std::uint32_t x, std::uint32_t y) { return s.flows[x].hops > s.flows[y].hops; });
        const std::size_t nodes = at(s.lines * s.n);
        s.ready.assign(nodes, unknown);
        s.last.assign(nodes, 0.0);
        s.pending.resize(nodes);
        for (std::size_t i = 0; i < nodes; ++i) s.pending[i] = s.expected[i % at(s.n)];
        s.parked.resize(nodes);
        s.remaining.assign(at(classes_), plan_.wraps[at(s.ph.axis)] ? static_cast<int>(s.n) : 1);
        s.class_done.assign(at(classes_), 0.0);
        return s;
    }

    // Class coordinates (non-wrapped plan axes, in order) of a device on a line.
    std::vector<std::int64_t> class_coords(int a, std::int64_t line, std::int64_t pos) const {
        const int axes = static_cast<int>(plan_.n.size());
        std::vector<std::int64_t> c(at(axes), 0);
        for (int b = axes - 1; b >= 0; --b) {
            if (b == a || plan_.wraps[at(b)]) continue;
            c[at(b)] = line % plan_.n[at(b)];
            line /= plan_.n[at(b)];
        }
        if (!plan_.wraps[at(a)]) c[at(a)] = pos;
        return c;
    }

    std::int64_t class_index(const std::vector<std::int64_t>& c) const {
        std::int64_t id = 0;
        for (std::size_t b = 0; b < c.size(); ++b)
            if (!plan_.wraps[b]) id = id * plan_.n[b] + c[b];
        return id;
    }

    std::string device_name(int a, std::int64_t line, std::int64_t pos) const {
        std::vector<std::int64_t> mc(mesh_.axes.size(), 0);
        const std::vector<std::int64_t> c = class_coords(a, line, pos);
        for (std::size_t b = 0; b < c.size(); ++b) mc[at(plan_.mesh_axis[b])] = c[b];
        mc[at(plan_.mesh_axis[at(a)])] = pos;
        return mesh_.device_name(mesh_.device(mc));
    }

    void push(std::uint32_t id, double time) { queue_.push({time, seq_++, id}); }

    void set_ready(int stage, std::int64_t line, std::int64_t pos, double t) {
        Stage& s = stages_[at(stage)];
        const std::size_t node = at(line * s.n + pos);
        s.ready[node] = t;
        for (std::uint32_t f : s.by_origin[at(pos)])
            for (int c = 0; c < s.flows[f].count; ++c) {
                chunks_.push_back({static_cast<std::uint32_t>(stage), static_cast<std::uint32_t>(line), f, 0});
                push(static_cast<std::uint32_t>(chunks_.size() - 1), t);
            }
        for (std::uint32_t c : s.parked[node]) push(c, t);
        s.parked[node].clear();
        if (s.pending[node] == 0) node_done(stage, line, pos, t);
    }

    void node_done(int stage, std::int64_t line, std::int64_t pos, double t) {
        Stage& s = stages_[at(stage)];
        if (options_.trace) {
            const std::size_t node = at(line * s.n + pos);
            trace({"part " + std::to_string(s.part) + ": " + op_name(s.ph.op) + " on axis " +
                       std::to_string(plan_.mesh_axis[at(s.ph.axis)]),
                   "phase",
                   "devices",
                   device_name(s.ph.axis, line, pos),
                   s.ready[node],
                   t - s.ready[node],
                   {}});
        }
        const std::vector<std::int64_t> cc = class_coords(s.ph.axis, line, pos);
        const std::size_t cls = at(class_index(cc));
        s.class_done[cls] = std::max(s.class_done[cls], t);
        if (--s.remaining[cls] > 0) return;
        const double done = s.class_done[cls];
        out_.time_s = std::max(out_.time_s, done);
        const auto& chain = stage_of_[at(s.part)];
        if (at(s.phase + 1) >= chain.size()) return;
        const int next = chain[at(s.phase + 1)];
        const int b = stages_[at(next)].ph.axis;
        // The devices of this class on the next axis's line.
        std::vector<std::int64_t> mc(mesh_.axes.size(), 0);
        for (std::size_t i = 0; i < cc.size(); ++i) mc[at(plan_.mesh_axis[i])] = cc[i];
        const std::int64_t next_line = line_index(plan_, b, mc);
        if (plan_.wraps[at(b)]) {
            for (std::int64_t q = 0; q < plan_.n[at(b)]; ++q) set_ready(next, next_line, q, done);
        } else {
            set_ready(next, next_line, cc[at(b)], done);
        }
    }

    void advance(std::uint32_t id, double t) {
        // A copy: finishing a device below can start the next phase and add chunks.
        const Chunk ch = chunks_[id];
        Stage& s = stages_[ch.stage];
        const Flow& f = s.flows[ch.flow];
        const std::int64_t pos = step_position(f.origin, f.direction, ch.hop, s.n);
        const std::size_t node = at(static_cast<std::int64_t>(ch.line) * s.n + pos);
        if (ch.hop > 0 && (s.ph.op == PhaseOp::gather || ch.hop == f.hops)) {
            s.last[node] = std::max(s.last[node], t);
            if (--s.pending[node] == 0 && s.ready[node] != unknown)
                node_done(static_cast<int>(ch.stage), ch.line, pos, std::max(s.ready[node], s.last[node]));
        }
        if (ch.hop == f.hops) return;
        if (s.ph.op == PhaseOp::reduce && s.ready[node] == unknown) {
            s.parked[node].push_back(id);  // adds this device's share once it has it
            return;
        }
        const std::size_t link = link_base_[at(s.ph.axis)] + at((static_cast<std::int64_t>(ch.line) * s.n + pos) * 2) +
                                 (f.direction > 0 ? 0 : 1);
        if (link_free_at_[link] > t || link_wakeup_[link]) {
            // Busy: queue, and make sure the link wakes up when it is free.
            waiting_[link * plan_.parts.size() + at(s.part)].push_back(id);
            if (!link_wakeup_[link]) {
                link_wakeup_[link] = 1;
                push(static_cast<std::uint32_t>(link) | link_bit, link_free_at_[link]);
            }
        } else {
            send(link, id, t);
        }
    }

    // The link is free: the waiting chunk whose part has sent the fewest bytes
    // over it goes next (byte-fair sharing between the parts; first come,
    // first served within a part).
    void link_free(std::uint32_t link, double t) {
        link_wakeup_[link] = 0;
        const std::size_t parts = plan_.parts.size();
        std::size_t best = SIZE_MAX;
        double best_bytes = std::numeric_limits<double>::infinity();
        for (std::size_t q = link * parts; q < (link + 1) * parts; ++q) {
            if (waiting_head_[q] == waiting_[q].size()) continue;
            if (part_bytes_[q] < best_bytes) {
                best_bytes = part_bytes_[q];
                best = q;
            }
        }
        if (best == SIZE_MAX) return;
        const std::uint32_t id = waiting_[best][waiting_head_[best]++];
        if (waiting_head_[best] == waiting_[best].size()) {
            waiting_[best].clear();
            waiting_head_[best] = 0;
        }
        send(link, id, t);
        for (std::size_t q = link * parts; q < (link + 1) * parts; ++q)
            if (waiting_head_[q] < waiting_[q].size()) {
                link_wakeup_[link] = 1;  // more are waiting: look again when this one is sent
                push(link | link_bit, link_free_at_[link]);
                break;
            }
    }

    void send(std::size_t link, std::uint32_t id, double t) {
        const Chunk ch = chunks_[id];
        const Stage& s = stages_[ch.stage];
        const Flow& f = s.flows[ch.flow];
        const std::size_t a = at(s.ph.axis);
        const std::size_t local = link - link_base_[a];
        const double busy = f.chunk_bytes / plan_.bandwidth;
        link_free_at_[link] = t + busy;
        part_bytes_[link * plan_.parts.size() + at(s.part)] += f.chunk_bytes;
        out_.link_bytes[a][local] += f.chunk_bytes;
        out_.link_busy[a][local] += busy;
        ++out_.chunk_hops;
        if (options_.trace) {
            const std::int64_t pos = step_position(f.origin, f.direction, ch.hop, s.n);
            const std::int64_t to = step_position(pos, f.direction, 1, s.n);
            trace({"part " + std::to_string(s.part) + " " + op_name(s.ph.op) + " from " +
                       device_name(s.ph.axis, ch.line, f.origin),
                   "link",
                   "links along axis " + std::to_string(plan_.mesh_axis[a]),
                   device_name(s.ph.axis, ch.line, pos) + " -> " + device_name(s.ph.axis, ch.line, to),
                   t,
                   busy,
                   {{"bytes", format_fixed(f.chunk_bytes, 0)}}});
        }
        chunks_[id].hop = ch.hop + 1;
        push(id, t + busy + plan_.latency);
    }

    void trace(TraceEvent e) {
        if (out_.trace.size() >= options_.max_trace_events) {
            out_.trace_truncated = true;
            return;
        }
        out_.trace.push_back(std::move(e));
    }

    const Mesh& mesh_;
    const Plan& plan_;
    const CollectiveOptions& options_;
    std::int64_t classes_ = 1;
    std::vector<Stage> stages_;
    std::vector<std::vector<int>> stage_of_;  // [part][phase] -> stage
    std::vector<Chunk> chunks_;
    std::vector<std::size_t> link_base_;               // plan axis -> first link id
    std::vector<double> link_free_at_;                 // when the chunk on the link is sent
    std::vector<char> link_wakeup_;                    // a link_free event is pending
    std::vector<std::vector<std::uint32_t>> waiting_;  // [link][part] chunks queued, in order
    std::vector<std::size_t> waiting_head_;            // [link][part] next to send
    std::vector<double> part_bytes_;                   // [link][part] bytes sent so far
    std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
    std::uint32_t seq_ = 0;
    Simulation out_;
};

}  // namespace

Simulation simulate_plan(const Mesh& mesh, const Plan& plan, const CollectiveOptions& options) {
    return Engine(mesh, plan, options).run();
}

}  // namespace tpusim::detail
