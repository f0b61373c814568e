#pragma once
// A strict little JSON reader for tests: it checks that output parses and
// lets a test look inside. Throws std::runtime_error on anything malformed.
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mini_json {

struct Value {
    enum class Type { null, boolean, number, string, array, object } type = Type::null;
    bool b = false;
    double n = 0;
    std::string s;
    std::vector<Value> a;
    std::map<std::string, Value> o;

    const Value& operator[](const std::string& k) const {
        auto it = o.find(k);
        if (type != Type::object || it == o.end()) throw std::runtime_error("no key " + k);
        return it->second;
    }
    bool has(const std::string& k) const { return type == Type::object && o.count(k) != 0; }
};

class Parser {
public:
    explicit Parser(const std::string& text) : t_(text) {}
    Value parse() {
        Value v = value();
        space();
        if (i_ != t_.size()) fail("trailing text");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& why) {
        throw std::runtime_error("JSON: " + why + " at " + std::to_string(i_));
    }
    void space() {
        while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
    }
    bool eat(char c) {
        space();
        if (i_ < t_.size() && t_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!eat(c)) fail(std::string("expected ") + c);
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i_ < t_.size() && t_[i_] != '"') {
            char c = t_[i_++];
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
            if (c == '\\') {
                if (i_ >= t_.size()) fail("bad escape");
                const char e = t_[i_++];
                if (e == 'u') {
                    if (i_ + 4 > t_.size()) fail("bad \\u");
                    out += static_cast<char>(std::strtol(t_.substr(i_, 4).c_str(), nullptr, 16));
                    i_ += 4;
                } else if (e == 'n')
                    out += '\n';
                else if (e == 't')
                    out += '\t';
                else if (e == 'r')
                    out += '\r';
                else if (e == '"' || e == '\\' || e == '/')
                    out += e;
                else
                    fail("bad escape");
            } else {
                out += c;
            }
        }
        if (i_ >= t_.size()) fail("unterminated string");
        ++i_;
        return out;
    }
    Value value() {
        space();
        if (i_ >= t_.size()) fail("unexpected end");
        Value v;
        const char c = t_[i_];
        if (c == '{') {
            ++i_;
            v.type = Value::Type::object;
            if (eat('}')) return v;
            do {
                space();
                std::string k = string();
                expect(':');
                v.o[k] = value();
            } while (eat(','));
            expect('}');
        } else if (c == '[') {
            ++i_;
            v.type = Value::Type::array;
            if (eat(']')) return v;
            do v.a.push_back(value());
            while (eat(','));
            expect(']');
        } else if (c == '"') {
            v.type = Value::Type::string;
            v.s = string();
        } else if (t_.compare(i_, 4, "true") == 0) {
            v.type = Value::Type::boolean;
            v.b = true;
            i_ += 4;
        } else if (t_.compare(i_, 5, "false") == 0) {
            v.type = Value::Type::boolean;
            i_ += 5;
        } else if (t_.compare(i_, 4, "null") == 0) {
            i_ += 4;
        } else {
            const char* begin = t_.c_str() + i_;
            char* end = nullptr;
            v.type = Value::Type::number;
            v.n = std::strtod(begin, &end);
            if (end == begin) fail("bad value");
            i_ += static_cast<std::size_t>(end - begin);
        }
        return v;
    }
    const std::string& t_;
    std::size_t i_ = 0;
};

inline Value parse(const std::string& text) {
    return Parser(text).parse();
}

}  // namespace mini_json
