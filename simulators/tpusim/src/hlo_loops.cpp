#include "tpusim/hlo_loops.h"

#include <charconv>
#include <optional>

namespace tpusim::ir {

namespace {

const Op* defining(const Computation& c, std::string_view value) {
    for (const Op& op : c.ops)
        if (!op.results.empty() && op.results.front() == value) return &op;
    return nullptr;
}

std::optional<std::int64_t> whole_number(std::string_view text) {
    std::int64_t v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

// The integer an HLO scalar constant holds: `constant(80)`.
std::optional<std::int64_t> constant_value(const Computation& c, std::string_view value) {
    const Op* op = defining(c, value);
    if (!op || op->name != "constant") return std::nullopt;
    const std::string* literal = op->attribute("literal");
    return literal ? whole_number(*literal) : std::nullopt;
}

// The tuple index when `value` is get-tuple-element(<the computation's parameter>), index=k.
std::optional<std::int64_t> parameter_element(const Computation& c, std::string_view value) {
    const Op* op = defining(c, value);
    if (!op || op->name != "get-tuple-element" || op->operands.size() != 1) return std::nullopt;
    const Op* source = defining(c, op->operands.front());
    const bool from_parameter = (source && source->name == "parameter") ||
                                (!c.parameters.empty() && c.parameters.front().name == op->operands.front());
    const std::string* index = op->attribute("index");
    if (!from_parameter || !index) return std::nullopt;
    return whole_number(*index);
}

const Op* root(const Computation& c) {
    for (const Op& op : c.ops)
        if (op.is_root) return &op;
    return c.ops.empty() ? nullptr : &c.ops.back();
}

std::string computation_named(const Op& op, std::string_view key) {
    const std::string* name = op.attribute(key);
    if (!name) return "";
    return name->starts_with('%') ? name->substr(1) : *name;
}

// "known_trip_count":{"n":"80"} in the backend config.
std::optional<std::int64_t> known_trip_count(const Op& loop) {
    const std::string* config = loop.attribute("backend_config");
    if (!config) return std::nullopt;
    const std::size_t at = config->find("known_trip_count");
    if (at == std::string::npos) return std::nullopt;
    const std::size_t n = config->find("\"n\"", at);
    if (n == std::string::npos) return std::nullopt;
    // "n":"80" or "n": 80; anything else (a sign, a fraction) is not a count.
    const std::size_t begin = config->find_first_not_of(" :\"", n + 3);
    if (begin == std::string::npos) return std::nullopt;
    const std::size_t end = config->find_first_not_of("0123456789", begin);
    if (end == begin || (end != std::string::npos && (*config)[end] != '"' && (*config)[end] != '}' &&
                         (*config)[end] != ',' && (*config)[end] != ' '))
        return std::nullopt;
    return whole_number(
        std::string_view(*config).substr(begin, (end == std::string::npos ? config->size() : end) - begin));
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return a <= 0 ? 0 : (a + b - 1) / b;
}

// How far one trip moves the counter: the value the body returns for it,
// followed back through adds and subtracts of constants (i + 1 + 1 steps
// by 2) to the counter itself. Nothing when another op is on the way.
std::optional<std::int64_t> step_of(const Computation& body, const std::string& value, std::int64_t index,
                                    int depth = 0) {
    if (depth > 64) return std::nullopt;
    if (parameter_element(body, value) == index) return 0;
    const Op* op = defining(body, value);
    if (!op || (op->name != "add" && op->name != "subtract") || op->operands.size() != 2) return std::nullopt;
    const bool add = op->name == "add";
    for (std::size_t side = 0; side < (add ? 2u : 1u); ++side) {
        const std::optional<std::int64_t> inner = step_of(body, op->operands[side], index, depth + 1);
        if (!inner) continue;
        const std::optional<std::int64_t> constant = constant_value(body, op->operands[1 - side]);
        if (!constant) return std::nullopt;
        std::int64_t total = 0;
        if (__builtin_add_overflow(*inner, add ? *constant : -*constant, &total)) return std::nullopt;
        return total;
    }
    return std::nullopt;
}

}  // namespace

TripCount while_trip_count(const Module& module, const Computation& caller, const Op& loop) {
    TripCount t;
    if (const auto known = known_trip_count(loop)) {
        t.count = *known;
        t.reason = "known_trip_count in its backend config";
        return t;
    }
    const Computation* condition = module.find(computation_named(loop, "condition"));
    const Computation* body = module.find(computation_named(loop, "body"));
    if (!condition || !body || loop.operands.size() != 1) {
        t.reason = "its condition or body is not in the dump";
        return t;
    }
    const Op* compare = root(*condition);
    const std::string* direction = compare ? compare->attribute("direction") : nullptr;
    if (!compare || compare->name != "compare" || !direction || compare->operands.size() != 2) {
        t.reason = "its condition is not a comparison of a counter with a constant";
        return t;
    }
    std::optional<std::int64_t> index = parameter_element(*condition, compare->operands[0]);
    std::optional<std::int64_t> limit = constant_value(*condition, compare->operands[1]);
    std::string dir = *direction;
    if (!index || !limit) {  // constant on the left: N > i is i < N
        index = parameter_element(*condition, compare->operands[1]);
        limit = constant_value(*condition, compare->operands[0]);
        dir = dir == "LT" ? "GT" : dir == "GT" ? "LT" : dir == "LE" ? "GE" : dir == "GE" ? "LE" : dir;
    }
    if (!index || !limit) {
        t.reason = "its condition is not a comparison of a counter with a constant";
        return t;
    }
    // The counter's start: element `index` of the tuple the loop starts from.
    const Op* init = defining(caller, loop.operands.front());
    std::optional<std::int64_t> start;
    if (init && init->name == "tuple" && *index >= 0 && static_cast<std::size_t>(*index) < init->operands.size())
        start = constant_value(caller, init->operands[static_cast<std::size_t>(*index)]);
    // Its step: the body's result holds the counter plus or minus constants.
    const Op* next = root(*body);
    std::optional<std::int64_t> step;
    if (next && next->name == "tuple" && *index >= 0 && static_cast<std::size_t>(*index) < next->operands.size())
        step = step_of(*body, next->operands[static_cast<std::size_t>(*index)], *index);
    if (!start) {
        t.reason = "its counter does not start at a constant";
        return t;
    }
    if (!step) {
        t.reason = "its body does not move the counter by constants alone";
        return t;
    }
    if (*step == 0) {
        t.reason = "its body leaves the counter where it was: the loop never ends by its count";
        return t;
    }
    const std::int64_t s = *step, n = *limit, i0 = *start;
    if (dir == "LT" && s > 0)
        t.count = ceil_div(n - i0, s);
    else if (dir == "LE" && s > 0)
        t.count = ceil_div(n - i0 + 1, s);
    else if (dir == "GT" && s < 0)
        t.count = ceil_div(i0 - n, -s);
    else if (dir == "GE" && s < 0)
        t.count = ceil_div(i0 - n + 1, -s);
    else if (dir == "NE" && (n - i0) % s == 0 && (n - i0) / s >= 0)
        t.count = (n - i0) / s;
    if (t.count < 0) {
        t.reason = "its counter never meets the condition's bound in a way the dump makes plain";
        return t;
    }
    t.reason = "its counter runs from " + std::to_string(i0) + " by " + std::to_string(s) + " while " +
               (dir == "LT"   ? "<"
                : dir == "LE" ? "<="
                : dir == "GT" ? ">"
                : dir == "GE" ? ">="
                              : "!=") +
               " " + std::to_string(n);
    return t;
}

}  // namespace tpusim::ir
