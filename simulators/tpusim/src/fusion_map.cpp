// The fusion map: the pass's fusions as toggles, and the reasons at every
// kernel boundary. Turning a fusion off splits it into one kernel per member;
// no other kernel's traffic changes (a fusion's members are read only inside
// it), so the totals are sums of precomputed per-group figures.
#include <algorithm>
#include <set>

#include "tpusim/error.h"
#include "tpusim/fusion_map.h"

namespace tpusim::fusion {

namespace {

std::string quoted(const Node& n) {
    return "'" + n.name + "'";
}

}  // namespace

FusionMap::FusionMap(Graph graph, const Chip& chip) : graph_(std::move(graph)), chip_(chip) {
    result_ = fuse(graph_, chip_);
    const auto& nodes = graph_.nodes();
    const auto n = nodes.size();
    group_of_.assign(n, -1);
    kernel_of_.assign(n, -1);
    single_bytes_.assign(n, 0);
    single_time_.assign(n, 0);
    for (const Kernel& k : result_.before) {
        const auto id = static_cast<std::size_t>(k.nodes.front());
        single_bytes_[id] = k.bytes_read + k.bytes_written;
        single_time_[id] = k.time_s;
    }
    std::vector<std::set<int>> recomputed_in(n);  // per node: the kernels that recompute it
    for (std::size_t ki = 0; ki < result_.after.size(); ++ki) {
        const Kernel& k = result_.after[ki];
        for (int id : k.nodes) kernel_of_[static_cast<std::size_t>(id)] = static_cast<int>(ki);
        for (int id : k.recomputed) recomputed_in[static_cast<std::size_t>(id)].insert(static_cast<int>(ki));
        if (k.kind == FusionKind::single && k.recomputed.empty()) {
            lone_bytes_ += k.bytes_read + k.bytes_written;
            lone_time_ += k.time_s;
            ++lone_kernels_;
            continue;
        }
        MapGroup g;
        g.name = k.name;
        g.kind = k.kind;
        g.nodes = k.nodes;
        g.recomputed = k.recomputed;
        g.bytes_fused = k.bytes_read + k.bytes_written;
        g.time_fused = k.time_s;
        for (int id : k.nodes) {
            g.bytes_split += single_bytes_[static_cast<std::size_t>(id)];
            g.time_split += single_time_[static_cast<std::size_t>(id)];
            group_of_[static_cast<std::size_t>(id)] = static_cast<int>(groups_.size());
        }
        groups_.push_back(std::move(g));
    }
    // Kernel index -> group index, for the recomputed-only ops.
    std::vector<int> group_of_kernel(result_.after.size(), -1);
    for (std::size_t gi = 0; gi < groups_.size(); ++gi)
        group_of_kernel[static_cast<std::size_t>(kernel_of_[static_cast<std::size_t>(groups_[gi].nodes.back())])] =
            static_cast<int>(gi);
    for (std::size_t id = 0; id < n; ++id) {
        const OpClass c = nodes[id].cls;
        if (c == OpClass::parameter || c == OpClass::constant || kernel_of_[id] >= 0) continue;
        recompute_only_.push_back(static_cast<int>(id));
        std::vector<int> gs;
        for (int ki : recomputed_in[id]) gs.push_back(group_of_kernel[static_cast<std::size_t>(ki)]);
        recomputed_by_.push_back(std::move(gs));
    }
    on_.assign(groups_.size(), 1);

    // Which ops lie downstream of a dot, and which feed a dot: a reduction
    // with both is the softmax between attention's two matmuls.
    std::vector<char> after_dot(n, 0), before_dot(n, 0);
    for (std::size_t id = 0; id < n; ++id)
        for (int in : nodes[id].inputs)
            if (nodes[static_cast<std::size_t>(in)].cls == OpClass::dot || after_dot[static_cast<std::size_t>(in)])
                after_dot[id] = 1;
    for (std::size_t id = n; id-- > 0;)
        if (nodes[id].cls == OpClass::dot || before_dot[id])
            for (int in : nodes[id].inputs) before_dot[static_cast<std::size_t>(in)] = 1;
    between_dots_.assign(n, 0);
    for (std::size_t id = 0; id < n; ++id) between_dots_[id] = after_dot[id] && before_dot[id];

    const auto consumers = graph_.consumers();
    for (std::size_t p = 0; p < n; ++p) {
        if (kernel_of_[p] < 0) continue;  // sources, and ops recomputed where they are used
        for (int c : consumers[p]) {
            const int kc = kernel_of_[static_cast<std::size_t>(c)];
            if (kc == kernel_of_[p] || recomputed_in[p].count(kc)) continue;
            blockers_.push_back({static_cast<int>(p), c, why_not_fused(static_cast<int>(p), c)});
        }
    }
    recompute();
}

bool FusionMap::enabled(int group) const {
    if (group < 0 || static_cast<std::size_t>(group) >= on_.size()) return false;
    return on_[static_cast<std::size_t>(group)] != 0;
}

void FusionMap::set_enabled(int group, bool on) {
    if (group < 0 || static_cast<std::size_t>(group) >= on_.size())
        throw InputError("there is no fusion " + std::to_string(group) + "; the map has " + std::to_string(on_.size()));
    on_[static_cast<std::size_t>(group)] = on ? 1 : 0;
    recompute();
}

void FusionMap::set_all(bool on) {
    std::fill(on_.begin(), on_.end(), on ? 1 : 0);
    recompute();
}

int FusionMap::enabled_count() const {
    return static_cast<int>(std::count(on_.begin(), on_.end(), 1));
}

MapTotals FusionMap::unfused() const {
    MapTotals t;
    t.bytes = result_.bytes_before;
    t.time_s = result_.time_before;
    t.kernels = static_cast<int>(result_.before.size());
    return t;
}

MapTotals FusionMap::automatic() const {
    MapTotals t;
    t.bytes = result_.bytes_after;
    t.time_s = result_.time_after;
    t.kernels = static_cast<int>(result_.after.size());
    return t;
}

MapTotals FusionMap::current() const {
    return current_;
}

void FusionMap::recompute() {
    MapTotals t;
    t.bytes = lone_bytes_;
    t.time_s = lone_time_;
    t.kernels = lone_kernels_;
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
        const MapGroup& g = groups_[gi];
        if (on_[gi]) {
            t.bytes += g.bytes_fused;
            t.time_s += g.time_fused;
            t.kernels += 1;
        } else {
            t.bytes += g.bytes_split;
            t.time_s += g.time_split;
            t.kernels += static_cast<int>(g.nodes.size());
        }
    }
    // An op only ever recomputed is a kernel of its own again as soon as
    // one fusion that copied it is split.
    for (std::size_t i = 0; i < recompute_only_.size(); ++i) {
        const auto& by = recomputed_by_[i];
        if (std::all_of(by.begin(), by.end(), [&](int g) { return g >= 0 && on_[static_cast<std::size_t>(g)]; }))
            continue;
        const auto id = static_cast<std::size_t>(recompute_only_[i]);
        t.bytes += single_bytes_[id];
        t.time_s += single_time_[id];
        t.kernels += 1;
    }
    current_ = t;
}

