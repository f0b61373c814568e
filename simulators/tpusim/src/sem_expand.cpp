// From parsed statements to one flat instruction list per device: loops
// unrolled, conditions decided, every expression evaluated with that
// device's `my`. Also the statement list the app shows, and its edits.
#include <algorithm>
#include <map>
#include <string>

#include "sem_detail.h"
#include "tpusim/error.h"

namespace tpusim::semdetail {

namespace {

constexpr std::int64_t kLimit = std::int64_t{1} << 40;  // far past any buffer or count
// Keeps a run well inside the app's interactive budget and its memory small.
constexpr std::size_t kMaxInstructions = 1000000;

struct Env {
    std::int64_t my = -1;  // -1: not allowed (declarations)
    std::int64_t n = 0;
    std::map<std::string, std::int64_t> vars;
};

std::int64_t eval(const Expr& e, const Env& env) {
    auto arg = [&](std::size_t k) { return eval(e.args[k], env); };
    std::int64_t v = 0;
    switch (e.op) {
        case Op::num:
            v = e.value;
            break;
        case Op::var:
            if (e.name == "my") {
                if (env.my < 0) fail(e.pos, "declarations are the same on every device: 'my' is not allowed here");
                v = env.my;
            } else if (e.name == "N") {
                v = env.n;
            } else {
                const auto it = env.vars.find(e.name);
                if (it == env.vars.end()) fail(e.pos, "'" + e.name + "' is not a loop variable here");
                v = it->second;
            }
            break;
        case Op::add:
            v = arg(0) + arg(1);
            break;
        case Op::sub:
            v = arg(0) - arg(1);
            break;
        case Op::mul: {
            const std::int64_t a = arg(0), b = arg(1);  // each within kLimit: check before
            if (static_cast<double>(a) * static_cast<double>(b) > static_cast<double>(kLimit) ||
                static_cast<double>(a) * static_cast<double>(b) < -static_cast<double>(kLimit))
                fail(e.pos, "this value is too large");
            v = a * b;
            break;
        }
        case Op::div:
        case Op::mod: {
            const std::int64_t a = arg(0), b = arg(1);
            if (b == 0) fail(e.pos, "division by zero");
            if (e.op == Op::div) {
                v = a / b;
            } else {
                v = a % b;  // then as Python: the sign of the divisor
                if (v != 0 && ((v < 0) != (b < 0))) v += b;
            }
            break;
        }
        case Op::neg:
            v = -arg(0);
            break;
        case Op::eq:
            v = arg(0) == arg(1);
            break;
        case Op::ne:
            v = arg(0) != arg(1);
            break;
        case Op::lt:
            v = arg(0) < arg(1);
            break;
        case Op::le:
            v = arg(0) <= arg(1);
            break;
        case Op::gt:
            v = arg(0) > arg(1);
            break;
        case Op::ge:
            v = arg(0) >= arg(1);
            break;
        case Op::land:
            v = arg(0) != 0 && arg(1) != 0;
            break;
        case Op::lor:
            v = arg(0) != 0 || arg(1) != 0;
            break;
        case Op::lnot:
            v = arg(0) == 0;
            break;
    }
    if (v > kLimit || v < -kLimit) fail(e.pos, "this value is too large");
    return v;
}

struct Expander {
    const std::vector<Statement>& st;
    Expanded& out;
    std::vector<int> first_id;  // per statement: its first flat buffer / semaphore id
    int device = 0;
    std::size_t total = 0;  // instructions over all devices so far

    std::string on_device() const { return " on device " + std::to_string(device); }

