// An unfused op graph from an HLO module: the entry computation with every
// fusion and call inlined, so an optimized dump can be fused again from
// scratch and compared with what XLA did.
#include <algorithm>
#include <array>
#include <map>

#include "fusion_hlo_detail.h"
#include "tpusim/error.h"
#include "tpusim/fusion.h"

namespace tpusim::fusion {

namespace {

constexpr std::array<std::string_view, 38> elementwise_ops{"add",
                                                           "subtract",
                                                           "multiply",
                                                           "divide",
                                                           "maximum",
                                                           "minimum",
                                                           "exponential",
                                                           "log",
                                                           "tanh",
                                                           "rsqrt",
                                                           "sqrt",
                                                           "negate",
                                                           "abs",
                                                           "compare",
                                                           "select",
                                                           "power",
                                                           "logistic",
                                                           "exponential-minus-one",
                                                           "log-plus-one",
                                                           "sine",
                                                           "cosine",
                                                           "and",
                                                           "or",
                                                           "not",
                                                           "xor",
                                                           "clamp",
                                                           "floor",
                                                           "ceil",
                                                           "round-nearest-even",
                                                           "sign",
                                                           "is-finite",
                                                           "atan2",
                                                           "remainder",
                                                           "erf",
                                                           "cbrt",
                                                           "round-nearest-afz",
                                                           "shift-left",
                                                           "popcnt"};
constexpr std::array<std::string_view, 12> movement_ops{"broadcast", "reshape", "bitcast", "copy",
                                                        "transpose", "convert", "slice",   "concatenate",
                                                        "pad",       "reverse", "iota",    "bitcast-convert"};

template <std::size_t N>
bool in(const std::array<std::string_view, N>& set, std::string_view op) {
    return std::find(set.begin(), set.end(), op) != set.end();
}

DType dtype_of(const std::string& element) {
    if (element == "s32") return DType::int32;
    if (element == "s8") return DType::int8;
    try {
        return parse_dtype(element);
    } catch (const InputError&) {
        return DType::f32;  // only picks an MXU rate; the bytes come from element_bytes
    }
}

std::vector<std::int64_t> int_list(const std::string& text) {
    std::vector<std::int64_t> out;
    std::int64_t v = 0;
    bool any = false;
    for (char c : text + ",") {
        if (c >= '0' && c <= '9') {
            if (v > INT64_MAX / 16) throw InputError("the number in '" + text + "' is too large");
            v = v * 10 + (c - '0');
            any = true;
        } else if (any) {
            out.push_back(v);
            v = 0;
            any = false;
        }
    }
    return out;
}

struct Importer {
    const ir::Module& module;
    Graph graph;

    Node base(const ir::Op& op) const {
        Node n;
        n.name = op.results.empty() ? op.name : op.results.front();
        n.opcode = op.name;
        if (op.result_types.empty()) throw InputError("'" + n.name + "' has no result type");
        const ir::TensorType& t = op.result_types.front();
        if (t.is_tuple || t.element.empty()) {  // a tuple-valued op: cost it as one flat buffer
            double total = 0;
            for (const auto& e : t.elements)
                total += std::max<double>(0, static_cast<double>(e.element_count())) * ir::element_bytes(e.element);
            n.shape = {1};
            n.element_bytes = std::max(total, 1.0);
        } else {
            n.shape = t.dims;
            n.element_bytes = ir::element_bytes(t.element);
            if (n.element_bytes == 0) n.element_bytes = 4;
            n.dtype = dtype_of(t.element);
        }
        return n;
    }

