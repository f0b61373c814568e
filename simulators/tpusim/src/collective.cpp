// The public face of the collective models: both costs, link loads, and
// the words that say why the two agree or not.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "collective_detail.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

constexpr double agreement_tolerance = 0.05;

std::string percent(double x) {
    return format_fixed(100 * x, 1) + "%";
}

std::string explain(const Mesh& mesh, const detail::Plan& plan, const detail::Analytic& a, const CollectiveResult& r) {
    std::string why;
    auto add = [&why](const std::string& s) { why += (why.empty() ? "" : " ") + s; };
    if (r.agrees) {
        add("The hop-by-hop simulation is within " + percent(std::abs(r.difference)) +
            " of the closed form: the busiest links stay busy from start to end, as the formula "
            "assumes, and the hop latencies are small next to the transfer time.");
    } else {
        add("The simulation is " + percent(std::abs(r.difference)) + (r.difference > 0 ? " slower" : " faster") +
            " than the closed form.");
    }
    // Smallest chunk on any phase: below one hop latency's worth of bytes the
    // links idle while chunks are in flight.
    double smallest_chunk = std::numeric_limits<double>::infinity();
    for (const auto& phases : plan.parts)
        for (const detail::Phase& ph : phases)
            for (const detail::Flow& f : detail::phase_flows(plan, ph))
                smallest_chunk = std::min(smallest_chunk, f.chunk_bytes);
    const double chunk_s = smallest_chunk / plan.bandwidth;
    const bool latency_matters = a.latency_s > 0.1 * a.bandwidth_s || chunk_s < 2 * plan.latency;
    if (latency_matters) {
        add("Small, latency-bound messages: a chunk of " + format_bytes(smallest_chunk) + " takes " +
            format_time(chunk_s) + " on a link but every hop costs " + format_time(plan.latency) +
            ". The closed form takes the larger of the latency and bandwidth terms; the "
            "simulation pays the latency of each hop on top of each chunk's transfer "
            "(store-and-forward), and links wait while chunks are in flight.");
    }
    for (std::size_t i = 0; i < plan.n.size(); ++i) {
        if (plan.wraps[i]) continue;
        const MeshAxis& ax = mesh.axes[static_cast<std::size_t>(plan.mesh_axis[i])];
        std::string effect;
        switch (plan.kind) {
            case CollectiveKind::all_gather:
            case CollectiveKind::reduce_scatter:
                effect =
                    "the chips at the ends send or receive everything over one link, and "
                    "the flows along the line have different lengths, so the pipeline "
                    "fills and drains unevenly";
                break;
            case CollectiveKind::all_reduce:
                effect =
                    "the busiest links of the reduce-scatter (near the ends) differ from "
                    "those of the all-gather, so the two halves overlap in the simulation "
                    "where the closed form adds them";
                break;
            case CollectiveKind::all_to_all:
                effect = "the middle links carry the pieces of both halves of the line";
                break;
            case CollectiveKind::permute:
                effect = "pieces whose target lies past the end travel back the whole line";
                break;
        }
        add("Axis " + std::to_string(plan.mesh_axis[i]) + " (" + std::to_string(ax.size) +
            " chips) has no wraparound (" + ax.reason + "): it is a line, not a ring; " + effect + ".");
    }
    if (plan.parts.size() > 1 && !r.agrees)
        add("Over several axes each part of the array moves to its next axis only when a device "
            "has finished the previous one, so links can idle between phases; the closed form "
            "assumes every axis is busy all the time.");
    if (!r.agrees && plan.chunks < 4)
        add("With " + std::to_string(plan.chunks) +
            " chunk(s) per message the first hops of a ring wait for whole messages; more chunks "
            "pipeline better.");
    if (!r.agrees && !latency_matters && plan.n.size() == 1 && plan.wraps[0])
        add("The rest is pipeline fill and drain: the busiest links wait for the first chunks "
            "to arrive and the last chunks still travel after those links fall idle.");
    return why;
}

