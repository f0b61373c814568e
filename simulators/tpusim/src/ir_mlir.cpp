// StableHLO as MLIR text, in the pretty form JAX prints by default and in the
// generic form ("stablehlo.add"(%a, %b) : (...) -> ...). An op runs to the
// end of its line unless brackets are open, a region opens (a `{` followed by
// ops) or the next line continues it; a second op may share its line.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "ir_mlir_lex.h"
#include "tpusim/ir.h"

namespace tpusim::ir {

namespace {

using detail::Cursor;
using detail::Tok;
using detail::Token;

bool is(const Token& t, std::string_view text) {
    return t.kind == Tok::punct && t.text == text;
}

std::string unquote(std::string_view quoted) {
    Cursor c(quoted, detail::Comments::none);
    return c.quoted();
}

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text), toks_(detail::lex_mlir(text)) { find_aliases(); }

    std::vector<Op> parse_top() {
        std::vector<Op> ops = parse_block(0, nullptr);
        if (toks_[i_].kind != Tok::end) fail(toks_[i_], "unexpected '" + std::string(toks_[i_].text) + "'");
        return ops;
    }

private:
    [[noreturn]] static void fail(const Token& t, const std::string& what) { Cursor::fail_at(t.position, what); }

    const Token& at(std::size_t k) const { return toks_[std::min(k, toks_.size() - 1)]; }

    std::size_t matching(std::size_t open) const {
        int depth = 0;
        for (std::size_t k = open; k < toks_.size(); ++k) {
            const Token& t = toks_[k];
            if (is(t, "(") || is(t, "[") || is(t, "{")) ++depth;
            if (is(t, ")") || is(t, "]") || is(t, "}")) {
                if (--depth == 0) return k;
            }
            if (depth > max_nesting) fail(t, "brackets nest deeper than " + std::to_string(max_nesting) + " levels");
        }
        fail(toks_[open], "this bracket is never closed");
    }

    bool is_alias_definition(std::size_t k) const {
        return toks_[k].kind == Tok::hash && toks_[k].newline_before && is(at(k + 1), "=");
    }

    void find_aliases() {
        for (std::size_t k = 0; k + 3 < toks_.size(); ++k) {
            if (!is_alias_definition(k) || at(k + 2).text != "loc" || !is(at(k + 3), "(")) continue;
            aliases_[toks_[k].text] = {k + 4, matching(k + 3)};
        }
    }

    // The first op name and the first file:line inside loc(...) tokens.
    void resolve_loc(std::size_t begin, std::size_t end, Metadata& m, int depth) const {
        for (std::size_t k = begin; k < end; ++k) {
            if (!m.op_name.empty() && !m.source_file.empty()) return;
            const Token& t = toks_[k];
            if (t.kind == Tok::string && is(at(k + 1), "(") && m.op_name.empty()) {
                m.op_name = unquote(t.text);
            } else if (t.kind == Tok::string && is(at(k + 1), ":") && at(k + 2).kind == Tok::number &&
                       m.source_file.empty()) {
                m.source_file = unquote(t.text);
                m.source_line = std::atoi(std::string(at(k + 2).text.substr(0, 9)).c_str());
            } else if (t.kind == Tok::hash) {
                const Metadata& sub = alias_metadata(t.text, depth);
                if (m.op_name.empty()) m.op_name = sub.op_name;
                if (m.source_file.empty()) {
                    m.source_file = sub.source_file;
                    m.source_line = sub.source_line;
                }
            }
        }
    }

    // Each alias is resolved once and remembered: aliases that name each other
    // many times over would otherwise cost exponential time. Cycles resolve to nothing.
    const Metadata& alias_metadata(std::string_view name, int depth) const {
        static const Metadata none;
        if (const auto done = resolved_.find(name); done != resolved_.end()) return done->second;
        const auto it = aliases_.find(name);
        if (it == aliases_.end() || depth > max_nesting || in_progress_.count(name)) return none;
        in_progress_.insert(name);
        Metadata m;
        resolve_loc(it->second.first, it->second.second, m, depth + 1);
        in_progress_.erase(name);
        return resolved_[name] = std::move(m);
    }

