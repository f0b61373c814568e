// Building op graphs: validated constructors and the built-in examples.
#include <algorithm>
#include <array>

#include "tpusim/error.h"
#include "tpusim/fusion.h"

namespace tpusim::fusion {

namespace {

double count(const std::vector<std::int64_t>& shape) {
    double n = 1;
    for (auto d : shape) n *= static_cast<double>(d);
    return n;
}

void check_shape(const std::string& name, const std::vector<std::int64_t>& shape) {
    for (auto d : shape)
        if (d < 1)
            throw InputError("'" + name + "' has shape [" + ir::dims_text(shape) +
                             "]: every size must be a positive integer");
}

}  // namespace

double Node::bytes() const {
    return count(shape) * element_bytes;
}

bool is_expensive(std::string_view opcode) {
    static constexpr std::array<std::string_view, 20> names{
        "exp",          "exponential", "log", "tanh",  "logistic", "rsqrt", "sqrt", "div",    "divide",
        "pow",          "power",       "erf", "atan2", "sin",      "sine",  "cos",  "cosine", "exponential-minus-one",
        "log-plus-one", "remainder"};
    return std::find(names.begin(), names.end(), opcode) != names.end();
}

const Node& Graph::node(int id) const {
    if (id < 0 || id >= static_cast<int>(nodes_.size()))
        throw InputError("node " + std::to_string(id) + " does not exist in graph '" + name_ + "'");
    return nodes_[static_cast<std::size_t>(id)];
}

int Graph::add(Node node) {
    check_shape(node.name, node.shape);
    for (int in : node.inputs) this->node(in);  // throws for an unknown input
    if (!(node.flops >= 0)) throw InputError("'" + node.name + "' must have zero or more FLOPs");
    node.expensive = node.expensive || is_expensive(node.opcode);
    nodes_.push_back(std::move(node));
    return static_cast<int>(nodes_.size()) - 1;
}

int Graph::parameter(const std::string& name, std::vector<std::int64_t> shape, DType dtype) {
    Node n{name, "parameter", OpClass::parameter, {}, std::move(shape), tpusim::bytes(dtype), dtype};
    return add(std::move(n));
}

int Graph::constant(const std::string& name, DType dtype) {
    return add(Node{name, "constant", OpClass::constant, {}, {}, tpusim::bytes(dtype), dtype});
}

int Graph::elementwise(const std::string& name, const std::string& opcode, std::vector<int> inputs,
                       double flops_per_element) {
    if (inputs.empty()) throw InputError("'" + name + "' needs at least one input");
    std::vector<std::int64_t> shape;
    DType dtype = DType::f32;
    for (int in : inputs) {
        const Node& i = node(in);
        if (i.shape.empty()) continue;  // a scalar broadcasts
        if (!shape.empty() && shape != i.shape)
            throw InputError("'" + name + "' mixes shapes [" + ir::dims_text(shape) + "] and [" +
                             ir::dims_text(i.shape) + "]: broadcast first");
        shape = i.shape;
        dtype = i.dtype;
    }
    if (shape.empty()) dtype = node(inputs.front()).dtype;
    Node n{name, opcode, OpClass::elementwise, std::move(inputs), shape, tpusim::bytes(dtype), dtype};
    n.flops = count(shape) * flops_per_element;
    return add(std::move(n));
}

int Graph::broadcast(const std::string& name, int input, std::vector<std::int64_t> shape) {
    const Node& i = node(input);
    Node n{name, "broadcast", OpClass::movement, {input}, std::move(shape), i.element_bytes, i.dtype};
    return add(std::move(n));
}

int Graph::convert(const std::string& name, int input, DType to) {
    const Node& i = node(input);
    return add(Node{name, "convert", OpClass::movement, {input}, i.shape, tpusim::bytes(to), to});
}

int Graph::reduce(const std::string& name, const std::string& opcode, int input, std::vector<int> axes) {
    const Node& i = node(input);
    std::vector<std::int64_t> shape;
    for (std::size_t d = 0; d < i.shape.size(); ++d)
        if (std::find(axes.begin(), axes.end(), static_cast<int>(d)) == axes.end()) shape.push_back(i.shape[d]);
    for (int a : axes)
        if (a < 0 || a >= static_cast<int>(i.shape.size()))
            throw InputError("'" + name + "' reduces axis " + std::to_string(a) + " of a rank-" +
                             std::to_string(i.shape.size()) + " array");
    Node n{name, opcode, OpClass::reduce, {input}, std::move(shape), i.element_bytes, i.dtype};
    n.flops = count(i.shape);  // one add (or max) per input element
    return add(std::move(n));
}

int Graph::dot(const std::string& name, int lhs, int rhs, const ir::DotDims& dims, DType out) {
    const ir::DotShape s = ir::dot_general_shape(node(lhs).shape, node(rhs).shape, dims);
    Node n{name, "dot", OpClass::dot, {lhs, rhs}, s.output, tpusim::bytes(out), node(lhs).dtype};
    n.flops = s.flops;
    return add(std::move(n));
}

void Graph::mark_output(int id) {
    node(id);
    nodes_[static_cast<std::size_t>(id)].output = true;
}

std::vector<std::vector<int>> Graph::consumers() const {
    std::vector<std::vector<int>> out(nodes_.size());
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        for (int in : nodes_[i].inputs)
            if (std::find(out[static_cast<std::size_t>(in)].begin(), out[static_cast<std::size_t>(in)].end(),
                          static_cast<int>(i)) == out[static_cast<std::size_t>(in)].end())
                out[static_cast<std::size_t>(in)].push_back(static_cast<int>(i));
    return out;
}

std::vector<std::string_view> example_names() {
    return {"mlp", "softmax", "attention", "layernorm"};
}

Graph example(std::string_view name) {
    const DType bf = DType::bf16, f = DType::f32;
    if (name == "mlp") {
        // y = relu(x @ w1 + b1) @ w2 + b2; 512 tokens, width 1024, hidden 4096, bf16.
        Graph g("mlp");
        const int x = g.parameter("x", {512, 1024}, bf), w1 = g.parameter("w1", {1024, 4096}, bf);
        const int b1 = g.parameter("b1", {4096}, bf), w2 = g.parameter("w2", {4096, 1024}, bf);
        const int b2 = g.parameter("b2", {1024}, bf);
        const int h = g.dot("h", x, w1, {{1}, {0}, {}, {}}, bf);
        const int hb = g.elementwise("h_bias", "add", {h, g.broadcast("b1_rows", b1, {512, 4096})});
        const int zero = g.broadcast("zeros", g.constant("zero", bf), {512, 4096});
        const int r = g.elementwise("relu", "max", {hb, zero});
        const int o = g.dot("o", r, w2, {{1}, {0}, {}, {}}, bf);
        g.mark_output(g.elementwise("y", "add", {o, g.broadcast("b2_rows", b2, {512, 1024})}));
        return g;
    }
    if (name == "softmax") {
        // Row softmax of f32 [1024, 4096], max-subtracted as jax.nn.softmax does.
        Graph g("softmax");
        const int x = g.parameter("x", {1024, 4096}, f);
        const int m = g.reduce("row_max", "reduce_max", x, {1});
        const int s = g.elementwise("shifted", "sub", {x, g.broadcast("row_max_b", m, {1024, 4096})});
        const int e = g.elementwise("exp", "exp", {s});
        const int l = g.reduce("row_sum", "reduce_sum", e, {1});
        g.mark_output(g.elementwise("probs", "div", {e, g.broadcast("row_sum_b", l, {1024, 4096})}));
        return g;
    }
    if (name == "attention") {
        // softmax(q k^T / sqrt(d)) v for 8 heads, 1024 tokens, head dim 128:
        // bf16 inputs, f32 scores, probabilities cast to bf16 for the second dot.
        Graph g("attention");
        const std::vector<std::int64_t> qkv{8, 1024, 128}, sq{8, 1024, 1024};
        const int q = g.parameter("q", qkv, bf), k = g.parameter("k", qkv, bf), v = g.parameter("v", qkv, bf);
        const int s = g.dot("scores", q, k, {{2}, {2}, {0}, {0}}, f);
        const int scale = g.broadcast("scale_b", g.constant("scale", f), sq);
        const int z = g.elementwise("scaled", "mul", {s, scale});
        const int m = g.reduce("row_max", "reduce_max", z, {2});
        const int sh = g.elementwise("shifted", "sub", {z, g.broadcast("row_max_b", m, sq)});
        const int e = g.elementwise("exp", "exp", {sh});
        const int l = g.reduce("row_sum", "reduce_sum", e, {2});
        const int p = g.elementwise("probs", "div", {e, g.broadcast("row_sum_b", l, sq)});
        const int pb = g.convert("probs_bf16", p, bf);
        g.mark_output(g.dot("out", pb, v, {{2}, {1}, {0}, {0}}, f));
        return g;
    }
    if (name == "layernorm") {
        // (x - mean) * rsqrt(var + eps) * gamma + beta over rows of f32 [1024, 4096].
        Graph g("layernorm");
        const std::vector<std::int64_t> nd{1024, 4096};
        const int x = g.parameter("x", nd, f), gamma = g.parameter("gamma", {4096}, f);
        const int beta = g.parameter("beta", {4096}, f);
        const int inv_d = g.broadcast("inv_d", g.constant("1/d", f), {1024});  // shared by mean and var
        const int sum = g.reduce("sum", "reduce_sum", x, {1});
        const int mean = g.elementwise("mean", "mul", {sum, inv_d});
        const int xc = g.elementwise("centered", "sub", {x, g.broadcast("mean_b", mean, nd)});
        const int sq = g.elementwise("squared", "mul", {xc, xc});
        const int var = g.elementwise("var", "mul", {g.reduce("sq_sum", "reduce_sum", sq, {1}), inv_d});
        const int eps = g.broadcast("eps_b", g.constant("eps", f), {1024});
        const int rs = g.elementwise("inv_std", "rsqrt", {g.elementwise("var_eps", "add", {var, eps})});
        const int y = g.elementwise("normed", "mul", {xc, g.broadcast("inv_std_b", rs, nd)});
        const int yg = g.elementwise("scaled", "mul", {y, g.broadcast("gamma_b", gamma, nd)});
        g.mark_output(g.elementwise("out", "add", {yg, g.broadcast("beta_b", beta, nd)}));
        return g;
    }
    throw InputError("unknown example '" + std::string(name) + "': use mlp, softmax, attention or layernorm");
}

}  // namespace tpusim::fusion