    int resolve(const Ref& r, const Env& env, std::string& name) const {
        const Statement& d = st[static_cast<std::size_t>(r.decl)];
        int id = first_id[static_cast<std::size_t>(r.decl)];
        name = d.name;
        if (r.indexed) {
            const std::int64_t k = eval(r.index, env);
            const std::int64_t len = eval(d.count, Env{-1, env.n, {}});
            if (k < 0 || k >= len)
                fail(r.pos, "index " + std::to_string(k) + " is outside " + d.name + "[0.." + std::to_string(len - 1) +
                                "]" + on_device());
            id += static_cast<int>(k);
            name += "[" + std::to_string(k) + "]";
        }
        return id;
    }
    int target(const Expr& e, const Env& env) const {
        const std::int64_t t = eval(e, env);
        if (t < 0 || t >= env.n)
            fail(e.pos, "device " + std::to_string(t) + " does not exist (devices 0.." + std::to_string(env.n - 1) +
                            ")" + on_device());
        return static_cast<int>(t);
    }
    std::int64_t amount(const Expr& e, const Env& env, const char* what) const {
        const std::int64_t a = eval(e, env);
        if (a < 1) fail(e.pos, std::string(what) + " must be at least 1 (got " + std::to_string(a) + ")" + on_device());
        return a;
    }

    void run(std::size_t from, std::size_t to, Env& env) {
        for (std::size_t k = from; k < to; ++k) {
            const Statement& s = st[k];
            if (s.kind == StmtKind::for_loop) {
                const std::int64_t lo = eval(s.lo, env), hi = eval(s.hi, env);
                if (hi - lo > 100000) fail(s.pos, "this loop runs more than 100000 times");
                for (std::int64_t v = lo; v <= hi; ++v) {
                    env.vars[s.var] = v;
                    run(k + 1, s.match, env);
                }
                env.vars.erase(s.var);
                k = s.match;
                continue;
            }
            if (s.kind == StmtKind::if_block) {
                const Statement& m = st[s.match];
                const std::size_t end = m.kind == StmtKind::else_block ? m.match : s.match;
                if (eval(s.cond, env) != 0)
                    run(k + 1, s.match, env);
                else if (m.kind == StmtKind::else_block)
                    run(s.match + 1, end, env);
                k = end;
                continue;
            }
            if (s.kind == StmtKind::devices || s.kind == StmtKind::buffer || s.kind == StmtKind::dma_sem ||
                s.kind == StmtKind::sem || s.kind == StmtKind::end_block || s.kind == StmtKind::else_block)
                continue;
            instruction(s, env);
        }
    }