    // Ops until a `}` or the end; a leading ^bb label gives the block's arguments.
    std::vector<Op> parse_block(int depth, Computation* region) {
        if (depth > max_nesting) fail(at(i_), "regions nest deeper than " + std::to_string(max_nesting) + " levels");
        std::vector<Op> ops;
        while (true) {
            const Token& t = at(i_);
            if (t.kind == Tok::end || is(t, "}")) break;
            if (is_alias_definition(i_)) {
                skip_line();
                continue;
            }
            if (t.kind == Tok::caret) {
                ++i_;
                if (is(at(i_), "(")) {
                    const std::size_t close = matching(i_);
                    if (region) region->parameters = typed_values(i_ + 1, close);
                    i_ = close + 1;
                }
                if (!is(at(i_), ":")) fail(at(i_), "expected ':' after the block label");
                ++i_;
                continue;
            }
            ops.push_back(parse_op(depth));
        }
        return ops;
    }

    void skip_line() {
        ++i_;
        while (at(i_).kind != Tok::end && !at(i_).newline_before) ++i_;
    }

    // `%a: tensor<...>` pairs between two token indices.
    std::vector<Parameter> typed_values(std::size_t begin, std::size_t end) const {
        std::vector<Parameter> out;
        for (std::size_t k = begin; k + 2 <= end; ++k)
            if (toks_[k].kind == Tok::value && is(toks_[k + 1], ":") && detail::is_mlir_type(at(k + 2)))
                out.push_back({std::string(toks_[k].text), detail::mlir_type(toks_[k + 2])});
        return out;
    }

    Op parse_op(int depth) {
        Op op;
        const Token& first = at(i_);
        op.position = first.position;
        while (at(i_).kind == Tok::value) {
            op.results.emplace_back(at(i_).text);
            ++i_;
            if (is(at(i_), ":") && at(i_ + 1).kind == Tok::number) i_ += 2;  // %0:2
            if (is(at(i_), ",")) {
                ++i_;
                continue;
            }
            if (!is(at(i_), "=")) fail(at(i_), "expected '=' after the result name");
            ++i_;
            break;
        }
        const Token& name = at(i_);
        std::string full;
        if (name.kind == Tok::string)
            full = unquote(name.text);
        else if (name.kind == Tok::word)
            full = std::string(name.text);
        else
            fail(name, "expected an operation name");
        const std::size_t dot = full.find('.');
        op.dialect = dot == std::string::npos ? "" : full.substr(0, dot);
        op.name = dot == std::string::npos ? full : full.substr(dot + 1);
        ++i_;

        std::vector<std::size_t> body;  // token indices, regions and locations left out
        int nest = 0;
        bool continued = false;
        while (true) {
            const Token& t = at(i_);
            if (t.kind == Tok::end) break;
            if (nest == 0 && t.newline_before && !continues_on_next_line(i_)) break;
            if (nest == 0 && starts_op(i_)) break;  // another op on the same line
            if (t.text == "reducer" || t.text == "cond" || t.text == "do") continued = true;
            if (is(t, "{") && opens_region(i_)) {
                ++i_;
                op.regions.emplace_back();
                Computation& r = op.regions.back();
                r.position = t.position;
                std::vector<Op> inner = parse_block(depth + 1, &r);
                r.ops = std::move(inner);
                if (!is(at(i_), "}")) fail(t, "this region is never closed with '}'");
                ++i_;
                continue;
            }
            if (t.kind == Tok::word && t.text == "loc" && is(at(i_ + 1), "(")) {
                const std::size_t close = matching(i_ + 1);
                if (nest == 0) resolve_loc(i_ + 2, close, op.metadata, 0);
                i_ = close + 1;
                continue;
            }
            if (is(t, "(") || is(t, "[") || is(t, "{")) {
                if (++nest > max_nesting)
                    fail(t, "brackets nest deeper than " + std::to_string(max_nesting) + " levels");
            } else if (is(t, ")") || is(t, "]") || is(t, "}")) {
                if (nest == 0) break;  // closes something outside this op
                --nest;
            }
            if (!continued) body.push_back(i_);
            ++i_;
        }
        if (nest != 0) fail(first, "the brackets of this operation are not balanced");
        op.last_line = i_ > 0 ? at(i_ - 1).position.line : op.position.line;
        interpret(op, body);
        return op;
    }

