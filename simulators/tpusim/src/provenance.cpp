#include "tpusim/provenance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace tpusim {

std::string_view kind_name(Kind kind) {
    switch (kind) {
        case Kind::predicted:
            return "predicted";
        case Kind::verified_off_chip:
            return "verified off-chip";
        case Kind::measured:
            return "measured";
    }
    return "predicted";
}

std::string_view kind_key(Kind kind) {
    switch (kind) {
        case Kind::predicted:
            return "predicted";
        case Kind::verified_off_chip:
            return "verified_off_chip";
        case Kind::measured:
            return "measured";
    }
    return "predicted";
}

std::string format_count(double value) {
    if (value >= 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", value);
        return buf;
    }
    std::string digits = std::to_string(static_cast<long long>(std::llround(value)));
    std::string out;
    int n = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (n > 0 && n % 3 == 0 && *it != '-') out.insert(out.begin(), ',');
        out.insert(out.begin(), *it);
        ++n;
    }
    return out;
}

std::string format_fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::string format_error(double fraction) {
    if (std::isnan(fraction)) return "–";
    const double tenths = std::round(1000 * fraction);
    if (tenths == 0) return "0.0 %";
    return (tenths > 0 ? "+" : "\u2212") + format_fixed(std::fabs(tenths) / 10, 1) + " %";
}

namespace {
// A value that is a whole number of its unit is written without decimals,
// as people write sizes and constants ("16 MiB", "350 ns"); any other keeps
// `decimals`. Whole means exactly, not once rounded: a scrubbed figure that
// rounds to 120.0 µs keeps its tenth, so its width holds while it moves.
std::string in_unit(double v, int decimals) {
    const bool whole = std::fabs(v - std::round(v)) <= 1e-9 * std::max(1.0, std::fabs(v));
    return format_fixed(v, whole ? 0 : decimals);
}

// One decimal from 10 up, so the landing page's "697.7 µs" keeps its
// tenth; two below 10.
std::string time_figures(double v) {
    return in_unit(v, std::fabs(v) >= 10 ? 1 : 2);
}
}  // namespace

std::string format_time(double seconds) {
    if (!std::isfinite(seconds)) return "inf";
    const double a = std::fabs(seconds);
    if (a == 0) return "0 s";
    if (a < 1e-6) return time_figures(seconds * 1e9) + " ns";
    if (a < 1e-3) return time_figures(seconds * 1e6) + " µs";
    if (a < 1) return time_figures(seconds * 1e3) + " ms";
    return time_figures(seconds) + " s";
}

std::string format_bytes(double bytes) {
    const double a = std::fabs(bytes);
    if (a < 1024) return format_fixed(bytes, 0) + " B";
    if (a < 1024.0 * 1024) return in_unit(bytes / 1024, 1) + " KiB";
    if (a < 1024.0 * 1024 * 1024) return in_unit(bytes / (1024.0 * 1024), 1) + " MiB";
    if (a < 1024.0 * 1024 * 1024 * 1024) return in_unit(bytes / (1024.0 * 1024 * 1024), 1) + " GiB";
    return in_unit(bytes / (1024.0 * 1024 * 1024 * 1024), 2) + " TiB";
}

std::string format_rate(double per_second, std::string_view unit) {
    if (per_second == 0) return "0 " + std::string(unit);
    static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    double v = per_second;
    while (std::fabs(v) >= 1000 && i < 6) {
        v /= 1000;
        ++i;
    }
    const std::string text = in_unit(v, std::fabs(v) >= 100 ? 0 : std::fabs(v) >= 10 ? 1 : 2);
    return text + " " + prefixes[i] + std::string(unit);
}

std::string format_tuple(const std::vector<std::int64_t>& values) {
    std::string t = "(";
    for (std::size_t i = 0; i < values.size(); ++i) t += (i ? ", " : "") + std::to_string(values[i]);
    return t + ")";
}

std::string format_intensity(double flop_per_byte) {
    // Two significant digits below 1: an elementwise add's 1/6 reads 0.17,
    // as a learner works it out by hand, not 0.2.
    const int decimals = flop_per_byte < 1 ? 2 : flop_per_byte < 10 ? 1 : 0;
    return format_fixed(flop_per_byte, decimals) + " FLOP/B";
}

Provenance with_working(Provenance p, std::vector<std::string> lines) {
    p.working = std::move(lines);
    return p;
}

std::string describe(const Provenance& p) {
    std::string d = std::string(kind_name(p.kind)) + " · " + p.chip + " · " + p.dtype;
    for (const auto& w : p.working) d += "\n" + w;
    if (!p.shapes.empty()) d += "\n" + p.shapes;
    if (!p.model.empty()) d += "\nmodel: " + p.model;
    if (!p.date.empty()) d += "\ndate: " + p.date;
    for (const auto& a : p.assumptions) d += "\nassumes: " + a;
    return d;
}

}  // namespace tpusim