    void instruction(const Statement& s, const Env& env) {
        Instr in;
        in.kind = s.kind;
        in.line = s.pos.line;
        std::string a, b, c, d;
        const std::vector<std::int64_t>& bytes = out.layout.buffer_bytes;
        switch (s.kind) {
            case StmtKind::local_copy:
            case StmtKind::remote_copy: {
                in.src = resolve(s.src, env, a);
                in.dst = resolve(s.dst, env, b);
                in.sem = resolve(s.sem, env, c);
                in.amount =
                    s.has_bytes ? amount(s.bytes, env, "a copy's size") : bytes[static_cast<std::size_t>(in.src)];
                if (in.amount > bytes[static_cast<std::size_t>(in.src)] ||
                    in.amount > bytes[static_cast<std::size_t>(in.dst)])
                    fail(s.pos, "the copy moves " + std::to_string(in.amount) + " bytes, more than " + a + " or " + b +
                                    " holds");
                if (s.kind == StmtKind::local_copy) {
                    in.text = "local_copy " + a + " -> " + b + " sem " + c;
                } else {
                    in.target = target(s.device, env);
                    in.sem2 = resolve(s.sem2, env, d);
                    in.text = "remote_copy " + a + " -> " + b + " to " + std::to_string(in.target) + " send " + c +
                              " recv " + d;
                }
                break;
            }
            case StmtKind::wait_dma:
                in.sem = resolve(s.sem, env, a);
                if (s.amount_is_buffer) {
                    in.amount = bytes[static_cast<std::size_t>(resolve(s.amount_buffer, env, b))];
                    in.text = "wait_dma " + a + " " + b;
                } else {
                    in.amount = amount(s.bytes, env, "a wait's byte count");
                    in.text = "wait_dma " + a + " " + std::to_string(in.amount) + " B";
                }
                break;
            case StmtKind::signal:
            case StmtKind::wait:
                in.sem = resolve(s.sem, env, a);
                in.amount = s.has_bytes ? amount(s.bytes, env, "the amount") : 1;
                in.target = s.has_device ? target(s.device, env) : device;
                in.text = (s.kind == StmtKind::signal ? "signal " : "wait ") + a + " " + std::to_string(in.amount) +
                          (s.has_device ? " to " + std::to_string(in.target) : "");
                break;
            case StmtKind::compute:
                in.duration_s = s.duration_s;
                in.text = "compute";
                for (const Ref& r : s.reads) {
                    in.reads.push_back(resolve(r, env, a));
                    in.text += (in.reads.size() == 1 ? " reads " : ", ") + a;
                }
                for (const Ref& r : s.writes) {
                    in.writes.push_back(resolve(r, env, a));
                    in.text += (in.writes.size() == 1 ? " writes " : ", ") + a;
                }
                break;
            default:
                in.text = "barrier";
                break;
        }
        if (++total > kMaxInstructions)
            fail(s.pos, "the program unrolls to more than " + std::to_string(kMaxInstructions) +
                            " statements over all devices; make its loops shorter");
        out.code[static_cast<std::size_t>(device)].push_back(std::move(in));
    }
};

}  // namespace

Expanded expand(const Source& source, int devices) {
    Expanded out;
    out.devices = devices;
    const std::vector<Statement>& st = source.statements;
    Expander x{st, out, std::vector<int>(st.size(), -1), 0, 0};
    const Env decl_env{-1, devices, {}};
    for (std::size_t k = 0; k < st.size(); ++k) {
        const Statement& s = st[k];
        if (s.kind != StmtKind::buffer && s.kind != StmtKind::dma_sem && s.kind != StmtKind::sem) continue;
        std::int64_t len = 1;
        if (s.array) {
            len = eval(s.count, decl_env);
            if (len < 1 || len > 65536)
                fail(s.count.pos, "an array needs 1 to 65536 elements (got " + std::to_string(len) + ")");
        }
        std::int64_t size = 0;
        if (s.kind == StmtKind::buffer) {
            size = eval(s.size, decl_env);
            if (size < 1) fail(s.size.pos, "a buffer needs at least 1 byte");
        }
        const bool buffer = s.kind == StmtKind::buffer;
        x.first_id[k] = static_cast<int>(buffer ? out.layout.buffer_names.size() : out.layout.sem_names.size());
        for (std::int64_t j = 0; j < len; ++j) {
            const std::string name = s.array ? s.name + "[" + std::to_string(j) + "]" : s.name;
            if (buffer) {
                out.layout.buffer_names.push_back(name);
                out.layout.buffer_bytes.push_back(size);
            } else {
                out.layout.sem_names.push_back(name);
                out.layout.sem_is_dma.push_back(s.kind == StmtKind::dma_sem);
            }
        }
    }
    out.code.resize(static_cast<std::size_t>(devices));
    for (int d = 0; d < devices; ++d) {
        x.device = d;
        Env env{d, devices, {}};
        x.run(0, st.size(), env);
    }
    return out;
}

}  // namespace tpusim::semdetail