// The HBM traffic and the adds of one chip, from the bytes it sends and
// receives: G devices, V the whole array (collective.h).
void memory_and_adds(const Mesh& mesh, const CollectiveSpec& spec, CollectiveResult& r) {
    const double g = static_cast<double>(r.group_size), v = spec.bytes;
    const double share = g > 1 ? (g - 1) / g : 0;  // of V a device sends and receives in a ring
    double moved = 0, reduced = 0;
    switch (spec.kind) {
        case CollectiveKind::all_gather:
            moved = share * v;
            break;
        case CollectiveKind::reduce_scatter:
            moved = reduced = share * v;
            break;
        case CollectiveKind::all_reduce:  // a reduce-scatter, then an all-gather
            moved = 2 * share * v;
            reduced = share * v;
            break;
        case CollectiveKind::all_to_all:
            moved = g > 0 ? share * v / g : 0;
            break;
        case CollectiveKind::permute:
            moved = g > 0 ? v / g : 0;
            break;
    }
    // Sent: read once; received: written once; reduced: the local chunk
    // read and the sum written as well.
    r.hbm_bytes = 2 * moved + 2 * reduced;
    r.hbm_s = mesh.hbm_bandwidth > 0 ? r.hbm_bytes / mesh.hbm_bandwidth : 0;
    r.reduce_adds = reduced / 2;
    r.reduce_s = mesh.vpu_flops > 0 ? r.reduce_adds / mesh.vpu_flops : 0;
    r.bound = "the links";
    if (r.hbm_s > r.time_s) {
        r.time_s = r.hbm_s;
        r.bound = "HBM";
    }
    if (r.reduce_s > r.time_s) {
        r.time_s = r.reduce_s;
        r.bound = "the VPU's adds";
    }
    const double links = r.simulated_s;
    auto share_of = [links](double t) { return links > 0 ? " (" + percent(t / links) + " of the links' time)" : ""; };
    std::string note = "Each chip moves " + format_bytes(r.hbm_bytes) + " through HBM, " + format_time(r.hbm_s) +
                       " at its " + format_rate(mesh.hbm_bandwidth, "B/s") + share_of(r.hbm_s);
    if (r.reduce_adds > 0)
        note += ", and adds " + format_count(r.reduce_adds) + " elements on its VPU, " + format_time(r.reduce_s) +
                share_of(r.reduce_s);
    note += r.bound == "the links" ? ": hidden under the transfers, which set the time."
                                   : ": " + r.bound + ", not the links, sets the time.";
    r.memory_note = note;
}

}  // namespace

std::string_view collective_name(CollectiveKind kind) {
    switch (kind) {
        case CollectiveKind::all_gather:
            return "all-gather";
        case CollectiveKind::reduce_scatter:
            return "reduce-scatter";
        case CollectiveKind::all_reduce:
            return "all-reduce";
        case CollectiveKind::all_to_all:
            return "all-to-all";
        case CollectiveKind::permute:
            return "permute";
    }
    return "";
}

CollectiveKind parse_collective(std::string_view text) {
    std::string key;
    for (char c : text)
        if (c != '-' && c != '_' && c != ' ') key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (key == "allgather") return CollectiveKind::all_gather;
    if (key == "reducescatter") return CollectiveKind::reduce_scatter;
    if (key == "allreduce") return CollectiveKind::all_reduce;
    if (key == "alltoall") return CollectiveKind::all_to_all;
    if (key == "permute" || key == "collectivepermute") return CollectiveKind::permute;
    throw InputError("unknown collective '" + std::string(text) +
                     "': use all-gather, reduce-scatter, all-reduce, all-to-all or permute");
}

