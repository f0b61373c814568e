// Printing a parsed module back in its own IR. The layout is canonical rather
// than byte-identical to the dump; what the model holds survives a round trip.
#include <functional>

#include "ir_text.h"
#include "tpusim/ir.h"

namespace tpusim::ir {

namespace {

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c == '\n' ? 'n' : c;
        if (c == '\n') out.insert(out.size() - 1, "\\");
    }
    return out + "\"";
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
    return out;
}

// ---- HLO ----

void print_hlo(const Module& m, std::string& out) {
    out += "HloModule " + (m.name.empty() ? std::string("module") : m.name) + "\n";
    for (const auto& c : m.computations) {
        out += "\n" + std::string(c.is_entry ? "ENTRY " : "") + "%" + c.name;
        if (!c.parameters.empty() || !c.result_types.empty()) {
            std::vector<std::string> ps;
            for (const auto& p : c.parameters) ps.push_back(p.name + ": " + type_text(p.type, true));
            TensorType result;
            if (c.result_types.size() == 1)
                result = c.result_types.front();
            else {
                result.is_tuple = true;
                result.elements = c.result_types;
            }
            out += " (" + join(ps, ", ") + ") -> " + type_text(result, true);
        }
        out += " {\n";
        for (const auto& op : c.ops) {
            out += "  " + std::string(op.is_root ? "ROOT " : "") + "%" + op.results.front() + " = " +
                   type_text(op.result_types.front(), true) + " " + op.name + "(";
            std::vector<std::string> operands;
            if (const std::string* lit = op.attribute(op.name == "constant" ? "literal" : "number"))
                operands.push_back(*lit);
            for (std::size_t i = 0; i < op.operands.size(); ++i) {
                const bool inline_constant = op.operands[i].starts_with("constant(");
                std::string o = (i < op.operand_types.size() ? type_text(op.operand_types[i], true) + " " : "");
                operands.push_back(o + (inline_constant ? "" : "%") + op.operands[i]);
            }
            out += join(operands, ", ") + ")";
            for (const auto& a : op.attributes) {
                if ((op.name == "constant" && a.name == "literal") || (op.name == "parameter" && a.name == "number") ||
                    (op.name == "iota" && a.name == "number"))
                    continue;
                out += ", " + a.name + "=" + (a.quoted ? quote(a.value) : a.value);
            }
            out += "\n";
        }
        out += "}\n";
    }
}

// ---- StableHLO ----

std::string mlir_element(const std::string& e) {
    if (e == "pred") return "i1";
    if (e.size() > 1 && e[0] == 's' && detail::is_digit(e[1])) return "i" + e.substr(1);
    if (e.size() > 1 && e[0] == 'u' && detail::is_digit(e[1])) return "ui" + e.substr(1);
    return e;
}

std::string mlir_type(const TensorType& t) {
    if (t.is_tuple) {
        std::vector<std::string> parts;
        for (const auto& e : t.elements) parts.push_back(mlir_type(e));
        return "tuple<" + join(parts, ", ") + ">";
    }
    if (t.element == "token") return "!stablehlo.token";
    std::string s = "tensor<";
    for (auto d : t.dims) s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
    return s + mlir_element(t.element) + ">";
}

std::string mlir_types(const std::vector<TensorType>& ts) {
    std::vector<std::string> parts;
    for (const auto& t : ts) parts.push_back(mlir_type(t));
    return join(parts, ", ");
}

std::string mlir_loc(const Metadata& m) {
    if (m.op_name.empty() && m.source_file.empty()) return "";
    const std::string file =
        m.source_file.empty() ? "" : quote(m.source_file) + ":" + std::to_string(m.source_line) + ":0";
    if (m.op_name.empty()) return " loc(" + file + ")";
    return " loc(" + quote(m.op_name) + "(" + (file.empty() ? "unknown" : file) + "))";
}

void print_mlir_ops(const std::vector<Op>& ops, int indent, std::string& out);

