#include "tpusim/tracer.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace tpusim::tracer {

namespace {

constexpr std::int64_t max_size = 65536;

std::string dims_of(const std::vector<std::int64_t>& shape, const char* sep)
{
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += sep;
        s += std::to_string(shape[i]);
    }
    return s;
}

// A shape as a Python tuple: "(8, 128)", "(128,)", "()".
std::string tuple_text(const std::vector<std::int64_t>& v)
{
    if (v.size() == 1) return "(" + std::to_string(v[0]) + ",)";
    return "(" + dims_of(v, ", ") + ")";
}

std::string numpy_dtype(const std::string& dtype)
{
    if (dtype == "f32") return "float32";
    if (dtype == "bf16") return "bfloat16";
    if (dtype == "i32") return "int32";
    return dtype;
}

// JAX's variable names: a..z, then ba, bb, ... (digits in base 26).
std::string var_name(int n)
{
    std::string s;
    do {
        s.insert(s.begin(), static_cast<char>('a' + n % 26));
        n /= 26;
    } while (n > 0);
    return s;
}

class Builder {
public:
    Trace t;

    Aval av(std::string dtype, std::vector<std::int64_t> shape, bool weak = false)
    {
        return Aval{std::move(dtype), std::move(shape), weak};
    }
    int new_var(const Aval& a)
    {
        t.vars.push_back(a);
        return static_cast<int>(t.vars.size()) - 1;
    }
    Jaxpr& cur() { return stack_.empty() ? t.jaxpr : *stack_.back(); }

    // An input of the jaxpr being recorded, bound to a Python name.
    int arg(const std::string& name, const Aval& a, const std::string& note_value = "")
    {
        const int v = new_var(a);
        cur().invars.push_back(v);
        bind(name, v, note_value);
        return v;
    }
    void bind(const std::string& name, int var, const std::string& value = "")
    {
        Binding b{name, true, t.vars[static_cast<std::size_t>(var)], value, var};
        put(b);
    }
    void bind_static(const std::string& name, const std::string& value)
    {
        put(Binding{name, false, {}, value, -1});
    }
    // A Python scalar in the line: weakly typed, it enters the jaxpr as a literal.
    void bind_literal(const std::string& text, const char* kind, const Aval& as)
    {
        Aval weak = as;
        weak.weak = true;
        put(Binding{text, false, weak, std::string("a Python ") + kind + ", weakly typed: enters as the literal " + text
                                         + (text.find('.') == std::string::npos ? ".0" : "") + ":" + as.text(), -1});
    }
    void unbind(const std::string& name)
    {
        frame_.erase(std::remove_if(frame_.begin(), frame_.end(), [&](const Binding& b) { return b.name == name; }),
                     frame_.end());
    }

    Atom v(int var) const { return Atom{var, "", t.vars[static_cast<std::size_t>(var)]}; }
    static Atom lit(const std::string& text, const Aval& a) { return Atom{-1, text, a}; }

    // Records one equation with one result.
    int eqn(const std::string& prim, std::vector<Param> params, std::vector<Atom> inputs, const Aval& out)
    {
        const int o = new_var(out);
        Eqn e{prim, std::move(params), std::move(inputs), {o}, line_};
        cur().eqns.push_back(std::move(e));
        if (stack_.empty()) top_steps_.push_back(static_cast<int>(t.steps.size()));
        return o;
    }
    std::vector<int> eqn_n(const std::string& prim, std::vector<Param> params, std::vector<Atom> inputs,
                           const std::vector<Aval>& outs)
    {
        std::vector<int> os;
        for (const auto& a : outs) os.push_back(new_var(a));
        cur().eqns.push_back(Eqn{prim, std::move(params), std::move(inputs), os, line_});
        if (stack_.empty()) top_steps_.push_back(static_cast<int>(t.steps.size()));
        return os;
    }

    void at(int line) { line_ = line; }
    // The line ran: a step, with the frame as it stands.
    void step(const std::string& note)
    {
        Step s;
        s.line = line_;
        s.note = note;
        s.frame = frame_;
        s.inner_label = inner_label_;
        t.steps.push_back(std::move(s));
        snapshots_.push_back(stack_.empty() ? Jaxpr{} : *stack_.back());
    }

