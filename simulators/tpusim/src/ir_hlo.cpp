// HLO text as XLA prints it: `HloModule name, attrs`, then computations of
// `[ROOT] %name = shape opcode(operands), attr=value, ...` lines. Both the
// long form (with `%`, signatures and operand shapes) and the short form
// are read.
#include <algorithm>
#include <cstdlib>

#include "ir_text.h"
#include "tpusim/ir.h"

namespace tpusim::ir {

namespace {

using detail::Cursor;

constexpr std::string_view name_extra = "%";

std::string strip_percent(std::string_view s) {
    return std::string(s.starts_with('%') ? s.substr(1) : s);
}

void parse_layout(Cursor& c, TensorType& t) {
    c.expect("{", "to open the layout");
    t.has_layout = true;
    c.skip_space();
    while (detail::is_digit(c.peek())) {  // {1,0} or, in some test files, {2, 0, 1}
        t.minor_to_major.push_back(c.integer("a dimension number"));
        if (!c.accept(",")) break;
        c.skip_space();
    }
    if (c.accept(":")) {
        while (true) {
            c.skip_space();
            if (c.peek() == '}' || c.at_end()) break;
            const std::string_view tag = c.name("a layout tag like T(8,128) or S(1)", "#*");
            if (tag == "T") {
                c.skip_space();
                while (c.peek() == '(') {
                    const std::string_view inner = c.balanced();
                    t.tiles.push_back(detail::int_list(inner));
                    c.skip_space();
                }
            } else if (tag == "S") {
                c.expect("(", "after S");
                t.memory_space = static_cast<int>(c.integer("a memory space"));
                c.expect(")", "after the memory space");
            } else {
                c.skip_space();
                if (c.peek() == '(') c.balanced();  // element size, dynamic-shape metadata, ...
            }
        }
    }
    c.expect("}", "to close the layout");
}

TensorType parse_shape(Cursor& c, int depth = 0) {
    if (depth > max_nesting) c.fail("tuple shapes nest too deeply");
    TensorType t;
    c.skip_space();
    if (c.peek() == '(') {
        c.advance();
        t.is_tuple = true;
        if (!c.accept(")")) {
            do {
                t.elements.push_back(parse_shape(c, depth + 1));
            } while (c.accept(","));
            c.expect(")", "to close the tuple shape");
        }
        return t;
    }
    const Position at = c.position();
    const std::string_view element = c.name("a shape such as f32[8,128]");
    if (!detail::is_element_type(element)) Cursor::fail_at(at, "'" + std::string(element) + "' is not an element type");
    t.element = detail::canonical_element(element);
    c.expect("[", "after the element type");
    if (!c.accept("]")) {
        do {
            c.skip_space();
            if (c.accept("?")) {
                t.dims.push_back(-1);
                continue;
            }
            c.accept("<=");  // a bounded dynamic size: keep the bound
            t.dims.push_back(c.integer("a dimension size"));
        } while (c.accept(","));
        c.expect("]", "after the dimension list");
    }
    if (c.peek() == '{') parse_layout(c, t);  // a layout follows with no space; a body `{` does not
    return t;
}

// `op_name="..." source_file="..." source_line=12 ...`
Metadata parse_metadata(std::string_view text, Position at) {
    Metadata m;
    Cursor c(text, detail::Comments::none);
    c.expect("{", "to open the metadata");
    try {
        while (!c.accept("}")) {
            const std::string_view key = c.name("a metadata field");
            c.expect("=", "after the metadata field");
            c.skip_space();
            std::string value;
            if (c.peek() == '"') {
                value = c.quoted();
            } else {
                const std::size_t start = c.offset();
                while (!c.at_end() && c.peek() != ' ' && c.peek() != '}') c.advance();
                value = std::string(text.substr(start, c.offset() - start));
            }
            if (key == "op_name")
                m.op_name = value;
            else if (key == "source_file")
                m.source_file = value;
            else if (key == "source_line")
                m.source_line = std::atoi(value.substr(0, 9).c_str());
        }
    } catch (const ParseError& e) {
        Cursor::fail_at(at, "bad metadata: " + std::string(e.what()));
    }
    return m;
}

// A value up to the next top-level comma: {...}, "...", %name, kLoop, b01f_01io->b01f.
std::string attribute_value(Cursor& c) {
    c.skip_space();
    const std::size_t start = c.offset();
    if (c.peek() == '"') {
        c.quoted();
        return std::string(c.text().substr(start, c.offset() - start));
    }
    while (!c.at_end()) {
        const char ch = c.peek();
        if (ch == '{' || ch == '(' || ch == '[') {
            c.balanced();
        } else if (ch == ',' || ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t' || ch == ')' || ch == '}') {
            break;
        } else {
            c.advance();
        }
    }
    if (c.offset() == start) c.fail("expected a value after '='");
    return std::string(c.text().substr(start, c.offset() - start));
}

