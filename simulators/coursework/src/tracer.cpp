#include "coursework/tracer.h"
#include "tracer_build.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace coursework::tracer {

using namespace build;

namespace {

// JAX's variable names: a..z, then ba, bb, ... (digits in base 26).
std::string var_name(int n) {
    std::string s;
    do {
        s.insert(s.begin(), static_cast<char>('a' + n % 26));
        n /= 26;
    } while (n > 0);
    return s;
}

// Printing, with names given in print order.
class Printer {
public:
    explicit Printer(Trace& t) : t_(t) { t_.names.assign(t_.vars.size(), ""); }

    void name_jaxpr(const Jaxpr& j) {
        for (int v : j.invars) name(v);
        for (const auto& e : j.eqns) {
            for (int o : e.outputs) name(o);
            for (const auto& p : e.params)
                for (const auto& sub : p.jaxprs) name_jaxpr(sub);
        }
    }

    std::string binder(int v) const {
        return t_.names[static_cast<std::size_t>(v)] + ":" + t_.vars[static_cast<std::size_t>(v)].text();
    }
    std::string atom(const Atom& a) const {
        if (a.var < 0) return a.literal + ":" + a.aval.text();
        return t_.names[static_cast<std::size_t>(a.var)];
    }
    std::string outs(const std::vector<Atom>& os) const {
        std::string s = "(";
        for (std::size_t i = 0; i < os.size(); ++i) {
            if (i) s += ", ";
            s += atom(os[i]);
        }
        if (os.size() == 1) s += ",";
        return s + ")";
    }
    std::string header(const Jaxpr& j) const {
        std::string s = "{ lambda ;";
        for (int v : j.invars) s += " " + binder(v);
        return s + ". let";
    }

    // One equation; `indent` is where its first line sits (the following lines are indented from it).
    std::string eqn(const Eqn& e, int indent) const {
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
    std::string one_line(const Jaxpr& j) const {
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
    std::string block(const Jaxpr& j, int indent) const {
        const std::string one = one_line(j);
        if (!one.empty() && static_cast<int>(one.size()) + indent <= 100) return one;
        std::string s = header(j) + "\n";
        for (const auto& e : j.eqns) s += indented(eqn(e, indent + 4), indent + 4) + "\n";
        return s + std::string(static_cast<std::size_t>(indent + 2), ' ') + "in " + outs(j.outs) + " }";
    }
    static std::string indented(const std::string& text, int by) {
        const std::string pad(static_cast<std::size_t>(by), ' ');
        std::string s = pad;
        for (char c : text) {
            s += c;
            if (c == '\n') s += pad;
        }
        return s;
    }

private:
    void name(int v) {
        auto& n = t_.names[static_cast<std::size_t>(v)];
        if (n.empty()) n = var_name(next_++);
    }
    Trace& t_;
    int next_ = 0;
};

struct Entry {
    Program program;
    std::function<void(Builder&, const Settings&)> build;
};

Knob size(const char* id, const char* label, std::int64_t v) {
    return Knob{id, label, false, v, {}};
}
Knob choice(const char* id, const char* label, std::vector<std::string> cs) {
    return Knob{id, label, true, 0, std::move(cs)};
}

const std::vector<Entry>& entries() {
    static const std::vector<Entry> all = {
        {{"mlp",
          "an MLP layer",
          "x @ w + b, then relu: a matmul, a broadcast, an add, a max.",
          {size("B", "batch B", 32), size("D", "in D", 128), size("H", "out H", 512),
           choice("dtype", "dtype", {"f32", "bf16"})}},
         mlp},
        {{"softmax",
          "a softmax",
          "a row softmax: reductions with keepdims, and implicit broadcasting.",
          {size("N", "rows N", 8), size("D", "width D", 128)}},
         softmax},
        {{"scan",
          "a loop with lax.scan",
          "a running sum: the body traced once into a sub-jaxpr.",
          {size("T", "steps T", 8), size("D", "width D", 128)}},
         scan},
        {{"vmap",
          "a vmap'd function",
          "a dot product, batched by vmap over its first argument.",
          {size("B", "batch B", 16), size("D", "width D", 128),
           choice("map", "traced as", {"vmap(dot)", "dot alone"})}},
         vmapped},
        {{"static-if",
          "an if on a static argument",
          "a dense layer whose activation is a static argument.",
          {size("B", "batch B", 8), size("D", "width D", 128), choice("act", "act", {"relu", "tanh", "none"})}},
         static_if},
        {{"traced-if",
          "an if on a traced value",
          "branching on data: a Python if, jnp.where, or lax.cond.",
          {size("N", "length N", 1024), choice("branch", "branch with", {"python if", "jnp.where", "lax.cond"})}},
         traced_if},
    };
    return all;
}

}  // namespace

std::string Aval::text() const {
    return dtype + "[" + dims_of(shape, ",") + "]";
}

const std::vector<Program>& programs() {
    static const std::vector<Program> all = [] {
        std::vector<Program> v;
        for (const auto& e : entries()) v.push_back(e.program);
        return v;
    }();
    return all;
}

const Program* find_program(std::string_view id) {
    for (const auto& p : programs())
        if (p.id == id) return &p;
    return nullptr;
}

Settings defaults(const Program& program) {
    Settings s;
    for (const auto& k : program.knobs) {
        if (k.choice)
            s.choices[k.id] = k.choices.front();
        else
            s.sizes[k.id] = k.value;
    }
    return s;
}

Trace trace(std::string_view program_id, const Settings& settings) {
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

std::string Trace::text_upto(int step) const {
    if (!problem.empty()) return "";
    std::string s = header + "\n";
    for (const auto& e : printed) {
        if (e.step >= step) break;
        s += Printer::indented(e.text, 4) + "\n";
    }
    const bool finished = error.empty() && step >= static_cast<int>(steps.size());
    if (finished)
        s += footer;
    else if (s.back() == '\n')
        s.pop_back();
    return s;
}

std::string Trace::text() const {
    return text_upto(static_cast<int>(steps.size()));
}

std::vector<std::string> primitive_sequence(const Trace& trace) {
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

}  // namespace coursework::tracer