    // Tracing a sub-jaxpr: equations go to `sub` until `end_sub`.
    void begin_sub(Jaxpr* sub, const std::string& label)
    {
        stack_.push_back(sub);
        inner_label_ = label;
    }
    void end_sub()
    {
        stack_.pop_back();
        if (stack_.empty()) inner_label_.clear();
    }

    std::vector<int> top_steps_;        // per top-level equation, the step it was recorded in
    std::vector<Jaxpr> snapshots_;      // per step, the sub-jaxpr being traced (empty when none)
    std::vector<Binding> frame_;

private:
    void put(const Binding& b)
    {
        for (auto& f : frame_)
            if (f.name == b.name) {
                f = b;
                return;
            }
        frame_.push_back(b);
    }
    std::vector<Jaxpr*> stack_;
    std::string inner_label_;
    int line_ = 1;
};

// Printing, with names given in print order.
class Printer {
public:
    explicit Printer(Trace& t) : t_(t) { t_.names.assign(t_.vars.size(), ""); }

    void name_jaxpr(const Jaxpr& j)
    {
        for (int v : j.invars) name(v);
        for (const auto& e : j.eqns) {
            for (int o : e.outputs) name(o);
            for (const auto& p : e.params)
                for (const auto& sub : p.jaxprs) name_jaxpr(sub);
        }
    }

    std::string binder(int v) const
    {
        return t_.names[static_cast<std::size_t>(v)] + ":" + t_.vars[static_cast<std::size_t>(v)].text();
    }
    std::string atom(const Atom& a) const
    {
        if (a.var < 0) return a.literal + ":" + a.aval.text();
        return t_.names[static_cast<std::size_t>(a.var)];
    }
    std::string outs(const std::vector<Atom>& os) const
    {
        std::string s = "(";
        for (std::size_t i = 0; i < os.size(); ++i) {
            if (i) s += ", ";
            s += atom(os[i]);
        }
        if (os.size() == 1) s += ",";
        return s + ")";
    }
    std::string header(const Jaxpr& j) const
    {
        std::string s = "{ lambda ;";
        for (int v : j.invars) s += " " + binder(v);
        return s + ". let";
    }

    // One equation; `indent` is where its first line sits (the following lines are indented from it).
    std::string eqn(const Eqn& e, int indent) const
    {
        std::string lhs;
        for (std::size_t i = 0; i < e.outputs.size(); ++i) {
            if (i) lhs += " ";
            lhs += binder(e.outputs[i]);
        }
        std::string ins;
        for (const auto& a : e.inputs) ins += " " + atom(a);
        if (e.params.empty()) return lhs + " = " + e.primitive + ins;

        std::string flat;
        bool flat_ok = true;
        for (const auto& p : e.params) {
            if (!flat.empty()) flat += " ";
            if (p.jaxprs.empty()) {
                flat += p.name + "=" + p.value;
            } else if (!p.tuple && p.jaxprs.size() == 1) {
                const std::string sub = one_line(p.jaxprs[0]);
                if (sub.empty()) flat_ok = false;
                flat += p.name + "=" + sub;
            } else {
                flat_ok = false;
            }
        }
        const std::string line = lhs + " = " + e.primitive + "[" + flat + "]" + ins;
        if (flat_ok && static_cast<int>(line.size()) + indent <= 80) return line;

        const std::string pad(2, ' ');
        std::string s = lhs + " = " + e.primitive + "[\n";
        for (const auto& p : e.params) {
            if (p.jaxprs.empty()) {
                s += pad + p.name + "=" + p.value + "\n";
            } else if (!p.tuple) {
                s += pad + p.name + "=" + block(p.jaxprs[0], indent + 2) + "\n";
            } else {
                s += pad + p.name + "=(\n";
                for (const auto& sub : p.jaxprs) s += pad + "  " + block(sub, indent + 4) + "\n";
                s += pad + ")\n";
            }
        }
        return s + "]" + ins;
    }