// A custom call's `literal=s32[] 1` or `literal=f32[2] {1, 2}`: a shape, a
// space, then the value.
std::string typed_literal(Cursor& c) {
    c.skip_space();
    const std::size_t start = c.offset();
    parse_shape(c);
    c.skip_space();
    if (c.peek() == '{' || c.peek() == '(')
        c.balanced();
    else
        attribute_value(c);
    return std::string(c.text().substr(start, c.offset() - start));
}

void add_called(Op& op, const std::string& value) {
    std::string v = value;
    if (v.starts_with('{')) v = v.substr(1, v.size() - 2);
    std::size_t i = 0;
    while (i < v.size()) {
        while (i < v.size() && (v[i] == ' ' || v[i] == ',' || v[i] == '%')) ++i;
        std::size_t j = i;
        while (j < v.size() && v[j] != ',' && v[j] != ' ') ++j;
        if (j > i) op.called.push_back(v.substr(i, j - i));
        i = j;
    }
}

Op parse_instruction(Cursor& c) {
    Op op;
    c.skip_space();
    op.position = c.position();
    if (c.accept("ROOT")) op.is_root = true;
    op.results.push_back(strip_percent(c.name("an instruction name", name_extra)));
    c.expect("=", "after the instruction name");
    // XLA prints `count = get-tuple-element(p), index=0` where the shape
    // follows from the operands: an opcode straight after the `=`.
    Cursor ahead = c;
    ahead.skip_space();
    bool shapeless = false;
    if (detail::is_name_start(ahead.peek())) {
        const std::string_view word = ahead.name("x");
        ahead.skip_space();
        shapeless = ahead.peek() == '(' && !detail::is_element_type(word);
    }
    op.type_inferred = shapeless;
    op.result_types.push_back(shapeless ? TensorType{} : parse_shape(c));
    op.name = std::string(c.name("an opcode"));
    c.skip_space();
    if (c.peek() != '(') c.fail("expected '(' after the opcode '" + op.name + "'");
    if (op.name == "constant" || op.name == "parameter" || op.name == "iota") {
        const std::string_view inner = c.balanced();
        const std::string value(inner.substr(1, inner.size() - 2));
        if (!value.empty()) op.attributes.push_back({op.name == "constant" ? "literal" : "number", value});
    } else {
        c.advance();
        if (!c.accept(")")) {
            do {
                c.skip_space();
                const bool typed = c.peek() == '(' || (detail::is_name_start(c.peek()) && [&] {
                                       Cursor probe = c;
                                       const auto word = probe.name("x");
                                       return probe.peek() == '[' && detail::is_element_type(word);
                                   }());
                if (typed) op.operand_types.push_back(parse_shape(c));
                c.skip_space();
                const std::size_t start = c.offset();
                std::string operand = strip_percent(c.name("an operand name", name_extra));
                if (c.peek() == '(') {  // a constant printed in place: constant(0)
                    c.balanced();
                    operand = std::string(c.text().substr(start, c.offset() - start));
                }
                op.operands.push_back(std::move(operand));
            } while (c.accept(","));
            c.expect(")", "after the operands");
        }
    }
    while (true) {
        Cursor probe = c;
        if (!probe.accept(",")) break;
        c = probe;
        const Position at = c.position();
        const std::string key(c.name("an attribute name"));
        c.expect("=", "after the attribute name '" + key + "'");
        std::string value = key == "literal" ? typed_literal(c) : attribute_value(c);
        if (key == "metadata") {
            op.metadata = parse_metadata(value, at);
        } else if (key == "calls" || key == "to_apply" || key == "body" || key == "condition" ||
                   key == "branch_computations" || key == "true_computation" || key == "false_computation" ||
                   key == "called_computations") {
            add_called(op, value);
        }
        bool quoted = false;
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
            Cursor q(value, detail::Comments::none);
            value = q.quoted();
            quoted = true;
        }
        op.attributes.push_back({key, std::move(value), quoted});
    }
    op.last_line = c.position().line;
    return op;
}

// `, execution_thread="..."` and friends, printed before the body or after its `}`.
void skip_computation_attributes(Cursor& c) {
    while (c.accept(",")) {
        c.name("a computation attribute");
        c.expect("=", "after the computation attribute");
        attribute_value(c);
    }
}