namespace tpusim {

using semdetail::StmtKind;

namespace {

std::string trimmed(const std::string& s) {
    const std::size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    const std::size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

const std::vector<semdetail::Statement>& statements_of(const SemProgram& p) {
    if (!p.source) throw InputError("this program was never parsed");
    return p.source->statements;
}

SemProgram with_statements(const SemProgram& p, std::vector<semdetail::Statement> st) {
    semdetail::match_blocks(st);
    auto src = std::make_shared<semdetail::Source>();
    src->statements = std::move(st);
    SemProgram q = p;
    q.source = std::move(src);
    return q;
}

void check_index(const std::vector<semdetail::Statement>& st, std::size_t index) {
    if (index >= st.size())
        throw InputError("there is no statement " + std::to_string(index) + " (the program has " +
                         std::to_string(st.size()) + ")");
}

}  // namespace

std::vector<SemStatement> semaphore_statements(const SemProgram& p) {
    std::vector<SemStatement> list;
    int depth = 0;
    const auto& st = statements_of(p);
    for (std::size_t k = 0; k < st.size(); ++k) {
        const semdetail::Statement& s = st[k];
        if (s.kind == StmtKind::end_block || s.kind == StmtKind::else_block) --depth;
        SemStatement row;
        row.index = k;
        row.line = s.pos.line;
        row.depth = depth;
        const std::size_t li = static_cast<std::size_t>(s.pos.line - 1);
        const std::string text = li < p.lines.size() ? p.lines[li] : "";
        row.text = trimmed(text.substr(0, text.find('#')));
        row.block = s.kind == StmtKind::for_loop || s.kind == StmtKind::if_block;
        list.push_back(row);
        if (s.kind == StmtKind::for_loop || s.kind == StmtKind::if_block || s.kind == StmtKind::else_block) ++depth;
    }
    return list;
}

SemProgram drop_statement(const SemProgram& p, std::size_t index) {
    const auto& st = statements_of(p);
    check_index(st, index);
    const semdetail::Statement& s = st[index];
    if (s.kind == StmtKind::end_block || s.kind == StmtKind::else_block)
        throw InputError("'end' and 'else' go with their block: drop the for or if instead");
    std::size_t last = index;
    if (s.kind == StmtKind::for_loop) last = s.match;
    if (s.kind == StmtKind::if_block) {
        last = s.match;
        if (st[last].kind == StmtKind::else_block) last = st[last].match;
    }
    // A dropped declaration leaves references to it: refuse rather than guess.
    for (std::size_t k = 0; k < st.size(); ++k) {
        if (k >= index && k <= last) continue;
        const semdetail::Statement& o = st[k];
        for (const semdetail::Ref* r : {&o.src, &o.dst, &o.sem, &o.sem2, &o.amount_buffer})
            if (r->decl >= 0 && static_cast<std::size_t>(r->decl) >= index && static_cast<std::size_t>(r->decl) <= last)
                throw InputError("line " + std::to_string(o.pos.line) + " uses '" +
                                 st[static_cast<std::size_t>(r->decl)].name + "': drop that statement first");
        for (const auto* list : {&o.reads, &o.writes})
            for (const semdetail::Ref& r : *list)
                if (r.decl >= 0 && static_cast<std::size_t>(r.decl) >= index &&
                    static_cast<std::size_t>(r.decl) <= last)
                    throw InputError("line " + std::to_string(o.pos.line) + " uses '" +
                                     st[static_cast<std::size_t>(r.decl)].name + "': drop that statement first");
    }
    std::vector<semdetail::Statement> kept;
    const int removed = static_cast<int>(last - index + 1);
    for (std::size_t k = 0; k < st.size(); ++k) {
        if (k >= index && k <= last) continue;
        semdetail::Statement c = st[k];
        for (semdetail::Ref* r : {&c.src, &c.dst, &c.sem, &c.sem2, &c.amount_buffer})
            if (r->decl > static_cast<int>(last)) r->decl -= removed;
        for (auto* list : {&c.reads, &c.writes})
            for (semdetail::Ref& r : *list)
                if (r.decl > static_cast<int>(last)) r.decl -= removed;
        kept.push_back(std::move(c));
    }
    return with_statements(p, std::move(kept));
}

SemProgram swap_statements(const SemProgram& p, std::size_t a, std::size_t b) {
    const auto& st = statements_of(p);
    check_index(st, a);
    check_index(st, b);
    for (std::size_t k : {a, b}) {
        const StmtKind kind = st[k].kind;
        if (kind == StmtKind::for_loop || kind == StmtKind::if_block || kind == StmtKind::else_block ||
            kind == StmtKind::end_block || kind == StmtKind::buffer || kind == StmtKind::dma_sem ||
            kind == StmtKind::sem || kind == StmtKind::devices)
            throw InputError("only operations can be swapped (line " + std::to_string(st[k].pos.line) +
                             " is a block or a declaration)");
    }
    std::vector<semdetail::Statement> copy = st;
    std::swap(copy[a], copy[b]);
    return with_statements(p, std::move(copy));
}

}  // namespace tpusim