    // A sub-jaxpr on one line, or "" when it has more than one equation.
    std::string one_line(const Jaxpr& j) const
    {
        if (j.eqns.size() > 1) return "";
        std::string s = header(j);
        for (const auto& e : j.eqns) {
            const std::string q = eqn(e, 0);
            if (q.find('\n') != std::string::npos) return "";
            s += " " + q;
        }
        return s + " in " + outs(j.outs) + " }";
    }
    // A sub-jaxpr: on one line when it fits, else one equation a line.
    std::string block(const Jaxpr& j, int indent) const
    {
        const std::string one = one_line(j);
        if (!one.empty() && static_cast<int>(one.size()) + indent <= 100) return one;
        std::string s = header(j) + "\n";
        for (const auto& e : j.eqns) s += indented(eqn(e, indent + 4), indent + 4) + "\n";
        return s + std::string(static_cast<std::size_t>(indent + 2), ' ') + "in " + outs(j.outs) + " }";
    }
    static std::string indented(const std::string& text, int by)
    {
        const std::string pad(static_cast<std::size_t>(by), ' ');
        std::string s = pad;
        for (char c : text) {
            s += c;
            if (c == '\n') s += pad;
        }
        return s;
    }

private:
    void name(int v)
    {
        auto& n = t_.names[static_cast<std::size_t>(v)];
        if (n.empty()) n = var_name(next_++);
    }
    Trace& t_;
    int next_ = 0;
};

Param p(const std::string& name, const std::string& value) { return Param{name, value, {}, false}; }

std::string dtype_of(const Settings& s, const char* id)
{
    const auto it = s.choices.find(id);
    return it == s.choices.end() ? std::string() : it->second;
}

// ---- the programs -------------------------------------------------------

void mlp(Builder& b, const Settings& s)
{
    const auto B = s.sizes.at("B"), D = s.sizes.at("D"), H = s.sizes.at("H");
    const std::string dt = dtype_of(s, "dtype") == "bf16" ? "bf16" : "f32";
    b.t.lines = {
        "def layer(x, w, b):           # x: " + dt + "[" + std::to_string(B) + "," + std::to_string(D) + "]  w: " + dt + "["
            + std::to_string(D) + "," + std::to_string(H) + "]  b: " + dt + "[" + std::to_string(H) + "]",
        "    h = x @ w",
        "    h = h + b",
        "    return jnp.maximum(h, 0.0)",
    };
    b.at(1);
    const int x = b.arg("x", b.av(dt, {B, D}));
    const int w = b.arg("w", b.av(dt, {D, H}));
    const int bias = b.arg("b", b.av(dt, {H}));
    b.step("jit calls layer with tracers: x, w and b carry a shape and a dtype, no numbers. Each becomes an input of the jaxpr.");
    b.at(2);
    int h = b.eqn("dot_general",
                  {p("dimension_numbers", "(([1], [0]), ([], []))"), p("out_sharding", "None"),
                   p("preferred_element_type", numpy_dtype(dt))},
                  {b.v(x), b.v(w)}, b.av(dt, {B, H}));
    b.bind("h", h);
    b.step("x @ w binds dot_general: contract x's dim 1 with w's dim 0. The result is a new tracer, " + dt + "["
           + std::to_string(B) + "," + std::to_string(H) + "].");
    b.at(3);
    const int bb = b.eqn("broadcast_in_dim",
                         {p("broadcast_dimensions", "(1,)"), p("shape", tuple_text({1, H})), p("sharding", "None")},
                         {b.v(bias)}, b.av(dt, {1, H}));
    h = b.eqn("add", {}, {b.v(h), b.v(bb)}, b.av(dt, {B, H}));
    b.bind("h", h);
    b.step("Adding a rank-1 b to a rank-2 h: NumPy's rank promotion records a broadcast_in_dim to [1," + std::to_string(H)
           + "], then add. Rebinding h in Python only moves the name; the jaxpr gets a new variable.");
    b.at(4);
    const int r = b.eqn("max", {}, {b.v(h), Builder::lit("0.0", b.av(dt, {}))}, b.av(dt, {B, H}));
    b.bind_literal("0.0", "float", b.av(dt, {}));
    b.t.jaxpr.outs = {b.v(r)};
    b.step("0.0 is a Python float: weakly typed, so it takes h's dtype (" + dt
           + ") instead of promoting it, and appears inline as a literal.");
}

