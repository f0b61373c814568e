#pragma once
// A minimal JSON writer: enough for the command line's --json output.
#include <cstdint>
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

    const std::string& str() const { return out_; }

private:
    void separate();
    std::string out_;
    std::vector<bool> first_;  // one per open container: no element written yet
    bool after_key_ = false;
};

void write_provenance(Json& j, const Provenance& p);
void write_estimate(Json& j, const Estimate& e);

}  // namespace tpusim::cli
