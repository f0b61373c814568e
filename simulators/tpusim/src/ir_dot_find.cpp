// Finding the dots of a parsed module and reading their dimension numbers in
// whichever spelling the IR uses.
#include <map>

#include "ir_dot_detail.h"
#include "ir_text.h"
#include "tpusim/ir_dot.h"

namespace tpusim::ir {

namespace {

struct Scope {
    std::map<std::string, TensorType, std::less<>> types;
    const Scope* parent = nullptr;

    const TensorType* find(std::string_view name) const {
        for (const Scope* s = this; s; s = s->parent) {
            const auto it = s->types.find(name);
            if (it != s->types.end()) return &it->second;
        }
        return nullptr;
    }
};

}  // namespace

bool is_matmul_convolution(const Op& op) {
    if (op.name != "convolution") return false;
    const std::string* labels = op.attribute("dim_labels");
    if (!labels) return false;
    // "bf_io->bf": no spatial dims, so the convolution is a matmul (XLA on TPU
    // prints many dots this way).
    return *labels == "bf_io->bf" || *labels == "bf_oi->bf";
}

DotDims dot_dims_of(const Op& op, Format format, std::size_t lhs_rank, std::size_t rhs_rank) {
    if (is_matmul_convolution(op)) {
        DotDims d;
        d.lhs_contracting = {1};
        d.rhs_contracting = {*op.attribute("dim_labels") == "bf_io->bf" ? 0 : 1};
        return d;
    }
    if (format == Format::jaxpr) {
        const std::string* dn = op.attribute("dimension_numbers");
        if (!dn) throw InputError("dot_general has no dimension_numbers param");
        return parse_jaxpr_dimension_numbers(*dn);
    }
    if (format == Format::stablehlo) {
        if (const std::string* g = op.attribute("dot_dimension_numbers")) return parse_stablehlo_dot_dims(*g);
        std::string text;
        if (const std::string* b = op.attribute("batching_dims")) text += "batching_dims = " + *b + ", ";
        if (const std::string* c = op.attribute("contracting_dims")) text += "contracting_dims = " + *c;
        if (!text.empty() || op.name == "dot_general") return parse_stablehlo_dot_dims(text);
    } else if (std::optional<DotDims> d = detail::hlo_dot_dims(op)) {
        return *d;
    }
    // A plain dot: vector or matrix, the last lhs dim against the first rhs dim.
    if (lhs_rank < 1 || lhs_rank > 2 || rhs_rank < 1 || rhs_rank > 2)
        throw InputError("a plain dot takes vectors or matrices, not rank " + std::to_string(lhs_rank) + " and rank " +
                         std::to_string(rhs_rank));
    DotDims d;
    d.lhs_contracting = {static_cast<std::int64_t>(lhs_rank) - 1};
    d.rhs_contracting = {0};
    return d;
}

namespace {

const TensorType& operand_type(const Op& op, std::size_t i, const Scope& scope) {
    if (op.operands.size() < 2)
        throw InputError(op.name + " needs two operands, found " + std::to_string(op.operands.size()));
    if (i < op.operand_types.size() && !op.operand_types[i].is_tuple && !op.operand_types[i].element.empty())
        return op.operand_types[i];
    const TensorType* t = scope.find(op.operands[i]);
    if (!t) throw InputError("the type of operand '" + op.operands[i] + "' is not known");
    return *t;
}

void record_results(const Op& op, Scope& scope) {
    if (op.results.size() == op.result_types.size()) {
        for (std::size_t i = 0; i < op.results.size(); ++i) scope.types[op.results[i]] = op.result_types[i];
    } else if (op.results.size() == 1 && op.result_types.size() > 1) {  // %0:2
        for (std::size_t i = 0; i < op.result_types.size(); ++i)
            scope.types[op.results[0] + "#" + std::to_string(i)] = op.result_types[i];
    }
}

void walk(const Computation& c, const Scope* parent, Format format, std::vector<DotSite>& out, int depth) {
    if (depth > max_nesting) return;
    Scope scope;
    scope.parent = parent;
    for (const auto& p : c.parameters) scope.types[p.name] = p.type;
    for (const auto& op : c.ops) {
        const bool ragged = is_ragged_dot(op);
        if (op.name == "dot_general" || op.name == "dot" || is_matmul_convolution(op) || ragged) {
            try {
                DotSite s;
                s.op = op.name;
                s.result = op.results.empty() ? "" : op.results.front();
                s.position = op.position;
                s.metadata = op.metadata;
                const TensorType& lhs = operand_type(op, 0, scope);
                const TensorType& rhs = operand_type(op, 1, scope);
                s.lhs_shape = lhs.dims;
                s.rhs_shape = rhs.dims;
                s.lhs_element = lhs.element;
                s.rhs_element = rhs.element;
                DotShape shape;
                if (ragged) {
                    if (op.operands.size() < 3) throw InputError("a ragged dot needs its group sizes operand");
                    const std::vector<std::int64_t>& sizes = operand_type(op, 2, scope).dims;
                    if (sizes.empty()) throw InputError("the group sizes must be an array, not a scalar");
                    const RaggedDotDims dims = ragged_dot_dims_of(op, format);
                    s.dims = dims.dot;
                    shape = ragged_dot_shape(s.lhs_shape, s.rhs_shape, dims, sizes.back());
                } else {
                    s.dims = dot_dims_of(op, format, s.lhs_shape.size(), s.rhs_shape.size());
                    shape = dot_general_shape(s.lhs_shape, s.rhs_shape, s.dims);
                }
                s.output_shape = shape.output;
                s.flops = shape.flops;
                // The printed result is the check on every reading of the dims
                // and operands; without one a misread would pass unseen.
                if (op.result_types.empty())
                    throw InputError("no result type is printed, so the decoded shape cannot be checked");
                s.element = op.result_types.front().element;
                s.printed_output_shape = op.result_types.front().dims;
                if (s.printed_output_shape != s.output_shape)
                    throw InputError("the result is printed as [" + dims_text(s.printed_output_shape) +
                                     "] but the dimension numbers give [" + dims_text(s.output_shape) + "]");
                out.push_back(std::move(s));
            } catch (const ParseError&) {
                throw;
            } catch (const InputError& e) {
                throw ParseError(op.position.line, op.position.column, op.name + ": " + e.what());
            }
        }
        record_results(op, scope);
        for (const auto& r : op.regions) walk(r, &scope, format, out, depth + 1);
    }
}

}  // namespace

std::vector<DotSite> find_dots(const Module& module) {
    std::vector<DotSite> out;
    for (const auto& c : module.computations) walk(c, nullptr, module.format, out, 0);
    return out;
}

}  // namespace tpusim::ir
