// tpusim profile: a profile's ops on one device, measured beside predicted.
#include <cmath>
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpuprofile/op_table.h"
#include "tpuprofile/read.h"

namespace tpusim::cli {

namespace {

std::string signed_percent(double error) {
    if (std::isnan(error)) return "-";
    return (error >= 0 ? "+" : "") + format_fixed(100 * error, 1) + " %";
}

std::string program_name(const tpuprofile::Profile& p, const tpuprofile::OpTable& t, const tpuprofile::Op& op) {
    if (!op.has_program_id) return "-";
    for (const auto& s : t.summary.programs)
        if (s.id == op.program_id) return s.name;
    const tpuprofile::Program* prog = p.program(op.program_id);
    return prog ? prog->name : std::to_string(op.program_id);
}

void write_json(const tpuprofile::Profile& p, std::size_t index, const tpuprofile::OpTable& t) {
    const tpuprofile::Device& d = p.devices[index];
    Json j;
    j.begin_object().field("format", p.format).field("device", d.plane).field("device_type", d.device_type);
    j.field("chip", d.chip).field("ops_line", d.ops_line).field("op_events", t.summary.op_events);
    j.field("busy_ps", t.summary.busy_ps).field("span_ps", t.summary.span_ps).field("idle_ps", t.summary.idle_ps);
    j.field("finding", t.summary.finding);
    j.key("prediction_chip");
    if (t.chip)
        j.value(t.chip->id);
    else
        j.null();
    j.field("chip_note", t.chip_note);
    j.key("ops").begin_array();
    for (const tpuprofile::OpRow& r : t.rows) {
        const tpuprofile::Op& op = d.ops[static_cast<std::size_t>(r.op)];
        j.begin_object().field("name", op.name).field("kind", r.kind);
        j.field("family", std::string(tpuprofile::family_name(r.family))).field("category", op.category);
        j.key("program_id");
        if (op.has_program_id)
            j.value(op.program_id);
        else
            j.null();
        j.field("occurrences", op.occurrences).field("total_ps", op.total_ps).field("self_ps", op.self_ps);
        j.field("flops", op.flops).field("bytes_accessed", op.bytes_accessed).field("tf_op", op.tf_op);
        j.field("share", r.share);
        j.key("predicted_s");
        if (r.predicted.available)
            j.value(r.predicted.time_s);
        else
            j.null();
        j.key("error");
        if (std::isnan(r.error))
            j.null();
        else
            j.value(r.error);
        j.field("model", r.predicted.model).field("not_predicted", r.predicted.reason);
        j.key("tpusim_cost");
        if (r.tpusim_cost.available) {
            j.begin_object().field("flops", r.tpusim_cost.flops).field("bytes", r.tpusim_cost.bytes);
            j.field("time_s", r.tpusim_cost.time_s).field("bound", r.tpusim_cost.bound).end_object();
        } else {
            j.null();
        }
        j.end_object();
    }
    j.end_array().key("devices").begin_array();
    for (const tpuprofile::Device& other : p.devices) {
        j.begin_object().field("plane", other.plane).field("kind", std::string(tpuprofile::kind_name(other.kind)));
        j.field("device_type", other.device_type).field("ops", static_cast<std::int64_t>(other.ops.size()));
        j.end_object();
    }
    j.end_array().key("notes").strings(p.notes).end_object();
    std::cout << j.str() << "\n";
}

// Names of GPU kernels run to hundreds of characters: the table keeps the start.
std::string clip(const std::string& s, std::size_t width) {
    if (s.size() <= width) return s;
    std::size_t cut = width - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return s.substr(0, cut) + "…";
}

}  // namespace

int cmd_profile(const Args& args) {
    args.allow_only({"device", "chip"}, "tpusim profile");
    args.max_words(2, "tpusim profile");
    if (args.words().size() < 2)
        throw InputError(
            "give the profile: tpusim profile PATH (an .xplane.pb, a trace JSON or the folder "
            "jax.profiler.trace wrote)");
    const tpuprofile::Profile p = tpuprofile::read_profile(args.words()[1]);
    std::size_t index = tpuprofile::first_device(p);
    if (args.has("device")) {
        const std::int64_t want = parse_int(args.text("device", ""), "--device");
        bool found = false;
        for (std::size_t i = 0; i < p.devices.size(); ++i)
            if (p.devices[i].ordinal == want && !found) {
                index = i;
                found = true;
            }
        if (!found) {
            std::string planes;
            for (const auto& d : p.devices) planes += (planes.empty() ? "" : ", ") + d.plane;
            throw InputError("the profile has no device " + std::to_string(want) + ": it holds " + planes);
        }
    }
    const std::string chip_override = args.has("chip") ? args.chip().id : std::string();
    const tpuprofile::OpTable t = tpuprofile::op_table(p, index, chip_override);
    if (args.flag("json")) {
        write_json(p, index, t);
        return 0;
    }
    const tpuprofile::Device& d = p.devices[index];
    std::cout << d.plane << "  "
              << (d.device_type.empty() ? std::string(tpuprofile::kind_name(d.kind)) : d.device_type);
    if (!d.chip.empty()) std::cout << " (" << d.chip << ")";
    std::cout << "  " << t.summary.op_events << " op events on " << (d.ops_line.empty() ? "no op line" : d.ops_line)
              << "\n";
    std::cout << "measured: busy " << format_time(t.summary.busy_ps * 1e-12) << " of a "
              << format_time(t.summary.span_ps * 1e-12) << " span, idle " << format_time(t.summary.idle_ps * 1e-12)
              << "\n";
    if (t.chip)
        std::cout << "predicted on " << t.chip->name << " by libtpusim\n";
    else
        std::cout << t.chip_note << "\n";
    std::cout << "\n";
    Table table(
        {"op", "kind", "program", "count", "self/call", "self total", "share", "FLOP/s", "B/s", "predicted", "error"},
        {false, false, false, true, true, true, true, true, true, true, true});
    for (const tpuprofile::OpRow& r : t.rows) {
        const tpuprofile::Op& op = d.ops[static_cast<std::size_t>(r.op)];
        table.add({clip(tpuprofile::display_name(op), 40), clip(r.kind, 40), clip(program_name(p, t, op), 24),
                   std::to_string(op.occurrences), format_time(r.self_per_call_s), format_time(r.self_total_s),
                   format_fixed(100 * r.share, 1) + " %",
                   r.flops_per_s >= 0 ? format_rate(r.flops_per_s, "FLOP/s") : "-",
                   r.bytes_per_s >= 0 ? format_rate(r.bytes_per_s, "B/s") : "-",
                   r.predicted.available ? format_time(r.predicted.time_s) : "-", signed_percent(r.error)});
    }
    table.print(std::cout);
    std::cout << "\n" << t.summary.finding << "\n";
    for (const std::string& n : p.notes) std::cout << "note: " << n << "\n";
    if (p.devices.size() > 1) {
        std::cout << "other devices:";
        for (const auto& other : p.devices)
            if (&other != &d) std::cout << " " << other.plane;
        std::cout << " (--device N)\n";
    }
    return 0;
}

}  // namespace tpusim::cli