void softmax(Builder& b, const Settings& s)
{
    const auto N = s.sizes.at("N"), D = s.sizes.at("D");
    b.t.lines = {
        "def softmax(x):               # x: f32[" + std::to_string(N) + "," + std::to_string(D) + "]",
        "    m = jnp.max(x, axis=-1, keepdims=True)",
        "    e = jnp.exp(x - m)",
        "    return e / jnp.sum(e, axis=-1, keepdims=True)",
    };
    b.at(1);
    const int x = b.arg("x", b.av("f32", {N, D}));
    b.step("x becomes a tracer, f32[" + std::to_string(N) + "," + std::to_string(D) + "]: the jaxpr's one input.");
    b.at(2);
    const int mr = b.eqn("reduce_max", {p("axes", "(1,)"), p("out_sharding", "None")}, {b.v(x)}, b.av("f32", {N}));
    const int m = b.eqn("broadcast_in_dim",
                        {p("broadcast_dimensions", "(0,)"), p("shape", tuple_text({N, 1})), p("sharding", "None")},
                        {b.v(mr)}, b.av("f32", {N, 1}));
    b.bind("m", m);
    b.step("axis=-1 is a Python int, resolved now to axis 1. keepdims is not a primitive: it is a reduce_max, then a broadcast_in_dim back to rank 2.");
    b.at(3);
    const int d = b.eqn("sub", {}, {b.v(x), b.v(m)}, b.av("f32", {N, D}));
    const int e = b.eqn("exp", {}, {b.v(d)}, b.av("f32", {N, D}));
    b.bind("e", e);
    b.step("x - m records sub (the size-1 axis of m broadcasts inside it), then exp. The temporary x - m has no Python name, only a jaxpr variable.");
    b.at(4);
    const int sr = b.eqn("reduce_sum", {p("axes", "(1,)"), p("out_sharding", "None")}, {b.v(e)}, b.av("f32", {N}));
    const int sb = b.eqn("broadcast_in_dim",
                         {p("broadcast_dimensions", "(0,)"), p("shape", tuple_text({N, 1})), p("sharding", "None")},
                         {b.v(sr)}, b.av("f32", {N, 1}));
    const int out = b.eqn("div", {}, {b.v(e), b.v(sb)}, b.av("f32", {N, D}));
    b.t.jaxpr.outs = {b.v(out)};
    b.step("The sum with keepdims is again reduce_sum then broadcast_in_dim; div divides each row. Seven equations, no loop over rows: the rows are a shape.");
}

void scan(Builder& b, const Settings& s)
{
    const auto T = s.sizes.at("T"), D = s.sizes.at("D");
    b.t.lines = {
        "def running_sum(xs):          # xs: f32[" + std::to_string(T) + "," + std::to_string(D) + "]",
        "    def step(c, x):",
        "        c = c + x",
        "        return c, c",
        "    init = jnp.zeros(xs.shape[1:])",
        "    _, ys = lax.scan(step, init, xs)",
        "    return ys",
    };
    b.at(1);
    const int xs = b.arg("xs", b.av("f32", {T, D}));
    b.step("xs becomes a tracer, f32[" + std::to_string(T) + "," + std::to_string(D) + "].");
    b.at(2);
    b.bind_static("step", "<function step>");
    b.step("def only makes a Python function object: nothing is recorded.");
    b.at(5);
    b.bind_static("xs.shape[1:]", tuple_text({D}));
    const int init = b.eqn("broadcast_in_dim",
                           {p("broadcast_dimensions", "()"), p("shape", tuple_text({D})), p("sharding", "None")},
                           {Builder::lit("0.0", b.av("f32", {}))}, b.av("f32", {D}));
    b.unbind("xs.shape[1:]");
    b.bind("init", init);
    b.step("A tracer's shape is static, a plain tuple " + tuple_text({D})
           + ": jnp.zeros of it records one broadcast_in_dim of the literal 0.0.");

    Jaxpr body;
    b.at(3);
    b.begin_sub(&body, "scan body");
    const int c = b.arg("c", b.av("f32", {D}));
    const int x = b.arg("x", b.av("f32", {D}));
    const int c2 = b.eqn("add", {}, {b.v(c), b.v(x)}, b.av("f32", {D}));
    b.bind("c", c2);
    b.step("lax.scan (line 6) calls step once, with tracers for the carry and for one slice of xs, both f32["
           + std::to_string(D) + "]. Its add goes into a sub-jaxpr, the scan's body, not the outer program.");
    b.at(4);
    body.outs = {b.v(c2), b.v(c2)};
    b.step("step returns (carry, output): the body's outputs. The loop ran once at trace time, whatever T is.");
    b.end_sub();
    b.unbind("c");
    b.unbind("x");
    b.at(6);
    Param jp{"jaxpr", "", {body}, false};
    const auto outs = b.eqn_n("scan",
                              {p("_split_transpose", "False"), jp, p("length", std::to_string(T)),
                               p("linear", "(False, False)"), p("num_carry", "1"), p("num_consts", "0"),
                               p("reverse", "False"), p("unroll", "1")},
                              {b.v(init), b.v(xs)}, {b.av("f32", {D}), b.av("f32", {T, D})});
    b.bind("ys", outs[1]);
    b.step("One scan equation holds the body once; length=" + std::to_string(T)
           + " is a param. Change T and only that number changes, not the jaxpr's size.");
    b.at(7);
    b.t.jaxpr.outs = {b.v(outs[1])};
    b.step("ys, f32[" + std::to_string(T) + "," + std::to_string(D) + "], is the jaxpr's output.");
}

