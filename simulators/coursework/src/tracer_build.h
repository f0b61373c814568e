#pragma once

// What the tracer's example programs are built with: a Builder that appends
// a program's equations, steps and Python lines to its Trace, and the text
// helpers they share. Private to libtpusim's tracer (tracer.cpp prints and
// serves the programs, tracer_programs.cpp writes them).

#include "coursework/tracer.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace coursework::tracer::build {

constexpr std::int64_t max_size = 65536;

inline std::string dims_of(const std::vector<std::int64_t>& shape, const char* sep) {
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += sep;
        s += std::to_string(shape[i]);
    }
    return s;
}

// A shape as a Python tuple: "(8, 128)", "(128,)", "()".
inline std::string tuple_text(const std::vector<std::int64_t>& v) {
    if (v.size() == 1) return "(" + std::to_string(v[0]) + ",)";
    return "(" + dims_of(v, ", ") + ")";
}

inline std::string numpy_dtype(const std::string& dtype) {
    if (dtype == "f32") return "float32";
    if (dtype == "bf16") return "bfloat16";
    if (dtype == "i32") return "int32";
    return dtype;
}

class Builder {
public:
    Trace t;

    Aval av(std::string dtype, std::vector<std::int64_t> shape, bool weak = false) {
        return Aval{std::move(dtype), std::move(shape), weak};
    }
    int new_var(const Aval& a) {
        t.vars.push_back(a);
        return static_cast<int>(t.vars.size()) - 1;
    }
    Jaxpr& cur() { return stack_.empty() ? t.jaxpr : *stack_.back(); }

    // An input of the jaxpr being recorded, bound to a Python name.
    int arg(const std::string& name, const Aval& a, const std::string& note_value = "") {
        const int v = new_var(a);
        cur().invars.push_back(v);
        bind(name, v, note_value);
        return v;
    }
    void bind(const std::string& name, int var, const std::string& value = "") {
        Binding b{name, true, t.vars[static_cast<std::size_t>(var)], value, var};
        put(b);
    }
    void bind_static(const std::string& name, const std::string& value) { put(Binding{name, false, {}, value, -1}); }
    // A Python scalar in the line: weakly typed, it enters the jaxpr as a literal.
    void bind_literal(const std::string& text, const char* kind, const Aval& as) {
        Aval weak = as;
        weak.weak = true;
        put(Binding{text, false, weak,
                    std::string("a Python ") + kind + ", weakly typed: enters as the literal " + text +
                        (text.find('.') == std::string::npos ? ".0" : "") + ":" + as.text(),
                    -1});
    }
    void unbind(const std::string& name) {
        frame_.erase(std::remove_if(frame_.begin(), frame_.end(), [&](const Binding& b) { return b.name == name; }),
                     frame_.end());
    }

    Atom v(int var) const { return Atom{var, "", t.vars[static_cast<std::size_t>(var)]}; }
    static Atom lit(const std::string& text, const Aval& a) { return Atom{-1, text, a}; }

    // Records one equation with one result.
    int eqn(const std::string& prim, std::vector<Param> params, std::vector<Atom> inputs, const Aval& out) {
        const int o = new_var(out);
        Eqn e{prim, std::move(params), std::move(inputs), {o}, line_};
        cur().eqns.push_back(std::move(e));
        if (stack_.empty()) top_steps_.push_back(static_cast<int>(t.steps.size()));
        return o;
    }
    std::vector<int> eqn_n(const std::string& prim, std::vector<Param> params, std::vector<Atom> inputs,
                           const std::vector<Aval>& outs) {
        std::vector<int> os;
        for (const auto& a : outs) os.push_back(new_var(a));
        cur().eqns.push_back(Eqn{prim, std::move(params), std::move(inputs), os, line_});
        if (stack_.empty()) top_steps_.push_back(static_cast<int>(t.steps.size()));
        return os;
    }

    void at(int line) { line_ = line; }
    // The line ran: a step, with the frame as it stands.
    void step(const std::string& note) {
        Step s;
        s.line = line_;
        s.note = note;
        s.frame = frame_;
        s.inner_label = inner_label_;
        t.steps.push_back(std::move(s));
        snapshots_.push_back(stack_.empty() ? Jaxpr{} : *stack_.back());
    }

    // Tracing a sub-jaxpr: equations go to `sub` until `end_sub`.
    void begin_sub(Jaxpr* sub, const std::string& label) {
        stack_.push_back(sub);
        inner_label_ = label;
    }
    void end_sub() {
        stack_.pop_back();
        if (stack_.empty()) inner_label_.clear();
    }

    std::vector<int> top_steps_;    // per top-level equation, the step it was recorded in
    std::vector<Jaxpr> snapshots_;  // per step, the sub-jaxpr being traced (empty when none)
    std::vector<Binding> frame_;

private:
    void put(const Binding& b) {
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

inline Param p(const std::string& name, const std::string& value) {
    return Param{name, value, {}, false};
}

inline std::string dtype_of(const Settings& s, const char* id) {
    const auto it = s.choices.find(id);
    return it == s.choices.end() ? std::string() : it->second;
}

// The programs, each building its trace for the learner's settings.
void mlp(Builder& b, const Settings& s);
void softmax(Builder& b, const Settings& s);
void scan(Builder& b, const Settings& s);
void vmapped(Builder& b, const Settings& s);
void static_if(Builder& b, const Settings& s);
void traced_if(Builder& b, const Settings& s);

}  // namespace coursework::tracer::build
