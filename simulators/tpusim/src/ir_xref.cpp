#include "tpusim/ir_xref.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>

namespace tpusim::ir {

namespace {

std::string basename_line(const Metadata& m) {
    if (m.source_file.empty()) return "";
    const auto slash = m.source_file.rfind('/');
    return (slash == std::string::npos ? m.source_file : m.source_file.substr(slash + 1)) + ":" +
           std::to_string(m.source_line);
}

std::string jit_name(std::string_view component) {
    for (std::string_view prefix : {"jit(", "pjit("})
        if (component.starts_with(prefix) && component.ends_with(")"))
            return std::string(component.substr(prefix.size(), component.size() - prefix.size() - 1));
    return "";
}

bool skipped(const Op& op) {
    return op.metadata.op_name.empty() || op.name == "return" || op.name == "func" || op.name == "module" ||
           op.name == "parameter";
}

bool same_line(int a, int b) {
    return a == 0 || b == 0 || a == b;
}

}  // namespace

void split_op_name(std::string_view op_name, std::string& scope, std::string& primitive) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i <= op_name.size(); ++i) {
        const char c = i < op_name.size() ? op_name[i] : '/';
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == '/' && depth <= 0) {
            std::string part(op_name.substr(start, i - start));
            if (const auto bracket = part.find('['); bracket != std::string::npos) part.resize(bracket);
            parts.push_back(part);
            start = i + 1;
        }
    }
    scope.clear();
    primitive = parts.empty() ? "" : parts.back();
    if (primitive.starts_with("pjit(")) primitive = primitive.substr(1);
    for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
        const std::string name = jit_name(parts[i]);
        if (name.empty() || name == "main") continue;
        scope += (scope.empty() ? "" : "/") + name;
    }
}

std::vector<CrossLink> correspond(const Module& jaxpr, const Module& stablehlo, const Module& hlo) {
    std::vector<CrossLink> links;
    std::vector<int> link_lines;  // the source line of each link, 0 when unknown
    const auto shlo_ops = all_ops(stablehlo);
    const bool anchor_is_hlo = shlo_ops.empty();
    std::map<std::string, std::size_t> by_key;  // for the HLO anchor: one link per key
    for (const Op* op : anchor_is_hlo ? all_ops(hlo) : shlo_ops) {
        if (skipped(*op)) continue;
        const std::string key = op->metadata.op_name + "@" + basename_line(op->metadata);
        const bool extend = anchor_is_hlo ? by_key.count(key) > 0
                                          : !links.empty() && links.back().op_name + "@" + links.back().source == key;
        if (!extend) {
            CrossLink l;
            l.op_name = op->metadata.op_name;
            l.source = basename_line(op->metadata);
            split_op_name(l.op_name, l.scope, l.primitive);
            by_key[key] = links.size();
            links.push_back(std::move(l));
            link_lines.push_back(op->metadata.source_line);
        }
        CrossLink& l = anchor_is_hlo ? links[by_key[key]] : links.back();
        (anchor_is_hlo ? l.hlo : l.stablehlo).push_back(op->position);
    }
    if (anchor_is_hlo) {
        // HLO prints called computations before their callers: put the links
        // in source order instead, which is the order of the jaxpr equations.
        std::vector<std::size_t> order(links.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const int la = link_lines[a] ? link_lines[a] : INT32_MAX, lb = link_lines[b] ? link_lines[b] : INT32_MAX;
            return la < lb;
        });
        std::vector<CrossLink> sorted;
        for (auto i : order) sorted.push_back(std::move(links[i]));
        links = std::move(sorted);
    } else {
        for (const Op* op : all_ops(hlo)) {
            if (skipped(*op)) continue;
            for (std::size_t i = 0; i < links.size(); ++i)
                if (links[i].op_name == op->metadata.op_name && same_line(link_lines[i], op->metadata.source_line))
                    links[i].hlo.push_back(op->position);
        }
    }
    // jaxpr equations claim links of their scope and primitive, in order.
    std::map<std::string, std::deque<std::size_t>> queue;
    for (std::size_t i = 0; i < links.size(); ++i) queue[links[i].scope + "|" + links[i].primitive].push_back(i);
    std::vector<CrossLink> unclaimed;
    std::function<void(const Computation&, const std::string&, int)> walk = [&](const Computation& c,
                                                                                const std::string& scope, int depth) {
        if (depth > max_nesting) return;
        for (const auto& op : c.ops) {
            std::string primitive = op.name, inner = scope;
            if (op.name == "jit" || op.name == "pjit") {
                const std::string* name = op.attribute("name");
                const std::string n = name ? *name : "";
                primitive = "jit(" + n + ")";
                inner += (inner.empty() ? "" : "/") + n;
            }
            auto& q = queue[scope + "|" + primitive];
            if (!q.empty()) {
                links[q.front()].jaxpr.push_back(op.position);
                q.pop_front();
            } else if (op.regions.empty()) {
                CrossLink l;
                l.primitive = primitive;
                l.scope = scope;
                l.jaxpr.push_back(op.position);
                unclaimed.push_back(std::move(l));
            }
            for (const auto& r : op.regions) walk(r, inner, depth + 1);
        }
    };
    for (const auto& c : jaxpr.computations) walk(c, "", 0);
    links.insert(links.end(), unclaimed.begin(), unclaimed.end());
    return links;
}

const CrossLink* link_at_line(const std::vector<CrossLink>& links, Format layer, int line) {
    for (const auto& l : links) {
        const auto& ps = layer == Format::jaxpr ? l.jaxpr : layer == Format::stablehlo ? l.stablehlo : l.hlo;
        for (const auto& p : ps)
            if (p.line == line) return &l;
    }
    return nullptr;
}

std::vector<int> link_of_each_line(const std::vector<CrossLink>& links, const Module& module, Format layer,
                                   int line_count) {
    const std::size_t lines = static_cast<std::size_t>(std::max(line_count, 0));
    std::vector<int> owner(lines, -1);
    // The link of an op starting on each line (the first, as link_at_line
    // answers), in one pass: a dump of many thousand ops stays linear.
    std::vector<int> starts(lines + 1, -1);
    for (std::size_t l = 0; l < links.size(); ++l) {
        const auto& ps = layer == Format::jaxpr       ? links[l].jaxpr
                         : layer == Format::stablehlo ? links[l].stablehlo
                                                      : links[l].hlo;
        for (const auto& p : ps)
            if (p.line >= 1 && p.line <= line_count && starts[static_cast<std::size_t>(p.line)] < 0)
                starts[static_cast<std::size_t>(p.line)] = static_cast<int>(l);
    }
    // all_ops visits an op before the ops of its regions, so inner ops
    // overwrite the lines their parent claimed.
    for (const Op* op : all_ops(module)) {
        if (op->position.line < 1 || op->position.line > line_count) continue;
        const int index = starts[static_cast<std::size_t>(op->position.line)];
        if (index < 0) continue;
        const int last = std::max(op->position.line, op->last_line);
        for (int line = std::max(op->position.line, 1); line <= std::min(last, line_count); ++line)
            owner[static_cast<std::size_t>(line - 1)] = index;
    }
    return owner;
}

}  // namespace tpusim::ir