// The shape an instruction printed without one must have, from its
// operands' shapes, for the opcodes whose shape follows from them alone.
TensorType inferred_type(const Op& op, const std::vector<std::pair<std::string, TensorType>>& known) {
    const auto type_of = [&](std::size_t i) -> const TensorType& {
        if (i < op.operand_types.size()) return op.operand_types[i];
        if (i >= op.operands.size())
            Cursor::fail_at(op.position,
                            "'" + op.results.front() + "' omits its shape and has no operand to take it from");
        for (auto it = known.rbegin(); it != known.rend(); ++it)
            if (it->first == op.operands[i]) return it->second;
        Cursor::fail_at(op.position, "'" + op.results.front() + "' omits its shape, and its operand '" +
                                         op.operands[i] + "' is not defined before it in the computation");
    };
    static constexpr std::string_view same_as_operand[] = {
        "add",      "subtract", "multiply", "divide", "maximum",           "minimum", "power",  "remainder", "and",
        "or",       "xor",      "negate",   "abs",    "exponential",       "log",     "tanh",   "sqrt",      "rsqrt",
        "logistic", "copy",     "floor",    "ceil",   "round-nearest-afz", "sign",    "cosine", "sine",      "not",
        "clamp"};
    if (op.name == "get-tuple-element") {
        const TensorType& tuple = type_of(0);
        const std::string* index = op.attribute("index");
        std::size_t at = 0;
        const bool number = index && !index->empty() &&
                            std::all_of(index->begin(), index->end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        if (number) at = static_cast<std::size_t>(std::stoull(*index));
        if (!tuple.is_tuple || !number || at >= tuple.elements.size())
            Cursor::fail_at(op.position, "'" + op.results.front() + "' omits its shape, and element " +
                                             (index ? *index : "?") + " of its operand's tuple does not exist");
        return tuple.elements[at];
    }
    if (op.name == "tuple") {
        TensorType t;
        t.is_tuple = true;
        for (std::size_t i = 0; i < op.operands.size(); ++i) t.elements.push_back(type_of(i));
        return t;
    }
    if (op.name == "compare") {
        TensorType t = type_of(0);
        t.element = "pred";
        t.has_layout = false;
        t.minor_to_major.clear();
        t.tiles.clear();
        return t;
    }
    if (op.name == "select") return type_of(1);
    if (std::find(std::begin(same_as_operand), std::end(same_as_operand), op.name) != std::end(same_as_operand))
        return type_of(op.name == "clamp" ? 1 : 0);
    Cursor::fail_at(op.position, "'" + op.results.front() + "' omits its shape: tpusim infers the shape of a " +
                                     "get-tuple-element, tuple, compare, select or elementwise op, not of a '" +
                                     op.name + "'; print the module with every shape");
}

Computation parse_computation(Cursor& c) {
    Computation comp;
    c.skip_space();
    comp.position = c.position();
    if (c.accept("ENTRY")) comp.is_entry = true;
    comp.name = strip_percent(c.name("a computation name", name_extra));
    c.skip_space();
    if (c.peek() == '(') {
        c.advance();
        if (!c.accept(")")) {
            do {
                Parameter p;
                p.name = strip_percent(c.name("a parameter name", name_extra));
                c.expect(":", "after the parameter name");
                p.type = parse_shape(c);
                comp.parameters.push_back(std::move(p));
            } while (c.accept(","));
            c.expect(")", "after the parameters");
        }
        c.expect("->", "before the result shape");
        const TensorType result = parse_shape(c);
        if (result.is_tuple)
            comp.result_types = result.elements;
        else
            comp.result_types.push_back(result);
    }
    skip_computation_attributes(c);
    c.expect("{", "to open the computation body");
    std::vector<std::pair<std::string, TensorType>> known;
    for (const Parameter& p : comp.parameters) known.emplace_back(p.name, p.type);
    while (!c.accept("}")) {
        if (c.at_end()) Cursor::fail_at(comp.position, "computation '" + comp.name + "' is never closed with '}'");
        Op op = parse_instruction(c);
        if (op.type_inferred) op.result_types.front() = inferred_type(op, known);
        known.emplace_back(op.results.front(), op.result_types.front());
        comp.ops.push_back(std::move(op));
    }
    skip_computation_attributes(c);  // }, execution_thread="mythread"
    return comp;
}

}  // namespace

Module parse_hlo(std::string_view text) {
    detail::check_size(text);
    Module m;
    m.format = Format::hlo;
    Cursor c(text, detail::Comments::slashes_and_blocks);
    if (c.accept("HloModule")) {
        m.name = c.name("the module name", name_extra);
        while (c.accept(",")) {
            std::string key(c.name("a module attribute"));
            c.expect("=", "after the module attribute");
            m.attributes.push_back({std::move(key), attribute_value(c)});
        }
    }
    c.skip_space();
    while (!c.at_end()) {
        // Two modules pasted together: say so, rather than read the second
        // one's header as a computation.
        Cursor probe = c;
        if (probe.accept("HloModule"))
            c.fail("a second HloModule starts here: this file holds more than one module; give one at a time");
        m.computations.push_back(parse_computation(c));
        c.skip_space();
    }
    if (m.computations.empty()) c.fail("expected a computation (for example 'ENTRY %main { ... }')");
    return m;
}

}  // namespace tpusim::ir