void print_mlir_op(const Op& op, int indent, std::string& out) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    out += pad;
    if (!op.results.empty()) {
        out += join(op.results, ", ");
        if (op.results.size() == 1 && op.result_types.size() > 1) out += ":" + std::to_string(op.result_types.size());
        out += " = ";
    }
    out += (op.dialect.empty() ? "" : op.dialect + ".") + op.name;
    for (const auto& c : op.called) out += " @" + c;
    std::vector<std::string> parts = op.operands;
    for (const auto& a : op.attributes) {
        if (a.name == "call_target_name") continue;
        if (op.name == "constant" && a.name == "value") {
            out += " " + a.value;
            continue;
        }
        parts.push_back(a.name + " = " + a.value);
    }
    if (!parts.empty()) out += " " + join(parts, ", ");
    if (!op.operand_types.empty() || !op.result_types.empty())
        out += " : (" + mlir_types(op.operand_types) + ") -> (" + mlir_types(op.result_types) + ")";
    out += mlir_loc(op.metadata);
    for (const auto& r : op.regions) {
        out += " {\n";
        if (!r.parameters.empty()) {
            std::vector<std::string> ps;
            for (const auto& p : r.parameters) ps.push_back(p.name + ": " + mlir_type(p.type));
            out += pad + "^bb0(" + join(ps, ", ") + "):\n";
        }
        print_mlir_ops(r.ops, indent + 2, out);
        out += pad + "}";
    }
    out += "\n";
}

void print_mlir_ops(const std::vector<Op>& ops, int indent, std::string& out) {
    for (const auto& op : ops) print_mlir_op(op, indent, out);
}

void print_stablehlo(const Module& m, std::string& out) {
    out += "module" + (m.name.empty() ? std::string() : " @" + m.name) + " {\n";
    for (const auto& c : m.computations) {
        std::vector<std::string> ps;
        for (const auto& p : c.parameters) ps.push_back(p.name + ": " + mlir_type(p.type));
        out += "  func.func @" + c.name + "(" + join(ps, ", ") + ") -> (" + mlir_types(c.result_types) + ") {\n";
        print_mlir_ops(c.ops, 4, out);
        out += "  }\n";
    }
    out += "}\n";
}

// ---- jaxpr ----

std::string jaxpr_type(const TensorType& t) {
    std::string e = t.element;
    if (e == "pred")
        e = "bool";
    else if (e.size() > 1 && e[0] == 's' && detail::is_digit(e[1]))
        e = "i" + e.substr(1);
    return e + "[" + dims_text(t.dims) + "]";
}

void print_jaxpr(const Computation& c, int indent, std::string& out) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    std::vector<std::string> ps;
    for (const auto& p : c.parameters) ps.push_back(p.name + ":" + jaxpr_type(p.type));
    out += "{ lambda ; " + join(ps, " ") + ". let\n";
    for (const auto& op : c.ops) {
        std::vector<std::string> rs;
        for (std::size_t i = 0; i < op.results.size(); ++i)
            rs.push_back(op.results[i] + (i < op.result_types.size() ? ":" + jaxpr_type(op.result_types[i]) : ""));
        out += pad + "    " + join(rs, " ") + " = " + op.name;
        if (!op.attributes.empty()) {
            std::vector<std::string> as;
            for (const auto& a : op.attributes) as.push_back(a.name + "=" + a.value);
            out += "[" + join(as, " ") + "]";
        }
        for (const auto& o : op.operands) out += " " + o;
        out += "\n";
    }
    out += pad + "  in (" + join(c.outputs, ", ") + (c.outputs.size() == 1 ? "," : "") + ") }";
}

}  // namespace

std::string print(const Module& module) {
    std::string out;
    switch (module.format) {
        case Format::hlo:
            print_hlo(module, out);
            break;
        case Format::stablehlo:
            print_stablehlo(module, out);
            break;
        case Format::jaxpr:
            if (!module.computations.empty()) print_jaxpr(module.computations.front(), 0, out);
            out += "\n";
            break;
    }
    return out;
}

}  // namespace tpusim::ir