    std::vector<int> emit(const ir::Computation& c, const std::vector<std::vector<int>>& args, int depth) {
        if (depth > 32) throw InputError("computations call each other more than 32 deep");
        std::map<std::string, std::vector<int>> values;
        auto value = [&](const std::string& name) -> const std::vector<int>& {
            const auto it = values.find(name);
            if (it == values.end()) throw InputError("'" + name + "' is used before it is defined in '" + c.name + "'");
            if (it->second.empty()) throw InputError("'" + name + "' in '" + c.name + "' holds no value to read");
            return it->second;
        };
        // The first number of an attribute such as number=2 or index=0; an
        // attribute with no number is refused rather than read past.
        auto first_number = [&](const std::string& text, const std::string& op_name, const char* what) {
            const auto numbers = int_list(text);
            if (numbers.empty() || numbers.front() < 0)
                throw InputError("'" + op_name + "' gives no " + what + " in \"" + text + "\"");
            return static_cast<std::size_t>(numbers.front());
        };
        std::vector<int> root;
        for (const ir::Op& op : c.ops) {
            std::vector<int> result;
            std::vector<int> inputs;
            for (const auto& o : op.operands)
                if (!o.starts_with("constant(")) inputs.push_back(value(o).front());
            const std::string name = op.results.empty() ? op.name : op.results.front();
            if (op.name == "parameter") {
                const std::string* number = op.attribute("number");
                const std::size_t k = number ? first_number(*number, name, "parameter number") : 0;
                if (depth > 0) {
                    if (k >= args.size())
                        throw InputError("'" + name + "' reads parameter " + std::to_string(k) +
                                         " that the caller does not pass");
                    result = args[k];
                } else {
                    Node n = base(op);
                    n.cls = OpClass::parameter;
                    result = {graph.add(std::move(n))};
                }
            } else if (op.name == "constant") {
                Node n = base(op);
                n.cls = n.shape.empty() ? OpClass::constant : OpClass::parameter;  // arrays are read from HBM
                result = {graph.add(std::move(n))};
            } else if (op.name == "tuple") {
                for (const auto& o : op.operands) result.push_back(value(o).front());
            } else if (op.name == "get-tuple-element") {
                const auto& t = value(op.operands.at(0));
                const std::string* index = op.attribute("index");
                const std::size_t k = index ? first_number(*index, name, "tuple index") : 0;
                result = {k < t.size() ? t[k] : t.front()};
            } else if ((op.name == "fusion" || op.name == "call") && !op.called.empty()) {
                const ir::Computation* callee = module.find(op.called.front());
                if (!callee)
                    throw InputError("'" + name + "' calls '" + op.called.front() +
                                     "', which the module does not define");
                std::vector<std::vector<int>> call_args;
                for (const auto& o : op.operands) call_args.push_back(value(o));
                result = emit(*callee, call_args, depth + 1);
            } else {
                Node n = base(op);
                n.inputs = inputs;
                double elements = 1;
                for (auto d : n.shape) elements *= static_cast<double>(d);
                if (op.name == "dot" || ir::is_ragged_dot(op)) {
                    const auto& lhs = graph.node(inputs.at(0)).shape;
                    const auto& rhs = graph.node(inputs.at(1)).shape;
                    n.cls = OpClass::dot;
                    if (op.name == "dot") {
                        n.flops = ir::dot_general_shape(lhs, rhs,
                                                        ir::dot_dims_of(op, ir::Format::hlo, lhs.size(), rhs.size()))
                                      .flops;
                    } else {
                        const auto& sizes = graph.node(inputs.at(2)).shape;
                        if (sizes.empty()) throw InputError("'" + name + "': the group sizes must be an array");
                        n.flops =
                            ir::ragged_dot_shape(lhs, rhs, ir::ragged_dot_dims_of(op, ir::Format::hlo), sizes.back())
                                .flops;
                    }
                    n.dtype = graph.node(inputs.at(0)).dtype;
                } else if (op.name == "convolution") {
                    // 2 x output elements x (kernel elements / output features).
                    const auto& kernel = graph.node(inputs.at(1)).shape;
                    double kernel_elements = 1;
                    for (auto d : kernel) kernel_elements *= static_cast<double>(d);
                    std::size_t out_feature = kernel.empty() ? 0 : kernel.size() - 1;
                    if (const std::string* labels = op.attribute("dim_labels")) {
                        const auto us = labels->find('_'), arrow = labels->find("->");
                        if (us != std::string::npos && arrow != std::string::npos) {
                            const auto o = labels->substr(us + 1, arrow - us - 1).find('o');
                            if (o != std::string::npos && o < kernel.size()) out_feature = o;
                        }
                    }
                    n.cls = OpClass::dot;
                    n.flops =
                        kernel.empty() ? 0 : 2 * elements * kernel_elements / static_cast<double>(kernel[out_feature]);
                    n.dtype = graph.node(inputs.at(0)).dtype;
                } else if (op.name == "reduce") {
                    n.cls = OpClass::reduce;
                    n.inputs = {inputs.at(0)};  // the init value is a constant
                    n.flops = graph.node(inputs.at(0)).bytes() / graph.node(inputs.at(0)).element_bytes;
                    std::string kind = "reduce";
                    if (!op.called.empty())
                        if (const ir::Computation* body = module.find(op.called.front()); body && !body->ops.empty())
                            kind = "reduce_" + body->ops.back().name;
                    n.opcode = kind;
                } else if (in(elementwise_ops, op.name)) {
                    n.cls = OpClass::elementwise;
                    n.flops = elements;
                } else if (in(movement_ops, op.name)) {
                    n.cls = OpClass::movement;
                } else {
                    n.cls = OpClass::other;
                }
                result = {graph.add(std::move(n))};
            }
            if (!op.results.empty()) values[op.results.front()] = result;
            if (op.is_root) root = result;
        }
        if (root.empty() && !c.ops.empty())
            root = values[c.ops.back().results.empty() ? "" : c.ops.back().results.front()];
        return root;
    }
};

}  // namespace

OpWork op_work(const ir::Module& module, const ir::Computation& wrapped) {
    Importer imp{module, Graph(wrapped.name)};
    imp.emit(wrapped, {}, 0);
    OpWork work;
    for (const Node& n : imp.graph.nodes()) {
        work.flops += n.flops;
        if (n.cls == OpClass::dot) {
            work.engine = Engine::mxu;
            work.dtype = n.dtype;
        }
    }
    return work;
}

Graph graph_from_hlo(const ir::Module& module) {
    if (module.format != ir::Format::hlo) throw InputError("the fusion pass reads HLO modules only");
    Importer imp{module, Graph(module.name.empty() ? "hlo" : module.name)};
    const std::vector<int> outputs = imp.emit(module.entry(), {}, 0);
    for (int id : outputs) imp.graph.mark_output(id);
    return std::move(imp.graph);
}

}  // namespace tpusim::fusion
