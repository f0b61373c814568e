#pragma once
// The command line's --json output, written in the order it is built
// (begin_object, key, value, ...) into nlohmann::json (Debian's
// nlohmann-json3-dev), which escapes the text and prints the numbers.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/provenance.h"

namespace tpusim::cli {

class Json {
public:
    Json& begin_object();
    Json& end_object();
    Json& begin_array();
    Json& end_array();
    Json& key(std::string_view k);

    Json& value(std::string_view s);
    Json& value(const char* s) { return value(std::string_view(s)); }
    Json& value(const std::string& s) { return value(std::string_view(s)); }
    Json& value(double d);
    Json& value(std::int64_t i);
    Json& value(int i) { return value(static_cast<std::int64_t>(i)); }
    Json& value(std::uint64_t u);
    Json& value(bool b);
    Json& null();
    Json& strings(const std::vector<std::string>& list);

    template <typename T>
    Json& field(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

    // The document; text that is not UTF-8 is replaced, not thrown on.
    std::string str() const;

private:
    // Puts `v` where the document is at: the root, the open array's next
    // element, or the open object's member named by the last key().
    nlohmann::ordered_json& place(nlohmann::ordered_json v);
    nlohmann::ordered_json root_;
    // The containers still open, innermost last. A container only grows
    // while it is innermost, so these stay valid while they are open.
    std::vector<nlohmann::ordered_json*> open_;
    std::string key_;
};

void write_provenance(Json& j, const Provenance& p);
// Closes the object being written with its "provenance", prints the
// document on stdout and returns 0: how a subcommand's --json ends.
int print_with_provenance(Json& j, const Provenance& p);
void write_estimate(Json& j, const Estimate& e);

}  // namespace tpusim::cli
