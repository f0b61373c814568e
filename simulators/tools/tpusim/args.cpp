#include "args.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "tpusim/error.h"

namespace tpusim::cli {

bool Args::flag(std::string_view name) const {
    return std::find(flags_.begin(), flags_.end(), name) != flags_.end();
}

bool Args::has(std::string_view name) const {
    return options_.find(name) != options_.end();
}

void Args::allow_only(std::initializer_list<std::string_view> allowed, const std::string& command) const {
    auto ok = [&](std::string_view n) {
        return n == "json" || n == "help" || std::find(allowed.begin(), allowed.end(), n) != allowed.end();
    };
    for (const auto& [name, value] : options_)
        if (!ok(name)) throw InputError("'" + command + "' has no option --" + name);
    for (const auto& name : flags_)
        if (!ok(name)) throw InputError("'" + command + "' has no option --" + name);
}

void Args::max_words(std::size_t count, const std::string& command) const {
    if (words_.size() > count) throw InputError("unexpected '" + words_[count] + "' after '" + command + "'");
}

std::string Args::text(std::string_view name, std::string fallback) const {
    auto it = options_.find(name);
    return it == options_.end() ? fallback : it->second;
}

std::int64_t parse_int(std::string_view text, std::string_view what) {
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range)
        throw InputError(std::string(what) + " '" + std::string(text) + "' is too large");
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
        throw InputError(std::string(what) + " '" + std::string(text) + "' is not a whole number");
    return v;
}

double parse_double(std::string_view text, std::string_view what) {
    std::string s(text);
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (s.empty() || used != s.size() || !std::isfinite(v))
        throw InputError(std::string(what) + " '" + s + "' is not a number");
    return v;
}

std::vector<std::int64_t> parse_shape(std::string_view text, std::string_view what) {
    std::vector<std::int64_t> dims;
    std::size_t start = 0;
    while (true) {
        std::size_t x = text.find('x', start);
        std::string_view part = text.substr(start, x == std::string_view::npos ? x : x - start);
        std::int64_t d = parse_int(part, std::string(what) + " dimension");
        if (d < 1) throw InputError(std::string(what) + " '" + std::string(text) + "' has a dimension below 1");
        dims.push_back(d);
        if (x == std::string_view::npos) break;
        start = x + 1;
    }
    return dims;
}

std::int64_t Args::positive(std::string_view name) const {
    auto it = options_.find(name);
    if (it == options_.end()) throw InputError("--" + std::string(name) + " is required");
    std::int64_t v = parse_int(it->second, "--" + std::string(name));
    if (v < 1) throw InputError("--" + std::string(name) + " must be a positive integer (got " + it->second + ")");
    return v;
}

std::int64_t Args::positive(std::string_view name, std::int64_t fallback) const {
    return has(name) ? positive(name) : fallback;
}

double Args::number(std::string_view name, std::optional<double> fallback) const {
    auto it = options_.find(name);
    if (it == options_.end()) {
        if (!fallback) throw InputError("--" + std::string(name) + " is required");
        return *fallback;
    }
    return parse_double(it->second, "--" + std::string(name));
}

DType Args::dtype(std::string_view name, DType fallback) const {
    auto it = options_.find(name);
    return it == options_.end() ? fallback : parse_dtype(it->second);
}

const Chip& Args::chip(std::string_view fallback) const {
    return tpusim::chip(text("chip", std::string(fallback)));
}

std::vector<std::int64_t> Args::shape(std::string_view name) const {
    auto it = options_.find(name);
    if (it == options_.end()) throw InputError("--" + std::string(name) + " is required");
    return parse_shape(it->second, "--" + std::string(name));
}

}  // namespace tpusim::cli