std::string FusionMap::why_not_fused(int producer, int consumer) const {
    const Node& p = graph_.node(producer);
    const Node& c = graph_.node(consumer);
    const auto pi = static_cast<std::size_t>(producer), ci = static_cast<std::size_t>(consumer);
    if (kernel_of_[pi] >= 0 && kernel_of_[pi] == kernel_of_[ci]) return {};
    const std::size_t users = graph_.consumers()[pi].size();
    if (p.cls == OpClass::parameter || p.cls == OpClass::constant)
        return quoted(p) + " is an input of the program: it is read from HBM, there is nothing to fuse.";
    if (p.cls == OpClass::other)
        return quoted(p) + " ('" + p.opcode +
               "') is never fused: custom calls, loops and collectives run as kernels of their own.";
    if (c.cls == OpClass::other)
        return quoted(c) + " ('" + c.opcode + "') is never fused, so " + quoted(p) + " is written to HBM for it.";
    if (p.cls == OpClass::reduce && c.cls == OpClass::dot)
        return "A reduction feeding a matmul: " + quoted(p) +
               " is complete only after its last input is read, "
               "and nothing is fused into a dot's operands, so it goes through HBM.";
    if (p.cls == OpClass::reduce && between_dots_[pi])
        return "The softmax between attention's two matmuls: " + quoted(p) +
               " needs a whole row of scores before "
               "any of it can be normalized, and a reduction's result is never fused into a consumer, so the scores "
               "and the row statistics go through HBM.";
    if (p.cls == OpClass::reduce)
        return "A reduction's result is never fused into its consumer: " + quoted(p) +
               " is the root of its own "
               "input fusion and is written to HBM.";
    if (c.cls == OpClass::dot) {
        if (between_dots_[pi])
            return "The softmax between attention's two matmuls: " + quoted(c) +
                   " needs the normalized scores as "
                   "an operand, and nothing is fused into a dot's operands, so " +
                   quoted(p) + " goes through HBM.";
        return "Nothing is fused into a dot's operands: " + quoted(c) + " reads " + quoted(p) + " from HBM.";
    }
    if (p.cls == OpClass::dot && users > 1)
        return quoted(p) + " has " + std::to_string(users) + " consumers: a dot is computed once, not per consumer.";
    if (p.cls == OpClass::dot)
        return quoted(c) + " ('" + c.opcode + "') cannot take a dot as an epilogue: only elementwise consumers can.";
    if (p.output) return quoted(p) + " is a program output: it is written to HBM anyway.";
    if (users > 1 && p.expensive)
        return "'" + p.opcode + "' is expensive and " + quoted(p) + " has " + std::to_string(users) +
               " consumers in different kernels: recomputing it in each would repeat the work.";
    if (users > 1)
        return quoted(p) + " has " + std::to_string(users) +
               " consumers in different kernels and reads more than "
               "parameters, so it is computed once and goes through HBM.";
    return quoted(p) + " and " + quoted(c) + " ended up in different kernels.";
}

Provenance FusionMap::provenance() const {
    Provenance p = result_.provenance;
    p.model = "XLA-like fusion with " + std::to_string(enabled_count()) + " of " + std::to_string(groups_.size()) +
              " fusions on, then the roofline of each kernel, summed";
    return p;
}

}  // namespace tpusim::fusion
