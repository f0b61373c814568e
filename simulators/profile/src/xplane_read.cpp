// Reads an XSpace (.xplane.pb) in two passes over the file, streamed from
// disk so that memory follows what is kept, not the file's size:
//   1. every plane's name, its lines' names and timestamps, its stat names
//      and, for device and metadata planes, its event metadata; lines'
//      events are skipped unread;
//   2. the events of the lines the course shows (XLA Ops, XLA Modules and
//      Steps on a TPU; the streams of a GPU), now that stat ids have names.
// Two passes because a plane's stat names follow its lines in the file
// (XPlane fields 3 then 5 [XPLANE-PROTO]).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

#include <google/protobuf/io/zero_copy_stream_impl.h>

#include "hlo_proto.h"
#include "nesting.h"
#include "tpuprofile/read.h"
#include "wire.h"
#include "xplane_schema.h"

namespace tpuprofile {

namespace {

namespace x = xplane;
using wire::Fields;
using wire::WireError;

struct RawStat {
    std::int64_t id = 0;
    int type = 0;  // the value's field number: 2 double ... 7 ref
    std::uint64_t u = 0;
    double d = 0;
    std::string s;
};

struct EventMeta {
    std::string name, display_name;
    std::vector<RawStat> stats;
};

struct LineInfo {
    std::string name;
    std::int64_t timestamp_ns = 0;
};

struct PlaneInfo {
    std::string name;
    std::vector<LineInfo> lines;
    std::unordered_map<std::int64_t, std::string> stat_names;
    std::vector<RawStat> stats;
    std::unordered_map<std::int64_t, EventMeta> events;
    bool keep_metadata = true;
};

struct SpaceInfo {
    std::vector<PlaneInfo> planes;
    std::vector<std::string> hostnames, errors, warnings;
};

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool is_device_plane(std::string_view name) { return starts_with(name, "/device:"); }
bool keeps_metadata(std::string_view name) {
    return is_device_plane(name) || name == x::metadata_plane;
}

RawStat read_stat(Fields& f) {
    RawStat st;
    f.nested([&](Fields& s) {
        while (s.next()) {
            switch (s.number()) {
                case x::stat_metadata_id: st.id = s.int64(); break;
                case x::stat_double: st.type = x::stat_double; st.d = s.float64(); break;
                case x::stat_uint64: st.type = x::stat_uint64; st.u = s.varint(); break;
                case x::stat_int64: st.type = x::stat_int64; st.u = s.varint(); break;
                case x::stat_str: st.type = x::stat_str; st.s = s.bytes(); break;
                case x::stat_bytes: st.type = x::stat_bytes; st.s = s.bytes(); break;
                case x::stat_ref: st.type = x::stat_ref; st.u = s.varint(); break;
                default: s.skip();
            }
        }
    });
    return st;
}

// ---- pass 1 --------------------------------------------------------------

class Progress {
public:
    Progress(const ReadOptions& o, std::uint64_t total) : o_(o), total_(total) {}
    void at(std::uint64_t pass_base, wire::CodedInputStream& in) {
        if (o_.cancel && o_.cancel->load(std::memory_order_relaxed))
            throw ProfileError("The reading was stopped before it finished.");
        const std::uint64_t done = pass_base + static_cast<std::uint64_t>(in.CurrentPosition());
        if (o_.progress && done >= next_) {
            o_.progress(done, total_);
            next_ = done + (4u << 20);
        }
    }
    void finish() {
        if (o_.progress) o_.progress(total_, total_);
    }

private:
    const ReadOptions& o_;
    std::uint64_t total_;
    std::uint64_t next_ = 0;
};

void scan_plane(Fields& f, PlaneInfo& p, Progress& progress, wire::CodedInputStream& in) {
    f.nested([&](Fields& pf) {
        while (pf.next()) {
            switch (pf.number()) {
                case x::plane_name:
                    p.name = pf.bytes();
                    p.keep_metadata = keeps_metadata(p.name);
                    break;
                case x::plane_lines: {
                    LineInfo line;
                    pf.nested([&](Fields& lf) {
                        bool named = false, timed = false;
                        while (lf.next()) {
                            if (lf.number() == x::line_name) {
                                line.name = lf.bytes();
                                named = true;
                            } else if (lf.number() == x::line_timestamp_ns) {
                                line.timestamp_ns = lf.int64();
                                timed = true;
                            } else if (lf.number() == x::line_events && named && timed) {
                                // Name and time come before the events [XPLANE-PROTO
                                // field order]; the rest of the line is not needed now.
                                lf.skip_rest();
                            } else {
                                lf.skip();
                            }
                        }
                    });
                    p.lines.push_back(std::move(line));
                    progress.at(0, in);
                    break;
                }
                case x::plane_event_metadata:
                    if (!p.keep_metadata) {
                        pf.skip();
                        break;
                    }
                    pf.nested([&](Fields& entry) {
                        std::int64_t key = 0;
                        EventMeta meta;
                        while (entry.next()) {
                            if (entry.number() == 1) {
                                key = entry.int64();
                            } else if (entry.number() == 2) {
                                entry.nested([&](Fields& m) {
                                    while (m.next()) {
                                        if (m.number() == x::event_md_name) meta.name = m.bytes();
                                        else if (m.number() == x::event_md_display_name)
                                            meta.display_name = m.bytes();
                                        else if (m.number() == x::event_md_stats)
                                            meta.stats.push_back(read_stat(m));
                                        else m.skip();
                                    }
                                });
                            } else {
                                entry.skip();
                            }
                        }
                        p.events[key] = std::move(meta);
                    });
                    break;
                case x::plane_stat_metadata:
                    pf.nested([&](Fields& entry) {
                        std::int64_t key = 0;
                        std::string name;
                        while (entry.next()) {
                            if (entry.number() == 1) {
                                key = entry.int64();
                            } else if (entry.number() == 2) {
                                entry.nested([&](Fields& m) {
                                    while (m.next()) {
                                        if (m.number() == x::stat_md_name) name = m.bytes();
                                        else m.skip();
                                    }
                                });
                            } else {
                                entry.skip();
                            }
                        }
                        p.stat_names[key] = std::move(name);
                    });
                    break;
                case x::plane_stats: p.stats.push_back(read_stat(pf)); break;
                default: pf.skip();
            }
        }
    });
    if (!p.keep_metadata) p.events.clear();
}

// ---- the stats a plane's events and metadata carry -------------------------

enum class Role : std::uint8_t {
    none, device_offset_ps, device_duration_ps, hlo_op, hlo_module, program_id,
    hlo_category, flops, bytes_accessed, tf_op, source, shape_with_layout
};

Role role_of(std::string_view n) {
    // Stat names [XPLANE-SCHEMA].
    static const std::map<std::string_view, Role> roles{
        {"device_offset_ps", Role::device_offset_ps}, {"device_duration_ps", Role::device_duration_ps},
        {"hlo_op", Role::hlo_op}, {"hlo_module", Role::hlo_module}, {"program_id", Role::program_id},
        {"hlo_category", Role::hlo_category}, {"flops", Role::flops},
        {"bytes_accessed", Role::bytes_accessed}, {"tf_op", Role::tf_op}, {"source", Role::source},
        {"shape_with_layout", Role::shape_with_layout}};
    const auto it = roles.find(n);
    return it == roles.end() ? Role::none : it->second;
}

class StatNames {
public:
    explicit StatNames(const PlaneInfo& p) : p_(p) {
        for (const auto& [id, name] : p.stat_names) {
            const Role r = role_of(name);
            if (id >= 0 && id < small_ids) {
                if (static_cast<std::size_t>(id) >= small_.size()) small_.resize(static_cast<std::size_t>(id) + 1, Role::none);
                small_[static_cast<std::size_t>(id)] = r;
            } else {
                roles_[id] = r;
            }
        }
    }
    // Called for every stat of every event: ids are small in practice.
    Role role(std::int64_t id) const {
        if (id >= 0 && static_cast<std::size_t>(id) < small_.size()) return small_[static_cast<std::size_t>(id)];
        const auto it = roles_.find(id);
        return it == roles_.end() ? Role::none : it->second;
    }
    const std::string* name(std::int64_t id) const {
        const auto it = p_.stat_names.find(id);
        return it == p_.stat_names.end() ? nullptr : &it->second;
    }
    // A stat's value as text: a string, or the name a ref points at.
    std::string text(const RawStat& s) const {
        if (s.type == x::stat_str) return s.s;
        if (s.type == x::stat_ref) {
            const std::string* n = name(static_cast<std::int64_t>(s.u));
            return n ? *n : std::string();
        }
        if (s.type == x::stat_uint64) return std::to_string(s.u);
        if (s.type == x::stat_int64) return std::to_string(static_cast<std::int64_t>(s.u));
        return {};
    }
    static std::int64_t integer(const RawStat& s) {
        if (s.type == x::stat_uint64 || s.type == x::stat_int64) return static_cast<std::int64_t>(s.u);
        if (s.type == x::stat_double) return static_cast<std::int64_t>(s.d);
        return -1;
    }
    static double real(const RawStat& s) {
        if (s.type == x::stat_double) return s.d;
        if (s.type == x::stat_uint64) return static_cast<double>(s.u);
        if (s.type == x::stat_int64) return static_cast<double>(static_cast<std::int64_t>(s.u));
        return 0;
    }

private:
    static constexpr std::int64_t small_ids = 1 << 16;
    const PlaneInfo& p_;
    std::vector<Role> small_;
    std::unordered_map<std::int64_t, Role> roles_;
};

// ---- pass 2 ----------------------------------------------------------------

enum class LineUse { skip, ops, modules, steps };

struct RawEvent {
    std::int64_t metadata_id = 0;
    std::int64_t offset_ps = 0, duration_ps = 0, occurrences = 0;
    bool has_offset = false;
    std::int64_t device_offset_ps = -1, device_duration_ps = -1;
    std::int64_t hlo_op = 0;  // an interned id; 0 when the event has none
    std::int64_t program_id = -1;
    std::int64_t hlo_module = 0;
};

// What pass 2 collects for one device before its ops are merged by name.
struct DeviceBuild {
    Device device;
    const PlaneInfo* plane = nullptr;
    std::vector<Op> ops;  // one per (event metadata, hlo_op) pair seen
    std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> op_index;
    std::unordered_map<std::int64_t, std::string> interned;  // negative ids: strings met inline
    std::unordered_map<std::string, std::int64_t> intern_ids;
    std::int64_t base_ns = 0;
    std::int64_t skipped = 0;  // events and lines with times no trace can hold
};

std::int64_t intern(DeviceBuild& b, const StatNames& names, const RawStat& s) {
    if (s.type == x::stat_ref) {
        const auto id = static_cast<std::int64_t>(s.u) + 1;  // positive: a stat name
        if (!b.interned.count(id)) b.interned[id] = names.text(s);
        return id;
    }
    std::string text = names.text(s);
    const auto it = b.intern_ids.find(text);
    if (it != b.intern_ids.end()) return it->second;
    const std::int64_t id = -static_cast<std::int64_t>(b.intern_ids.size()) - 1;
    b.intern_ids.emplace(text, id);
    b.interned[id] = std::move(text);
    return id;
}

// The op's name and opcode from the profiler's instruction text:
// "%copy-done.4 = f32[...]{...} copy-done((...) %copy-start.4)".
void parse_hlo_line(const std::string& text, std::string& name, std::string& opcode) {
    if (text.empty() || text[0] != '%') return;
    const auto eq = text.find(" = ");
    if (eq == std::string::npos) return;
    if (name.empty()) name = text.substr(1, eq - 1);
    std::size_t i = eq + 3;
    // Skip the result type: a tuple in parentheses, or one word.
    if (i < text.size() && text[i] == '(') {
        int depth = 0;
        for (; i < text.size(); ++i) {
            if (text[i] == '(') ++depth;
            else if (text[i] == ')' && --depth == 0) { ++i; break; }
        }
    } else {
        while (i < text.size() && text[i] != ' ') ++i;
    }
    while (i < text.size() && text[i] == ' ') ++i;
    const auto open = text.find('(', i);
    if (open != std::string::npos) opcode = text.substr(i, open - i);
}

std::string custom_call_target(const std::string& text) {
    const std::string key = "custom_call_target=\"";
    const auto at = text.find(key);
    if (at == std::string::npos) return {};
    const auto end = text.find('"', at + key.size());
    return end == std::string::npos ? std::string() : text.substr(at + key.size(), end - at - key.size());
}

// A new op for event metadata `md`, its fields from the metadata's stats.
Op op_from_metadata(const EventMeta* md, const StatNames& names) {
    Op op;
    if (!md) return op;
    op.name = md->display_name;
    if (!md->name.empty() && md->name[0] == '%') {
        op.hlo_text = md->name;
        parse_hlo_line(md->name, op.name, op.opcode);
        op.custom_call_target = custom_call_target(md->name);
    } else if (op.name.empty()) {
        op.name = md->name;
    }
    for (const RawStat& s : md->stats) {
        switch (names.role(s.id)) {
            case Role::hlo_category: op.category = names.text(s); break;
            case Role::program_id:
                op.program_id = static_cast<std::uint64_t>(StatNames::integer(s));
                op.has_program_id = true;
                break;
            case Role::flops: op.flops = StatNames::integer(s); break;
            case Role::bytes_accessed: op.bytes_accessed = StatNames::integer(s); break;
            case Role::tf_op: op.tf_op = names.text(s); break;
            case Role::source: op.source = names.text(s); break;
            case Role::shape_with_layout: op.shape_with_layout = names.text(s); break;
            default: break;
        }
    }
    return op;
}

RawEvent read_event(Fields& f, const StatNames& names, DeviceBuild& b,
                    std::unordered_map<std::int64_t, std::string>& module_names) {
    RawEvent e;
    f.nested([&](Fields& ef) {
        while (ef.next()) {
            switch (ef.number()) {
                case x::event_metadata_id: e.metadata_id = ef.int64(); break;
                case x::event_offset_ps: e.offset_ps = ef.int64(); e.has_offset = true; break;
                case x::event_duration_ps: e.duration_ps = ef.int64(); break;
                case x::event_num_occurrences: e.occurrences = ef.int64(); break;
                case x::event_stats: {
                    // Most of an event's stats are of no use here: once the
                    // stat's id (its first field) names one of those, the rest
                    // of it is skipped unread.
                    RawStat s;
                    Role role = Role::none;
                    ef.nested([&](Fields& sf) {
                        bool have_id = false;
                        while (sf.next()) {
                            const int n = sf.number();
                            if (n == x::stat_metadata_id) {
                                s.id = sf.int64();
                                role = names.role(s.id);
                                have_id = true;
                                if (role == Role::none) sf.skip_rest();
                            } else if (have_id && role == Role::none) {
                                sf.skip();
                            } else if (n == x::stat_uint64 || n == x::stat_int64 || n == x::stat_ref) {
                                s.type = n;
                                s.u = sf.varint();
                            } else if (n == x::stat_double) {
                                s.type = n;
                                s.d = sf.float64();
                            } else if (n == x::stat_str) {
                                s.type = n;
                                s.s = sf.bytes();
                            } else {
                                sf.skip();
                            }
                        }
                        if (!have_id) role = names.role(s.id);
                    });
                    switch (role) {
                        case Role::device_offset_ps: e.device_offset_ps = StatNames::integer(s); break;
                        case Role::device_duration_ps: e.device_duration_ps = StatNames::integer(s); break;
                        case Role::hlo_op: e.hlo_op = intern(b, names, s); break;
                        case Role::program_id: e.program_id = StatNames::integer(s); break;
                        case Role::hlo_module: {
                            e.hlo_module = intern(b, names, s);
                            module_names.emplace(e.hlo_module, b.interned[e.hlo_module]);
                            break;
                        }
                        default: break;
                    }
                    break;
                }
                default: ef.skip();
            }
        }
    });
    // An event with neither offset nor occurrence count is one occurrence at
    // the line's start (proto3 leaves a zero offset out [XPLANE-PROTO]).
    if (!e.has_offset && e.occurrences == 0) e.has_offset = true;
    return e;
}

LineUse line_use(DeviceKind kind, std::string_view line) {
    if (line == x::xla_modules_line) return LineUse::modules;
    if (line == x::steps_line) return LineUse::steps;
    if (kind == DeviceKind::gpu) return starts_with(line, x::gpu_stream_line_prefix) ? LineUse::ops : LineUse::skip;
    return line == x::xla_ops_line ? LineUse::ops : LineUse::skip;
}

// "jit_f(12190760917235803885)" -> name "jit_f", id 12190760917235803885.
bool split_program(const std::string& text, std::string& name, std::uint64_t& id) {
    const auto open = text.rfind('(');
    if (open == std::string::npos || text.back() != ')') return false;
    const std::string digits = text.substr(open + 1, text.size() - open - 2);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
    try {
        id = std::stoull(digits);
    } catch (const std::exception&) {
        return false;
    }
    name = text.substr(0, open);
    return true;
}

void read_device_lines(Fields& f, DeviceBuild& b, Progress& progress, std::uint64_t pass_base,
                       wire::CodedInputStream& in) {
    const PlaneInfo& p = *b.plane;
    const StatNames names(p);
    std::size_t line_index = 0;
    std::unordered_map<std::int64_t, std::string> module_names;
    f.nested([&](Fields& pf) {
        while (pf.next()) {
            if (pf.number() != x::plane_lines) {
                pf.skip();
                continue;
            }
            const LineInfo& info = p.lines.at(line_index++);
            const LineUse use = line_use(b.device.kind, info.name);
            if (use == LineUse::skip) {
                pf.skip();
                continue;
            }
            // A line starts at most an event's span from the device's first
            // line: further is damage, and its events are not read.
            std::int64_t line_base_ns = 0;
            if (__builtin_sub_overflow(info.timestamp_ns, b.base_ns, &line_base_ns) ||
                line_base_ns < 0 || line_base_ns > max_event_ps / 1000) {
                ++b.skipped;
                pf.skip();
                continue;
            }
            const std::int64_t line_base_ps = line_base_ns * 1000;
            const std::size_t begin = b.device.timeline.size();
            const std::int32_t lane = use == LineUse::ops ? static_cast<std::int32_t>(b.device.lanes.size()) : 0;
            if (use == LineUse::ops) b.device.lanes.push_back(info.name);
            std::int64_t count = 0;
            pf.nested([&](Fields& lf) {
                while (lf.next()) {
                    if (lf.number() != x::line_events) {
                        lf.skip();
                        continue;
                    }
                    const RawEvent e = read_event(lf, names, b, module_names);
                    if ((++count & 0x3fff) == 0) progress.at(pass_base, in);
                    const auto md_it = p.events.find(e.metadata_id);
                    const EventMeta* md = md_it == p.events.end() ? nullptr : &md_it->second;
                    const std::int64_t offset = e.device_offset_ps >= 0 ? e.device_offset_ps : e.offset_ps;
                    const std::int64_t duration =
                        e.device_duration_ps >= 0 ? e.device_duration_ps : e.duration_ps;
                    if (offset < 0 || offset > max_event_ps || duration < 0 || duration > max_event_ps ||
                        e.occurrences < 0 || e.occurrences > max_event_ps) {
                        ++b.skipped;  // times no trace can hold: damage
                        continue;
                    }
                    const std::int64_t start = line_base_ps + offset;
                    if (use == LineUse::modules || use == LineUse::steps) {
                        Span s;
                        s.name = md ? md->name : std::string();
                        std::string program;
                        std::uint64_t id = 0;
                        if (use == LineUse::modules && split_program(s.name, program, id)) {
                            s.name = program;
                            s.program_id = id;
                        }
                        s.start_ps = start;
                        s.duration_ps = duration;
                        (use == LineUse::modules ? b.device.modules : b.device.steps).push_back(std::move(s));
                        continue;
                    }
                    const auto key = std::make_pair(e.metadata_id, e.hlo_op);
                    auto it = b.op_index.find(key);
                    if (it == b.op_index.end()) {
                        Op op = op_from_metadata(md, names);
                        if (op.name.empty()) op.name = "event " + std::to_string(e.metadata_id);
                        if (e.hlo_op != 0) op.hlo_op = b.interned[e.hlo_op];
                        if (e.program_id >= 0 && !op.has_program_id) {
                            op.program_id = static_cast<std::uint64_t>(e.program_id);
                            op.has_program_id = true;
                        }
                        it = b.op_index.emplace(key, static_cast<std::int32_t>(b.ops.size())).first;
                        b.ops.push_back(std::move(op));
                    }
                    Op& op = b.ops[static_cast<std::size_t>(it->second)];
                    ++b.device.events_read;
                    if (!e.has_offset) {
                        // An aggregated event: a count and a total, no place in time.
                        op.occurrences = saturating_add(op.occurrences, e.occurrences);
                        op.total_ps = saturating_add(op.total_ps, duration);
                        op.self_ps = saturating_add(op.self_ps, duration);
                        continue;
                    }
                    op.occurrences += 1;
                    op.total_ps = saturating_add(op.total_ps, duration);
                    b.device.timeline.push_back({start, duration, it->second, 0, lane});
                }
            });
            if (use == LineUse::ops) {
                if (b.device.ops_line.empty()) b.device.ops_line = info.name;
                else b.device.ops_line += ", " + info.name;
                nest_events(b.device.timeline, begin, b.device.timeline.size(), b.ops);
                progress.at(pass_base, in);
            }
        }
    });
    const auto earlier = [](const OpEvent& a, const OpEvent& c) { return a.start_ps < c.start_ps; };
    if (!std::is_sorted(b.device.timeline.begin(), b.device.timeline.end(), earlier))
        std::stable_sort(b.device.timeline.begin(), b.device.timeline.end(), earlier);
}

// Ops of the same program and name (an op's event metadata can be written
// twice) become one; the timeline follows.
void merge_ops(DeviceBuild& b) {
    std::map<std::tuple<std::uint64_t, std::string, std::string>, std::int32_t> by_name;
    std::vector<std::int32_t> remap(b.ops.size());
    for (std::size_t i = 0; i < b.ops.size(); ++i) {
        Op& op = b.ops[i];
        const auto key = std::make_tuple(op.program_id, op.name, op.hlo_op);
        const auto it = by_name.find(key);
        if (it == by_name.end()) {
            remap[i] = static_cast<std::int32_t>(b.device.ops.size());
            by_name.emplace(key, remap[i]);
            b.device.ops.push_back(std::move(op));
            continue;
        }
        Op& into = b.device.ops[static_cast<std::size_t>(it->second)];
        remap[i] = it->second;
        into.occurrences = saturating_add(into.occurrences, op.occurrences);
        into.total_ps = saturating_add(into.total_ps, op.total_ps);
        into.self_ps = saturating_add(into.self_ps, op.self_ps);
        if (op.min_ps >= 0) into.min_ps = into.min_ps < 0 ? op.min_ps : std::min(into.min_ps, op.min_ps);
        into.max_ps = std::max(into.max_ps, op.max_ps);
    }
    for (OpEvent& e : b.device.timeline) e.op = remap[static_cast<std::size_t>(e.op)];
    // Ops that never ran (metadata only) are not kept: the reader made an op
    // only for events, so each has at least one occurrence.
}

DeviceKind kind_of_plane(std::string_view name) {
    if (starts_with(name, x::tpu_plane_prefix))
        return name.find("SparseCore") != std::string_view::npos ? DeviceKind::sparse_core
                                                                  : DeviceKind::tensor_core;
    if (starts_with(name, x::gpu_plane_prefix)) return DeviceKind::gpu;
    return DeviceKind::other;
}

int ordinal_of(std::string_view name) {
    const auto colon = name.rfind(':');
    if (colon == std::string_view::npos) return -1;
    int n = 0;
    bool any = false;
    for (std::size_t i = colon + 1; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) {
        n = n * 10 + (name[i] - '0');
        any = true;
        if (n > 1000000) return -1;
    }
    return any ? n : -1;
}

std::string gpu_description(const PlaneInfo& p, const StatNames& names) {
    std::string vendor;
    std::int64_t major = -1, minor = -1, cores = -1;
    double bandwidth = 0;
    for (const RawStat& s : p.stats) {
        const std::string* n = names.name(s.id);
        if (!n) continue;
        if (*n == "device_vendor") vendor = names.text(s);
        else if (*n == "compute_cap_major") major = StatNames::integer(s);
        else if (*n == "compute_cap_minor") minor = StatNames::integer(s);
        else if (*n == "core_count") cores = StatNames::integer(s);
        else if (*n == "memory_bandwidth") bandwidth = StatNames::real(s);
    }
    std::string text = vendor.empty() ? "GPU" : vendor + " GPU";
    if (major >= 0) text += ", compute capability " + std::to_string(major) + "." + std::to_string(std::max<std::int64_t>(minor, 0));
    if (cores > 0) text += ", " + std::to_string(cores) + " cores";
    if (bandwidth > 0) text += ", " + std::to_string(static_cast<std::int64_t>(bandwidth / 1e9 + 0.5)) + " GB/s";
    return text;
}

void describe_device(Device& d, const PlaneInfo& p) {
    const StatNames names(p);
    for (const RawStat& s : p.stats) {
        const std::string* n = names.name(s.id);
        if (!n) continue;
        // Plane stats of a TPU [XPLANE-SCHEMA]: peaks in TFLOP/s and GB/s.
        if (*n == "device_type_string") d.device_type = names.text(s);
        else if (*n == "peak_teraflops_per_second") d.peak_flops = StatNames::real(s) * 1e12;
        else if (*n == "peak_hbm_bw_gigabytes_per_second") d.peak_hbm_bandwidth = StatNames::real(s) * 1e9;
    }
    if (d.kind == DeviceKind::gpu && d.device_type.empty()) d.device_type = gpu_description(p, names);
    if (d.kind == DeviceKind::tensor_core) d.chip = chip_for_device_type(d.device_type);
}

void read_programs(const PlaneInfo& p, Profile& profile) {
    const StatNames names(p);
    std::vector<std::pair<std::int64_t, const EventMeta*>> sorted;
    for (const auto& [id, md] : p.events) sorted.emplace_back(id, &md);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [id, md] : sorted) {
        for (const RawStat& s : md->stats) {
            const std::string* n = names.name(s.id);
            if (!n || *n != "Hlo Proto" || s.type != x::stat_bytes) continue;
            Program program;
            program.id = static_cast<std::uint64_t>(id);
            std::uint64_t parsed = 0;
            if (!split_program(md->name, program.name, parsed)) program.name = md->name;
            try {
                program.hlo_text = hlo_text_from_proto(s.s);
            } catch (const std::exception& e) {
                program.hlo_error = e.what();
            }
            profile.programs.push_back(std::move(program));
        }
    }
}

class File {
public:
    explicit File(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
    ~File() {
        if (fd_ >= 0) ::close(fd_);
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

std::string plane_list(const SpaceInfo& space) {
    std::string text;
    for (const PlaneInfo& p : space.planes) {
        if (!text.empty()) text += ", ";
        text += p.name.empty() ? "(unnamed)" : p.name;
    }
    return text;
}

}  // namespace

Profile read_xplane(const std::string& path, const ReadOptions& options) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw ProfileError(path + " cannot be opened: " + std::strerror(errno) + ".");
    if (!S_ISREG(st.st_mode)) throw ProfileError(path + " is not a regular file, so it is not read.");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size == 0) throw ProfileError(path + " is empty: a profile holds at least one plane.");
    if (size > max_xplane_bytes)
        throw ProfileError(path + " is " + std::to_string(size / 1000000) +
                           " MB: one protocol buffer is at most 2 GiB, so this cannot be a whole XSpace.");

