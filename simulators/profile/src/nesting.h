#pragma once
// Self time and nesting depth of the events of one profiler line.
#include <cstddef>
#include <vector>

#include "tpuprofile/profile.h"

namespace tpuprofile {

// Sorts events[begin, end) by start (the longer first where two start
// together) and adds each event's self time, its span less the spans of the
// events directly inside it, to its op; sets each event's depth.
void nest_events(std::vector<OpEvent>& events, std::size_t begin, std::size_t end, std::vector<Op>& ops);

}  // namespace tpuprofile
