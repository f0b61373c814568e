#include "ir_mlir_lex.h"

#include <cctype>

namespace tpusim::ir::detail {

namespace {

bool is_mlir_name_char(char c) {
    return is_name_start(c) || is_digit(c) || c == '.' || c == '$';
}
bool is_suffix_char(char c) {
    return is_mlir_name_char(c) || c == '-';
}

}  // namespace

std::vector<Token> lex_mlir(std::string_view text) {
    check_size(text);
    std::vector<Token> out;
    Cursor c(text, Comments::slashes);
    bool newline = true;
    int depth = 0;
    while (true) {
        newline = c.skip_space() || newline;
        if (c.at_end()) break;
        Token t;
        t.position = c.position();
        t.offset = c.offset();
        t.newline_before = newline;
        newline = false;
        const char ch = c.peek();
        if (ch == '%' || ch == '^' || ch == '@') {
            t.kind = ch == '%' ? Tok::value : ch == '^' ? Tok::caret : Tok::symbol;
            c.advance();
            if (ch == '@' && c.peek() == '"') {
                c.quoted();
            } else {
                if (!is_suffix_char(c.peek())) c.fail(std::string("expected a name after '") + ch + "'");
                while (is_suffix_char(c.peek())) c.advance();
                if (ch == '%' && c.peek() == '#')  // %0#1: one result of several
                    for (c.advance(); is_digit(c.peek());) c.advance();
            }
        } else if (ch == '#' || ch == '!' || is_name_start(ch)) {
            t.kind = ch == '#' ? Tok::hash : Tok::word;
            if (ch == '#' || ch == '!') c.advance();
            if (!is_mlir_name_char(c.peek())) c.fail(std::string("expected a name after '") + ch + "'");
            while (is_mlir_name_char(c.peek())) c.advance();
            if (c.peek() == '<') c.balanced(true);
        } else if (ch == '"') {
            t.kind = Tok::string;
            c.quoted();
        } else if (is_digit(ch) || (ch == '-' && is_digit(c.peek(1)))) {
            t.kind = Tok::number;
            c.advance();
            if (ch == '0' && (c.peek() == 'x' || c.peek() == 'X')) {
                c.advance();
                while (std::isxdigit(static_cast<unsigned char>(c.peek()))) c.advance();
            } else {
                while (is_digit(c.peek()) || c.peek() == '.') c.advance();
                if ((c.peek() == 'e' || c.peek() == 'E') &&
                    (is_digit(c.peek(1)) || c.peek(1) == '+' || c.peek(1) == '-')) {
                    c.advance(2);
                    while (is_digit(c.peek())) c.advance();
                }
            }
        } else if (ch == '-' && c.peek(1) == '>') {
            t.kind = Tok::punct;
            c.advance(2);
        } else if (std::string_view("()[]{},:=<>?*+|").find(ch) != std::string_view::npos) {
            t.kind = Tok::punct;
            // Nesting is checked here already, so that hostile input fails
            // before millions of tokens are stored.
            if (ch == '(' || ch == '[' || ch == '{') {
                if (++depth > max_nesting)
                    c.fail("brackets nest deeper than " + std::to_string(max_nesting) + " levels");
            } else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) {
                --depth;
            }
            c.advance();
        } else {
            c.fail(std::string("unexpected character '") + ch + "'");
        }
        t.text = text.substr(t.offset, c.offset() - t.offset);
        out.push_back(t);
    }
    Token end;
    end.position = c.position();
    end.offset = text.size();
    end.newline_before = true;
    out.push_back(end);
    return out;
}

bool is_mlir_type(const Token& token) {
    if (token.kind != Tok::word) return false;
    const std::string_view s = token.text;
    return s.starts_with("tensor<") || s.starts_with("tuple<") || s == "!stablehlo.token" || is_element_type(s);
}

namespace {

TensorType type_from_text(std::string_view s, Position at, int depth) {
    if (depth > max_nesting) Cursor::fail_at(at, "types nest too deeply");
    TensorType t;
    auto bad = [&]() { Cursor::fail_at(at, "'" + std::string(s) + "' is not a tensor type"); };
    if (s == "!stablehlo.token") {
        t.element = "token";
        return t;
    }
    const bool tuple = s.starts_with("tuple<");
    if (!tuple && !s.starts_with("tensor<")) {
        if (!is_element_type(s)) bad();
        t.element = canonical_element(s);
        return t;
    }
    const std::size_t open = s.find('<');
    if (s.back() != '>') bad();
    const std::string_view inner = s.substr(open + 1, s.size() - open - 2);
    // Split at top-level commas.
    std::vector<std::string_view> parts;
    int nest = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < inner.size(); ++i) {
        const char c = inner[i];
        if (c == '<' || c == '(' || c == '[' || c == '{')
            ++nest;
        else if ((c == '>' && (i == 0 || inner[i - 1] != '-')) || c == ')' || c == ']' || c == '}')
            --nest;
        else if (c == ',' && nest == 0) {
            parts.push_back(inner.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.push_back(inner.substr(start));
    auto trim = [](std::string_view v) {
        while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
        while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
        return v;
    };
    if (tuple) {
        t.is_tuple = true;
        if (trim(inner).empty()) return t;
        for (auto p : parts) t.elements.push_back(type_from_text(trim(p), at, depth + 1));
        return t;
    }
    std::string_view shape = trim(parts.front());  // the encoding after a comma is ignored
    while (!shape.empty() && (is_digit(shape.front()) || shape.front() == '?')) {
        if (shape.front() == '?') {
            t.dims.push_back(-1);
            shape.remove_prefix(1);
        } else {
            std::int64_t d = 0;
            while (!shape.empty() && is_digit(shape.front())) {
                if (d > (INT64_MAX - 9) / 10) bad();
                d = d * 10 + (shape.front() - '0');
                shape.remove_prefix(1);
            }
            t.dims.push_back(d);
        }
        if (shape.empty() || shape.front() != 'x') bad();
        shape.remove_prefix(1);
    }
    if (!is_element_type(shape)) bad();
    t.element = canonical_element(shape);
    return t;
}

}  // namespace

TensorType mlir_type(const Token& token) {
    return type_from_text(token.text, token.position, 0);
}

}  // namespace tpusim::ir::detail
