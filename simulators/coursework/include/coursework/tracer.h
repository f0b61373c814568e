#pragma once
// EX·02's tracer: small JAX programs stepped through tracing one Python line
// at a time. Each program is data: its Python lines, and for each line the
// primitives that line records, as a function of the shapes and static
// arguments the learner sets. Stepping a program builds its jaxpr equation by
// equation, with the tracers' abstract values (shape, dtype, weak type) and
// which names are static and which traced; a Python `if` on a traced value
// stops the trace with the error JAX raises. The finished jaxpr prints in
// current JAX's format, so libtpusim's jaxpr reader reads it back.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace coursework::tracer {

// An abstract value: what a tracer knows of an array.
struct Aval {
    std::string dtype;  // "f32", "bf16", "bool", "i32"
    std::vector<std::int64_t> shape;
    bool weak = false;  // a Python scalar's weak type

    std::string text() const;  // "f32[8,128]"
    bool operator==(const Aval&) const = default;
};

struct Jaxpr;

// An equation's input: a variable, or a literal such as `0.0:f32[]`.
struct Atom {
    int var = -1;         // index into Trace::vars, or -1 for a literal
    std::string literal;  // "0.0"
    Aval aval;
};

struct Param {
    std::string name;
    std::string value;          // as printed, when not sub-jaxprs
    std::vector<Jaxpr> jaxprs;  // `jaxpr={...}` (one) or `branches=(...)` (a tuple)
    bool tuple = false;
};

struct Eqn {
    std::string primitive;
    std::vector<Param> params;  // in print order (JAX sorts them by name)
    std::vector<Atom> inputs;
    std::vector<int> outputs;  // variables
    int line = 0;              // the Python line that recorded it (1-based)
};

struct Jaxpr {
    std::vector<int> invars;
    std::vector<Eqn> eqns;
    std::vector<Atom> outs;
};

// A name in the Python frame at a step: a tracer or a static Python value.
struct Binding {
    std::string name;  // "x", "h", "act"
    bool traced = true;
    Aval aval;          // when traced
    std::string value;  // when static: "'relu'", "8"
    int var = -1;       // the jaxpr variable it holds, when traced
};

// One Python line executed during tracing.
struct Step {
    int line = 0;                // 1-based, into Program::lines
    std::string note;            // what happened, one sentence
    std::vector<Binding> frame;  // names bound after the line ran
    int recorded_from = 0;       // equations of the printed jaxpr this step appended:
    int recorded_to = 0;         //   [from, to) in Trace::printed
    std::string inner_label;     // a sub-jaxpr being traced ("scan body"), else ""
    std::string inner;           // that sub-jaxpr so far, as printed
};

// One printed equation of the finished jaxpr (top level), with the step that appended it.
struct PrintedEqn {
    std::string text;  // as JAX prints it, possibly several lines, no indent
    std::string primitive;
    int step = 0;
};

struct Knob {
    std::string id;                    // "B", "act"
    std::string label;                 // "batch B"
    bool choice = false;               // a static argument chosen from `choices`
    std::int64_t value = 0;            // default size
    std::vector<std::string> choices;  // default is choices[0]
};

struct Program {
    std::string id;  // "mlp", "softmax", "scan", "vmap", "static-if", "traced-if"
    std::string title;
    std::string blurb;
    std::vector<Knob> knobs;
};

// The learner's settings: sizes and chosen static arguments by knob id.
struct Settings {
    std::map<std::string, std::int64_t> sizes;
    std::map<std::string, std::string> choices;
};

struct Trace {
    std::string problem;             // bad input, one sentence; nothing else is set
    std::vector<std::string> lines;  // the Python source, as traced
    std::vector<Aval> vars;          // every jaxpr variable
    std::vector<std::string> names;  // their printed names ("a", "b", ...)
    Jaxpr jaxpr;                     // the finished (or, on an error, partial) jaxpr
    std::vector<Step> steps;
    std::vector<PrintedEqn> printed;  // top-level equations in order
    std::string header;               // "{ lambda ; a:f32[8,128]. let"
    std::string footer;               // "  in (e,) }"
    std::string error;                // JAX's error text when the trace fails, else ""
    int error_line = 0;
    std::string cache_key;  // what jit's cache keys on: avals and static args

    // The whole jaxpr as JAX prints it; up to step `upto` (exclusive end of
    // recorded equations), and without the `in (...)` when unfinished.
    std::string text() const;
    std::string text_upto(int step) const;
};

const std::vector<Program>& programs();
const Program* find_program(std::string_view id);
Settings defaults(const Program& program);

// Traces a program under the settings. Sizes below 1 (or above 65,536) give
// a Trace whose `problem` says so in one sentence.
Trace trace(std::string_view program_id, const Settings& settings);

// The jaxpr's primitives in order, sub-jaxprs after their equation.
std::vector<std::string> primitive_sequence(const Trace& trace);

}  // namespace coursework::tracer