    // An op runs on past the end of its line when the line stops mid-phrase
    // (after ',', '=', ':', '->' or an opening bracket), or when the next line
    // cannot begin an op: it goes on with the signature, an attribute
    // (`name =`), an operand, `x [1]`, a region keyword or the location.
    bool continues_on_next_line(std::size_t k) const {
        const Token& t = at(k);
        if (t.kind == Tok::punct && !is(t, "}") && !is(t, ")") && !is(t, "]")) return true;
        if (t.kind == Tok::number) return true;
        if (t.kind == Tok::value) return !starts_op(k);
        if (t.kind == Tok::word) {
            if (t.text == "reducer" || t.text == "cond" || t.text == "do") return true;
            if (is(at(k + 1), "=") || (t.text == "x" && is(at(k + 1), "["))) return true;
            if (t.text == "loc" && is(at(k + 1), "(")) return true;  // the op's location
        }
        const Token& before = toks_[k - 1];
        return is(before, ",") || is(before, "=") || is(before, ":") || is(before, "->") || is(before, "(") ||
               is(before, "[") || is(before, "<");
    }

    // The tokens at k begin an op: `%r =`, `%r:2 =`, `%a, %b =`, a generic
    // op with no results (`"func.return"(`), or a terminator with no results
    // (`stablehlo.return`, `func.return`, `return`).
    bool starts_op(std::size_t k) const {
        const Token& t = at(k);
        if (t.kind == Tok::string) return is(at(k + 1), "(");
        if (t.kind == Tok::word) return t.text == "return" || t.text.ends_with(".return");
        if (t.kind != Tok::value) return false;
        while (at(k).kind == Tok::value) {
            std::size_t next = k + 1;
            if (is(at(next), ":") && at(next + 1).kind == Tok::number) next += 2;
            if (is(at(next), "=")) return true;
            if (!is(at(next), ",")) return false;
            k = next + 1;
        }
        return false;
    }

    // A '{' opens a region when ops follow it (a result, a block label, a
    // quoted generic op, a terminator); otherwise it opens an attribute
    // dictionary, which may run over several lines.
    bool opens_region(std::size_t k) const {
        const Token& next = at(k + 1);
        if (next.kind == Tok::caret || starts_op(k + 1)) return true;
        if (next.kind == Tok::word) {
            const Token& after = at(k + 2);
            return next.text.find('.') != std::string_view::npos && !is(after, "=") && !is(after, ",") &&
                   !is(after, "}") && !is(after, "<");
        }
        return false;
    }

    std::string slice(std::size_t from, std::size_t to) const {  // token indices, inclusive
        const std::size_t b = toks_[from].offset, e = toks_[to].offset + toks_[to].text.size();
        return std::string(text_.substr(b, e - b));
    }

