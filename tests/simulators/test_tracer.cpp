// EX·02's tracer: each program stepped line by line builds the same jaxpr,
// op for op, as the shipped jaxpr text of that program read by libtpusim's
// jaxpr reader; bad sizes are one sentence; jit's cache key follows shapes
// and static arguments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include <coursework/tracer.h>
#include <tpusim/ir.h>

using namespace tpusim;
using namespace coursework;
using coursework::tracer::Atom;
using coursework::tracer::Jaxpr;
using coursework::tracer::Settings;
using coursework::tracer::Trace;

namespace {

std::string read(const std::string& name) {
    std::ifstream in(std::string(TPUSIM_TRACER_JAXPRS) + "/" + name + ".jaxpr");
    REQUIRE(in.good());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The reader spells element types the HLO way.
std::string hlo_element(const std::string& dtype) {
    if (dtype == "bool") return "pred";
    if (dtype == "i32") return "s32";
    return dtype;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n')) s.erase(s.begin());
    return s;
}

std::string atom_text(const Trace& t, const Atom& a) {
    return a.var < 0 ? a.literal + ":" + a.aval.text() : t.names[static_cast<std::size_t>(a.var)];
}

void same_var(const Trace& t, int var, const std::string& name, const ir::TensorType& type) {
    const auto& aval = t.vars[static_cast<std::size_t>(var)];
    CHECK(t.names[static_cast<std::size_t>(var)] == name);
    CHECK(type.element == hlo_element(aval.dtype));
    CHECK(type.dims == aval.shape);
}

// The stepper's jaxpr against the parsed text, equation by equation.
void same_jaxpr(const Trace& t, const Jaxpr& built, const ir::Computation& parsed) {
    REQUIRE(built.invars.size() == parsed.parameters.size());
    for (std::size_t i = 0; i < built.invars.size(); ++i)
        same_var(t, built.invars[i], parsed.parameters[i].name, parsed.parameters[i].type);
    REQUIRE(built.eqns.size() == parsed.ops.size());
    for (std::size_t e = 0; e < built.eqns.size(); ++e) {
        const auto& eq = built.eqns[e];
        const auto& op = parsed.ops[e];
        INFO("equation " << e << ": " << eq.primitive);
        CHECK(eq.primitive == op.name);
        REQUIRE(eq.outputs.size() == op.results.size());
        for (std::size_t o = 0; o < eq.outputs.size(); ++o)
            same_var(t, eq.outputs[o], op.results[o], op.result_types[o]);
        REQUIRE(eq.inputs.size() == op.operands.size());
        for (std::size_t i = 0; i < eq.inputs.size(); ++i) CHECK(atom_text(t, eq.inputs[i]) == op.operands[i]);
        REQUIRE(eq.params.size() == op.attributes.size());
        std::size_t region = 0;
        for (std::size_t p = 0; p < eq.params.size(); ++p) {
            const auto& param = eq.params[p];
            CHECK(param.name == op.attributes[p].name);
            if (param.jaxprs.empty()) {
                CHECK(param.value == trim(op.attributes[p].value));
                continue;
            }
            for (const auto& sub : param.jaxprs) {
                REQUIRE(region < op.regions.size());
                same_jaxpr(t, sub, op.regions[region++]);
            }
        }
        CHECK(region == op.regions.size());
    }
    REQUIRE(built.outs.size() == parsed.outputs.size());
    for (std::size_t o = 0; o < built.outs.size(); ++o) CHECK(atom_text(t, built.outs[o]) == parsed.outputs[o]);
}

Settings with(const char* knob, const char* choice) {
    Settings s;
    if (*knob) s.choices[knob] = choice;
    return s;
}

}  // namespace

TEST_CASE("tracer: every shipped program's stepped jaxpr equals its shipped text, op for op", "[tracer]") {
    struct Case {
        const char* file;
        const char* program;
        const char* knob;
        const char* choice;
    };
    const Case cases[] = {
        {"mlp", "mlp", "", ""},
        {"mlp-bf16", "mlp", "dtype", "bf16"},
        {"softmax", "softmax", "", ""},
        {"scan", "scan", "", ""},
        {"vmap", "vmap", "", ""},
        {"vmap-dot-alone", "vmap", "map", "dot alone"},
        {"static-if-relu", "static-if", "", ""},
        {"static-if-tanh", "static-if", "act", "tanh"},
        {"static-if-none", "static-if", "act", "none"},
        {"traced-if-where", "traced-if", "branch", "jnp.where"},
        {"traced-if-cond", "traced-if", "branch", "lax.cond"},
    };
    for (const auto& c : cases) {
        INFO(c.file);
        const Trace t = tracer::trace(c.program, with(c.knob, c.choice));
        REQUIRE(t.problem.empty());
        REQUIRE(t.error.empty());
        const ir::Module shipped = ir::parse_jaxpr(read(c.file));
        same_jaxpr(t, t.jaxpr, shipped.entry());
        // The printed text reads back to the same ops too.
        const ir::Module printed = ir::parse_jaxpr(t.text());
        same_jaxpr(t, t.jaxpr, printed.entry());
    }
}

TEST_CASE("tracer: the steps append the equations in order, each at the Python line that records it", "[tracer]") {
    const Trace t = tracer::trace("softmax", {});
    REQUIRE(t.steps.size() == 4);
    CHECK(t.steps[0].recorded_from == 0);
    CHECK(t.steps[0].recorded_to == 0);  // the arguments become tracers; nothing is recorded
    CHECK(t.steps[1].line == 2);
    CHECK(t.printed[static_cast<std::size_t>(t.steps[1].recorded_from)].primitive == "reduce_max");
    CHECK(t.steps.back().recorded_to == static_cast<int>(t.printed.size()));
    for (std::size_t i = 1; i < t.steps.size(); ++i) CHECK(t.steps[i].recorded_from == t.steps[i - 1].recorded_to);
    // The text so far grows, and only the finished jaxpr has its outputs.
    CHECK(t.text_upto(1).find(" in (") == std::string::npos);
    CHECK(t.text_upto(4) == t.text());
    CHECK(t.text().find("  in (h,) }") != std::string::npos);
    // The frame: x traced from the start, e bound at line 3.
    CHECK(t.steps[0].frame.size() == 1);
    CHECK(t.steps[0].frame[0].traced);
    CHECK(t.steps[0].frame[0].aval.text() == "f32[8,128]");
}

TEST_CASE("tracer: shapes and static arguments change the jaxpr", "[tracer]") {
    Settings s;
    s.sizes["B"] = 4;
    s.sizes["H"] = 7;
    const Trace m = tracer::trace("mlp", s);
    CHECK(m.text().find("g:f32[4,7] = max f 0.0:f32[]") != std::string::npos);
    // A weak-typed Python float takes the array's dtype.
    const Trace b = tracer::trace("mlp", with("dtype", "bf16"));
    CHECK(b.text().find("max f 0.0:bf16[]") != std::string::npos);
    const auto& lit = b.steps.back().frame.back();
    CHECK(lit.name == "0.0");
    CHECK(!lit.traced);
    CHECK(lit.aval.weak);
    CHECK(lit.value == "a Python float, weakly typed: enters as the literal 0.0:bf16[]");
    // A static if leaves only the branch it took; none at all for "none".
    CHECK(tracer::primitive_sequence(tracer::trace("static-if", with("act", "tanh"))) ==
          std::vector<std::string>{"dot_general", "tanh"});
    CHECK(tracer::primitive_sequence(tracer::trace("static-if", with("act", "none"))) ==
          std::vector<std::string>{"dot_general"});
    // The scan's length is a param: the body stays one add whatever T is.
    Settings t;
    t.sizes["T"] = 1000;
    const Trace sc = tracer::trace("scan", t);
    CHECK(tracer::primitive_sequence(sc) == std::vector<std::string>{"broadcast_in_dim", "scan", "add"});
    CHECK(sc.text().find("length=1000") != std::string::npos);
    // vmap adds the batch axis to the jaxpr the body never sees.
    CHECK(tracer::trace("vmap", {}).text().find("e:f32[16] = reduce_sum[axes=(1,)") != std::string::npos);
    CHECK(tracer::trace("vmap", with("map", "dot alone")).text().find("d:f32[] = reduce_sum[axes=(0,)") !=
          std::string::npos);
}

TEST_CASE("tracer: a Python if on a traced value stops the trace with JAX's error", "[tracer]") {
    const Trace t = tracer::trace("traced-if", with("branch", "python if"));
    REQUIRE(t.problem.empty());
    CHECK(t.error_line == 3);
    CHECK(t.error.rfind(
              "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].",
              0) == 0);
    CHECK(t.error.find("depends on the value of the argument x.") != std::string::npos);
    CHECK(tracer::primitive_sequence(t) == std::vector<std::string>{"reduce_sum", "gt"});
    CHECK(t.text().find(" in (") == std::string::npos);
    // jnp.where computes both sides; lax.cond keeps both branches as sub-jaxprs, false first.
    CHECK(tracer::primitive_sequence(tracer::trace("traced-if", with("branch", "jnp.where"))) ==
          std::vector<std::string>{"reduce_sum", "gt", "mul", "neg", "broadcast_in_dim", "select_n"});
    CHECK(tracer::primitive_sequence(tracer::trace("traced-if", with("branch", "lax.cond"))) ==
          std::vector<std::string>{"reduce_sum", "gt", "convert_element_type", "cond", "neg", "mul"});
}

TEST_CASE("tracer: bad sizes are one sentence, never a trace", "[tracer]") {
    for (std::int64_t bad : {0, -3, 1 << 20}) {
        Settings s;
        s.sizes["N"] = bad;
        const Trace t = tracer::trace("softmax", s);
        CHECK(!t.problem.empty());
        CHECK(t.problem.back() == '.');
        CHECK(std::count(t.problem.begin(), t.problem.end(), '.') >= 1);
        CHECK(t.steps.empty());
        CHECK(t.text().empty());
    }
    CHECK(!tracer::trace("nonesuch", {}).problem.empty());
    CHECK(!tracer::trace("static-if", with("act", "gelu")).problem.empty());
}

TEST_CASE("tracer: jit's cache key follows shapes and static arguments, not values", "[tracer]") {
    const Trace a = tracer::trace("static-if", {});
    CHECK(a.cache_key == tracer::trace("static-if", {}).cache_key);
    CHECK(a.cache_key != tracer::trace("static-if", with("act", "tanh")).cache_key);
    Settings s;
    s.sizes["B"] = 9;
    CHECK(a.cache_key != tracer::trace("static-if", s).cache_key);
    for (const auto& p : tracer::programs()) {
        // The piece gives a program one row of static choices at most.
        CHECK(std::count_if(p.knobs.begin(), p.knobs.end(), [](const tracer::Knob& k) { return k.choice; }) <= 1);
        const Trace t = tracer::trace(p.id, tracer::defaults(p));
        CHECK(t.problem.empty());
        CHECK(!t.steps.empty());
        CHECK(!t.lines.empty());
        for (const auto& st : t.steps) {
            CHECK(st.line >= 1);
            CHECK(st.line <= static_cast<int>(t.lines.size()));
        }
    }
}
