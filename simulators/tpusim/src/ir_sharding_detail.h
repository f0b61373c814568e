#pragma once
// What the sharding reader's two halves share (private to libtpusim): the
// cursor over one attribute's text, Shardy's meshes, and the decoders that
// turn one attribute into a ShardingSite (ir_sharding_decode.cpp) for the
// scan of a whole dump (ir_sharding.cpp).
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tpusim/error.h"
#include "tpusim/ir_sharding.h"

namespace tpusim::ir::detail {

// A small cursor over one attribute's text.
class Reader {
public:
    explicit Reader(std::string_view text) : t_(text) {}
    void skip_space() {  // and /*index=5*/ comments, which HLO prints inside long tuples
        while (i_ < t_.size()) {
            if (std::isspace(static_cast<unsigned char>(t_[i_]))) {
                ++i_;
            } else if (t_.substr(i_, 2) == "/*") {
                const std::size_t end = t_.find("*/", i_ + 2);
                i_ = end == std::string_view::npos ? t_.size() : end + 2;
            } else {
                break;
            }
        }
    }
    bool eat(std::string_view s) {
        skip_space();
        if (t_.substr(i_, s.size()) != s) return false;
        i_ += s.size();
        return true;
    }
    void expect(std::string_view s) {
        if (!eat(s)) fail("expected '" + std::string(s) + "'");
    }
    std::int64_t integer(bool signed_ok = false) {
        skip_space();
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(t_.data() + i_, t_.data() + t_.size(), v);
        if (ec != std::errc() || (v < 0 && !signed_ok)) fail("expected a number");
        i_ = static_cast<std::size_t>(end - t_.data());
        return v;
    }
    std::vector<std::int64_t> list(char open, char close, bool signed_ok = false) {  // "[2,64]" or "(1,0)"
        expect(std::string_view(&open, 1));
        std::vector<std::int64_t> out;
        if (eat(std::string_view(&close, 1))) return out;
        do out.push_back(integer(signed_ok));
        while (eat(","));
        expect(std::string_view(&close, 1));
        return out;
    }
    std::string quoted() {
        expect("\"");
        const std::size_t end = t_.find('"', i_);
        if (end == std::string_view::npos) fail("a quoted name is not closed");
        std::string s(t_.substr(i_, end - i_));
        i_ = end + 1;
        return s;
    }
    bool done() {
        skip_space();
        return i_ >= t_.size();
    }
    char peek() {
        skip_space();
        return i_ < t_.size() ? t_[i_] : '\0';
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(what + " at character " + std::to_string(i_ + 1) + " of " + std::string(t_));
    }

private:
    std::string_view t_;
    std::size_t i_ = 0;
};

// Each mesh a dump declares: its axes' names and sizes, in order.
using Meshes = std::map<std::string, std::vector<std::pair<std::string, std::int64_t>>, std::less<>>;

// "0, 64": numbers joined.
std::string join(const std::vector<std::int64_t>& v, const char* sep = ", ");
// Reads "sdy.mesh @name = <[...]>" into `meshes`; any other line is left alone.
void read_mesh(std::string_view line, Meshes& meshes);
// "<@mesh, [...]>" from its '@'; throws InputError.
ShardingSite decode_shardy(std::string_view text, const Meshes& meshes);
// A replica_groups value in any of its three forms; throws InputError.
ShardingSite decode_groups(std::string_view text);

}  // namespace tpusim::ir::detail