    void interpret(Op& op, const std::vector<std::size_t>& body) {
        // The type signature starts at the last top-level ':'.
        std::size_t colon = body.size();
        int nest = 0;
        for (std::size_t k = 0; k < body.size(); ++k) {
            const Token& t = toks_[body[k]];
            if (is(t, "(") || is(t, "[") || is(t, "{"))
                ++nest;
            else if (is(t, ")") || is(t, "]") || is(t, "}"))
                --nest;
            else if (nest == 0 && is(t, ":"))
                colon = k;
        }
        // Operands, attributes, called symbols.
        nest = 0;
        for (std::size_t k = 0; k < colon; ++k) {
            const Token& t = toks_[body[k]];
            const Token& next = k + 1 < body.size() ? toks_[body[k + 1]] : at(toks_.size() - 1);
            if (is(t, "(") || is(t, "[") || is(t, "{"))
                ++nest;
            else if (is(t, ")") || is(t, "]") || is(t, "}"))
                --nest;
            if (t.kind == Tok::value && !is(next, "=")) op.operands.emplace_back(t.text);
            if (t.kind == Tok::symbol) op.called.push_back(std::string(t.text.substr(1)));
            if (t.kind == Tok::word && is(next, "=") && (nest == 0 || (nest == 1 && in_dict(body, k)))) {
                std::size_t end = k + 2;
                int inner = 0;
                while (end < colon) {
                    const Token& v = toks_[body[end]];
                    if (is(v, "(") || is(v, "[") || is(v, "{"))
                        ++inner;
                    else if (is(v, ")") || is(v, "]") || is(v, "}")) {
                        if (inner == 0) break;
                        --inner;
                    } else if (inner == 0 && is(v, ","))
                        break;
                    ++end;
                }
                if (end > k + 2) op.attributes.push_back({std::string(t.text), slice(body[k + 2], body[end - 1])});
            }
        }
        if (op.name == "constant" && !body.empty() && toks_[body[0]].kind != Tok::punct && !op.attribute("value"))
            op.attributes.push_back({"value", std::string(toks_[body[0]].text)});
        if (op.name == "custom_call" && !op.called.empty())
            op.attributes.push_back({"call_target_name", op.called.front()});
        if (op.name == "func") {
            op.operands.clear();
            return interpret_func(op, body);
        }
        if (colon < body.size()) read_signature(op, body, colon + 1);
    }

    // Is body[k] directly inside a `{...}` dictionary (not inside a nested group)?
    bool in_dict(const std::vector<std::size_t>& body, std::size_t k) const {
        int closed = 0;
        for (std::size_t j = k; j-- > 0;) {
            const Token& t = toks_[body[j]];
            if (is(t, ")") || is(t, "]") || is(t, "}")) {
                ++closed;
            } else if (is(t, "(") || is(t, "[") || is(t, "{")) {
                if (closed > 0)
                    --closed;
                else
                    return is(t, "{");
            }
        }
        return false;
    }

    void read_signature(Op& op, const std::vector<std::size_t>& body, std::size_t k) {
        auto types_until = [&](std::size_t& j, std::vector<TensorType>& out, bool stop_at_paren) {
            int nest = 0;
            for (; j < body.size(); ++j) {
                const Token& t = toks_[body[j]];
                if (is(t, "{"))
                    ++nest;
                else if (is(t, "}"))
                    --nest;
                else if (stop_at_paren && nest == 0 && is(t, ")"))
                    break;
                else if (nest == 0 && detail::is_mlir_type(t))
                    out.push_back(detail::mlir_type(t));
                else if (nest == 0 && !is(t, ",") && !is(t, "(") && !is(t, ")") && !is(t, "->"))
                    fail(t, "expected a type, found '" + std::string(t.text) + "'");
            }
        };
        if (k < body.size() && is(toks_[body[k]], "(")) {
            ++k;
            types_until(k, op.operand_types, true);
            if (k >= body.size()) fail(toks_[body.back()], "expected ')' after the operand types");
            ++k;
            if (k >= body.size() || !is(toks_[body[k]], "->"))
                fail(at(k < body.size() ? body[k] : body.back()), "expected '->' after the operand types");
            ++k;
            types_until(k, op.result_types, false);
        } else {
            types_until(k, op.result_types, false);
            // `stablehlo.add %a, %b : tensor<...>`: one type for operands and result.
            if (op.result_types.size() == 1)
                op.operand_types.assign(op.operands.size(), op.result_types.front());
            else if (op.result_types.size() == op.operands.size())
                op.operand_types = op.result_types;
        }
    }

