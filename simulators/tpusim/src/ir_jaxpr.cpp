// jaxprs as JAX prints them:
//   { lambda <constvars> ; <invars>. let <outvars> = prim[params] <atoms> ... in (<outs>) }
// Sub-jaxprs in params (pjit/jit, custom_jvp_call, cond branches, while
// bodies) become the op's regions, named after the param.
#include "ir_text.h"
#include "tpusim/ir.h"

namespace tpusim::ir {

namespace {

using detail::Cursor;

class Parser {
public:
    explicit Parser(std::string_view text) : c_(text, detail::Comments::none) {}

    Module parse() {
        Module m;
        m.format = Format::jaxpr;
        // `let _take = { lambda ... } in`: sub-jaxprs JAX prints once, ahead of
        // the program, when several equations share them (pjit[jaxpr=_take]).
        while (c_.accept("let")) {
            const std::string shared = word("the name of a shared jaxpr");
            c_.expect("=", "after the name of the shared jaxpr '" + shared + "'");
            m.computations.push_back(jaxpr(0));
            m.computations.back().name = shared;
            c_.expect("in", "after the shared jaxpr '" + shared + "'");
        }
        m.computations.push_back(jaxpr(0));
        m.computations.back().is_entry = true;
        m.computations.back().name = "main";
        c_.skip_space();
        if (!c_.at_end()) c_.fail("unexpected text after the end of the jaxpr");
        return m;
    }

private:
    // f32[8,16], bool[], key<fry>[]; a size may be a symbol (-1).
    TensorType type() {
        TensorType t;
        const Position at = c_.position();
        std::string element(c_.name("an element type like f32"));
        if (c_.peek() == '<') element += c_.balanced(true);
        if (!detail::is_element_type(element) && !element.starts_with("key<"))
            Cursor::fail_at(at, "'" + element + "' is not an element type");
        t.element = detail::canonical_element(element);
        c_.expect("[", "after the element type");
        if (!c_.accept("]")) {
            do {
                c_.skip_space();
                if (detail::is_digit(c_.peek())) {
                    t.dims.push_back(c_.integer("a dimension size"));
                } else {
                    c_.name("a dimension size");  // symbolic: b, 2*b
                    t.dims.push_back(-1);
                }
            } while (c_.accept(","));
            c_.expect("]", "after the dimension list");
        }
        if (c_.peek() == '{') c_.balanced();  // {weak}, sharding annotations
        return t;
    }

    // Older JAX printed `{ lambda a ; b c.` with no types: no shape can be known.
    void refuse_untyped_binders() {
        Cursor probe = c_;
        probe.skip_space();
        if (!detail::is_name_start(probe.peek())) return;
        const Position at = probe.position();
        while (detail::is_name_start(probe.peek()) || detail::is_digit(probe.peek())) probe.advance();
        if (probe.peek() != ':')
            Cursor::fail_at(at,
                            "this jaxpr's variables carry no types (an older JAX print format), "
                            "so no shape can be read from it; print it with a newer JAX");
    }

    bool binder_ahead() {
        Cursor probe = c_;
        probe.skip_space();
        if (!detail::is_name_start(probe.peek())) return false;
        while (detail::is_name_start(probe.peek()) || detail::is_digit(probe.peek())) probe.advance();
        return probe.peek() == ':';
    }

    std::vector<Parameter> binders() {
        std::vector<Parameter> out;
        while (binder_ahead()) {
            Parameter p;
            p.name = word("a variable name");
            c_.expect(":", "after the variable name");
            p.type = type();
            out.push_back(std::move(p));
        }
        return out;
    }

    std::string word(std::string_view what) {
        c_.skip_space();
        const std::size_t start = c_.offset();
        if (!detail::is_name_start(c_.peek())) c_.fail("expected " + std::string(what));
        while (detail::is_name_start(c_.peek()) || detail::is_digit(c_.peek())) c_.advance();
        return std::string(c_.text().substr(start, c_.offset() - start));
    }

    Computation jaxpr(int depth) {
        if (depth > max_nesting / 4) c_.fail("jaxprs nest too deeply");
        Computation comp;
        c_.skip_space();
        comp.position = c_.position();
        c_.expect("{", "to open the jaxpr");
        c_.expect("lambda", "after '{'");
        refuse_untyped_binders();
        std::vector<Parameter> consts = binders();
        c_.expect(";", "between the constants and the inputs");
        refuse_untyped_binders();
        comp.parameters = binders();
        comp.parameters.insert(comp.parameters.begin(), consts.begin(), consts.end());
        c_.expect(".", "after the inputs");
        c_.expect("let", "before the equations");
        while (true) {
            c_.skip_space();
            if (c_.at_end()) Cursor::fail_at(comp.position, "this jaxpr is never closed with 'in (...) }'");
            {
                Cursor probe = c_;
                if (probe.accept("in")) {
                    probe.skip_space();
                    if (probe.peek() == '(' || probe.peek() == '}' || detail::is_name_start(probe.peek())) break;
                }
            }
            comp.ops.push_back(equation(depth));
        }
        c_.expect("in", "before the outputs");
        c_.skip_space();
        if (c_.peek() == '(') {
            c_.advance();
            while (!c_.accept(")")) {
                comp.outputs.push_back(atom());
                c_.accept(",");
                if (c_.at_end()) c_.fail("expected ')' after the outputs");
            }
        } else if (c_.peek() != '}') {
            comp.outputs.push_back(atom());
        }
        c_.expect("}", "to close the jaxpr");
        return comp;
    }