    Progress progress(options, 2 * size);
    SpaceInfo space;
    auto pass = [&](auto&& body) {
        File file(path);
        if (file.fd() < 0) throw ProfileError(path + " cannot be opened: " + std::strerror(errno) + ".");
        google::protobuf::io::FileInputStream raw(file.fd(), 1 << 16);
        wire::CodedInputStream in(&raw);
        in.SetTotalBytesLimit(std::numeric_limits<int>::max());
        try {
            body(in);
        } catch (const WireError& e) {
            const auto at = static_cast<std::uint64_t>(in.CurrentPosition());
            if (at + 16 >= size)
                throw ProfileError(path + " ends in the middle of its data (" + std::to_string(size) +
                                   " bytes): it was cut short, perhaps by a copy that did not finish.");
            throw ProfileError(path + " is not a profile: its bytes stop following the XSpace format " +
                               "(" + e.what() + ").");
        }
    };

    pass([&](wire::CodedInputStream& in) {
        Fields top(in);
        while (top.next()) {
            switch (top.number()) {
                case x::space_planes: {
                    if (top.type() != wire::length_type) throw WireError("a plane that is not a message", false);
                    PlaneInfo p;
                    scan_plane(top, p, progress, in);
                    space.planes.push_back(std::move(p));
                    progress.at(0, in);
                    break;
                }
                case x::space_errors: space.errors.push_back(top.bytes()); break;
                case x::space_warnings: space.warnings.push_back(top.bytes()); break;
                case x::space_hostnames: space.hostnames.push_back(top.bytes()); break;
                default: throw WireError("field " + std::to_string(top.number()) + " at the top level", false);
            }
        }
        if (static_cast<std::uint64_t>(in.CurrentPosition()) != size)
            throw WireError("the end of the data", false);
    });

