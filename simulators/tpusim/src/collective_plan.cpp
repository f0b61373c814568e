// The plan of a collective, the flows of each phase, and the closed form.
#include <algorithm>
#include <cmath>

#include "collective_detail.h"
#include "tpusim/error.h"

namespace tpusim::detail {

namespace {

bool ring(const Plan& p, int a) {
    return p.wraps[static_cast<std::size_t>(a)];
}
std::int64_t size(const Plan& p, int a) {
    return p.n[static_cast<std::size_t>(a)];
}

// Chunks that take the longer way when a block is split between the two
// directions (the device opposite on an even ring, or an all-to-all piece
// going exactly half way round).
int first_half(int chunks) {
    return (chunks + 1) / 2;
}

void add(std::vector<Flow>& out, std::int64_t origin, int dir, std::int64_t hops, int count, double chunk_bytes) {
    if (hops > 0 && count > 0) out.push_back({origin, dir, hops, count, chunk_bytes});
}

// A piece from i to j (j != i) on the axis: the shortest way on a
// bidirectional ring (split in half when both ways are equally long), the
// + way on a one-way ring, the only way on a line.
void route(std::vector<Flow>& out, const Plan& p, int a, std::int64_t i, std::int64_t j, double piece) {
    const std::int64_t n = size(p, a);
    const int c = p.chunks;
    const double chunk = piece / c;
    if (!ring(p, a)) {
        add(out, i, j > i ? +1 : -1, std::abs(j - i), c, chunk);
        return;
    }
    const std::int64_t forward = ((j - i) % n + n) % n;
    if (!p.bidirectional || forward < n - forward) {
        add(out, i, +1, forward, c, chunk);
    } else if (forward > n - forward) {
        add(out, i, -1, n - forward, c, chunk);
    } else {
        add(out, i, +1, forward, first_half(c), chunk);
        add(out, i, -1, forward, c - first_half(c), chunk);
    }
}

}  // namespace

std::int64_t line_count(const Plan& p, int a) {
    std::int64_t lines = 1;
    for (int b = 0; b < static_cast<int>(p.n.size()); ++b)
        if (b != a && !ring(p, b)) lines *= size(p, b);
    return lines;
}

std::int64_t line_index(const Plan& p, int a, const std::vector<std::int64_t>& mesh_coords) {
    std::int64_t line = 0;
    for (int b = 0; b < static_cast<int>(p.n.size()); ++b)
        if (b != a && !ring(p, b))
            line = line * size(p, b) + mesh_coords[static_cast<std::size_t>(p.mesh_axis[static_cast<std::size_t>(b)])];
    return line;
}

Plan make_plan(const Mesh& mesh, const CollectiveSpec& spec) {
    if (spec.axes.empty()) throw InputError("a collective needs at least one mesh axis");
    if (!std::isfinite(spec.bytes) || spec.bytes <= 0)
        throw InputError("the array size in bytes must be a number above 0");
    if (spec.chunks < 1 || spec.chunks > 256) throw InputError("chunks per message must be between 1 and 256");
    Plan p;
    p.kind = spec.kind;
    p.bidirectional = spec.bidirectional;
    p.chunks = spec.chunks;
    p.bandwidth = mesh.link_bandwidth;
    p.latency = mesh.hop_latency;
    for (int axis : spec.axes) {
        if (axis < 0 || axis >= static_cast<int>(mesh.axes.size()))
            throw InputError("axis " + std::to_string(axis) + " is not an axis of the " + mesh.shape() +
                             " mesh (axes count from 0)");
        if (std::find(p.mesh_axis.begin(), p.mesh_axis.end(), axis) != p.mesh_axis.end())
            throw InputError("axis " + std::to_string(axis) + " is listed twice");
        const MeshAxis& ax = mesh.axes[static_cast<std::size_t>(axis)];
        if (ax.size < 2)
            throw InputError("axis " + std::to_string(axis) + " has one chip: a collective over it moves nothing");
        p.mesh_axis.push_back(axis);
        p.n.push_back(ax.size);
        p.wraps.push_back(ax.wraps);
        p.group_size *= ax.size;
    }
    const int axes = static_cast<int>(p.n.size());
    const double g = static_cast<double>(p.group_size);
    const double v = spec.bytes;
    if (spec.kind == CollectiveKind::permute) {
        if (axes != 1) throw InputError("a permute moves data along one axis: give one axis");
        const std::int64_t n = p.n[0];
        p.shift = ((spec.shift % n) + n) % n;
        if (p.shift == 0)
            throw InputError("a shift of " + std::to_string(spec.shift) + " on an axis of " + std::to_string(n) +
                             " leaves every device where it is");
        p.parts.push_back({{0, PhaseOp::permute, v / g}});
        return p;
    }
    for (int part = 0; part < axes; ++part) {
        std::vector<int> order;
        for (int i = 0; i < axes; ++i) order.push_back((part + i) % axes);
        std::vector<Phase> phases;
        const double share = v / axes;  // this part's slice of the array
        if (spec.kind == CollectiveKind::all_to_all) {
            for (int a : order) phases.push_back({a, PhaseOp::exchange, share / g});
        } else if (spec.kind == CollectiveKind::all_gather) {
            double block = share / g;
            for (int a : order) {
                phases.push_back({a, PhaseOp::gather, block});
                block *= static_cast<double>(size(p, a));
            }
        } else {
            double held = share;  // reduce-scatter, and the first half of all-reduce
            for (int a : order) {
                held /= static_cast<double>(size(p, a));
                phases.push_back({a, PhaseOp::reduce, held});
            }
            p.reduce_phases = phases.size();
            if (spec.kind == CollectiveKind::all_reduce) {
                double block = share / g;
                for (auto it = order.rbegin(); it != order.rend(); ++it) {
                    phases.push_back({*it, PhaseOp::gather, block});
                    block *= static_cast<double>(size(p, *it));
                }
            }
        }
        p.parts.push_back(phases);
    }
    return p;
}

std::vector<Flow> phase_flows(const Plan& p, const Phase& ph) {
    std::vector<Flow> out;
    const int a = ph.axis;
    const std::int64_t n = size(p, a);
    const int c = p.chunks;
    const int half = first_half(c);
    const double chunk = ph.block / c;
    const bool both_ways = ring(p, a) && p.bidirectional;
    for (std::int64_t i = 0; i < n; ++i) {
        switch (ph.op) {
            case PhaseOp::gather:
                // Block of i forwarded to everyone: half way round each way on a
                // bidirectional ring (the opposite device gets half from each
                // side), all the way round on a one-way ring, to both ends of a line.
                if (!ring(p, a)) {
                    add(out, i, +1, n - 1 - i, c, chunk);
                    add(out, i, -1, i, c, chunk);
                } else if (!both_ways) {
                    add(out, i, +1, n - 1, c, chunk);
                } else if (n % 2 == 1) {
                    add(out, i, +1, (n - 1) / 2, c, chunk);
                    add(out, i, -1, (n - 1) / 2, c, chunk);
                } else {
                    add(out, i, +1, n / 2, half, chunk);
                    add(out, i, +1, n / 2 - 1, c - half, chunk);
                    add(out, i, -1, n / 2, c - half, chunk);
                    add(out, i, -1, n / 2 - 1, half, chunk);
                }
                break;
            case PhaseOp::reduce:
                // The mirror image: the piece that ends on device i starts at the
                // far end and picks up each device's contribution on its way.
                if (!ring(p, a)) {
                    add(out, 0, +1, i, c, chunk);
                    add(out, n - 1, -1, n - 1 - i, c, chunk);
                } else if (!both_ways) {
                    add(out, step_position(i, +1, 1, n), +1, n - 1, c, chunk);
                } else if (n % 2 == 1) {
                    const std::int64_t h = (n - 1) / 2;
                    add(out, step_position(i, -1, h, n), +1, h, c, chunk);
                    add(out, step_position(i, +1, h, n), -1, h, c, chunk);
                } else {
                    const std::int64_t h = n / 2;
                    add(out, step_position(i, -1, h, n), +1, h, half, chunk);
                    add(out, step_position(i, -1, h - 1, n), +1, h - 1, c - half, chunk);
                    add(out, step_position(i, +1, h, n), -1, h, c - half, chunk);
                    add(out, step_position(i, +1, h - 1, n), -1, h - 1, half, chunk);
                }
                break;
            case PhaseOp::exchange:
                for (std::int64_t j = 0; j < n; ++j)
                    if (j != i) route(out, p, a, i, j, ph.block / static_cast<double>(n));
                break;
            case PhaseOp::permute: {
                // On a line, a piece whose target lies past the end goes back the other way.
                route(out, p, a, i, (i + p.shift) % n, ph.block);
                break;
            }
        }
    }
    return out;
}

Analytic closed_form(const Plan& p) {
    // Per phase: the busiest directed link's bytes and the hops on the longest
    // path. Bytes add up per axis over every part (the parts share the links);
    // hops add up along each part's sequence of axes.
    auto half_term = [&](std::size_t begin, std::size_t end) {
        std::vector<double> load(p.n.size(), 0.0);
        double hops_worst = 0;
        for (const auto& phases : p.parts) {
            double hops = 0;
            for (std::size_t k = begin; k < std::min(end, phases.size()); ++k) {
                const Phase& ph = phases[k];
                const double n = static_cast<double>(size(p, ph.axis));
                const bool both = ring(p, ph.axis) && p.bidirectional;
                const bool line = !ring(p, ph.axis);
                double pieces = 0;  // blocks (or pieces) on the busiest link
                switch (ph.op) {
                    case PhaseOp::gather:
                    case PhaseOp::reduce:
                        pieces = both ? (n - 1) / 2 : n - 1;
                        break;
                    case PhaseOp::exchange: {
                        const double m = std::floor(n / 2);
                        pieces = both ? (n * n - std::fmod(n, 2)) / 8 / n : (line ? m * (n - m) / n : (n - 1) / 2);
                        break;
                    }
                    case PhaseOp::permute:
                        break;  // counted from the routes below
                }
                double link_hops = both ? std::floor(n / 2) : n - 1;
                if (ph.op == PhaseOp::permute) {
                    // Every route is counted onto the links it crosses.
                    const std::int64_t ni = size(p, ph.axis);
                    std::vector<double> fwd(static_cast<std::size_t>(ni), 0), back = fwd;
                    link_hops = 0;
                    for (const Flow& f : phase_flows(p, ph)) {
                        link_hops = std::max(link_hops, static_cast<double>(f.hops));
                        for (std::int64_t h = 0; h < f.hops; ++h) {
                            const auto at = static_cast<std::size_t>(step_position(f.origin, f.direction, h, ni));
                            (f.direction > 0 ? fwd : back)[at] += f.count * f.chunk_bytes;
                        }
                    }
                    pieces = std::max(*std::max_element(fwd.begin(), fwd.end()),
                                      *std::max_element(back.begin(), back.end())) /
                             ph.block;
                }
                load[static_cast<std::size_t>(ph.axis)] += pieces * ph.block;
                hops += link_hops;
            }
            hops_worst = std::max(hops_worst, hops);
        }
        Analytic r;
        r.bandwidth_s = *std::max_element(load.begin(), load.end()) / p.bandwidth;
        r.latency_s = hops_worst * p.latency;
        r.total_s = std::max(r.bandwidth_s, r.latency_s);
        return r;
    };
    Analytic r;
    if (p.kind == CollectiveKind::all_reduce) {
        // All-reduce = reduce-scatter, then all-gather [SB-SHARD].
        const Analytic rs = half_term(0, p.reduce_phases);
        const Analytic ag = half_term(p.reduce_phases, SIZE_MAX);
        r.bandwidth_s = rs.bandwidth_s + ag.bandwidth_s;
        r.latency_s = rs.latency_s + ag.latency_s;
        r.total_s = rs.total_s + ag.total_s;
    } else {
        r = half_term(0, SIZE_MAX);
    }
    switch (p.kind) {
        case CollectiveKind::all_gather:
        case CollectiveKind::reduce_scatter:
            r.formula =
                "T = max(T_hop × hops, V × (N-1)/N / W_bidi) per axis on a bidirectional "
                "ring, V × (N-1)/N / W_uni one way or without wraparound; several axes "
                "share V and work at once [SB-SHARD], exact (N-1)/N kept";
            break;
        case CollectiveKind::all_reduce:
            r.formula =
                "T = reduce-scatter + all-gather = about 2 V / W_bidi on a bidirectional "
                "ring, 2 V × (N-1)/N / W_uni one way or without wraparound [SB-SHARD], "
                "exact (N-1)/N kept";
            break;
        case CollectiveKind::all_to_all:
            r.formula =
                "T = max(T_hop × hops, V / (4 W_bidi)) on a bidirectional ring (N^2/8 "
                "pieces of V/N^2 on the busiest link) [SB-SHARD]; twice that one way or "
                "without wraparound";
            break;
        case CollectiveKind::permute:
            r.formula =
                "T = max(T_hop × longest route, bytes on the busiest link / W_uni) "
                "[derived from SB-SHARD's link model]";
            break;
    }
    return r;
}

}  // namespace tpusim::detail