std::vector<std::string> collective_working(const CollectiveResult& r) {
    std::vector<std::string> lines{"closed form: the larger of " + format_time(r.analytic_bandwidth_s) +
                                       " of bandwidth and " + format_time(r.analytic_latency_s) + " of hop latency, " +
                                       format_time(r.analytic_s),
                                   "hop by hop: " + format_count(static_cast<double>(r.chunk_hops)) + " chunk hops, " +
                                       format_time(r.simulated_s)};
    std::string longest = "the links' " + format_time(r.simulated_s) + ", HBM's " + format_time(r.hbm_s);
    if (r.reduce_adds > 0) longest += ", the adds' " + format_time(r.reduce_s);
    lines.push_back("the longest of " + longest + ": " + format_time(r.time_s) + ", set by " + r.bound);
    return lines;
}

CollectiveResult collective(const Mesh& mesh, const CollectiveSpec& spec, const CollectiveOptions& options) {
    const detail::Plan plan = detail::make_plan(mesh, spec);
    const detail::Analytic a = detail::closed_form(plan);
    detail::Simulation sim = detail::simulate_plan(mesh, plan, options);

    CollectiveResult r;
    r.simulated_s = r.time_s = sim.time_s;
    r.analytic_s = a.total_s;
    r.analytic_bandwidth_s = a.bandwidth_s;
    r.analytic_latency_s = a.latency_s;
    r.difference = r.simulated_s / r.analytic_s - 1;
    r.agrees = std::abs(r.difference) <= agreement_tolerance;
    r.formula = a.formula;
    r.group_size = plan.group_size;
    r.groups = mesh.devices() / plan.group_size;
    r.chunk_hops = sim.chunk_hops;
    r.lines_simulated = sim.lines_simulated;
    std::vector<bool> used(plan.n.size(), false);
    for (const auto& phases : plan.parts)
        for (const detail::Phase& ph : phases) used[static_cast<std::size_t>(ph.axis)] = true;
    for (std::size_t i = 0; i < plan.n.size(); ++i)
        if (used[i]) r.lines_total += mesh.devices() / plan.n[i];

    // Every directed link of the mesh takes the load of its representative.
    if (options.link_loads) r.links.reserve(static_cast<std::size_t>(mesh.devices()) * 6);
    std::vector<int> plan_axis(mesh.axes.size(), -1);
    for (std::size_t i = 0; i < plan.mesh_axis.size(); ++i)
        plan_axis[static_cast<std::size_t>(plan.mesh_axis[i])] = static_cast<int>(i);
    std::vector<std::int64_t> stride(mesh.axes.size(), 1);  // device id step per axis
    for (std::size_t ax = mesh.axes.size(); ax-- > 1;) stride[ax - 1] = stride[ax] * mesh.axes[ax].size;
    // Walk the devices with a coordinate counter: no allocation per link, in
    // the order of mesh_links().
    const std::size_t axes = mesh.axes.size();
    std::vector<std::int64_t> c(axes, 0), plan_coords(axes, 0);
    for (std::int64_t d = 0; d < mesh.devices(); ++d) {
        for (std::size_t ax = 0; ax < axes; ++ax) {
            const std::int64_t n = mesh.axes[ax].size;
            if (n < 2) continue;
            const int pa = plan_axis[ax];
            const std::size_t line =
                pa >= 0 ? static_cast<std::size_t>(detail::line_index(plan, pa, c) * n + c[ax]) : 0;
            for (int dir : {+1, -1}) {
                std::int64_t to = c[ax] + dir;
                if (to < 0 || to >= n) {
                    if (!mesh.axes[ax].wraps) continue;
                    to = (to + n) % n;
                }
                LinkLoad load{{d, d + (to - c[ax]) * stride[ax], static_cast<int>(ax), dir}, 0, 0};
                if (pa >= 0) {
                    const std::size_t idx = line * 2 + (dir > 0 ? 0 : 1);
                    load.bytes = sim.link_bytes[static_cast<std::size_t>(pa)][idx];
                    load.busy_s = sim.link_busy[static_cast<std::size_t>(pa)][idx];
                }
                r.busiest_link_bytes = std::max(r.busiest_link_bytes, load.bytes);
                r.total_link_bytes += load.bytes;
                if (options.link_loads) r.links.push_back(load);
            }
        }
        for (std::size_t ax = axes; ax-- > 0;) {  // next device, last axis fastest
            if (++c[ax] < mesh.axes[ax].size) break;
            c[ax] = 0;
        }
    }
    r.trace = std::move(sim.trace);
    r.trace_truncated = sim.trace_truncated;
    r.explanation = explain(mesh, plan, a, r);
    memory_and_adds(mesh, spec, r);

    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = mesh.chip;
    p.dtype = "bytes";
    p.shapes = std::string(collective_name(spec.kind)) + " of " + format_bytes(spec.bytes) + " on a " + mesh.shape() +
               " mesh over " + std::to_string(plan.group_size) + " chips";
    p.model = "closed form [SB-SHARD] and a hop-by-hop simulation of chunks over ICI links";
    p.assumptions = {
        "Each direction of a link sends one chunk at a time at " + format_rate(plan.bandwidth, "B/s") + " " +
            mesh.bandwidth_source + "; every hop adds " + format_time(plan.latency) + " " + mesh.latency_source +
            " after the transfer (store-and-forward per chunk).",
        "Every message is cut into " + std::to_string(plan.chunks) +
            " chunk(s); a chunk moves on as soon as it has arrived and its next link is free.",
        std::string(spec.bidirectional ? "Bidirectional" : "Unidirectional") +
            " rings where the axis wraps; an axis without wraparound is a line, and data flows "
            "both ways along it whatever the setting.",
        "Over several axes the array is cut into one part per axis; each part crosses the axes "
        "in a rotated order so every axis works at once.",
        "Each chip reads from HBM every byte it sends and writes every byte it receives, at " +
            format_rate(mesh.hbm_bandwidth, "B/s") + " " + mesh.hbm_source +
            "; a reduction also reads the chunk it adds to and writes the sum, and adds bf16 elements (2 bytes) on "
            "the VPU at " +
            format_rate(mesh.vpu_flops, "FLOP/s") + " " + mesh.vpu_source +
            ". Both overlap the transfers: the time is the longest of the three.",
        "Rings that are translations of each other along wrapped axes carry the same traffic "
        "at the same times: " +
            std::to_string(r.lines_simulated) +
            " representative "
            "line(s) simulated for " +
            std::to_string(r.lines_total) + ".",
    };
    return r;
}

