#include "json.h"

#include <cmath>
#include <cstdio>

namespace tpusim::cli {

void Json::separate() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back()) out_ += ',';
        first_.back() = false;
    }
}

Json& Json::begin_object() {
    separate();
    out_ += '{';
    first_.push_back(true);
    return *this;
}

Json& Json::end_object() {
    out_ += '}';
    first_.pop_back();
    return *this;
}

Json& Json::begin_array() {
    separate();
    out_ += '[';
    first_.push_back(true);
    return *this;
}

Json& Json::end_array() {
    out_ += ']';
    first_.pop_back();
    return *this;
}

Json& Json::key(std::string_view k) {
    value(k);
    out_ += ':';
    after_key_ = true;
    return *this;
}

Json& Json::value(std::string_view s) {
    separate();
    out_ += '"';
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '"': out_ += "\\\""; break;
            case '\\': out_ += "\\\\"; break;
            case '\n': out_ += "\\n"; break;
            case '\t': out_ += "\\t"; break;
            case '\r': out_ += "\\r"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out_ += buf;
                } else {
                    out_ += ch;
                }
        }
    }
    out_ += '"';
    return *this;
}

Json& Json::value(double d) {
    if (!std::isfinite(d)) return null();
    separate();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", d);
    out_ += buf;
    return *this;
}

Json& Json::value(std::int64_t i) {
    separate();
    out_ += std::to_string(i);
    return *this;
}

Json& Json::value(std::uint64_t u) {
    separate();
    out_ += std::to_string(u);
    return *this;
}

Json& Json::value(bool b) {
    separate();
    out_ += b ? "true" : "false";
    return *this;
}

Json& Json::null() {
    separate();
    out_ += "null";
    return *this;
}

Json& Json::strings(const std::vector<std::string>& list) {
    begin_array();
    for (const auto& s : list) value(s);
    return end_array();
}

void write_provenance(Json& j, const Provenance& p) {
    j.begin_object();
    j.field("kind", kind_key(p.kind));
    j.field("chip", p.chip);
    j.field("dtype", p.dtype);
    j.field("shapes", p.shapes);
    j.field("model", p.model);
    if (!p.date.empty()) j.field("date", p.date);
    j.key("assumptions").strings(p.assumptions);
    j.end_object();
}

void write_estimate(Json& j, const Estimate& e) {
    j.begin_object();
    j.field("label", e.label);
    j.field("value", e.value);
    j.field("unit", e.unit);
    j.key("details").begin_array();
    for (const Figure& f : e.details) {
        j.begin_object();
        j.field("name", f.name).field("value", f.value).field("unit", f.unit);
        j.end_object();
    }
    j.end_array();
    j.key("provenance");
    write_provenance(j, e.provenance);
    j.end_object();
}

}  // namespace tpusim::cli