void vmapped(Builder& b, const Settings& s)
{
    const auto B = s.sizes.at("B"), D = s.sizes.at("D");
    const bool batched = dtype_of(s, "map") != "dot alone";
    b.t.lines = {
        "def dot(a, b):                # a: f32[" + std::to_string(D) + "]  b: f32[" + std::to_string(D) + "]",
        "    return jnp.sum(a * b)",
        "",
        "batched = jax.vmap(dot, in_axes=(0, None))",
        batched ? "jax.make_jaxpr(batched)(xs, y)   # xs: f32[" + std::to_string(B) + "," + std::to_string(D)
                      + "]  y: f32[" + std::to_string(D) + "]"
                : "jax.make_jaxpr(dot)(x, y)       # x: f32[" + std::to_string(D) + "]  y: f32["
                      + std::to_string(D) + "]",
    };
    b.at(5);
    const int a = batched ? b.arg("a", b.av("f32", {B, D}), "batched: axis 0 of " + std::to_string(B))
                          : b.arg("a", b.av("f32", {D}));
    const int y = b.arg("b", b.av("f32", {D}));
    b.step(batched ? "vmap calls dot with batch tracers: inside, a looks like f32[" + std::to_string(D)
                         + "], but it carries a batch axis of " + std::to_string(B)
                         + " that the jaxpr sees. b (in_axes None) is not batched."
                   : "Without vmap, a and b are plain f32[" + std::to_string(D) + "] tracers.");
    b.at(2);
    int out = 0;
    if (batched) {
        const int bb = b.eqn("broadcast_in_dim",
                             {p("broadcast_dimensions", "(1,)"), p("shape", tuple_text({1, D})), p("sharding", "None")},
                             {b.v(y)}, b.av("f32", {1, D}));
        const int m = b.eqn("mul", {}, {b.v(a), b.v(bb)}, b.av("f32", {B, D}));
        out = b.eqn("reduce_sum", {p("axes", "(1,)"), p("out_sharding", "None")}, {b.v(m)}, b.av("f32", {B}));
        b.step("The batching rules rewrite each primitive: b gets a size-1 batch axis, mul runs on [" + std::to_string(B)
               + "," + std::to_string(D) + "], and the sum's axis shifts from 0 to 1. No loop over the batch.");
    } else {
        const int m = b.eqn("mul", {}, {b.v(a), b.v(y)}, b.av("f32", {D}));
        out = b.eqn("reduce_sum", {p("axes", "(0,)"), p("out_sharding", "None")}, {b.v(m)}, b.av("f32", {}));
        b.step("mul, then reduce_sum over axis 0 to an f32[] scalar.");
    }
    b.t.jaxpr.outs = {b.v(out)};
}

