#include "nesting.h"

#include <algorithm>

namespace tpuprofile {

void nest_events(std::vector<OpEvent>& events, std::size_t begin, std::size_t end, std::vector<Op>& ops) {
    const auto first = events.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = events.begin() + static_cast<std::ptrdiff_t>(end);
    const auto earlier = [](const OpEvent& a, const OpEvent& b) {
        return a.start_ps != b.start_ps ? a.start_ps < b.start_ps : a.duration_ps > b.duration_ps;
    };
    // The profiler writes a line's events in order: sort only when not.
    if (!std::is_sorted(first, last, earlier)) std::sort(first, last, earlier);
    struct Open {
        std::int64_t end;
        std::int32_t op;
        std::int64_t self;
    };
    std::vector<Open> stack;
    auto close = [&](const Open& o) {
        Op& op = ops[static_cast<std::size_t>(o.op)];
        op.self_ps = saturating_add(op.self_ps, o.self);
        op.min_ps = op.min_ps < 0 ? o.self : std::min(op.min_ps, o.self);
        op.max_ps = std::max(op.max_ps, o.self);
    };
    for (auto it = first; it != last; ++it) {
        OpEvent& e = *it;
        while (!stack.empty() && stack.back().end <= e.start_ps) {
            close(stack.back());
            stack.pop_back();
        }
        const std::int64_t e_end = e.start_ps + e.duration_ps;
        // A child that outlasts its parent is charged to the parent only
        // for the part inside it.
        if (!stack.empty()) stack.back().self -= std::min(e_end, stack.back().end) - e.start_ps;
        e.depth = static_cast<std::int32_t>(stack.size());
        stack.push_back({e_end, e.op, e.duration_ps});
    }
    while (!stack.empty()) {
        close(stack.back());
        stack.pop_back();
    }
}

}  // namespace tpuprofile
