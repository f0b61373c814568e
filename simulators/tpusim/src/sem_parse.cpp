// Reading .sem text: a lexer per line, a recursive-descent expression
// parser, and one function per statement. Names are resolved as they are
// read (declare before use), so most mistakes point at their column.
#include <algorithm>
#include <map>
#include <string>

#include "sem_detail.h"
#include "tpusim/error.h"

namespace tpusim::semdetail {

void fail(Pos at, const std::string& what) {
    throw InputError("line " + std::to_string(at.line) + ", column " + std::to_string(at.column) + ": " + what);
}

namespace {

// Words that end an expression instead of naming a variable.
bool is_keyword(const std::string& w) {
    static const char* const words[] = {"to",     "send", "recv", "sem", "bytes", "reads",
                                        "writes", "in",   "and",  "or",  "not"};
    for (const char* k : words)
        if (w == k) return true;
    return false;
}

// Expressions are evaluated (and freed) by recursion: a bound on their height
// keeps a pasted line of 5,000 parentheses from overflowing the stack. Real
// programs stay under ten.
constexpr int kMaxExprHeight = 200;

struct Parser {
    std::vector<Statement>& out;
    std::map<std::string, int> names;    // declared buffers and semaphores
    std::vector<std::string> loop_vars;  // in scope
    std::vector<Token> toks;
    std::size_t i = 0;
    int depth = 0;    // for/if blocks open
    int nesting = 0;  // parentheses and prefixes open in the expression being read

    const Token& peek() const { return toks[i]; }
    bool is(const char* text) const {
        return (peek().type == Token::symbol || peek().type == Token::ident) && peek().text == text;
    }
    bool accept(const char* text) {
        if (!is(text)) return false;
        ++i;
        return true;
    }
    std::string describe(const Token& t) const {
        return t.type == Token::end ? "the end of the line" : "'" + t.text + "'";
    }
    void expect(const char* text) {
        if (!accept(text)) fail(peek().pos, std::string("expected '") + text + "', found " + describe(peek()));
    }
    std::string ident(const char* what) {
        if (peek().type != Token::ident)
            fail(peek().pos, std::string("expected ") + what + ", found " + describe(peek()));
        return toks[i++].text;
    }

