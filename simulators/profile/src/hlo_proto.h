#pragma once
// The optimized HLO a profile carries for each program (an HloProto in the
// "Hlo Proto" stat of the /host:metadata plane), printed as HLO text so the
// course's HLO reader, cost model and IR x-ray take it as they take a dump.
#include <string>

namespace tpuprofile {

// The module in `hlo_proto` (serialized xla.HloProto) as HLO text. Throws
// std::runtime_error with one sentence when the bytes are not an HloProto.
std::string hlo_text_from_proto(const std::string& hlo_proto);

}  // namespace tpuprofile