    std::vector<DeviceBuild> builds;
    Profile profile;
    profile.format = "xplane.pb";
    profile.hostnames = space.hostnames;
    for (const std::string& e : space.errors) profile.notes.push_back("The profiler reported an error: " + e);
    for (const std::string& w : space.warnings) profile.notes.push_back("The profiler warned: " + w);
    bool named = false;
    for (const PlaneInfo& p : space.planes) {
        named = named || !p.name.empty();
        if (p.name == x::metadata_plane) {
            read_programs(p, profile);
        } else if (p.name == x::task_environment_plane) {
            const StatNames names(p);
            for (const RawStat& s : p.stats) {
                const std::string* n = names.name(s.id);
                if (n && *n == "profile_start_time") profile.start_ns = StatNames::integer(s);
                if (n && *n == "profile_stop_time") profile.stop_ns = StatNames::integer(s);
            }
        }
    }
    if (space.planes.empty() || !named)
        throw ProfileError(path + " is not a profile: it holds no named planes.");

    std::vector<std::int32_t> build_of_plane(space.planes.size(), -1);
    for (std::size_t i = 0; i < space.planes.size(); ++i) {
        const PlaneInfo& p = space.planes[i];
        const DeviceKind kind = kind_of_plane(p.name);
        if (kind == DeviceKind::other || !is_device_plane(p.name)) {
            profile.other_planes.push_back(p.name);
            continue;
        }
        DeviceBuild b;
        b.plane = &p;
        b.device.plane = p.name;
        b.device.kind = kind;
        b.device.ordinal = ordinal_of(p.name);
        describe_device(b.device, p);
        std::int64_t base = std::numeric_limits<std::int64_t>::max();
        for (const LineInfo& l : p.lines)
            if (line_use(kind, l.name) != LineUse::skip) base = std::min(base, l.timestamp_ns);
        b.base_ns = base == std::numeric_limits<std::int64_t>::max() ? 0 : base;
        b.device.line_start_ns = b.base_ns;
        build_of_plane[i] = static_cast<std::int32_t>(builds.size());
        builds.push_back(std::move(b));
    }
    if (builds.empty())
        throw ProfileError(path + " holds no accelerator: its planes are " + plane_list(space) +
                           ", so JAX ran on the host's CPU.");

    pass([&](wire::CodedInputStream& in) {
        Fields top(in);
        std::size_t plane_index = 0;
        while (top.next()) {
            if (top.number() != x::space_planes) {
                top.skip();
                continue;
            }
            const std::int32_t bi = build_of_plane.at(plane_index++);
            if (bi < 0) {
                top.skip();
                continue;
            }
            read_device_lines(top, builds[static_cast<std::size_t>(bi)], progress, size, in);
        }
    });
    progress.finish();

    for (DeviceBuild& b : builds) {
        if (b.skipped > 0)
            profile.notes.push_back(b.device.plane + ": " + std::to_string(b.skipped) +
                                    " events or lines were left out: their times are not ones a trace can hold.");
        merge_ops(b);
        profile.devices.push_back(std::move(b.device));
    }
    return profile;
}

}  // namespace tpuprofile