void static_if(Builder& b, const Settings& s)
{
    const auto B = s.sizes.at("B"), D = s.sizes.at("D");
    const std::string act = dtype_of(s, "act");
    b.t.lines = {
        "def dense(x, w, act):         # x: f32[" + std::to_string(B) + "," + std::to_string(D) + "]  w: f32["
            + std::to_string(D) + "," + std::to_string(D) + "]",
        "    y = x @ w",
        "    if act == \"relu\":",
        "        y = jnp.maximum(y, 0.0)",
        "    elif act == \"tanh\":",
        "        y = jnp.tanh(y)",
        "    return y",
        "",
        "f = jax.jit(dense, static_argnames=\"act\")",
    };
    b.at(1);
    const int x = b.arg("x", b.av("f32", {B, D}));
    const int w = b.arg("w", b.av("f32", {D, D}));
    b.bind_static("act", "\"" + act + "\"");
    b.step("x and w become tracers. act is static: it stays the Python string \"" + act
           + "\", is not an input of the jaxpr, and is part of jit's cache key.");
    b.at(2);
    int y = b.eqn("dot_general",
                  {p("dimension_numbers", "(([1], [0]), ([], []))"), p("out_sharding", "None"),
                   p("preferred_element_type", "float32")},
                  {b.v(x), b.v(w)}, b.av("f32", {B, D}));
    b.bind("y", y);
    b.step("x @ w records dot_general.");
    b.at(3);
    b.step(act == "relu" ? "act == \"relu\" compares two Python strings: True, decided now. Nothing is recorded."
                         : "act == \"relu\" compares two Python strings: False, decided now. Nothing is recorded.");
    if (act == "relu") {
        b.at(4);
        y = b.eqn("max", {}, {b.v(y), Builder::lit("0.0", b.av("f32", {}))}, b.av("f32", {B, D}));
        b.bind_literal("0.0", "float", b.av("f32", {}));
        b.bind("y", y);
        b.step("Only the branch taken is traced: one max. The tanh line never runs.");
    } else {
        b.at(5);
        b.step(act == "tanh" ? "act == \"tanh\": True, so the next line runs." : "act == \"tanh\": False too.");
        if (act == "tanh") {
            b.at(6);
            y = b.eqn("tanh", {}, {b.v(y)}, b.av("f32", {B, D}));
            b.bind("y", y);
            b.step("Only the branch taken is traced: one tanh. The relu line never ran.");
        }
    }
    b.at(7);
    b.t.jaxpr.outs = {b.v(y)};
    b.step(act == "none" ? "Neither branch ran: the jaxpr is the matmul alone. Another act is another trace, and another compile."
                         : "The jaxpr holds no if: a different act is a different program, traced and compiled apart.");
}

void traced_if(Builder& b, const Settings& s)
{
    const auto N = s.sizes.at("N");
    const std::string how = dtype_of(s, "branch");
    b.t.lines = {
        "def flip_or_double(x):        # x: f32[" + std::to_string(N) + "]",
        "    s = x.sum()",
    };
    if (how == "python if") {
        b.t.lines.push_back("    if s > 0:");
        b.t.lines.push_back("        return x * 2.0");
        b.t.lines.push_back("    return -x");
    } else if (how == "jnp.where") {
        b.t.lines.push_back("    return jnp.where(s > 0, x * 2.0, -x)");
    } else {
        b.t.lines.push_back("    return lax.cond(s > 0, lambda v: v * 2.0, lambda v: -v, x)");
    }
    b.at(1);
    const int x = b.arg("x", b.av("f32", {N}));
    b.step("x becomes a tracer, f32[" + std::to_string(N) + "].");
    b.at(2);
    const int sum = b.eqn("reduce_sum", {p("axes", "(0,)"), p("out_sharding", "None")}, {b.v(x)}, b.av("f32", {}));
    b.bind("s", sum);
    b.step("x.sum() records reduce_sum: s is a tracer, f32[], with no value yet.");
    b.at(3);
    const int gt = b.eqn("gt", {}, {b.v(sum), Builder::lit("0.0", b.av("f32", {}))}, b.av("bool", {}));
    b.bind_literal("0", "int", b.av("f32", {}));
    if (how == "python if") {
        b.bind("s > 0", gt);
        b.t.error =
            "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].\n"
            "The error occurred while tracing the function flip_or_double at ex02.py:1 for jit. This concrete value "
            "was not available in Python because it depends on the value of the argument x.\n"
            "See https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError";
        b.t.error_line = 3;
        b.step("s > 0 records gt, a bool[] tracer. Python's if then asks it for True or False, and a tracer has no value: tracing stops.");
        return;
    }
    if (how == "jnp.where") {
        const int d = b.eqn("mul", {}, {b.v(x), Builder::lit("2.0", b.av("f32", {}))}, b.av("f32", {N}));
        const int e = b.eqn("neg", {}, {b.v(x)}, b.av("f32", {N}));
        const int f = b.eqn("broadcast_in_dim",
                            {p("broadcast_dimensions", "()"), p("shape", tuple_text({N})), p("sharding", "None")},
                            {b.v(gt)}, b.av("bool", {N}));
        const int g = b.eqn("select_n", {}, {b.v(f), b.v(e), b.v(d)}, b.av("f32", {N}));
        b.t.jaxpr.outs = {b.v(g)};
        b.step("jnp.where never asks for a bool: both x * 2.0 and -x are recorded and computed in full, and select_n picks element by element (false case first).");
        return;
    }
    const int idx = b.eqn("convert_element_type", {p("new_dtype", "int32"), p("weak_type", "False")}, {b.v(gt)},
                          b.av("i32", {}));
    b.step("lax.cond turns the predicate into an integer index: convert_element_type to i32.");
    Jaxpr t_branch, f_branch;
    b.begin_sub(&t_branch, "cond: true branch");
    const int v1 = b.arg("v", b.av("f32", {N}));
    const int o1 = b.eqn("mul", {}, {b.v(v1), Builder::lit("2.0", b.av("f32", {}))}, b.av("f32", {N}));
    t_branch.outs = {b.v(o1)};
    b.step("cond traces the true branch with a tracer v, f32[" + std::to_string(N) + "]: one mul.");
    b.end_sub();
    b.begin_sub(&f_branch, "cond: false branch");
    const int v2 = b.arg("v", b.av("f32", {N}));
    const int o2 = b.eqn("neg", {}, {b.v(v2)}, b.av("f32", {N}));
    f_branch.outs = {b.v(o2)};
    b.step("...and the false branch: one neg. Both are traced, so both must return the same types.");
    b.end_sub();
    b.unbind("v");
    Param br{"branches", "", {f_branch, t_branch}, true};
    const int out = b.eqn("cond", {br}, {b.v(idx), b.v(x)}, b.av("f32", {N}));
    b.t.jaxpr.outs = {b.v(out)};
    b.step("One cond equation holds both branches, false first (it is a switch on the index); only one runs on the device.");
}

