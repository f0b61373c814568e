#include "table.h"

#include <algorithm>
#include <ostream>

namespace tpusim::cli {

namespace {
// Width in terminal columns: count UTF-8 code points, not bytes ("µs").
std::size_t width(const std::string& s) {
    std::size_t n = 0;
    for (char ch : s)
        if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++n;
    return n;
}

void pad(std::ostream& out, const std::string& s, std::size_t w, bool right) {
    const std::string fill(w > width(s) ? w - width(s) : 0, ' ');
    if (right)
        out << fill << s;
    else
        out << s << fill;
}
}  // namespace

Table::Table(std::vector<std::string> headers, std::vector<bool> right_aligned)
    : headers_(std::move(headers)), right_(std::move(right_aligned)) {
    right_.resize(headers_.size(), false);
}

void Table::add(std::vector<std::string> row) {
    row.resize(headers_.size());
    rows_.push_back(std::move(row));
}

void Table::print(std::ostream& out) const {
    std::vector<std::size_t> w(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) {
        w[c] = width(headers_[c]);
        for (const auto& r : rows_) w[c] = std::max(w[c], width(r[c]));
    }
    auto line = [&](const std::vector<std::string>& r) {
        for (std::size_t c = 0; c < r.size(); ++c) {
            if (c) out << "  ";
            // The last left-aligned column needs no trailing spaces.
            if (c + 1 == r.size() && !right_[c])
                out << r[c];
            else
                pad(out, r[c], w[c], right_[c]);
        }
        out << '\n';
    };
    line(headers_);
    std::vector<std::string> rule;
    for (std::size_t c = 0; c < headers_.size(); ++c) rule.emplace_back(w[c], '-');
    line(rule);
    for (const auto& r : rows_) line(r);
}

void print_pairs(std::ostream& out, const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::size_t w = 0;
    for (const auto& p : pairs) w = std::max(w, width(p.first));
    for (const auto& p : pairs) {
        pad(out, p.first, w, false);
        out << "  " << p.second << '\n';
    }
}

}  // namespace tpusim::cli