    // A variable, or a literal like 2.0:f32[], -inf:f32[], True:bool[], 1.0.
    std::string atom() {
        c_.skip_space();
        const std::size_t start = c_.offset();
        const char ch = c_.peek();
        if (detail::is_digit(ch) || ch == '-' || ch == '+' || ch == '.') {
            c_.advance();
            while (detail::is_name_char(c_.peek()) || c_.peek() == '+') c_.advance();
            if (c_.peek() == ':') {
                c_.advance();
                type();
            }
        } else if (detail::is_name_start(ch)) {
            const std::string w = word("a variable");
            if ((w == "inf" || w == "nan" || w == "True" || w == "False") && c_.peek() == ':') {
                Cursor before = c_;
                c_.advance();
                type();
                if (c_.accept("=")) c_ = before;  // it was the binder of the next equation
            }
        } else {
            c_.fail("expected a variable or a literal");
        }
        return std::string(c_.text().substr(start, c_.offset() - start));
    }

    Op equation(int depth) {
        Op op;
        c_.skip_space();
        op.position = c_.position();
        for (const auto& b : binders()) {
            op.results.push_back(b.name);
            op.result_types.push_back(b.type);
        }
        c_.skip_space();
        if (c_.peek() == '_') {  // a dropped result printed without its type
            word("a variable");
        }
        c_.expect("=", "after the results of the equation");
        op.name = word("a primitive name");
        if (c_.peek() == '[') params(op, depth);
        op.last_line = c_.position().line;
        while (true) {
            c_.skip_space();
            const char ch = c_.peek();
            if (ch == ';') {  // equations on one line are separated by semicolons
                c_.advance();
                break;
            }
            if (ch == '}' || c_.at_end() || binder_ahead()) break;
            if (detail::is_name_start(ch)) {
                Cursor probe = c_;
                if (probe.accept("in")) {
                    probe.skip_space();
                    if (probe.peek() == '(' || probe.peek() == '}') break;
                }
            }
            if (!(detail::is_name_start(ch) || detail::is_digit(ch) || ch == '-' || ch == '.'))
                c_.fail(std::string("unexpected '") + ch + "' among the operands of '" + op.name + "'");
            op.operands.push_back(atom());
            op.last_line = c_.position().line;
        }
        return op;
    }

    void params(Op& op, int depth) {
        c_.expect("[", "to open the params");
        while (!c_.accept("]")) {
            if (c_.at_end()) c_.fail("expected ']' after the params");
            const std::string key = word("a param name");
            c_.expect("=", "after the param name '" + key + "'");
            c_.skip_space();
            const std::size_t start = c_.offset();
            if (c_.peek() == '{') {
                Computation sub = jaxpr(depth + 1);
                sub.name = key;
                op.regions.push_back(std::move(sub));
            } else if (c_.peek() == '(' && sub_jaxprs_follow()) {
                c_.advance();
                int n = 0;
                while (!c_.accept(")")) {
                    Computation sub = jaxpr(depth + 1);
                    sub.name = key + "[" + std::to_string(n++) + "]";
                    op.regions.push_back(std::move(sub));
                    c_.accept(",");
                }
            } else {
                value_text();
            }
            op.attributes.push_back({key, std::string(c_.text().substr(start, c_.offset() - start))});
        }
    }

    bool sub_jaxprs_follow() {
        Cursor probe = c_;
        probe.advance();
        return probe.accept("{") && probe.accept("lambda");
    }

    // Up to the next `name=` or `]` at depth 0.
    void value_text() {
        const std::size_t start = c_.offset();
        while (!c_.at_end()) {
            const char ch = c_.peek();
            if (ch == '(' || ch == '[' || ch == '{') {
                c_.balanced();
            } else if (ch == '"' || ch == '\'') {
                c_.quoted();
            } else if (ch == ']') {
                break;
            } else if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
                Cursor probe = c_;
                probe.skip_space();
                if (probe.peek() == ']') break;
                if (detail::is_name_start(probe.peek())) {
                    while (detail::is_name_start(probe.peek()) || detail::is_digit(probe.peek())) probe.advance();
                    if (probe.peek() == '=') break;
                }
                c_.advance();
            } else {
                c_.advance();
            }
        }
        if (c_.offset() == start) c_.fail("expected a param value");
    }

    Cursor c_;
};

}  // namespace

Module parse_jaxpr(std::string_view text) {
    detail::check_size(text);
    return Parser(text).parse();
}

}  // namespace tpusim::ir
