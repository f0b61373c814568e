#include "ir_text.h"

#include <array>
#include <cctype>
#include <utility>

namespace tpusim::ir::detail {

bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_name_char(char c) {
    return is_name_start(c) || is_digit(c) || c == '.' || c == '-';
}

Cursor::Cursor(std::string_view text, Comments comments) : text_(text), comments_(comments) {}

void Cursor::advance(std::size_t count) {
    for (std::size_t i = 0; i < count && pos_ < text_.size(); ++i, ++pos_) {
        if (text_[pos_] == '\n') {
            ++line_;
            column_ = 1;
        } else {
            ++column_;
        }
    }
}

bool Cursor::skip_space() {
    bool newline = false;
    while (!at_end()) {
        const char c = peek();
        if (c == '\n') {
            newline = true;
            advance();
        } else if (c == ' ' || c == '\t' || c == '\r') {
            advance();
        } else if (comments_ != Comments::none && c == '/' && peek(1) == '/') {
            while (!at_end() && peek() != '\n') advance();
        } else if (comments_ == Comments::slashes_and_blocks && c == '/' && peek(1) == '*') {
            const Position start = position();
            advance(2);
            while (!at_end() && !(peek() == '*' && peek(1) == '/')) advance();
            if (at_end()) fail_at(start, "the comment opened here is never closed with '*/'");
            advance(2);
        } else {
            break;
        }
    }
    return newline;
}

bool Cursor::accept(std::string_view word) {
    skip_space();
    if (!starts_with(word)) return false;
    // A word must not run on into a longer name ("ROOT" is not "ROOTS").
    if (!word.empty() && is_name_char(word.back()) && is_name_char(peek(word.size()))) return false;
    advance(word.size());
    return true;
}

void Cursor::expect(std::string_view word, std::string_view context) {
    if (!accept(word)) fail("expected '" + std::string(word) + "' " + std::string(context));
}

std::string_view Cursor::name(std::string_view what, std::string_view extra) {
    skip_space();
    const std::size_t start = pos_;
    if (!is_name_start(peek()) && extra.find(peek()) == std::string_view::npos) fail("expected " + std::string(what));
    while (!at_end() && (is_name_char(peek()) || extra.find(peek()) != std::string_view::npos)) advance();
    return text_.substr(start, pos_ - start);
}

std::int64_t Cursor::integer(std::string_view what) {
    skip_space();
    bool negative = false;
    if (peek() == '-') {
        negative = true;
        advance();
    }
    if (!is_digit(peek())) fail("expected " + std::string(what));
    std::int64_t v = 0;
    while (is_digit(peek())) {
        if (v > (INT64_MAX - 9) / 10) fail(std::string(what) + " is too large");
        v = v * 10 + (peek() - '0');
        advance();
    }
    return negative ? -v : v;
}

std::string Cursor::quoted() {
    skip_space();
    const char quote = peek();
    if (quote != '"' && quote != '\'') fail("expected a quoted string");
    const Position start = position();
    advance();
    std::string out;
    while (!at_end() && peek() != quote) {
        if (peek() == '\\' && pos_ + 1 < text_.size()) {
            advance();
            const char e = peek();
            out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
            out += peek();
        }
        advance();
    }
    if (at_end()) fail_at(start, "the string opened here is never closed");
    advance();
    return out;
}

std::string_view Cursor::balanced(bool angles) {
    skip_space();
    const std::size_t start = pos_;
    std::vector<std::pair<char, Position>> open;
    do {
        const char c = peek();
        if (c == '"' || c == '\'') {
            if (c == '\'' && !open.empty() && open.back().first == '<') {
                advance();  // an apostrophe inside an MLIR attribute is just a character
                continue;
            }
            quoted();
            continue;
        }
        if (c == '(' || c == '[' || c == '{' || (angles && c == '<')) {
            if (static_cast<int>(open.size()) >= max_nesting)
                fail("brackets nest deeper than " + std::to_string(max_nesting) + " levels");
            const char close = c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>';
            open.emplace_back(close, position());
        } else if (c == ')' || c == ']' || c == '}' || (angles && c == '>')) {
            const bool arrow = c == '>' && pos_ > 0 && text_[pos_ - 1] == '-';
            if (!arrow) {
                if (open.empty() || open.back().first != c)
                    fail(open.empty() ? std::string("unexpected '") + c + "'"
                                      : std::string("expected '") + open.back().first + "' before '" + c + "'");
                open.pop_back();
            }
        }
        advance();
        if (at_end() && !open.empty())
            fail_at(open.back().second, std::string("this bracket is never closed with '") + open.back().first + "'");
    } while (!open.empty());
    return text_.substr(start, pos_ - start);
}

void Cursor::fail(const std::string& what) const {
    fail_at(position(), what);
}

void Cursor::fail_at(Position at, const std::string& what) {
    throw ParseError(at.line, at.column, what);
}

void check_size(std::string_view text) {
    if (text.size() > max_input_bytes)
        throw InputError("the dump is " + std::to_string(text.size() >> 20) + " MiB; dumps larger than " +
                         std::to_string(max_input_bytes >> 20) + " MiB are refused");
}

namespace {

// MLIR and jaxpr spellings of the HLO names.
constexpr std::array<std::pair<std::string_view, std::string_view>, 25> aliases{{
    {"i1", "pred"},  {"bool", "pred"}, {"i2", "s2"},       {"i4", "s4"},         {"i8", "s8"},
    {"i16", "s16"},  {"i32", "s32"},   {"i64", "s64"},     {"si2", "s2"},        {"si4", "s4"},
    {"si8", "s8"},   {"si16", "s16"},  {"si32", "s32"},    {"si64", "s64"},      {"ui1", "u1"},
    {"ui2", "u2"},   {"ui4", "u4"},    {"ui8", "u8"},      {"ui16", "u16"},      {"ui32", "u32"},
    {"ui64", "u64"}, {"int32", "s32"}, {"float32", "f32"}, {"bfloat16", "bf16"}, {"index", "s64"},
}};

// Every element type of XLA's PrimitiveType and StableHLO, with its width in
// bytes (sub-byte types as fractions: XLA packs them).
constexpr std::array<std::pair<std::string_view, double>, 35> widths{{
    {"pred", 1},       {"s1", 0.125},      {"u1", 0.125},      {"s2", 0.25},      {"u2", 0.25},
    {"s4", 0.5},       {"u4", 0.5},        {"s8", 1},          {"u8", 1},         {"s16", 2},
    {"u16", 2},        {"s32", 4},         {"u32", 4},         {"s64", 8},        {"u64", 8},
    {"f16", 2},        {"bf16", 2},        {"f32", 4},         {"f64", 8},        {"c64", 8},
    {"c128", 16},      {"tf32", 4},        {"f8e4m3fn", 1},    {"f8e5m2", 1},     {"f8e4m3b11fnuz", 1},
    {"f8e4m3", 1},     {"f8e3m4", 1},      {"f8e4m3fnuz", 1},  {"f8e5m2fnuz", 1}, {"f8e8m0fnu", 1},
    {"f4e2m1fn", 0.5}, {"f6e2m3fn", 0.75}, {"f6e3m2fn", 0.75}, {"f0", 0},         {"opaque", 0},
}};

// The storage type of `!quant.uniform<i8:f32, 0.5>` (or `<i8<-127:127>:f32:1, {...}>`):
// what the tensor holds in memory and what the MXU multiplies.
std::string quantized_storage(std::string_view element) {
    constexpr std::string_view prefix = "!quant.uniform<";
    std::size_t end = prefix.size();
    while (end < element.size() && is_name_char(element[end])) ++end;
    return std::string(element.substr(prefix.size(), end - prefix.size()));
}

}  // namespace

std::string canonical_element(std::string_view element) {
    if (element.starts_with("!quant.uniform<")) return canonical_element(quantized_storage(element));
    if (element == "complex<f32>") return "c64";
    if (element == "complex<f64>") return "c128";
    for (const auto& [from, to] : aliases)
        if (element == from) return std::string(to);
    std::string out(element);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (out.starts_with("float8_")) out = "f8" + out.substr(7);  // jaxpr's float8_e4m3fn
    std::erase(out, '_');
    return out;
}

bool is_element_type(std::string_view word) {
    const std::string c = canonical_element(word);
    for (const auto& [n, w] : widths)
        if (c == n) return true;
    return c == "token";
}

std::vector<std::int64_t> int_list(std::string_view text) {
    std::vector<std::int64_t> out;
    std::size_t i = 0;
    auto bad = [&]() -> InputError { return InputError("'" + std::string(text) + "' is not a list of integers"); };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '{' || c == '}' || c == '[' || c == ']' || c == '(' || c == ')' || c == ',' || c == ' ' || c == '\n' ||
            c == '\t') {
            ++i;
            continue;
        }
        bool negative = false;
        if (c == '-') {
            negative = true;
            ++i;
        }
        if (i >= text.size() || !is_digit(text[i])) throw bad();
        std::int64_t v = 0;
        while (i < text.size() && is_digit(text[i])) {
            if (v > (INT64_MAX - 9) / 10) throw bad();
            v = v * 10 + (text[i++] - '0');
        }
        out.push_back(negative ? -v : v);
    }
    return out;
}

}  // namespace tpusim::ir::detail

namespace tpusim::ir {

double element_bytes(std::string_view element) {
    const std::string c = detail::canonical_element(element);
    for (const auto& [n, w] : detail::widths)
        if (c == n) return w;
    return 0;
}

std::optional<DType> element_dtype(std::string_view element) {
    if (element == "bf16") return DType::bf16;
    if (element == "f16") return DType::f16;
    if (element == "f32") return DType::f32;
    if (element == "s8" || element == "u8") return DType::int8;
    if (element.starts_with("f8")) return DType::fp8;
    if (element == "s4" || element == "u4") return DType::int4;
    return std::nullopt;
}

}  // namespace tpusim::ir
