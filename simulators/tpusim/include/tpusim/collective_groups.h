#pragma once

// A collective of an XLA program priced on the ICI from the device groups
// its instruction names (replica_groups), for the IR readers and the
// profile reader alike: an all-reduce of 4 bytes among 8 chips costs the
// hops' latency, microseconds, not 4 bytes of HBM. Predictions at the
// links' peak rate, as the collective model gives them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/collective.h"

namespace tpusim {

// A collective's device groups: the chips of one group, the devices of all
// of them, the first few groups. A size of 0 when none is named.
struct DeviceGroups {
    std::int64_t size = 0;
    std::int64_t devices = 0;
    std::vector<std::vector<std::int64_t>> first;
};

// The groups of the replica_groups attribute in `text` (an instruction, or
// "replica_groups=..." alone), in either of XLA's forms.
DeviceGroups device_groups(std::string_view text);

struct GroupCollective {
    double time_s = 0;
    std::string how;                       // one line: how the groups were laid on the chips
    std::vector<std::string> assumptions;  // the placement's, then the collective model's
};

// `kind` of V = `bytes` (collective.h's V) in each of `groups`, on `chip`:
//   - pairs s > 1 apart along one axis of the squarest slice of all the
//     groups' devices (runtime ids along the shortest axis first): every
//     pair at once, sharing the links between (pair_exchange);
//   - any other group: one axis of the torus, or the pod's side by the
//     rest, simulated hop by hop, or by the closed form when too large.
// A group of one crosses no link (time 0). Never throws: nullopt when the
// model cannot lay the group on the chip's pod or refuses it.
std::optional<GroupCollective> group_collective(const Chip& chip, CollectiveKind kind, const DeviceGroups& groups,
                                                double bytes);

}  // namespace tpusim