struct Entry {
    Program program;
    std::function<void(Builder&, const Settings&)> build;
};

Knob size(const char* id, const char* label, std::int64_t v) { return Knob{id, label, false, v, {}}; }
Knob choice(const char* id, const char* label, std::vector<std::string> cs) { return Knob{id, label, true, 0, std::move(cs)}; }

const std::vector<Entry>& entries()
{
    static const std::vector<Entry> all = {
        {{"mlp", "an MLP layer", "x @ w + b, then relu: a matmul, a broadcast, an add, a max.",
          {size("B", "batch B", 32), size("D", "in D", 128), size("H", "out H", 512), choice("dtype", "dtype", {"f32", "bf16"})}},
         mlp},
        {{"softmax", "a softmax", "a row softmax: reductions with keepdims, and implicit broadcasting.",
          {size("N", "rows N", 8), size("D", "width D", 128)}},
         softmax},
        {{"scan", "a loop with lax.scan", "a running sum: the body traced once into a sub-jaxpr.",
          {size("T", "steps T", 8), size("D", "width D", 128)}},
         scan},
        {{"vmap", "a vmap'd function", "a dot product, batched by vmap over its first argument.",
          {size("B", "batch B", 16), size("D", "width D", 128), choice("map", "traced as", {"vmap(dot)", "dot alone"})}},
         vmapped},
        {{"static-if", "an if on a static argument", "a dense layer whose activation is a static argument.",
          {size("B", "batch B", 8), size("D", "width D", 128), choice("act", "act", {"relu", "tanh", "none"})}},
         static_if},
        {{"traced-if", "an if on a traced value", "branching on data: a Python if, jnp.where, or lax.cond.",
          {size("N", "length N", 1024), choice("branch", "branch with", {"python if", "jnp.where", "lax.cond"})}},
         traced_if},
    };
    return all;
}

}  // namespace

std::string Aval::text() const { return dtype + "[" + dims_of(shape, ",") + "]"; }

const std::vector<Program>& programs()
{
    static const std::vector<Program> all = [] {
        std::vector<Program> v;
        for (const auto& e : entries()) v.push_back(e.program);
        return v;
    }();
    return all;
}

