// Pass 2 of the XSpace reader: the events of the lines the course shows,
// now that stat ids have names, into each device's ops, spans and
// timeline; then ops of one program and name merged.
#include <algorithm>
#include <map>
#include <tuple>

#include "nesting.h"
#include "xplane_detail.h"

namespace tpuprofile::xplane_detail {

namespace {

struct RawEvent {
    std::int64_t metadata_id = 0;
    std::int64_t offset_ps = 0, duration_ps = 0, occurrences = 0;
    bool has_offset = false;
    std::int64_t device_offset_ps = -1, device_duration_ps = -1;
    std::int64_t hlo_op = 0;  // an interned id; 0 when the event has none
    std::int64_t program_id = -1;
    std::int64_t hlo_module = 0;
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
            if (text[i] == '(')
                ++depth;
            else if (text[i] == ')' && --depth == 0) {
                ++i;
                break;
            }
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
            case Role::hlo_category:
                op.category = names.text(s);
                break;
            case Role::program_id:
                op.program_id = static_cast<std::uint64_t>(StatNames::integer(s));
                op.has_program_id = true;
                break;
            case Role::flops:
                op.flops = StatNames::integer(s);
                break;
            case Role::bytes_accessed:
                op.bytes_accessed = StatNames::integer(s);
                break;
            case Role::tf_op:
                op.tf_op = names.text(s);
                break;
            case Role::source:
                op.source = names.text(s);
                break;
            case Role::shape_with_layout:
                op.shape_with_layout = names.text(s);
                break;
            default:
                break;
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
                case x::event_metadata_id:
                    e.metadata_id = ef.int64();
                    break;
                case x::event_offset_ps:
                    e.offset_ps = ef.int64();
                    e.has_offset = true;
                    break;
                case x::event_duration_ps:
                    e.duration_ps = ef.int64();
                    break;
                case x::event_num_occurrences:
                    e.occurrences = ef.int64();
                    break;
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
                        case Role::device_offset_ps:
                            e.device_offset_ps = StatNames::integer(s);
                            break;
                        case Role::device_duration_ps:
                            e.device_duration_ps = StatNames::integer(s);
                            break;
                        case Role::hlo_op:
                            e.hlo_op = intern(b, names, s);
                            break;
                        case Role::program_id:
                            e.program_id = StatNames::integer(s);
                            break;
                        case Role::hlo_module: {
                            e.hlo_module = intern(b, names, s);
                            module_names.emplace(e.hlo_module, b.interned[e.hlo_module]);
                            break;
                        }
                        default:
                            break;
                    }
                    break;
                }
                default:
                    ef.skip();
            }
        }
    });
    // An event with neither offset nor occurrence count is one occurrence at
    // the line's start (proto3 leaves a zero offset out [XPLANE-PROTO]).
    if (!e.has_offset && e.occurrences == 0) e.has_offset = true;
    return e;
}

}  // namespace

LineUse line_use(DeviceKind kind, std::string_view line) {
    if (line == x::xla_modules_line) return LineUse::modules;
    if (line == x::steps_line) return LineUse::steps;
    if (kind == DeviceKind::gpu) return starts_with(line, x::gpu_stream_line_prefix) ? LineUse::ops : LineUse::skip;
    return line == x::xla_ops_line ? LineUse::ops : LineUse::skip;
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
            if (__builtin_sub_overflow(info.timestamp_ns, b.base_ns, &line_base_ns) || line_base_ns < 0 ||
                line_base_ns > max_event_ps / 1000) {
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
                    const std::int64_t duration = e.device_duration_ps >= 0 ? e.device_duration_ps : e.duration_ps;
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
                if (b.device.ops_line.empty())
                    b.device.ops_line = info.name;
                else
                    b.device.ops_line += ", " + info.name;
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

}  // namespace tpuprofile::xplane_detail
