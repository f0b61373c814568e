// tpusim ir decode FILE | ir ops FILE | ir cost HLO | ir xref JAXPR STABLEHLO HLO (ir shardings FILE:
// commands_ir_sharding.cpp)
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/fusion.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/ir_names.h"
#include "tpusim/ir_xref.h"

namespace tpusim::cli {

std::string read_dump(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read '" + path + "'");
    in.seekg(0, std::ios::end);
    const auto size = in.tellg();
    if (size < 0) throw InputError("cannot read '" + path + "'");
    if (static_cast<std::size_t>(size) > ir::max_input_bytes)
        throw InputError("'" + path + "' is larger than " + std::to_string(ir::max_input_bytes >> 20) +
                         " MiB; dumps that large are refused");
    in.seekg(0);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The dump at `path`, read; an op name that looks misspelt is said on
// stderr ("note: line 3: ... did you mean ...?"), the output left as it is.
ir::Module read_module(const Args& args, const std::string& path) {
    const std::string text = read_dump(path);
    ir::Module m = args.has("format") ? ir::parse(text, ir::parse_format(args.text("format", ""))) : ir::parse(text);
    for (const auto& op : ir::misspelt_ops(m)) std::cerr << "note: " << op.sentence(m.format) << "\n";
    return m;
}

namespace {

void write_list(Json& j, std::string_view key, const std::vector<std::int64_t>& v) {
    j.key(key).begin_array();
    for (auto d : v) j.value(d);
    j.end_array();
}

std::string source_text(const ir::Metadata& m) {
    if (m.source_file.empty()) return "";
    const auto slash = m.source_file.rfind('/');
    return (slash == std::string::npos ? m.source_file : m.source_file.substr(slash + 1)) + ":" +
           std::to_string(m.source_line);
}

int decode(const Args& args) {
    args.allow_only({"format"}, "tpusim ir decode");
    args.max_words(3, "tpusim ir decode");
    if (args.words().size() < 3) throw InputError("tpusim ir decode needs a FILE");
    const ir::Module m = read_module(args, args.words()[2]);
    const auto dots = ir::find_dots(m);
    std::int64_t total = 0;
    for (const auto& d : dots) {
        if (d.flops > INT64_MAX - total) throw InputError("the dots' FLOPs add up past 2^63");
        total += d.flops;
    }
    if (args.flag("json")) {
        Json j;
        j.begin_object().field("format", ir::format_name(m.format)).field("module", m.name);
        j.key("dots").begin_array();
        for (const auto& d : dots) {
            j.begin_object().field("op", d.op).field("result", d.result).field("element", d.element);
            j.field("lhs_element", d.lhs_element).field("rhs_element", d.rhs_element);
            j.field("line", static_cast<std::int64_t>(d.position.line));
            j.field("column", static_cast<std::int64_t>(d.position.column));
            write_list(j, "lhs_shape", d.lhs_shape);
            write_list(j, "rhs_shape", d.rhs_shape);
            write_list(j, "output_shape", d.output_shape);
            write_list(j, "lhs_contracting", d.dims.lhs_contracting);
            write_list(j, "rhs_contracting", d.dims.rhs_contracting);
            write_list(j, "lhs_batch", d.dims.lhs_batch);
            write_list(j, "rhs_batch", d.dims.rhs_batch);
            j.field("flops", d.flops).field("op_name", d.metadata.op_name);
            j.field("source", source_text(d.metadata));
            j.end_object();
        }
        j.end_array().field("total_flops", total).end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    std::cout << ir::format_name(m.format) << (m.name.empty() ? "" : " " + m.name) << ": " << dots.size() << " dot"
              << (dots.size() == 1 ? "" : "s") << "\n\n";
    Table t({"line", "op", "lhs", "rhs", "contract", "batch", "output", "FLOPs"},
            {true, false, false, false, false, false, false, true});
    auto pair = [](const std::vector<std::int64_t>& l, const std::vector<std::int64_t>& r) {
        return "[" + ir::dims_text(l) + "]x[" + ir::dims_text(r) + "]";
    };
    for (const auto& d : dots)
        t.add({std::to_string(d.position.line), d.op, d.lhs_element + "[" + ir::dims_text(d.lhs_shape) + "]",
               d.rhs_element + "[" + ir::dims_text(d.rhs_shape) + "]",
               pair(d.dims.lhs_contracting, d.dims.rhs_contracting), pair(d.dims.lhs_batch, d.dims.rhs_batch),
               d.element + "[" + ir::dims_text(d.output_shape) + "]", std::to_string(d.flops)});
    t.print(std::cout);
    std::cout << "\ntotal " << total << " FLOPs (2 per multiply-add)\n";
    return 0;
}

int ops(const Args& args) {
    args.allow_only({"format"}, "tpusim ir ops");
    args.max_words(3, "tpusim ir ops");
    if (args.words().size() < 3) throw InputError("tpusim ir ops needs a FILE");
    const ir::Module m = read_module(args, args.words()[2]);
    const auto all = ir::all_ops(m);
    if (args.flag("json")) {
        Json j;
        j.begin_object().field("format", ir::format_name(m.format)).field("module", m.name);
        j.key("ops").begin_array();
        for (const ir::Op* op : all) {
            j.begin_object().field("name", op->name).field("line", static_cast<std::int64_t>(op->position.line));
            j.key("results").strings(op->results);
            j.key("operands").strings(op->operands);
            j.key("result_types").begin_array();
            for (const auto& t : op->result_types) j.value(ir::type_text(t, true));
            j.end_array();
            j.field("op_name", op->metadata.op_name).field("source", source_text(op->metadata));
            j.end_object();
        }
        j.end_array().end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    Table t({"line", "op", "result", "type", "source op"}, {true, false, false, false, false});
    for (const ir::Op* op : all) {
        std::string types;
        for (const auto& ty : op->result_types) types += (types.empty() ? "" : ", ") + ir::type_text(ty);
        t.add({std::to_string(op->position.line), op->name, op->results.empty() ? "" : op->results.front(), types,
               op->metadata.op_name});
    }
    t.print(std::cout);
    return 0;
}

// A kernel's one-run counts are whole numbers held in doubles; JSON prints them exactly.
std::int64_t whole(double v) {
    return std::llround(v);
}

std::string trips_text(const fusion::HloLoop& l) {
    return l.trips < 0 ? "unknown" : std::to_string(l.trips);
}

// Where a kernel's time goes: a collective's is the ICI's.
std::string engine_of(const fusion::HloKernel& k) {
    return !k.ici.empty() ? "ICI" : k.engine == Engine::mxu ? "MXU" : "VPU";
}
std::string bound_of(const fusion::HloKernel& k) {
    return !k.ici.empty() ? "ICI" : std::string(bound_name(k.bound));
}

// An HLO dump's kernels as XLA fused them, each costed on the chip; loop
// bodies times their trip counts.
int cost(const Args& args) {
    args.allow_only({"chip"}, "tpusim ir cost");
    args.max_words(3, "tpusim ir cost");
    if (args.words().size() < 3) throw InputError("tpusim ir cost needs an optimized HLO FILE");
    const std::string text = read_dump(args.words()[2]);
    if (const ir::Format f = ir::detect_format(text); f != ir::Format::hlo)
        throw InputError("tpusim ir cost reads optimized HLO; '" + args.words()[2] + "' is " +
                         (f == ir::Format::jaxpr ? "a jaxpr" : "StableHLO"));
    const ir::Module m = ir::parse_hlo(text);
    const Chip& chip = args.chip();
    const fusion::HloCost c = fusion::cost_hlo_kernels(m, chip);
    if (args.flag("json")) {
        Json j;
        j.begin_object().field("module", m.name).field("chip", chip.id).field("time_s", c.time_s);
        j.field("time", format_time(c.time_s)).field("flops", c.flops).field("bytes", c.bytes);
        j.field("lower_bound", c.lower_bound).field("optimized", c.optimized).field("uncosted", c.uncosted);
        j.key("loops").begin_array();
        for (const auto& l : c.loops) {
            j.begin_object().field("name", l.name).field("line", static_cast<std::int64_t>(l.position.line));
            j.field("trips", l.trips).field("reason", l.reason).end_object();
        }
        j.end_array().key("kernels").begin_array();
        for (const auto& k : c.kernels) {
            j.begin_object().field("name", k.name).field("opcode", k.opcode).field("kind", k.kind);
            j.field("computation", k.computation).field("line", static_cast<std::int64_t>(k.position.line));
            j.field("loop", k.loop).field("runs", k.runs);
            j.field("engine", engine_of(k)).field("flops", whole(k.flops));
            j.field("bytes_read", whole(k.bytes_read)).field("bytes_written", whole(k.bytes_written));
            j.field("time_s", k.time_s).field("bound", bound_of(k)).field("uncosted", k.uncosted);
            if (k.uncosted) j.field("uncosted_reason", k.uncosted_reason);
            if (!k.ici.empty()) j.field("ici", k.ici);
            j.end_object();
        }
        j.end_array().key("provenance");
        write_provenance(j, c.provenance);
        j.end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    std::cout << (m.name.empty() ? "hlo" : m.name) << " on " << chip.id << ": " << c.kernels.size() << " kernel"
              << (c.kernels.size() == 1 ? "" : "s") << ", " << (c.lower_bound ? "at least " : "")
              << format_time(c.time_s) << ", " << (c.lower_bound ? "at least " : "") << c.flops << " FLOPs"
              << (c.uncosted > 0
                      ? " (" + std::to_string(c.uncosted) + " custom call" + (c.uncosted == 1 ? "" : "s") + " uncosted)"
                      : "")
              << ", " << c.bytes << " bytes" << (c.optimized ? "" : " (not an optimized dump: no fusions)") << "\n\n";
    if (!c.loops.empty()) {
        Table loops({"line", "loop", "trips", "how"}, {true, false, true, false});
        for (const auto& l : c.loops) loops.add({std::to_string(l.position.line), l.name, trips_text(l), l.reason});
        loops.print(std::cout);
        std::cout << "\n";
    }
    Table t({"line", "kernel", "kind", "engine", "runs", "FLOPs", "read", "written", "time", "bound"},
            {true, false, false, false, true, true, true, true, true, false});
    for (const auto& k : c.kernels)
        t.add({std::to_string(k.position.line), k.name, k.kind, engine_of(k), std::to_string(k.runs),
               k.uncosted ? std::string("uncosted") : std::to_string(whole(k.flops)), format_bytes(k.bytes_read),
               format_bytes(k.bytes_written), format_time(k.time_s), bound_of(k)});
    t.print(std::cout);
    print_provenance(c.provenance);
    return 0;
}

int xref(const Args& args) {
    args.allow_only({}, "tpusim ir xref");
    args.max_words(5, "tpusim ir xref");
    if (args.words().size() < 5) throw InputError("tpusim ir xref needs JAXPR STABLEHLO HLO files");
    const ir::Module j = ir::parse_jaxpr(read_dump(args.words()[2]));
    const ir::Module s = ir::parse_stablehlo(read_dump(args.words()[3]));
    const ir::Module h = ir::parse_hlo(read_dump(args.words()[4]));
    const auto links = ir::correspond(j, s, h);
    auto lines = [](const std::vector<ir::Position>& ps) {
        std::string out;
        for (const auto& p : ps) out += (out.empty() ? "" : ",") + std::to_string(p.line);
        return out;
    };
    if (args.flag("json")) {
        Json out;
        out.begin_object().key("links").begin_array();
        for (const auto& l : links) {
            out.begin_object().field("primitive", l.primitive).field("op_name", l.op_name);
            out.field("source", l.source);
            for (auto [key, ps] : {std::pair{"jaxpr", &l.jaxpr}, {"stablehlo", &l.stablehlo}, {"hlo", &l.hlo}}) {
                out.key(key).begin_array();
                for (const auto& p : *ps) out.value(static_cast<std::int64_t>(p.line));
                out.end_array();
            }
            out.end_object();
        }
        out.end_array().end_object();
        std::cout << out.str() << "\n";
        return 0;
    }
    Table t({"primitive", "source", "jaxpr lines", "stablehlo lines", "hlo lines"});
    for (const auto& l : links) t.add({l.primitive, l.source, lines(l.jaxpr), lines(l.stablehlo), lines(l.hlo)});
    t.print(std::cout);
    return 0;
}

}  // namespace

int cmd_ir(const Args& args) {
    const std::string verb = args.words().size() > 1 ? args.words()[1] : "";
    if (verb == "decode") return decode(args);
    if (verb == "ops") return ops(args);
    if (verb == "cost") return cost(args);
    if (verb == "xref") return xref(args);
    if (verb == "shardings") return ir_shardings(args);
    throw InputError("tpusim ir takes decode FILE, ops FILE, cost HLO, xref JAXPR STABLEHLO HLO or shardings FILE");
}

}  // namespace tpusim::cli