PairExchange pair_exchange(const Mesh& mesh, int axis, std::int64_t stride, CollectiveKind kind, double bytes,
                           const CollectiveOptions& options) {
    if (kind == CollectiveKind::all_to_all || kind == CollectiveKind::permute)
        throw InputError("a strided pair is modelled for all-gathers, reduce-scatters and all-reduces");
    if (axis < 0 || static_cast<std::size_t>(axis) >= mesh.axes.size() ||
        mesh.axes[static_cast<std::size_t>(axis)].size != 2 * stride)
        throw InputError("pairs " + std::to_string(stride) + " chips apart need an axis of " +
                         std::to_string(2 * stride) + " chips");
    const std::int64_t along = mesh.axes[static_cast<std::size_t>(axis)].size;
    CollectiveSpec spec;
    spec.kind = CollectiveKind::permute;
    spec.axes = {axis};
    spec.shift = stride;
    spec.bytes = bytes / 2 * static_cast<double>(along);  // the permute's V: every chip of the axis sends V / 2
    PairExchange out;
    out.exchange = collective(mesh, spec, options);
    out.exchanges = kind == CollectiveKind::all_reduce ? 2 : 1;
    out.time_s = out.exchange.time_s * out.exchanges;
    return out;
}

}  // namespace tpusim
