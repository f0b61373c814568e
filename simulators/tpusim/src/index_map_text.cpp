// The index-map language: a hand-written recursive-descent parser over
// affine expressions, with errors that point at the column where the text
// stops being something the sandbox can run.
#include "tpusim/index_map_text.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/error.h"

namespace tpusim {

namespace {

constexpr std::int64_t kLargest = std::int64_t{1} << 31;  // no block index or factor is near this
// Parentheses and signs nest by recursion: a bound keeps pasted text from
// overflowing the stack; no real index map comes near it.
constexpr int kMaxNesting = 64;
const char* const kAffine = "the sandbox's index maps are sums of grid indices times whole numbers plus a constant";

// An affine form: coeffs . grid + constant, and where its text lies.
struct Affine {
    std::vector<std::int64_t> coeffs;
    std::int64_t constant = 0;
    std::size_t begin = 0, end = 0;
    bool is_constant() const {
        for (std::int64_t c : coeffs)
            if (c != 0) return false;
        return true;
    }
};

bool name_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class Parser {
public:
    Parser(std::string_view text, int grid_rank, int array_rank)
        : text_(text), grid_rank_(grid_rank), array_rank_(array_rank) {}

    IndexMap parse() {
        skip();
        if (pos_ == text_.size()) fail(pos_, "the index map is empty; write one such as `lambda i, j, k: (i, k)`");
        const std::size_t head = pos_;
        if (word_at(pos_) == "lambda") {
            pos_ += 6;
            declare_names(':');
            expect(':', "after the lambda's names");
        } else if (peek() == '(') {
            ++pos_;
            declare_names(')');
            expect(')', "to close the grid indices");
            skip();
            if (text_.substr(pos_, 2) != "->")
                fail(pos_, "expected `->` after the grid indices, as in `(i, j, k) -> (i, k)`");
            pos_ += 2;
        } else {
            fail(head,
                 "an index map starts with `lambda` or with its grid indices in parentheses, "
                 "as in `lambda i, j, k: (i, k)`");
        }
        if (static_cast<int>(names_.size()) != grid_rank_)
            fail(head, "the map declares " + count(names_.size(), "grid index", "grid indices") + " but the grid has " +
                           count(static_cast<std::size_t>(grid_rank_), "axis", "axes"));
        const std::vector<Affine> outs = results();
        skip();
        if (pos_ < text_.size())
            fail(pos_, "unexpected `" + std::string(text_.substr(pos_)) + "` after the map's result");
        IndexMap m;
        for (const Affine& a : outs) {
            m.coeffs.push_back(a.coeffs);
            m.offsets.push_back(a.constant);
        }
        return m;
    }

private:
    [[noreturn]] void fail(std::size_t at, const std::string& what) const {
        throw InputError("column " + std::to_string(at + 1) + ": " + what);
    }
    static std::string count(std::size_t n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    }
    std::string snippet(std::size_t begin, std::size_t end) const {
        return std::string(text_.substr(begin, end - begin));
    }
    void skip() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    char peek() {
        skip();
        return pos_ < text_.size() ? text_[pos_] : '\0';
    }
    void expect(char c, const char* where) {
        if (peek() != c)
            fail(pos_, std::string("expected `") + c + "` " + where +
                           (pos_ < text_.size() ? ", found `" + std::string(1, text_[pos_]) + "`"
                                                : std::string(", found the end")));
        ++pos_;
    }
    std::string_view word_at(std::size_t at) const {
        std::size_t end = at;
        if (end < text_.size() && name_start(text_[end]))
            while (end < text_.size() && name_char(text_[end])) ++end;
        return text_.substr(at, end - at);
    }

    // The names a lambda (up to `close`) or an arrow form declares.
    void declare_names(char close) {
        if (peek() == close) return;
        for (;;) {
            skip();
            const std::string_view w = word_at(pos_);
            if (w.empty()) fail(pos_, "expected the name of a grid index, as in `lambda i, j, k: ...`");
            for (const std::string& n : names_)
                if (n == w) fail(pos_, "`" + std::string(w) + "` is declared twice");
            names_.emplace_back(w);
            pos_ += w.size();
            if (peek() != ',') return;
            ++pos_;
        }
    }

    // `(e, e, ...)`, `(e,)`, or a lone expression for a rank-1 array.
    std::vector<Affine> results() {
        std::vector<Affine> outs;
        const std::size_t open = (skip(), pos_);
        bool tuple = false;
        if (peek() == '(') {
            // `(i + 1)` is one index, as in Python; a comma at the first
            // level, or nothing at all, makes the parentheses a tuple.
            int depth = 0;
            for (std::size_t p = pos_; p < text_.size(); ++p) {
                const char ch = text_[p];
                if (ch == '(')
                    ++depth;
                else if (ch == ')' && --depth == 0) {
                    tuple = tuple || snippet(pos_ + 1, p).find_first_not_of(" \t\r\n") == std::string::npos;
                    break;
                } else if (ch == ',' && depth == 1) {
                    tuple = true;
                }
            }
        }
        if (tuple) {
            ++pos_;
            while (peek() != ')') {
                outs.push_back(expression());
                if (peek() != ',') break;
                ++pos_;
            }
            expect(')', "to close the block indices");
        } else {
            outs.push_back(expression());
        }
        if (static_cast<int>(outs.size()) != array_rank_)
            fail(open, "the map returns " + count(outs.size(), "block index", "block indices") +
                           " but the array has rank " + std::to_string(array_rank_));
        return outs;
    }

    Affine expression() {
        Affine sum = term();
        for (;;) {
            const char op = peek();
            if (op != '+' && op != '-') return sum;
            ++pos_;
            Affine rhs = term();
            const std::int64_t sign = op == '+' ? 1 : -1;
            for (std::size_t g = 0; g < sum.coeffs.size(); ++g)
                sum.coeffs[g] = checked(sum.coeffs[g] + sign * rhs.coeffs[g], sum.begin, rhs.end);
            sum.constant = checked(sum.constant + sign * rhs.constant, sum.begin, rhs.end);
            sum.end = rhs.end;
        }
    }

    Affine term() {
        Affine product = unary();
        for (;;) {
            const char op = peek();
            const std::size_t at = pos_;
            if (op == '*' && text_.substr(at, 2) == "**") {
                pos_ += 2;
                const Affine rhs = unary();
                fail(product.begin, "`" + snippet(product.begin, rhs.end) + "` raises to a power; " + kAffine);
            }
            if (op == '/' || op == '%' || op == '@') {
                const std::string sym = op == '/' && text_.substr(at, 2) == "//" ? "//" : std::string(1, op);
                pos_ += sym.size();
                const Affine rhs = unary();
                const std::string what = snippet(product.begin, rhs.end);
                if (product.is_constant() && rhs.is_constant())
                    fail(product.begin,
                         "`" + what + "` uses " + sym + ": write the whole number it comes to; " + kAffine);
                fail(product.begin, "`" + what + "` is not affine; " + kAffine);
            }
            if (op != '*') return product;
            ++pos_;
            const Affine rhs = unary();
            const std::string what = snippet(product.begin, rhs.end);
            if (!product.is_constant() && !rhs.is_constant())
                fail(product.begin, "`" + what + "` multiplies two grid indices, which is not affine; " + kAffine);
            const Affine& scale = product.is_constant() ? product : rhs;
            Affine out = product.is_constant() ? rhs : product;
            for (std::int64_t& c : out.coeffs) c = checked(c * scale.constant, product.begin, rhs.end);
            out.constant = checked(out.constant * scale.constant, product.begin, rhs.end);
            out.begin = product.begin;
            out.end = rhs.end;
            product = out;
        }
    }

    // One level deeper for as long as it lives; past kMaxNesting the map is refused.
    class Nest {
    public:
        Nest(Parser& p, std::size_t at) : p_(p) {
            if (++p_.depth_ > kMaxNesting)
                p_.fail(at, "the map nests parentheses or signs more than " + std::to_string(kMaxNesting) +
                                " deep; write the expression flatter");
        }
        ~Nest() { --p_.depth_; }
        Nest(const Nest&) = delete;
        Nest& operator=(const Nest&) = delete;

    private:
        Parser& p_;
    };

    Affine unary() {
        const char c = peek();
        const std::size_t at = pos_;
        if (c == '-' || c == '+') {
            ++pos_;
            const Nest nest(*this, at);
            Affine a = unary();
            if (c == '-') {
                for (std::int64_t& v : a.coeffs) v = -v;
                a.constant = -a.constant;
            }
            a.begin = at;
            return a;
        }
        return primary();
    }

    Affine primary() {
        const char c = peek();
        const std::size_t at = pos_;
        Affine a;
        a.coeffs.assign(static_cast<std::size_t>(grid_rank_), 0);
        a.begin = at;
        if (c == '(') {
            ++pos_;
            const Nest nest(*this, at);
            Affine inner = expression();
            expect(')', "to close the parenthesis");
            inner.begin = at;
            inner.end = pos_;
            return inner;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            std::int64_t v = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                v = v * 10 + (text_[pos_++] - '0');
                if (v > kLargest) fail(at, "the number `" + snippet(at, pos_) + "...` is too large");
            }
            if (pos_ < text_.size() && (text_[pos_] == '.' || name_char(text_[pos_]))) {
                std::size_t end = pos_;
                while (end < text_.size() && (text_[end] == '.' || name_char(text_[end]))) ++end;
                fail(at, "`" + snippet(at, end) + "` is not a whole number; block indices are whole numbers");
            }
            a.constant = v;
            a.end = pos_;
            return a;
        }
        const std::string_view w = word_at(pos_);
        if (w.empty()) {
            if (pos_ >= text_.size()) fail(pos_, "the expression ends too early");
            fail(pos_, "unexpected `" + std::string(1, text_[pos_]) +
                           "` where a grid index, a whole "
                           "number or `(` should be");
        }
        pos_ += w.size();
        if (peek() == '(' || peek() == '.' || peek() == '[') {
            std::size_t end = pos_;
            int depth = 0;
            for (; end < text_.size(); ++end) {
                if (text_[end] == '(' || text_[end] == '[')
                    ++depth;
                else if ((text_[end] == ')' || text_[end] == ']') && --depth <= 0)
                    break;
                else if (depth == 0 && (text_[end] == ',' || std::isspace(static_cast<unsigned char>(text_[end]))))
                    break;
            }
            fail(at, "`" + snippet(at, std::min(end + 1, text_.size())) + "` calls a function or reads an attribute; " +
                         kAffine);
        }
        for (std::size_t g = 0; g < names_.size(); ++g)
            if (names_[g] == w) {
                a.coeffs[g] = 1;
                a.end = pos_;
                return a;
            }
        std::string declared;
        for (std::size_t g = 0; g < names_.size(); ++g) declared += (g ? ", " : "") + names_[g];
        fail(at, "`" + std::string(w) + "` is not a grid index the map declares (" +
                     (declared.empty() ? std::string("it declares none") : declared) + ")");
    }

    std::int64_t checked(std::int64_t v, std::size_t begin, std::size_t end) const {
        if (v > kLargest || v < -kLargest)
            fail(begin, "`" + snippet(begin, end) + "` comes to a number too large for a block index");
        return v;
    }

    std::string_view text_;
    int grid_rank_;
    int array_rank_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::vector<std::string> names_;
};

}  // namespace

IndexMap parse_index_map(std::string_view text, int grid_rank, int array_rank) {
    if (grid_rank < 0 || array_rank < 1)
        throw InputError("an index map needs a grid of rank 0 or more and an array of rank 1 or more");
    return Parser(text, grid_rank, array_rank).parse();
}

}  // namespace tpusim
