// Drill D4: a collective's time on a slice of chips.
#include "drills_cards.h"
#include "drills_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tpusim/collective.h"
#include "tpusim/error.h"
#include "tpusim/mesh.h"
#include "tpusim/provenance.h"

namespace coursework::drills::cards {

using namespace tpusim;
namespace {

struct D4Case {
    std::string chip_id;
    std::vector<std::int64_t> shape;
    std::vector<std::string> names;
    int axis = 0;
    CollectiveKind kind = CollectiveKind::all_gather;
    double bytes = 0;
};

D4Case d4_case(const std::string& kind, int level, std::uint64_t seed) {
    Rng rng(mix(kind, level, seed));
    D4Case d;
    const std::vector<std::string> flat{"v5e", "v6e"};
    const std::vector<std::string> cube{"v4", "v5p"};
    const bool three_d = level >= 2 && rng.chance(50);
    d.chip_id = level == 1 ? "v5e" : three_d ? rng.pick(cube) : rng.pick(flat);
    if (three_d) {
        const std::vector<std::vector<std::int64_t>> shapes{{4, 4, 4}, {8, 4, 4}, {4, 4, 8},
                                                            {2, 2, 2}, {4, 4, 2}, {8, 8, 8}};
        d.shape = rng.pick(shapes);
        d.names = {"x", "y", "z"};
    } else {
        const std::vector<std::vector<std::int64_t>> shapes{{16, 16}, {8, 8},  {4, 4}, {16, 8},
                                                            {8, 16},  {4, 16}, {2, 8}};
        d.shape = rng.pick(shapes);
        d.names = {"data", "model"};
    }
    do {
        d.axis = static_cast<int>(rng.range(0, static_cast<std::int64_t>(d.shape.size()) - 1));
    } while (d.shape[static_cast<std::size_t>(d.axis)] < 2);
    if (kind == "D4.gather")
        d.kind = rng.chance(50) ? CollectiveKind::all_gather : CollectiveKind::reduce_scatter;
    else if (kind == "D4.reduce")
        d.kind = CollectiveKind::all_reduce;
    else
        d.kind = CollectiveKind::all_to_all;
    const std::int64_t mib = std::int64_t{1} << rng.range(level == 1 ? 2 : 0, level == 1 ? 8 : 10);
    d.bytes = static_cast<double>(mib) * 1048576.0;
    if (level >= 3 && rng.chance(50)) d.bytes *= 3;
    return d;
}

CollectiveResult d4_run(const D4Case& d, Mesh* mesh_out = nullptr) {
    const Mesh mesh = make_mesh(chip(d.chip_id), d.shape);
    CollectiveSpec spec;
    spec.kind = d.kind;
    spec.axes = {d.axis};
    spec.bytes = d.bytes;
    CollectiveOptions options;
    options.link_loads = false;
    if (mesh_out) *mesh_out = mesh;
    return collective(mesh, spec, options);
}

// The bytes the closed form puts on the busiest link: the time its
// bandwidth term gives, at the link's rate (an all-reduce's two halves summed).
double closed_form_link_bytes(const CollectiveResult& r, const Mesh& mesh) {
    return r.analytic_bandwidth_s * mesh.link_bandwidth;
}

}  // namespace

Question d4(const std::string& kind, int level, std::uint64_t seed) {
    const D4Case d = d4_case(kind, level, seed);
    Mesh mesh;
    const CollectiveResult r = d4_run(d, &mesh);
    const Chip& c = chip(d.chip_id);
    Question q;
    q.drill = "D4";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    std::string names = "(";
    for (std::size_t i = 0; i < d.names.size(); ++i) names += (i ? ", '" : "'") + d.names[i] + "'";
    names += ")";
    q.givens = {{"chip", c.name + " (" + c.id + ")"},
                {"mesh", mesh.shape() + " chips, axes " + names},
                {"collective",
                 std::string(collective_name(d.kind)) + " over '" + d.names[static_cast<std::size_t>(d.axis)] + "'"},
                {"bytes", "V = " + format_bytes(d.bytes) + " (the whole array)"}};
    q.prompt = "How long does this collective take, which links carry it, and how many bytes cross the busiest link?";
    q.fields = {Field{"time", "time", FieldType::time, "\xc2\xb5s", {}, 0.15, "", ""},
                Field{"links", "links", FieldType::choice, "", {"ring", "line"}, 0, "", ""},
                Field{"link_bytes", "busiest link bytes", FieldType::bytes, "B", {}, 0.15, "", ""}};
    q.expected["time"] = format_time(r.analytic_s) +
                         (std::fabs(r.difference) > 0.05 ? " (simulated " + format_time(r.simulated_s) + ")" : "");
    q.expected_value["time"] = r.analytic_s;
    q.expected_alt["time"] = r.simulated_s;
    q.expected["links"] = mesh.axes[static_cast<std::size_t>(d.axis)].wraps ? "ring" : "line";
    // As for the time, the closed form's count or the simulation's: an
    // all-reduce on a line loads each half's busiest link in the closed
    // form, while the simulation sends the halves both ways along it.
    const double closed_bytes = closed_form_link_bytes(r, mesh);
    q.expected["link_bytes"] =
        format_bytes(closed_bytes) + (std::fabs(r.busiest_link_bytes - closed_bytes) > 0.05 * closed_bytes
                                          ? " (simulated " + format_bytes(r.busiest_link_bytes) + ")"
                                          : "");
    q.expected_value["link_bytes"] = closed_bytes;
    q.expected_alt["link_bytes"] = r.busiest_link_bytes;
    return q;
}

std::vector<Step> d4_steps(const Question& q) {
    const D4Case d = d4_case(q.kind, q.level, q.seed);
    Mesh mesh;
    const CollectiveResult r = d4_run(d, &mesh);
    const MeshAxis& axis = mesh.axes[static_cast<std::size_t>(d.axis)];
    std::vector<Step> steps;
    steps.push_back({"The collective spans axis '" + d.names[static_cast<std::size_t>(d.axis)] + "': groups of " +
                         std::to_string(r.group_size) + " chips, " + std::to_string(r.groups) +
                         " of them side by side.",
                     ""});
    steps.push_back({"Its links: " + axis.reason +
                         (axis.wraps ? ", so each group is a ring."
                                     : ", so each group is a line; the end chips have no link between them."),
                     ""});
    steps.push_back({"One link carries " + format_rate(mesh.link_bandwidth, "B/s") + " each way; a hop costs",
                     format_time(mesh.hop_latency), tpusim::chip(d.chip_id).ici_hop_latency.assumption});
    steps.push_back({"The closed form: " + r.formula, ""});
    const bool halves = d.kind == CollectiveKind::all_reduce;
    steps.push_back({halves ? "bytes on the busiest link by the closed form: the reduce-scatter's, then the "
                              "all-gather's"
                            : "bytes on the busiest link by the closed form",
                     format_bytes(closed_form_link_bytes(r, mesh))});
    steps.push_back({"bandwidth time: those bytes over the link's bandwidth", format_time(r.analytic_bandwidth_s)});
    steps.push_back({"latency: hops on the longest path × the hop latency", format_time(r.analytic_latency_s)});
    steps.push_back({"the closed form's time", format_time(r.analytic_s)});
    steps.push_back({"the hop-by-hop simulation's time. " + r.explanation, format_time(r.simulated_s)});
    steps.push_back(
        {"bytes on the busiest link in the simulation (either count is accepted)", format_bytes(r.busiest_link_bytes)});
    return steps;
}

}  // namespace coursework::drills::cards
