// tpusim chips | roofline | bench
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/bench.h"
#include "tpusim/error.h"

namespace tpusim::cli {

std::string fact_text(const Fact& f) {
    return format_fact(f);
}

// The same words the app shows on hover.
void print_provenance(const Provenance& p) {
    std::cout << "\n" << describe(p) << "\n";
}

void write_roofline_fields(Json& j, const Roofline& r) {
    j.field("time_s", r.time_s);
    j.field("time", format_time(r.time_s));
    j.field("compute_s", r.compute_s);
    j.field("memory_s", r.memory_s);
    j.field("flops", r.flops);
    j.field("bytes", r.bytes);
    j.field("intensity", r.intensity);
    j.field("ridge", r.ridge);
    j.field("bound", bound_name(r.bound));
    j.field("resource", r.resource);
    j.field("peak_flops", r.peak_flops);
    j.field("bandwidth", r.bandwidth);
    j.key("provenance");
    write_provenance(j, r.provenance);
}

namespace {

void write_fact(Json& j, const Fact& f) {
    j.begin_object();
    if (f.published())
        j.field("value", f.value);
    else
        j.key("value").null();
    j.field("unit", f.unit).field("source", f.source).field("note", f.note);
    j.field("assumption", f.assumption);
    j.end_object();
}

int chips_json(const std::vector<const Chip*>& chips) {
    Json j;
    j.begin_object().key("chips").begin_array();
    for (const Chip* c : chips) {
        j.begin_object();
        j.field("id", c->id).field("name", c->name).field("megacore", c->megacore);
        j.key("facts").begin_array();
        for (const FactRow& row : fact_rows(*c)) {
            j.begin_object().field("group", row.group).field("label", row.label).key("fact");
            write_fact(j, row.fact);
            j.end_object();
        }
        j.end_array();
        j.field("topology", c->topology.text).field("topology_source", c->topology.source);
        j.field("wraparound", c->wraparound.text).field("wraparound_source", c->wraparound.source);
        j.end_object();
    }
    j.end_array().end_object();
    std::cout << j.str() << "\n";
    return 0;
}

}  // namespace

int cmd_chips(const Args& args) {
    args.allow_only({"chip"}, "tpusim chips");
    args.max_words(1, "tpusim chips");
    std::vector<const Chip*> chips;
    if (args.has("chip"))
        chips.push_back(&args.chip());
    else
        for (const Chip& c : all_chips()) chips.push_back(&c);
    if (args.flag("json")) return chips_json(chips);

    if (chips.size() > 1) {
        Table t(
            {"chip", "bf16 peak", "HBM", "HBM bandwidth", "VMEM/core", "scoped VMEM*", "cores", "MXUs", "ridge (bf16)"},
            {false, true, true, true, true, true, true, false, true});
        for (const Chip* c : chips)
            t.add({c->id, fact_text(c->peak_bf16), fact_text(c->hbm_capacity), fact_text(c->hbm_bandwidth),
                   fact_text(c->vmem_per_core), fact_text(c->scoped_vmem_default),
                   format_fixed(c->tensorcores.value, 0) + (c->megacore ? " (megacore)" : ""),
                   format_fixed(c->mxus_per_core.value, 0) + " x " + format_fixed(c->mxu_size.value, 0) + "^2",
                   format_fixed(ridge_point(*c, DType::bf16), 0) + " FLOP/B"});
        t.print(std::cout);
        std::cout << "* an assumption, not a published figure. "
                     "'tpusim chips --chip v5e' shows every figure with its source.\n";
        return 0;
    }
    const Chip& c = *chips.front();
    std::cout << c.name << " (" << c.id << ")\n\n";
    Table t({"group", "figure", "value", "source", "note"}, {false, false, true, false, false});
    for (const FactRow& row : fact_rows(c))
        t.add({row.group, row.label + (row.fact.assumption ? " *" : ""), fact_text(row.fact), row.fact.source,
               row.fact.note});
    t.add({"interconnect", "topology", c.topology.text, c.topology.source, ""});
    t.add({"interconnect", "wraparound", c.wraparound.text, c.wraparound.source, ""});
    t.print(std::cout);
    std::cout << "* an assumption: our choice where no source publishes the figure.\n";
    return 0;
}

int cmd_roofline(const Args& args) {
    const std::string op = args.words().size() > 1 ? args.words()[1] : "";
    const std::string command = "tpusim roofline " + op;
    args.max_words(2, command);
    OpCost cost;
    std::vector<OpCost> passes;  // a matmul's backward: more than one op
    if (op == "matmul") {
        args.allow_only({"chip", "m", "k", "n", "batch", "dtype", "acc", "out", "pass"}, command);
        MatmulSpec s;
        s.m = args.positive("m");
        s.k = args.positive("k");
        s.n = args.positive("n");
        s.batch = args.positive("batch", 1);
        s.in = args.dtype("dtype", DType::bf16);
        s.acc = args.dtype("acc", is_integer(s.in) ? DType::int32 : DType::f32);
        s.out = args.dtype("out", s.in);
        cost = matmul_cost(s);
        const std::string pass = args.text("pass", "forward");
        if (pass == "backward" || pass == "both") {
            passes = matmul_pass_costs(s, pass == "both" ? MatmulPass::forward_backward : MatmulPass::backward);
            cost.op += pass == "both" ? ", forward and backward" : ", backward (dx and dw)";
        } else if (pass != "forward") {
            throw InputError("--pass must be forward, backward or both (got '" + pass + "')");
        }
    } else if (op == "elementwise") {
        args.allow_only({"chip", "shape", "inputs", "outputs", "dtype", "flops-per-element"}, command);
        cost = elementwise_cost(args.shape("shape"), static_cast<int>(args.positive("inputs", 2)),
                                static_cast<int>(args.positive("outputs", 1)), args.dtype("dtype", DType::bf16),
                                args.number("flops-per-element", 1.0));
    } else if (op == "reduce") {
        args.allow_only({"chip", "shape", "axes", "dtype"}, command);
        std::vector<int> axes;
        const auto shape = args.shape("shape");
        const std::string axes_text = args.text("axes", std::to_string(shape.size() - 1));
        std::size_t start = 0;
        while (true) {
            std::size_t comma = axes_text.find(',', start);
            std::string part = axes_text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            axes.push_back(static_cast<int>(parse_int(part, "--axes entry")));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        cost = reduction_cost(shape, axes, args.dtype("dtype", DType::bf16));
    } else if (op == "generic") {
        args.allow_only({"chip", "flops", "bytes", "dtype", "engine"}, command);
        const std::string engine = args.text("engine", "mxu");
        if (engine != "mxu" && engine != "vpu") throw InputError("--engine must be mxu or vpu (got '" + engine + "')");
        cost = generic_cost(args.number("flops"), args.number("bytes"), args.dtype("dtype", DType::bf16),
                            engine == "mxu" ? Engine::mxu : Engine::vpu);
    } else {
        throw InputError(op.empty() ? "tpusim roofline needs an op: matmul, elementwise, reduce "
                                      "or generic"
                                    : "unknown roofline op '" + op + "': use matmul, elementwise, reduce or generic");
    }
    const Roofline r = passes.empty() ? roofline(args.chip(), cost) : roofline_sequence(args.chip(), passes);
    if (args.flag("json")) {
        Json j;
        j.begin_object().field("op", cost.op);
        write_roofline_fields(j, r);
        j.end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    print_pairs(std::cout, {{"op", cost.op + " (" + (passes.empty() ? cost.shapes : r.provenance.shapes) + ")"},
                            {"time", format_time(r.time_s)},
                            {"bound", std::string(bound_name(r.bound)) + " (" + r.resource + ")"},
                            {"compute time", format_time(r.compute_s) + " at " + format_rate(r.peak_flops, "FLOP/s")},
                            {"memory time", format_time(r.memory_s) + " at " + format_rate(r.bandwidth, "B/s")},
                            {"FLOPs", format_fixed(r.flops, 0)},
                            {"HBM bytes", format_fixed(r.bytes, 0)},
                            {"intensity", format_fixed(r.intensity, 2) + " FLOP/B"},
                            {"ridge point", format_fixed(r.ridge, 1) + " FLOP/B"}});
    print_provenance(r.provenance);
    return 0;
}

int cmd_bench(const Args& args) {
    args.allow_only({"chip", "full"}, "tpusim bench");
    args.max_words(1, "tpusim bench");
    std::vector<const Chip*> chips;
    if (args.text("chip", "v5e") == "all")
        for (const Chip& c : all_chips()) chips.push_back(&c);
    else
        chips.push_back(&args.chip());
    const bool full = args.flag("full");

    if (args.flag("json")) {
        Json j;
        j.begin_object().key("chips").begin_array();
        for (const Chip* c : chips) {
            j.begin_object().field("chip", c->id).key("rows").begin_array();
            for (const BenchRow& row : full ? full_bench(*c) : landing_bench(*c)) {
                j.begin_object().field("id", row.id).field("group", row.group);
                j.field("label", row.label);
                write_roofline_fields(j, row.result);
                j.end_object();
            }
            j.end_array().end_object();
        }
        j.end_array().end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    for (const Chip* c : chips) {
        std::cout << "roofline-predicted floors · " << c->id << "\n";
        Table t({"op", "time", "bound", "intensity", "shapes", "dtype"}, {false, true, false, true, false, false});
        for (const BenchRow& row : full ? full_bench(*c) : landing_bench(*c))
            t.add({row.label, format_time(row.result.time_s),
                   std::string(bound_name(row.result.bound)) + " (" + row.result.resource + ")",
                   format_fixed(row.result.intensity, 1), row.cost.shapes, row.cost.dtype_text});
        t.print(std::cout);
        std::cout << "\n";
    }
    std::cout << "predicted: time = max(FLOPs / peak, bytes / HBM bandwidth); every operand "
                 "crosses HBM once. 'tpusim bench --full' for more rows.\n";
    return 0;
}

}  // namespace tpusim::cli