    void interpret_func(Op& op, const std::vector<std::size_t>& body) {
        Computation c;
        if (!op.regions.empty()) c = std::move(op.regions.front());
        op.regions.clear();
        c.position = op.position;
        int nest = 0;
        for (std::size_t k = 0; k < body.size(); ++k) {
            const Token& t = toks_[body[k]];
            if (t.kind == Tok::symbol && c.name.empty()) c.name = t.text.substr(1);
            if (nest == 0 && (is(t, "<") || is(t, "{"))) break;  // the generic form: read below
            if (is(t, "(") || is(t, "[") || is(t, "{")) ++nest;
            if (is(t, ")") || is(t, "]") || is(t, "}")) --nest;
            if (is(t, "(") && c.parameters.empty()) {
                const std::size_t close = matching(body[k]);
                c.parameters = typed_values(body[k] + 1, close);
            }
            if (is(t, "->") && nest == 0) {
                int braces = 0;
                for (std::size_t j = k + 1; j < body.size(); ++j) {
                    const Token& r = toks_[body[j]];
                    if (is(r, "{"))
                        ++braces;
                    else if (is(r, "}"))
                        --braces;
                    else if (braces == 0 && detail::is_mlir_type(r))
                        c.result_types.push_back(detail::mlir_type(r));
                    else if (r.kind == Tok::word && r.text == "attributes")
                        break;
                }
                break;
            }
        }
        // The generic form: "func.func"() <{function_type = (...) -> ..., sym_name = "main"}>
        if (const std::string* sym = op.attribute("sym_name"); sym && c.name.empty() && sym->starts_with('"'))
            c.name = unquote(*sym);
        if (const std::string* type = op.attribute("function_type"); type && c.result_types.empty()) {
            const auto tokens = detail::lex_mlir(*type);
            bool after_arrow = false;
            for (const auto& t : tokens) {
                if (is(t, "->"))
                    after_arrow = true;
                else if (after_arrow && detail::is_mlir_type(t))
                    c.result_types.push_back(detail::mlir_type(t));
            }
        }
        c.is_entry = c.name == "main";
        op.regions.push_back(std::move(c));
    }

    std::string_view text_;
    std::vector<Token> toks_;
    std::size_t i_ = 0;
    std::map<std::string_view, std::pair<std::size_t, std::size_t>> aliases_;
    mutable std::map<std::string_view, Metadata> resolved_;
    mutable std::set<std::string_view> in_progress_;
};

void collect_functions(std::vector<Op>& ops, Module& m, int depth) {
    if (depth > max_nesting) return;
    for (auto& op : ops) {
        if (op.name == "module" || op.name == "builtin.module") {
            for (std::size_t k = 0; k < op.called.size() && m.name.empty(); ++k) m.name = op.called[k];
            if (const std::string* sym = op.attribute("sym_name"); sym && m.name.empty() && sym->size() >= 2)
                m.name = sym->substr(1, sym->size() - 2);
            for (auto& r : op.regions) collect_functions(r.ops, m, depth + 1);
        } else if (op.dialect == "func" && op.name == "func" && !op.regions.empty()) {
            m.computations.push_back(std::move(op.regions.front()));
        }
    }
}

}  // namespace

Module parse_stablehlo(std::string_view text) {
    Parser p(text);
    std::vector<Op> top = p.parse_top();
    Module m;
    m.format = Format::stablehlo;
    collect_functions(top, m, 0);
    if (m.computations.empty())
        Cursor::fail_at({1, 1}, "expected a 'func.func' (inside 'module { ... }') with the program");
    return m;
}

}  // namespace tpusim::ir
