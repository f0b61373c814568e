// Device groups read from replica_groups, laid on the chip's links and
// priced by the collective model.
#include "tpusim/collective_groups.h"

#include "collective_detail.h"
#include "tpusim/error.h"
#include "tpusim/ir_sharding.h"
#include "tpusim/mesh.h"
#include "tpusim/provenance.h"

namespace tpusim {

namespace {

// Pairs of chips `stride` apart along one axis of the slice all the groups'
// devices make: which links the pairs share follows from where they sit.
struct StridedPairs {
    std::vector<std::int64_t> slice;
    int axis = -1;
    std::int64_t stride = 0;
};

std::optional<StridedPairs> strided_pairs(const Chip& chip, const DeviceGroups& g) {
    if (g.size != 2 || g.devices <= 2 || g.first.empty()) return std::nullopt;
    StridedPairs p;
    p.slice = squarest_slice(chip, g.devices);
    for (const std::vector<std::int64_t>& pair : g.first) {
        if (pair.size() != 2) return std::nullopt;
        const auto a = runtime_device_coords(p.slice, pair[0]), b = runtime_device_coords(p.slice, pair[1]);
        int axis = -1;
        std::int64_t apart = 0;
        for (std::size_t k = 0; k < a.size(); ++k) {
            if (a[k] == b[k]) continue;
            if (axis >= 0) return std::nullopt;  // apart along two axes
            axis = static_cast<int>(k);
            apart = a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
        }
        if (axis < 0 || (p.axis >= 0 && (axis != p.axis || apart != p.stride))) return std::nullopt;
        p.axis = axis, p.stride = apart;
    }
    // Neighbours share no link with other pairs: one line of two says it.
    if (p.stride < 2 || p.slice[static_cast<std::size_t>(p.axis)] != 2 * p.stride) return std::nullopt;
    return p;
}

// A group laid on the chip's torus: one axis when it fits, else a rectangle
// of the pod's side by the rest.
std::optional<std::pair<Mesh, std::vector<int>>> group_mesh(const Chip& chip, std::int64_t chips) {
    try {
        return std::pair{make_mesh(chip, {chips}), std::vector<int>{0}};
    } catch (const InputError&) {
    }
    const std::int64_t side = largest_axis(chip, {chips, 1}, 0);
    if (side > 1 && chips % side == 0) try {
            return std::pair{make_mesh(chip, {side, chips / side}), std::vector<int>{0, 1}};
        } catch (const InputError&) {
        }
    return std::nullopt;
}

}  // namespace

DeviceGroups device_groups(std::string_view text) {
    const std::size_t at = text.find("replica_groups=");
    if (at == std::string_view::npos) return {};
    for (const ir::ShardingSite& site : ir::find_shardings(text.substr(at)))
        if (site.form == ir::ShardingForm::replica_groups && site.decoded)
            return {site.group_size, site.groups * site.group_size, site.first_groups};
    return {};
}

std::optional<GroupCollective> group_collective(const Chip& chip, CollectiveKind kind, const DeviceGroups& groups,
                                                double bytes) {
    const std::int64_t chips = groups.size;
    if (chips < 1) return std::nullopt;
    const std::string what = std::string(collective_name(kind)) + " of " + format_bytes(bytes);
    GroupCollective out;
    if (chips == 1) {
        out.how = std::string(collective_name(kind)) + " within one chip: nothing crosses the ICI";
        return out;
    }
    CollectiveOptions options;
    options.link_loads = false;
    if (kind != CollectiveKind::all_to_all && kind != CollectiveKind::permute)
        if (const auto pairs = strided_pairs(chip, groups)) try {
                const Mesh mesh = make_mesh(chip, pairs->slice);
                const PairExchange r = pair_exchange(mesh, pairs->axis, pairs->stride, kind, bytes, options);
                out.time_s = r.time_s;
                out.how = what + " between pairs " + std::to_string(pairs->stride) + " chips apart along an axis of " +
                          std::to_string(2 * pairs->stride) + " of a " + mesh.shape() + " slice, every pair at once";
                out.assumptions = r.exchange.provenance.assumptions;
                out.assumptions.insert(
                    out.assumptions.begin(),
                    "The groups' " + std::to_string(groups.devices) + " devices are taken as the squarest slice, " +
                        mesh.shape() + ", their ids along its shortest axis first [JAX-37230]; each pair's chips sit " +
                        std::to_string(pairs->stride) + " apart, so the pairs between share the links. " +
                        (r.exchanges > 1 ? "The reduce-scatter and the all-gather are one exchange each."
                                         : "One exchange with the partner."));
                return out;
            } catch (const InputError&) {
            }
    const auto laid = group_mesh(chip, chips);
    if (!laid) return std::nullopt;
    CollectiveSpec spec;
    spec.kind = kind;
    spec.axes = laid->second;
    spec.bytes = bytes;
    // Simulated hop by hop; a group too large for that (thousands of chips)
    // by the closed form alone.
    CollectiveResult r;
    bool simulated = true;
    try {
        r = collective(laid->first, spec, options);
    } catch (const InputError&) {
        try {
            const detail::Analytic a = detail::closed_form(detail::make_plan(laid->first, spec));
            r.time_s = a.total_s;
            r.analytic_bandwidth_s = a.bandwidth_s;
            r.analytic_latency_s = a.latency_s;
            simulated = false;
        } catch (const InputError&) {
            return std::nullopt;
        }
    }
    out.time_s = r.time_s;
    const Mesh& mesh = laid->first;
    const std::string laid_as =
        mesh.axes.size() == 1 ? (mesh.axes.front().wraps ? "one ring of " : "one line of ") + std::to_string(chips)
                              : "a " + mesh.shape() + " slice";
    out.how = what + " among " + std::to_string(chips) + " chips, laid as " + laid_as +
              (r.analytic_latency_s > r.analytic_bandwidth_s ? ", latency-bound" : ", bandwidth-bound") +
              (simulated ? "" : " (by the closed form: too many chips to simulate hop by hop)");
    out.assumptions = r.provenance.assumptions;
    out.assumptions.insert(out.assumptions.begin(),
                           "The group's " + std::to_string(chips) + " chips are taken as " + laid_as +
                               " of ICI links: the dump does not say how its devices are wired.");
    return out;
}

}  // namespace tpusim
