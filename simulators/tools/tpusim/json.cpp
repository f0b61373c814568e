#include "json.h"

#include <cmath>
#include <iostream>
#include <utility>

namespace tpusim::cli {

nlohmann::ordered_json& Json::place(nlohmann::ordered_json v) {
    if (open_.empty()) {
        root_ = std::move(v);
        return root_;
    }
    nlohmann::ordered_json& into = *open_.back();
    if (into.is_array()) {
        into.push_back(std::move(v));
        return into.back();
    }
    nlohmann::ordered_json& member = into[key_];
    member = std::move(v);
    return member;
}

Json& Json::begin_object() {
    open_.push_back(&place(nlohmann::ordered_json::object()));
    return *this;
}

Json& Json::end_object() {
    open_.pop_back();
    return *this;
}

Json& Json::begin_array() {
    open_.push_back(&place(nlohmann::ordered_json::array()));
    return *this;
}

Json& Json::end_array() {
    open_.pop_back();
    return *this;
}

Json& Json::key(std::string_view k) {
    key_ = std::string(k);
    return *this;
}

Json& Json::value(std::string_view s) {
    place(std::string(s));
    return *this;
}

// Exactly: the shortest text that reads back as the same double.
Json& Json::value(double d) {
    if (!std::isfinite(d)) return null();
    place(d);
    return *this;
}

Json& Json::value(std::int64_t i) {
    place(i);
    return *this;
}

Json& Json::value(std::uint64_t u) {
    place(u);
    return *this;
}

Json& Json::value(bool b) {
    place(b);
    return *this;
}

Json& Json::null() {
    place(nullptr);
    return *this;
}

std::string Json::str() const {
    return root_.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
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
    if (!p.working.empty()) j.key("working").strings(p.working);
    j.key("assumptions").strings(p.assumptions);
    j.end_object();
}

int print_with_provenance(Json& j, const Provenance& p) {
    j.key("provenance");
    write_provenance(j, p);
    j.end_object();
    std::cout << j.str() << "\n";
    return 0;
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
