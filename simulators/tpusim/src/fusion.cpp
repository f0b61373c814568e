// The fusion pass. Consumers first (reverse topological order, as XLA's
// instruction fusion walks): each kernel grows by pulling in its producers
// when the rules below allow it.
#include <algorithm>
#include <limits>
#include <set>

#include "tpusim/error.h"
#include "tpusim/fusion.h"

namespace tpusim::fusion {

namespace {

const std::vector<std::string> rules_text{
    "Parameters and constants are not kernels; a constant is folded into the kernel that uses it.",
    "Elementwise and data-movement ops (broadcast, convert, reshape) fuse into their consumer: a "
    "chain of them becomes one loop fusion.",
    "A reduction is the root of an input fusion that pulls in its elementwise producers; a "
    "reduction's result is never fused into a consumer.",
    "A dot whose only consumers are elementwise ops becomes an output fusion with that epilogue; "
    "nothing is fused into a dot's operands.",
    "Shared producers: an op read by several consumers is fused only when all of them end up in the "
    "same kernel. The one exception is a cheap op that reads only parameters or constants (a "
    "broadcast of a bias or of a constant): it is recomputed inside each consumer. Anything else "
    "with several consumers (an exp, a divide, a reduction, a dot) is computed once and its result "
    "goes through HBM, because recomputing it would repeat expensive work.",
    "No multi-output fusions: each kernel writes only its root (and any program output).",
};

struct Group {
    int root = -1;
    FusionKind kind = FusionKind::single;
    std::set<int> members;
    std::set<int> recomputed;
    bool has_dot = false;
};

bool fusible_producer(const Node& n) {
    return n.cls == OpClass::elementwise || n.cls == OpClass::movement;
}

bool reads_only_sources(const Graph& g, const Node& n) {
    return std::all_of(n.inputs.begin(), n.inputs.end(), [&](int i) {
        const OpClass c = g.node(i).cls;
        return c == OpClass::parameter || c == OpClass::constant;
    });
}

Kernel make_kernel(const Graph& g, const std::vector<int>& members, const std::vector<int>& recomputed, FusionKind kind,
                   const std::vector<std::vector<int>>& consumers, const Chip& chip,
                   std::vector<std::string>& assumptions) {
    Kernel k;
    k.kind = kind;
    k.nodes = members;
    k.recomputed = recomputed;
    std::set<int> inside(members.begin(), members.end());
    inside.insert(recomputed.begin(), recomputed.end());
    std::set<int> reads;
    DType compute = DType::f32;
    for (int id : inside) {
        const Node& n = g.node(id);
        k.flops += n.flops;
        if (n.cls == OpClass::dot) {
            k.engine = Engine::mxu;
            compute = n.dtype;
        }
        for (int in : n.inputs)
            if (!inside.count(in) && g.node(in).cls != OpClass::constant) reads.insert(in);
    }
    for (int r : reads) k.bytes_read += g.node(r).bytes();
    k.reads.assign(reads.begin(), reads.end());
    for (int id : members) {
        const Node& n = g.node(id);
        const bool read_outside =
            std::any_of(consumers[static_cast<std::size_t>(id)].begin(), consumers[static_cast<std::size_t>(id)].end(),
                        [&](int c) { return !inside.count(c); });
        if (id == members.back() || n.output || read_outside) k.bytes_written += n.bytes();
    }
    const Roofline r = roofline(chip, generic_cost(k.flops, k.bytes_read + k.bytes_written, compute, k.engine));
    k.time_s = r.time_s;
    for (const auto& a : r.provenance.assumptions)
        if (std::find(assumptions.begin(), assumptions.end(), a) == assumptions.end()) assumptions.push_back(a);
    return k;
}

std::string shape_of(const Node& n) {
    return "[" + ir::dims_text(n.shape) + "] " + format_bytes(n.bytes());
}

}  // namespace

std::string_view kind_name(FusionKind kind) {
    switch (kind) {
        case FusionKind::single:
            return "op";
        case FusionKind::loop:
            return "loop";
        case FusionKind::input:
            return "input";
        case FusionKind::output:
            return "output";
    }
    return "?";
}

FusionResult fuse(const Graph& g, const Chip& chip) {
    const auto& nodes = g.nodes();
    const auto consumers = g.consumers();
    const int n = static_cast<int>(nodes.size());
    FusionResult res;
    res.graph = g.name();
    res.rules = rules_text;
    std::vector<std::string> assumptions;

    auto is_kernel_op = [&](int id) {
        const OpClass c = g.node(id).cls;
        return c != OpClass::parameter && c != OpClass::constant;
    };
    for (int id = 0; id < n; ++id) {
        if (!is_kernel_op(id)) continue;
        Kernel k = make_kernel(g, {id}, {}, FusionKind::single, consumers, chip, assumptions);
        k.name = nodes[static_cast<std::size_t>(id)].name;
        res.before.push_back(std::move(k));
    }
    if (res.before.empty()) throw InputError("graph '" + g.name() + "' has no ops to fuse");

    // owner[i]: the group that computes node i (-1 for sources and recomputed-only nodes).
    std::vector<int> owner(static_cast<std::size_t>(n), -1);
    std::vector<Group> groups;
    for (int id = n - 1; id >= 0; --id) {
        if (!is_kernel_op(id) || owner[static_cast<std::size_t>(id)] >= 0) continue;
        const auto& users = consumers[static_cast<std::size_t>(id)];
        // A cheap source-reading op that every consumer recomputes is no kernel of its own.
        if (!nodes[static_cast<std::size_t>(id)].output && !users.empty() &&
            std::all_of(users.begin(), users.end(), [&](int c) {
                const int o = owner[static_cast<std::size_t>(c)];
                return o >= 0 && groups[static_cast<std::size_t>(o)].recomputed.count(id);
            }))
            continue;
        Group grp;
        grp.root = id;
        const Node& root = nodes[static_cast<std::size_t>(id)];
        grp.kind = root.cls == OpClass::reduce ? FusionKind::input : FusionKind::single;
        grp.has_dot = root.cls == OpClass::dot;
        grp.members.insert(id);
        const int gid = static_cast<int>(groups.size());
        owner[static_cast<std::size_t>(id)] = gid;
        std::vector<int> work{id};
        while (!work.empty()) {
            const int m = work.back();
            work.pop_back();
            const Node& mn = nodes[static_cast<std::size_t>(m)];
            if (mn.cls == OpClass::dot || mn.cls == OpClass::other) continue;  // operands stay as they are
            if (mn.cls == OpClass::reduce && m != grp.root) continue;
            for (int p : mn.inputs) {
                const Node& pn = nodes[static_cast<std::size_t>(p)];
                if (!is_kernel_op(p) || grp.members.count(p) || owner[static_cast<std::size_t>(p)] >= 0) continue;
                const auto& pu = consumers[static_cast<std::size_t>(p)];
                const bool all_inside =
                    std::all_of(pu.begin(), pu.end(), [&](int c) { return grp.members.count(c) > 0; });
                const bool epilogue = pn.cls == OpClass::dot && !grp.has_dot && root.cls != OpClass::reduce &&
                                      root.cls != OpClass::dot && root.cls != OpClass::other;
                if (all_inside && !pn.output && (fusible_producer(pn) || epilogue)) {
                    grp.members.insert(p);
                    grp.recomputed.erase(p);  // once all its consumers are inside, it is simply a member
                    owner[static_cast<std::size_t>(p)] = gid;
                    if (pn.cls == OpClass::dot) grp.has_dot = true;
                    work.push_back(p);
                } else if (!all_inside && !pn.output && fusible_producer(pn) && !pn.expensive &&
                           reads_only_sources(g, pn)) {
                    grp.recomputed.insert(p);
                }
            }
        }
        if (grp.members.size() + grp.recomputed.size() == 1)
            grp.kind = FusionKind::single;
        else if (grp.has_dot)
            grp.kind = FusionKind::output;
        else if (grp.kind == FusionKind::single && grp.members.size() + grp.recomputed.size() > 1)
            grp.kind = FusionKind::loop;
        groups.push_back(std::move(grp));
    }
    // Kernels in program order (by root).
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.root < b.root; });
    int fusion_count = 0;
    for (const Group& grp : groups) {
        std::vector<int> members(grp.members.begin(), grp.members.end());  // sorted: the root is last
        Kernel k = make_kernel(g, members, {grp.recomputed.begin(), grp.recomputed.end()}, grp.kind, consumers, chip,
                               assumptions);
        k.name = grp.kind == FusionKind::single
                     ? nodes[static_cast<std::size_t>(grp.root)].name
                     : "fusion" + (fusion_count ? "." + std::to_string(fusion_count) : std::string());
        if (grp.kind != FusionKind::single) ++fusion_count;
        res.after.push_back(std::move(k));
    }
    for (const auto& k : res.before) {
        res.flops += k.flops;
        res.bytes_before += k.bytes_read + k.bytes_written;
        res.time_before += k.time_s;
    }
    for (const auto& k : res.after) {
        res.bytes_after += k.bytes_read + k.bytes_written;
        res.time_after += k.time_s;
    }
    // Why each value that crosses HBM between kernels was not fused away.
    std::vector<bool> materialized(static_cast<std::size_t>(n), false);
    for (const auto& k : res.after) {
        const int root = k.nodes.back();
        const Node& r = g.node(root);
        materialized[static_cast<std::size_t>(root)] = true;
        const auto& users = consumers[static_cast<std::size_t>(root)];
        if (users.empty()) continue;
        std::string why;
        if (r.cls == OpClass::reduce)
            why = "a reduction's result is not fused into its consumers";
        else if (r.cls == OpClass::dot && users.size() > 1)
            why = "a dot with " + std::to_string(users.size()) + " consumers is computed once, not per consumer";
        else if (r.cls == OpClass::dot)
            why = "its consumer cannot take a dot as an epilogue";
        else if (users.size() > 1 && r.expensive)
            why = "'" + r.opcode + "' is expensive and has " + std::to_string(users.size()) + " consumers";
        else if (users.size() > 1)
            why = "it has " + std::to_string(users.size()) +
                  " consumers in different kernels and reads more than parameters";
        else if (r.output)
            why = "it is a program output";
        else if (g.node(users.front()).cls == OpClass::dot)
            why = "its consumer is a dot, and nothing is fused into a dot's operands";
        else
            why = "its consumer '" + g.node(users.front()).opcode + "' is never fused";
        res.notes.push_back("'" + r.name + "' " + shape_of(r) + " is written to HBM and read back: " + why + ".");
    }
    // Softmax attention: a reduction between two dots keeps the score matrix in HBM.
    // One pass finds the first dot that reaches a later dot through a
    // reduction (through_reduce[i]: the first such dot reaching node i), so a
    // dump of a hundred thousand dots is not walked once per dot.
    constexpr int kNone = std::numeric_limits<int>::max();
    std::vector<int> reaching(static_cast<std::size_t>(n), kNone), through_reduce(static_cast<std::size_t>(n), kNone);
    int first_d1 = kNone;
    for (int i = 0; i < n; ++i) {
        const Node& node = nodes[static_cast<std::size_t>(i)];
        int& r1 = reaching[static_cast<std::size_t>(i)];
        int& r2 = through_reduce[static_cast<std::size_t>(i)];
        for (int in : node.inputs) {
            r1 = std::min(r1, reaching[static_cast<std::size_t>(in)]);
            r2 = std::min(r2, node.cls == OpClass::reduce ? reaching[static_cast<std::size_t>(in)]
                                                          : through_reduce[static_cast<std::size_t>(in)]);
        }
        if (node.cls == OpClass::dot) {
            first_d1 = std::min(first_d1, r2);
            r1 = std::min(r1, i);
        }
    }
    if (first_d1 < n) {
        const int d1 = first_d1;
        std::vector<int> reach(static_cast<std::size_t>(n), 0);  // 1: reachable; 2: through a reduction
        reach[static_cast<std::size_t>(d1)] = 1;
        for (int i = d1 + 1; i < n; ++i)
            for (int in : nodes[static_cast<std::size_t>(i)].inputs) {
                int r = reach[static_cast<std::size_t>(in)];
                if (r && nodes[static_cast<std::size_t>(i)].cls == OpClass::reduce) r = 2;
                reach[static_cast<std::size_t>(i)] = std::max(reach[static_cast<std::size_t>(i)], r);
            }
        for (int d2 = d1 + 1; d2 < n; ++d2) {
            if (nodes[static_cast<std::size_t>(d2)].cls != OpClass::dot || reach[static_cast<std::size_t>(d2)] != 2)
                continue;
            int scores = -1;  // the first of the largest values between the dots that stay in HBM
            for (int i = d1; i < d2; ++i)
                if (reach[static_cast<std::size_t>(i)] && materialized[static_cast<std::size_t>(i)] &&
                    (scores < 0 ||
                     nodes[static_cast<std::size_t>(i)].bytes() > nodes[static_cast<std::size_t>(scores)].bytes()))
                    scores = i;
            if (scores < 0) continue;
            const Node& s = nodes[static_cast<std::size_t>(scores)];
            res.notes.push_back(
                "Not streaming attention: the score matrix '" + s.name + "' " + shape_of(s) +
                " is materialized in HBM between '" + nodes[static_cast<std::size_t>(d1)].name + "' and '" +
                nodes[static_cast<std::size_t>(d2)].name +
                "'. The softmax reduction over each full row of scores "
                "sits between the two dots, so a whole row must exist before any of it can be normalized and "
                "multiplied by V. Fusion only merges ops along dataflow edges; it cannot restructure the "
                "algorithm into an online-softmax loop over K/V blocks with running max and sum rescaling "
                "(flash attention), which reorders the reduction and changes rounding. That takes a "
                "hand-written kernel such as a Pallas flash-attention kernel.");
            break;  // one explanation per graph is enough
        }
    }
    Provenance& p = res.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = "per op";
    p.shapes = g.name() + ", " + std::to_string(g.nodes().size()) + " nodes";
    p.model = "XLA-like fusion, then the roofline of each kernel, summed";
    p.assumptions = assumptions;
    p.assumptions.emplace_back("Kernels run one after another; launch overheads are not modelled.");
    p.assumptions.emplace_back("Inside a fusion, intermediates stay on chip (VMEM and vector registers).");
    return res;
}

}  // namespace tpusim::fusion