const Program* find_program(std::string_view id)
{
    for (const auto& p : programs())
        if (p.id == id) return &p;
    return nullptr;
}

Settings defaults(const Program& program)
{
    Settings s;
    for (const auto& k : program.knobs) {
        if (k.choice)
            s.choices[k.id] = k.choices.front();
        else
            s.sizes[k.id] = k.value;
    }
    return s;
}

Trace trace(std::string_view program_id, const Settings& settings)
{
    const Entry* entry = nullptr;
    for (const auto& e : entries())
        if (e.program.id == program_id) entry = &e;
    Trace out;
    if (!entry) {
        out.problem = "There is no program named \"" + std::string(program_id) + "\".";
        return out;
    }
    Settings s = defaults(entry->program);
    for (const auto& k : entry->program.knobs) {
        if (k.choice) {
            const auto it = settings.choices.find(k.id);
            if (it != settings.choices.end()) {
                if (std::find(k.choices.begin(), k.choices.end(), it->second) == k.choices.end()) {
                    out.problem = k.label + " cannot be \"" + it->second + "\".";
                    return out;
                }
                s.choices[k.id] = it->second;
            }
            continue;
        }
        const auto it = settings.sizes.find(k.id);
        if (it == settings.sizes.end()) continue;
        if (it->second < 1) {
            out.problem = "A dimension must be at least 1, and " + k.label + " is " + std::to_string(it->second) + ".";
            return out;
        }
        if (it->second > max_size) {
            out.problem = k.label + " is " + std::to_string(it->second) + "; the tracer takes sizes up to 65,536.";
            return out;
        }
        s.sizes[k.id] = it->second;
    }

    Builder b;
    entry->build(b, s);
    Trace& t = b.t;

    Printer pr(t);
    pr.name_jaxpr(t.jaxpr);
    t.header = pr.header(t.jaxpr);
    t.footer = "  in " + pr.outs(t.jaxpr.outs) + " }";
    for (std::size_t i = 0; i < t.jaxpr.eqns.size(); ++i) {
        const auto& e = t.jaxpr.eqns[i];
        t.printed.push_back(PrintedEqn{pr.eqn(e, 4), e.primitive, b.top_steps_[i]});
    }
    // Each step's share of the printed equations, and the sub-jaxpr it was inside.
    std::size_t k = 0;
    for (std::size_t si = 0; si < t.steps.size(); ++si) {
        auto& st = t.steps[si];
        st.recorded_from = static_cast<int>(k);
        while (k < t.printed.size() && t.printed[k].step == static_cast<int>(si)) ++k;
        st.recorded_to = static_cast<int>(k);
        const Jaxpr& inner = b.snapshots_[si];
        if (!st.inner_label.empty()) {
            st.inner = pr.header(inner);
            for (const auto& e : inner.eqns) st.inner += "\n" + Printer::indented(pr.eqn(e, 4), 4);
            if (!inner.outs.empty()) st.inner += "\n  in " + pr.outs(inner.outs) + " }";
        }
    }

    t.cache_key = std::string(program_id);
    for (int v : t.jaxpr.invars) t.cache_key += " " + t.vars[static_cast<std::size_t>(v)].text();
    for (const auto& [id, c] : s.choices) t.cache_key += " " + id + "=" + c;
    return std::move(b.t);
}

std::string Trace::text_upto(int step) const
{
    if (!problem.empty()) return "";
    std::string s = header + "\n";
    for (const auto& e : printed) {
        if (e.step >= step) break;
        s += Printer::indented(e.text, 4) + "\n";
    }
    const bool finished = error.empty() && step >= static_cast<int>(steps.size());
    if (finished) s += footer;
    else if (s.back() == '\n') s.pop_back();
    return s;
}

std::string Trace::text() const { return text_upto(static_cast<int>(steps.size())); }

std::vector<std::string> primitive_sequence(const Trace& trace)
{
    std::vector<std::string> out;
    std::function<void(const Jaxpr&)> walk = [&](const Jaxpr& j) {
        for (const auto& e : j.eqns) {
            out.push_back(e.primitive);
            for (const auto& p : e.params)
                for (const auto& sub : p.jaxprs) walk(sub);
        }
    };
    walk(trace.jaxpr);
    return out;
}

}  // namespace tpusim::tracer
