#pragma once
// Self time and nesting depth of the events of one profiler line.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tpuprofile/profile.h"

namespace tpuprofile {

// The longest time an event may span or begin after its line's start:
// about 28 hours in picoseconds. Past it a time is damage, not a trace, and
// sums of many such times still fit in 64 bits without overflowing.
inline constexpr std::int64_t max_event_ps = 100'000'000'000'000'000;

// a + b, held at the largest value instead of overflowing.
inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    return __builtin_add_overflow(a, b, &out) ? (b > 0 ? INT64_MAX : INT64_MIN) : out;
}

// Sorts events[begin, end) by start (the longer first where two start
// together) and adds each event's self time, its span less the spans of the
// events directly inside it, to its op; sets each event's depth.
void nest_events(std::vector<OpEvent>& events, std::size_t begin, std::size_t end, std::vector<Op>& ops);

}  // namespace tpuprofile