    // expr := or ; or := and {or and} ; and := not {and not} ; not := [not] cmp
    // cmp := sum [op sum] ; sum := term {(+|-) term} ; term := unary {(*|/|%) unary}
    static Expr& checked_height(Expr& e) {
        for (const Expr& a : e.args) e.height = std::max(e.height, a.height + 1);
        if (e.height > kMaxExprHeight)
            fail(e.pos, "the expression nests more than " + std::to_string(kMaxExprHeight) +
                            " operations deep; split it or write it flatter");
        return e;
    }
    // Descending into parentheses or a prefix operator: refused before the
    // recursion goes deeper than any expression may be high.
    void descend(Pos at) {
        if (++nesting > kMaxExprHeight)
            fail(at, "the expression nests more than " + std::to_string(kMaxExprHeight) +
                         " levels of parentheses or prefixes deep; write it flatter");
    }
    Expr binary(Op op, Expr a, Expr b, Pos p) {
        Expr e;
        e.op = op;
        e.pos = p;
        e.args = {std::move(a), std::move(b)};
        return std::move(checked_height(e));
    }
    Expr expr() {
        Expr a = conj();
        while (is("or")) {
            const Pos p = toks[i++].pos;
            a = binary(Op::lor, std::move(a), conj(), p);
        }
        return a;
    }
    Expr conj() {
        Expr a = negation();
        while (is("and")) {
            const Pos p = toks[i++].pos;
            a = binary(Op::land, std::move(a), negation(), p);
        }
        return a;
    }
    Expr negation() {
        if (is("not")) {
            Expr e;
            e.op = Op::lnot;
            e.pos = toks[i++].pos;
            descend(e.pos);
            e.args = {negation()};
            --nesting;
            return std::move(checked_height(e));
        }
        return comparison();
    }
    Expr comparison() {
        Expr a = sum();
        static const std::pair<const char*, Op> ops[] = {{"==", Op::eq}, {"!=", Op::ne}, {"<=", Op::le},
                                                         {">=", Op::ge}, {"<", Op::lt},  {">", Op::gt}};
        for (const auto& [text, op] : ops)
            if (peek().type == Token::symbol && peek().text == text) {
                const Pos p = toks[i++].pos;
                return binary(op, std::move(a), sum(), p);
            }
        return a;
    }
    Expr sum() {
        Expr a = term();
        while (peek().type == Token::symbol && (peek().text == "+" || peek().text == "-")) {
            const Op op = peek().text == "+" ? Op::add : Op::sub;
            const Pos p = toks[i++].pos;
            a = binary(op, std::move(a), term(), p);
        }
        return a;
    }
    Expr term() {
        Expr a = unary();
        while (peek().type == Token::symbol && (peek().text == "*" || peek().text == "/" || peek().text == "%")) {
            const Op op = peek().text == "*" ? Op::mul : peek().text == "/" ? Op::div : Op::mod;
            const Pos p = toks[i++].pos;
            a = binary(op, std::move(a), unary(), p);
        }
        return a;
    }
    Expr unary() {
        const Token& t = peek();
        Expr e;
        e.pos = t.pos;
        if (t.type == Token::symbol && t.text == "-") {
            ++i;
            e.op = Op::neg;
            descend(e.pos);
            e.args = {unary()};
            --nesting;
            return std::move(checked_height(e));
        }
        if (t.type == Token::symbol && t.text == "(") {
            const Pos open = t.pos;
            ++i;
            descend(open);
            e = expr();
            --nesting;
            expect(")");
            return e;
        }
        if (t.type == Token::number) {
            if (!t.integral) fail(t.pos, "expected a whole number, found " + t.text);
            ++i;
            e.op = Op::num;
            e.value = static_cast<std::int64_t>(t.number_value);
            return e;
        }
        if (t.type == Token::ident && !is_keyword(t.text)) {
            bool known = t.text == "my" || t.text == "N";
            for (const auto& v : loop_vars) known = known || v == t.text;
            if (!known) fail(t.pos, "unknown name '" + t.text + "' in an expression (use my, N or a loop variable)");
            ++i;
            e.op = Op::var;
            e.name = t.text;
            return e;
        }
        fail(t.pos, "expected a number or an expression, found " + describe(t));
    }

    // A size: an expression and an optional unit (B, KiB, MiB, GiB).
    Expr size() {
        const Pos p = peek().pos;
        Expr e = sum();
        static const std::pair<const char*, std::int64_t> units[] = {
            {"B", 1}, {"KiB", 1024}, {"MiB", 1024 * 1024}, {"GiB", 1024LL * 1024 * 1024}};
        for (const auto& [unit, scale] : units)
            if (peek().type == Token::ident && peek().text == unit) {
                ++i;
                Expr s;
                s.op = Op::num;
                s.value = scale;
                return binary(Op::mul, std::move(e), std::move(s), p);
            }
        return e;
    }

    // A reference to a declared buffer or semaphore of one of the given kinds.
    Ref ref(std::initializer_list<StmtKind> kinds, const char* what) {
        Ref r;
        r.pos = peek().pos;
        const std::string name = ident(what);
        const auto it = names.find(name);
        if (it == names.end()) fail(r.pos, "'" + name + "' is not declared (declare it before use)");
        r.decl = it->second;
        const Statement& d = out[static_cast<std::size_t>(r.decl)];
        bool ok = false;
        for (StmtKind k : kinds) ok = ok || d.kind == k;
        if (!ok) {
            const char* is_a = d.kind == StmtKind::buffer ? "a buffer"
                               : d.kind == StmtKind::sem  ? "a regular semaphore"
                                                          : "a DMA semaphore";
            fail(r.pos, "'" + name + "' is " + is_a + ", but " + what + " is needed here");
        }
        if (accept("[")) {
            if (!d.array) fail(r.pos, "'" + name + "' is not an array");
            r.indexed = true;
            r.index = expr();
            expect("]");
        } else if (d.array) {
            fail(r.pos, "'" + name + "' is an array: write " + name + "[i]");
        }
        return r;
    }
    std::vector<Ref> buffer_list() {
        std::vector<Ref> list{ref({StmtKind::buffer}, "a buffer")};
        while (accept(",")) list.push_back(ref({StmtKind::buffer}, "a buffer"));
        return list;
    }

