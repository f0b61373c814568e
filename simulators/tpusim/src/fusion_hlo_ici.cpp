// A collective instruction of an HLO dump, priced on the ICI by the
// collective model rather than on the roofline: an all-reduce of 4 bytes
// among 8 chips costs the hops' latency, microseconds, not 4 bytes of HBM.
#include "collective_detail.h"
#include "fusion_hlo_detail.h"
#include "tpusim/collective.h"
#include "tpusim/error.h"
#include "tpusim/ir_sharding.h"
#include "tpusim/mesh.h"
#include "tpusim/provenance.h"

namespace tpusim::fusion {

namespace {

std::optional<CollectiveKind> collective_of(std::string_view opcode) {
    if (opcode.ends_with("-start")) opcode.remove_suffix(6);
    if (opcode == "all-reduce") return CollectiveKind::all_reduce;
    if (opcode == "all-gather") return CollectiveKind::all_gather;
    if (opcode == "reduce-scatter") return CollectiveKind::reduce_scatter;
    if (opcode == "all-to-all") return CollectiveKind::all_to_all;
    return std::nullopt;
}

// The chips of one device group, from replica_groups; 0 when it does not
// say (no groups: every device, which the dump does not count).
std::int64_t group_size(const ir::Op& op) {
    const std::string* groups = op.attribute("replica_groups");
    if (!groups) return 0;
    for (const ir::ShardingSite& site : ir::find_shardings("replica_groups=" + *groups))
        if (site.form == ir::ShardingForm::replica_groups && site.decoded) return site.group_size;
    return 0;
}

// The group laid on the chip's torus: one axis when it fits, else a
// rectangle of the pod's side by the rest.
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

bool waits_for_collective(std::string_view opcode) {
    return opcode.ends_with("-done") && collective_of(opcode.substr(0, opcode.size() - 5)).has_value();
}

std::optional<IciCost> ici_cost(const ir::Op& op, const Chip& chip, double bytes_read, double bytes_written,
                                std::map<std::string, IciCost>& priced) {
    const auto kind = collective_of(op.name);
    if (!kind) return std::nullopt;
    const std::int64_t chips = group_size(op);
    if (chips < 1) return std::nullopt;
    // V, the whole array: what each device holds before an all-reduce, a
    // reduce-scatter or an all-to-all, and after an all-gather.
    const double bytes = *kind == CollectiveKind::all_gather ? bytes_written : bytes_read;
    const std::string key = std::string(collective_name(*kind)) + "/" + std::to_string(chips) + "/" +
                            std::to_string(static_cast<long long>(bytes));
    if (const auto it = priced.find(key); it != priced.end()) return it->second;
    IciCost cost;
    if (chips == 1) {
        cost.how = std::string(collective_name(*kind)) + " within one chip: nothing crosses the ICI";
        return priced[key] = cost;
    }
    const auto laid = group_mesh(chip, chips);
    if (!laid) return std::nullopt;
    CollectiveSpec spec;
    spec.kind = *kind;
    spec.axes = laid->second;
    spec.bytes = bytes;
    CollectiveOptions options;
    options.link_loads = false;
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
    cost.time_s = r.time_s;
    const Mesh& mesh = laid->first;
    const std::string laid_as =
        mesh.axes.size() == 1 ? (mesh.axes.front().wraps ? "one ring of " : "one line of ") + std::to_string(chips)
                              : "a " + mesh.shape() + " slice";
    cost.how = std::string(collective_name(*kind)) + " of " + format_bytes(bytes) + " among " + std::to_string(chips) +
               " chips, laid as " + laid_as +
               (r.analytic_latency_s > r.analytic_bandwidth_s ? ", latency-bound" : ", bandwidth-bound") +
               (simulated ? "" : " (by the closed form: too many chips to simulate hop by hop)");
    return priced[key] = cost;
}

}  // namespace tpusim::fusion
