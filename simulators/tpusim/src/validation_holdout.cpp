// The rule that keeps a third of every family's priced rows out of every
// fit: ranked by a hash of their ids, the same on every platform.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tpusim/validation.h"
#include "validation_detail.h"

namespace tpusim {

std::uint64_t held_out_rank(std::string_view id) {
    std::uint64_t h = 14695981039346656037ull;
    for (const unsigned char ch : id) {
        h ^= ch;
        h *= 1099511628211ull;
    }
    return h;
}

bool held_out_by_rule(std::string_view id) {
    static const std::set<std::string, std::less<>> held = [] {
        std::map<Family, std::vector<const PublishedRow*>> priced;
        for (const PublishedRow& r : published_rows())
            if (r.published_s > 0 && r.doubt.empty() && detail::cost_of(r).expressible) priced[r.family].push_back(&r);
        std::set<std::string, std::less<>> out;
        for (auto& [family, rows] : priced) {
            std::sort(rows.begin(), rows.end(), [](const PublishedRow* a, const PublishedRow* b) {
                const std::uint64_t ha = held_out_rank(a->id), hb = held_out_rank(b->id);
                return ha != hb ? ha < hb : a->id < b->id;
            });
            const std::size_t third = (rows.size() + 2) / 3;
            for (std::size_t i = 0; i < third; ++i) out.insert(rows[i]->id);
        }
        return out;
    }();
    return held.count(id) > 0;
}

}  // namespace tpusim
