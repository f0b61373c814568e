// A collective instruction of an HLO dump, priced on the ICI by the
// collective model rather than on the roofline: an all-reduce of 4 bytes
// among 8 chips costs the hops' latency, microseconds, not 4 bytes of HBM.
#include "fusion_hlo_detail.h"
#include "tpusim/collective_groups.h"

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

}  // namespace

bool waits_for_collective(std::string_view opcode) {
    return opcode.ends_with("-done") && collective_of(opcode.substr(0, opcode.size() - 5)).has_value();
}

std::optional<IciCost> ici_cost(const ir::Op& op, const Chip& chip, double bytes_read, double bytes_written,
                                std::map<std::string, IciCost>& priced) {
    const auto kind = collective_of(op.name);
    if (!kind) return std::nullopt;
    const std::string* attribute = op.attribute("replica_groups");
    if (!attribute) return std::nullopt;
    const std::string text = "replica_groups=" + *attribute;
    const DeviceGroups groups = device_groups(text);
    if (groups.size < 1) return std::nullopt;
    // V, the whole array: what each device holds before an all-reduce, a
    // reduce-scatter or an all-to-all, and after an all-gather.
    const double bytes = *kind == CollectiveKind::all_gather ? bytes_written : bytes_read;
    const std::string key =
        std::string(collective_name(*kind)) + "/" + text + "/" + std::to_string(static_cast<long long>(bytes));
    if (const auto it = priced.find(key); it != priced.end()) return it->second;
    const auto placed = group_collective(chip, *kind, groups, bytes);
    if (!placed) return std::nullopt;
    return priced[key] = IciCost{placed->time_s, placed->how};
}

}  // namespace tpusim::fusion