    void declaration(Statement& s, StmtKind kind) {
        if (depth > 0) fail(s.pos, "declarations belong at the top level, outside for and if");
        const Pos p = peek().pos;
        s.name = ident("a name");
        if (s.name == "my" || s.name == "N") fail(p, "'" + s.name + "' is a reserved word");
        if (names.count(s.name)) fail(p, "'" + s.name + "' is already declared");
        if (accept("[")) {
            s.array = true;
            s.count = expr();
            expect("]");
        }
        if (kind == StmtKind::buffer) s.size = size();
        names[s.name] = static_cast<int>(out.size());
    }

    void statement(Statement& s) {
        const std::string word = ident("a statement");
        if (word == "devices") {
            s.kind = StmtKind::devices;
            if (peek().type != Token::number || !peek().integral)
                fail(peek().pos, "devices takes a whole number, like 'devices 4'");
            s.count.value = static_cast<std::int64_t>(toks[i++].number_value);
        } else if (word == "buffer" || word == "dma_sem" || word == "sem") {
            s.kind = word == "buffer" ? StmtKind::buffer : word == "sem" ? StmtKind::sem : StmtKind::dma_sem;
            declaration(s, s.kind);
        } else if (word == "local_copy" || word == "remote_copy") {
            s.kind = word == "local_copy" ? StmtKind::local_copy : StmtKind::remote_copy;
            s.src = ref({StmtKind::buffer}, "a buffer");
            expect("->");
            s.dst = ref({StmtKind::buffer}, "a buffer");
            if (s.kind == StmtKind::local_copy) {
                expect("sem");
                s.sem = ref({StmtKind::dma_sem}, "a DMA semaphore");
            } else {
                expect("to");
                s.has_device = true;
                s.device = expr();
                expect("send");
                s.sem = ref({StmtKind::dma_sem}, "a DMA semaphore");
                expect("recv");
                s.sem2 = ref({StmtKind::dma_sem}, "a DMA semaphore");
            }
            if (accept("bytes")) {
                s.has_bytes = true;
                s.bytes = size();
            }
        } else if (word == "wait_dma") {
            s.kind = StmtKind::wait_dma;
            s.sem = ref({StmtKind::dma_sem}, "a DMA semaphore");
            const auto it = peek().type == Token::ident ? names.find(peek().text) : names.end();
            if (it != names.end() && out[static_cast<std::size_t>(it->second)].kind == StmtKind::buffer) {
                s.amount_is_buffer = true;
                s.amount_buffer = ref({StmtKind::buffer}, "a buffer");
            } else {
                if (peek().type == Token::end)
                    fail(peek().pos, "wait_dma needs an amount: a size like 4KiB or a buffer");
                s.has_bytes = true;
                s.bytes = size();
            }
        } else if (word == "signal" || word == "wait") {
            s.kind = word == "signal" ? StmtKind::signal : StmtKind::wait;
            s.sem = ref({StmtKind::sem}, "a regular semaphore (use wait_dma for DMA semaphores)");
            if (peek().type != Token::end && !is("to")) {
                s.has_bytes = true;
                s.bytes = expr();
            }
            if (s.kind == StmtKind::signal && accept("to")) {
                s.has_device = true;
                s.device = expr();
            }
        } else if (word == "compute") {
            s.kind = StmtKind::compute;
            const Token t = peek();
            if (t.type != Token::number) fail(t.pos, "compute takes a duration, like 'compute 2us'");
            ++i;
            static const std::pair<const char*, double> units[] = {
                {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
            double scale = 0;
            if (peek().type == Token::ident)
                for (const auto& [unit, sc] : units)
                    if (peek().text == unit) scale = sc;
            if (scale == 0) fail(peek().pos, "a duration needs a unit: ns, us, ms or s");
            ++i;
            s.duration_s = t.number_value * scale;
            if (accept("reads")) s.reads = buffer_list();
            if (accept("writes")) s.writes = buffer_list();
        } else if (word == "barrier") {
            s.kind = StmtKind::barrier;
        } else if (word == "for") {
            s.kind = StmtKind::for_loop;
            const Pos p = peek().pos;
            s.var = ident("a loop variable");
            if (s.var == "my" || s.var == "N" || is_keyword(s.var) || names.count(s.var))
                fail(p, "'" + s.var + "' cannot name a loop variable");
            for (const auto& v : loop_vars)
                if (v == s.var) fail(p, "'" + s.var + "' is already a loop variable here");
            expect("in");
            s.lo = expr();
            expect("..");
            s.hi = expr();
            loop_vars.push_back(s.var);
            ++depth;
        } else if (word == "if") {
            s.kind = StmtKind::if_block;
            s.cond = expr();
            ++depth;
        } else if (word == "else") {
            s.kind = StmtKind::else_block;
        } else if (word == "end") {
            s.kind = StmtKind::end_block;
            if (depth == 0) fail(s.pos, "'end' without a for or if");
            --depth;
        } else {
            fail(s.pos, "unknown statement '" + word + "'");
        }
        if (peek().type != Token::end) fail(peek().pos, "unexpected " + describe(peek()) + " after the statement");
    }
};

}  // namespace

void match_blocks(std::vector<Statement>& statements) {
    std::vector<std::size_t> open;
    for (std::size_t k = 0; k < statements.size(); ++k) {
        Statement& s = statements[k];
        if (s.kind == StmtKind::for_loop || s.kind == StmtKind::if_block) {
            open.push_back(k);
        } else if (s.kind == StmtKind::else_block) {
            if (open.empty() || statements[open.back()].kind != StmtKind::if_block) fail(s.pos, "'else' without an if");
            statements[open.back()].match = k;
            open.back() = k;  // the else now waits for the end
        } else if (s.kind == StmtKind::end_block) {
            if (open.empty()) fail(s.pos, "'end' without a for or if");
            statements[open.back()].match = k;  // an if without else, a for, or an else
            open.pop_back();
        }
    }
    if (!open.empty()) fail(statements[open.back()].pos, "this block has no 'end'");
}

SemProgram parse_program(std::string_view text, std::string name) {
    auto src = std::make_shared<Source>();
    SemProgram p;
    p.name = std::move(name);
    Parser parser{src->statements, {}, {}, {}, 0, 0};
    std::size_t start = 0;
    int line_no = 0;
    std::vector<bool> loop_open;  // per open block: does its `end` pop a loop variable
    while (start <= text.size()) {
        const std::size_t nl = text.find('\n', start);
        const std::string_view line =
            text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        ++line_no;
        p.lines.emplace_back(line);
        parser.toks = lex(line, line_no);
        parser.i = 0;
        if (parser.toks.front().type != Token::end) {
            Statement s;
            s.pos = parser.toks.front().pos;
            parser.statement(s);
            if (s.kind == StmtKind::for_loop || s.kind == StmtKind::if_block)
                loop_open.push_back(s.kind == StmtKind::for_loop);
            if (s.kind == StmtKind::end_block) {
                if (loop_open.back()) parser.loop_vars.pop_back();
                loop_open.pop_back();
            }
            if (s.kind == StmtKind::devices) {
                if (s.count.value < 1 || s.count.value > 4096) fail(s.pos, "devices must be between 1 and 4096");
                p.default_devices = static_cast<int>(s.count.value);
            }
            src->statements.push_back(std::move(s));
        }
        if (nl == std::string_view::npos) break;
        start = nl + 1;
    }
    match_blocks(src->statements);
    p.source = std::move(src);
    return p;
}

}  // namespace tpusim::semdetail

namespace tpusim {

SemProgram parse_semaphore_program(std::string_view text, std::string name) {
    return semdetail::parse_program(text, std::move(name));
}

}  // namespace tpusim
