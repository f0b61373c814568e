// tpusim collective
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/collective.h"
#include "tpusim/error.h"
#include "tpusim/trace.h"

namespace tpusim::cli {

namespace {

// "1" or "0,2"
std::vector<int> parse_axes(const std::string& text) {
    std::vector<int> axes;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::int64_t a = parse_int(text.substr(start, comma - start), "--axis");
        if (a < 0 || a > 2) throw InputError("--axis takes axis numbers 0, 1 or 2, like 1 or 0,1");
        axes.push_back(static_cast<int>(a));
        start = comma + 1;
    }
    return axes;
}

void write_result(Json& j, const Mesh& mesh, const CollectiveSpec& spec, const CollectiveResult& r, bool links) {
    j.begin_object();
    j.field("collective", collective_name(spec.kind));
    j.field("time_s", r.time_s).field("time", format_time(r.time_s));
    j.field("analytic_s", r.analytic_s).field("simulated_s", r.simulated_s);
    j.field("analytic_bandwidth_s", r.analytic_bandwidth_s);
    j.field("analytic_latency_s", r.analytic_latency_s);
    j.field("difference", r.difference).field("agrees", r.agrees);
    j.field("formula", r.formula).field("explanation", r.explanation);
    j.field("hbm_bytes", r.hbm_bytes).field("hbm_s", r.hbm_s);
    j.field("reduce_adds", r.reduce_adds).field("reduce_s", r.reduce_s);
    j.field("bound", r.bound).field("memory", r.memory_note);
    j.field("bytes", spec.bytes).field("bidirectional", spec.bidirectional);
    j.field("chunks", spec.chunks);
    j.field("group_size", r.group_size).field("groups", r.groups);
    j.field("busiest_link_bytes", r.busiest_link_bytes);
    j.field("total_link_bytes", r.total_link_bytes);
    j.field("chunk_hops", r.chunk_hops);
    j.field("lines_simulated", r.lines_simulated).field("lines_total", r.lines_total);
    j.key("mesh").begin_object();
    j.field("shape", mesh.shape()).field("devices", mesh.devices());
    j.field("link_bandwidth", mesh.link_bandwidth).field("hop_latency", mesh.hop_latency);
    j.key("axes").begin_array();
    for (const MeshAxis& a : mesh.axes)
        j.begin_object().field("size", a.size).field("wraps", a.wraps).field("reason", a.reason).end_object();
    j.end_array().end_object();
    if (links) {
        j.key("links").begin_array();
        for (const LinkLoad& l : r.links)
            j.begin_object()
                .field("from", l.link.from)
                .field("to", l.link.to)
                .field("axis", l.link.axis)
                .field("direction", l.link.direction)
                .field("bytes", l.bytes)
                .field("busy_s", l.busy_s)
                .end_object();
        j.end_array();
    }
    j.key("provenance");
    write_provenance(j, r.provenance);
    j.end_object();
}

}  // namespace

int cmd_collective(const Args& args) {
    const std::string what = args.words().size() > 1 ? args.words()[1] : "";
    const std::string command = "tpusim collective " + what;
    args.max_words(2, command);
    if (what.empty())
        throw InputError(
            "tpusim collective needs one of all-gather, reduce-scatter, all-reduce, "
            "all-to-all or permute");
    args.allow_only({"chip", "mesh", "axis", "bytes", "chunks", "shift", "unidirectional", "links", "trace"}, command);
    CollectiveSpec spec;
    spec.kind = parse_collective(what);
    const Mesh mesh = make_mesh(args.chip(), args.shape("mesh"));
    spec.axes = parse_axes(args.text("axis", "0"));
    spec.bytes = args.number("bytes");
    spec.bidirectional = !args.flag("unidirectional");
    spec.chunks = static_cast<int>(std::min<std::int64_t>(args.positive("chunks", 4), 1 << 20));
    if (args.has("shift")) {
        if (spec.kind != CollectiveKind::permute) throw InputError("--shift belongs to permute only");
        spec.shift = parse_int(args.text("shift", "1"), "--shift");
    }
    CollectiveOptions options;
    const std::string trace_path = args.text("trace", "");
    options.trace = !trace_path.empty();
    options.link_loads = args.flag("links");
    const CollectiveResult r = collective(mesh, spec, options);
    if (options.trace) write_chrome_trace(trace_path, r.trace);

    if (args.flag("json")) {
        Json j;
        write_result(j, mesh, spec, r, options.link_loads);
        std::cout << j.str() << "\n";
        return 0;
    }
    std::string axes_text;
    for (int a : spec.axes) axes_text += (axes_text.empty() ? "" : ",") + std::to_string(a);
    std::vector<std::pair<std::string, std::string>> pairs = {
        {"collective", std::string(collective_name(spec.kind)) + " of " + format_bytes(spec.bytes) + " over axis " +
                           axes_text + " (" + std::to_string(r.group_size) + " chips, " + std::to_string(r.groups) +
                           " group" + (r.groups > 1 ? "s" : "") + ")"},
        {"time", format_time(r.time_s) + ", set by " + r.bound},
        {"time (simulated)", format_time(r.simulated_s)},
        {"closed form", format_time(r.analytic_s) + " (bandwidth " + format_time(r.analytic_bandwidth_s) +
                            ", latency " + format_time(r.analytic_latency_s) + ")"},
        {"difference", format_fixed(100 * r.difference, 1) + " %"},
        {"busiest link", format_bytes(r.busiest_link_bytes)},
        {"simulated", std::to_string(r.chunk_hops) + " chunk hops on " + std::to_string(r.lines_simulated) + " of " +
                          std::to_string(r.lines_total) + " rings/lines"}};
    for (std::size_t i = 0; i < mesh.axes.size(); ++i)
        pairs.emplace_back("axis " + std::to_string(i),
                           std::to_string(mesh.axes[i].size) + " chips, " + mesh.axes[i].reason);
    if (options.trace) pairs.emplace_back("trace", trace_path + (r.trace_truncated ? " (truncated)" : ""));
    print_pairs(std::cout, pairs);
    std::cout << "\nformula: " << r.formula << "\nwhy: " << r.explanation << "\nmemory: " << r.memory_note << "\n";
    if (options.link_loads) {
        std::cout << "\n";
        Table t({"link", "axis", "bytes", "busy"}, {false, true, true, true});
        for (const LinkLoad& l : r.links)
            t.add({mesh.device_name(l.link.from) + " -> " + mesh.device_name(l.link.to), std::to_string(l.link.axis),
                   format_bytes(l.bytes), format_time(l.busy_s)});
        t.print(std::cout);
    }
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
