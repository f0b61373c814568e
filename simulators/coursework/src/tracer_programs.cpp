// The tracer's example programs, each written as the equations, steps and
// Python lines JAX's tracer would produce for it.
#include "tracer_build.h"

namespace coursework::tracer::build {

void mlp(Builder& b, const Settings& s) {
    const auto B = s.sizes.at("B"), D = s.sizes.at("D"), H = s.sizes.at("H");
    const std::string dt = dtype_of(s, "dtype") == "bf16" ? "bf16" : "f32";
    b.t.lines = {
        "def layer(x, w, b):           # x: " + dt + "[" + std::to_string(B) + "," + std::to_string(D) + "]  w: " + dt +
            "[" + std::to_string(D) + "," + std::to_string(H) + "]  b: " + dt + "[" + std::to_string(H) + "]",
        "    h = x @ w",
        "    h = h + b",
        "    return jnp.maximum(h, 0.0)",
    };
    b.at(1);
    const int x = b.arg("x", b.av(dt, {B, D}));
    const int w = b.arg("w", b.av(dt, {D, H}));
    const int bias = b.arg("b", b.av(dt, {H}));
    b.step(
        "jit calls layer with tracers: x, w and b carry a shape and a dtype, no numbers. Each becomes an input of the "
        "jaxpr.");
    b.at(2);
    int h = b.eqn("dot_general",
                  {p("dimension_numbers", "(([1], [0]), ([], []))"), p("out_sharding", "None"),
                   p("preferred_element_type", numpy_dtype(dt))},
                  {b.v(x), b.v(w)}, b.av(dt, {B, H}));
    b.bind("h", h);
    b.step("x @ w binds dot_general: contract x's dim 1 with w's dim 0. The result is a new tracer, " + dt + "[" +
           std::to_string(B) + "," + std::to_string(H) + "].");
    b.at(3);
    const int bb = b.eqn("broadcast_in_dim",
                         {p("broadcast_dimensions", "(1,)"), p("shape", tuple_text({1, H})), p("sharding", "None")},
                         {b.v(bias)}, b.av(dt, {1, H}));
    h = b.eqn("add", {}, {b.v(h), b.v(bb)}, b.av(dt, {B, H}));
    b.bind("h", h);
    b.step("Adding a rank-1 b to a rank-2 h: NumPy's rank promotion records a broadcast_in_dim to [1," +
           std::to_string(H) +
           "], then add. Rebinding h in Python only moves the name; the jaxpr gets a new variable.");
    b.at(4);
    const int r = b.eqn("max", {}, {b.v(h), Builder::lit("0.0", b.av(dt, {}))}, b.av(dt, {B, H}));
    b.bind_literal("0.0", "float", b.av(dt, {}));
    b.t.jaxpr.outs = {b.v(r)};
    b.step("0.0 is a Python float: weakly typed, so it takes h's dtype (" + dt +
           ") instead of promoting it, and appears inline as a literal.");
}

void softmax(Builder& b, const Settings& s) {
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
    b.step(
        "axis=-1 is a Python int, resolved now to axis 1. keepdims is not a primitive: it is a reduce_max, then a "
        "broadcast_in_dim back to rank 2.");
    b.at(3);
    const int d = b.eqn("sub", {}, {b.v(x), b.v(m)}, b.av("f32", {N, D}));
    const int e = b.eqn("exp", {}, {b.v(d)}, b.av("f32", {N, D}));
    b.bind("e", e);
    b.step(
        "x - m records sub (the size-1 axis of m broadcasts inside it), then exp. The temporary x - m has no Python "
        "name, only a jaxpr variable.");
    b.at(4);
    const int sr = b.eqn("reduce_sum", {p("axes", "(1,)"), p("out_sharding", "None")}, {b.v(e)}, b.av("f32", {N}));
    const int sb = b.eqn("broadcast_in_dim",
                         {p("broadcast_dimensions", "(0,)"), p("shape", tuple_text({N, 1})), p("sharding", "None")},
                         {b.v(sr)}, b.av("f32", {N, 1}));
    const int out = b.eqn("div", {}, {b.v(e), b.v(sb)}, b.av("f32", {N, D}));
    b.t.jaxpr.outs = {b.v(out)};
    b.step(
        "The sum with keepdims is again reduce_sum then broadcast_in_dim; div divides each row. Seven equations, no "
        "loop over rows: the rows are a shape.");
}

void scan(Builder& b, const Settings& s) {
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
    const int init =
        b.eqn("broadcast_in_dim", {p("broadcast_dimensions", "()"), p("shape", tuple_text({D})), p("sharding", "None")},
              {Builder::lit("0.0", b.av("f32", {}))}, b.av("f32", {D}));
    b.unbind("xs.shape[1:]");
    b.bind("init", init);
    b.step("A tracer's shape is static, a plain tuple " + tuple_text({D}) +
           ": jnp.zeros of it records one broadcast_in_dim of the literal 0.0.");

    Jaxpr body;
    b.at(3);
    b.begin_sub(&body, "scan body");
    const int c = b.arg("c", b.av("f32", {D}));
    const int x = b.arg("x", b.av("f32", {D}));
    const int c2 = b.eqn("add", {}, {b.v(c), b.v(x)}, b.av("f32", {D}));
    b.bind("c", c2);
    b.step("lax.scan (line 6) calls step once, with tracers for the carry and for one slice of xs, both f32[" +
           std::to_string(D) + "]. Its add goes into a sub-jaxpr, the scan's body, not the outer program.");
    b.at(4);
    body.outs = {b.v(c2), b.v(c2)};
    b.step("step returns (carry, output): the body's outputs. The loop ran once at trace time, whatever T is.");
    b.end_sub();
    b.unbind("c");
    b.unbind("x");
    b.at(6);
    Param jp{"jaxpr", "", {body}, false};
    const auto outs =
        b.eqn_n("scan",
                {p("_split_transpose", "False"), jp, p("length", std::to_string(T)), p("linear", "(False, False)"),
                 p("num_carry", "1"), p("num_consts", "0"), p("reverse", "False"), p("unroll", "1")},
                {b.v(init), b.v(xs)}, {b.av("f32", {D}), b.av("f32", {T, D})});
    b.bind("ys", outs[1]);
    b.step("One scan equation holds the body once; length=" + std::to_string(T) +
           " is a param. Change T and only that number changes, not the jaxpr's size.");
    b.at(7);
    b.t.jaxpr.outs = {b.v(outs[1])};
    b.step("ys, f32[" + std::to_string(T) + "," + std::to_string(D) + "], is the jaxpr's output.");
}

void vmapped(Builder& b, const Settings& s) {
    const auto B = s.sizes.at("B"), D = s.sizes.at("D");
    const bool batched = dtype_of(s, "map") != "dot alone";
    b.t.lines = {
        "def dot(a, b):                # a: f32[" + std::to_string(D) + "]  b: f32[" + std::to_string(D) + "]",
        "    return jnp.sum(a * b)",
        "",
        "batched = jax.vmap(dot, in_axes=(0, None))",
        batched
            ? "jax.make_jaxpr(batched)(xs, y)   # xs: f32[" + std::to_string(B) + "," + std::to_string(D) +
                  "]  y: f32[" + std::to_string(D) + "]"
            : "jax.make_jaxpr(dot)(x, y)       # x: f32[" + std::to_string(D) + "]  y: f32[" + std::to_string(D) + "]",
    };
    b.at(5);
    const int a = batched ? b.arg("a", b.av("f32", {B, D}), "batched: axis 0 of " + std::to_string(B))
                          : b.arg("a", b.av("f32", {D}));
    const int y = b.arg("b", b.av("f32", {D}));
    b.step(batched ? "vmap calls dot with batch tracers: inside, a looks like f32[" + std::to_string(D) +
                         "], but it carries a batch axis of " + std::to_string(B) +
                         " that the jaxpr sees. b (in_axes None) is not batched."
                   : "Without vmap, a and b are plain f32[" + std::to_string(D) + "] tracers.");
    b.at(2);
    int out = 0;
    if (batched) {
        const int bb = b.eqn("broadcast_in_dim",
                             {p("broadcast_dimensions", "(1,)"), p("shape", tuple_text({1, D})), p("sharding", "None")},
                             {b.v(y)}, b.av("f32", {1, D}));
        const int m = b.eqn("mul", {}, {b.v(a), b.v(bb)}, b.av("f32", {B, D}));
        out = b.eqn("reduce_sum", {p("axes", "(1,)"), p("out_sharding", "None")}, {b.v(m)}, b.av("f32", {B}));
        b.step("The batching rules rewrite each primitive: b gets a size-1 batch axis, mul runs on [" +
               std::to_string(B) + "," + std::to_string(D) +
               "], and the sum's axis shifts from 0 to 1. No loop over the batch.");
    } else {
        const int m = b.eqn("mul", {}, {b.v(a), b.v(y)}, b.av("f32", {D}));
        out = b.eqn("reduce_sum", {p("axes", "(0,)"), p("out_sharding", "None")}, {b.v(m)}, b.av("f32", {}));
        b.step("mul, then reduce_sum over axis 0 to an f32[] scalar.");
    }
    b.t.jaxpr.outs = {b.v(out)};
}

void static_if(Builder& b, const Settings& s) {
    const auto B = s.sizes.at("B"), D = s.sizes.at("D");
    const std::string act = dtype_of(s, "act");
    b.t.lines = {
        "def dense(x, w, act):         # x: f32[" + std::to_string(B) + "," + std::to_string(D) + "]  w: f32[" +
            std::to_string(D) + "," + std::to_string(D) + "]",
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
    b.step("x and w become tracers. act is static: it stays the Python string \"" + act +
           "\", is not an input of the jaxpr, and is part of jit's cache key.");
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
    b.step(act == "none"
               ? "Neither branch ran: the jaxpr is the matmul alone. Another act is another trace, and another compile."
               : "The jaxpr holds no if: a different act is a different program, traced and compiled apart.");
}

void traced_if(Builder& b, const Settings& s) {
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
        b.step(
            "s > 0 records gt, a bool[] tracer. Python's if then asks it for True or False, and a tracer has no value: "
            "tracing stops.");
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
        b.step(
            "jnp.where never asks for a bool: both x * 2.0 and -x are recorded and computed in full, and select_n "
            "picks element by element (false case first).");
        return;
    }
    const int idx =
        b.eqn("convert_element_type", {p("new_dtype", "int32"), p("weak_type", "False")}, {b.v(gt)}, b.av("i32", {}));
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
    b.step(
        "One cond equation holds both branches, false first (it is a switch on the index); only one runs on the "
        "device.");
}

}  // namespace coursework::tracer::build
