// tpusim fusion EXAMPLE | fusion FILE.hlo
#include <fstream>
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/fusion.h"
#include "tpusim/ir.h"

namespace tpusim::cli {

namespace {

std::string members(const fusion::Graph& g, const fusion::Kernel& k) {
    std::string s;
    for (int id : k.recomputed) s += (s.empty() ? "" : " ") + g.node(id).name + "*";
    for (int id : k.nodes) s += (s.empty() ? "" : " ") + g.node(id).name;
    return s;
}

void write_kernels(Json& j, const fusion::Graph& g, const std::vector<fusion::Kernel>& ks) {
    j.begin_array();
    for (const auto& k : ks) {
        j.begin_object().field("name", k.name).field("kind", fusion::kind_name(k.kind));
        std::vector<std::string> names, again;
        for (int id : k.nodes) names.push_back(g.node(id).name);
        for (int id : k.recomputed) again.push_back(g.node(id).name);
        j.key("ops").strings(names);
        j.key("recomputed").strings(again);
        j.field("flops", k.flops).field("bytes_read", k.bytes_read).field("bytes_written", k.bytes_written);
        j.field("time_s", k.time_s).end_object();
    }
    j.end_array();
}

void print_kernels(const fusion::Graph& g, const std::vector<fusion::Kernel>& ks) {
    Table t({"kernel", "kind", "ops", "HBM read", "HBM written", "time"}, {false, false, false, true, true, true});
    for (const auto& k : ks)
        t.add({k.name, std::string(fusion::kind_name(k.kind)), members(g, k), format_bytes(k.bytes_read),
               format_bytes(k.bytes_written), format_time(k.time_s)});
    t.print(std::cout);
}

}  // namespace

int cmd_fusion(const Args& args) {
    args.allow_only({"chip"}, "tpusim fusion");
    args.max_words(2, "tpusim fusion");
    if (args.words().size() < 2)
        throw InputError("tpusim fusion takes an example (mlp, softmax, attention, layernorm) or an HLO file");
    const std::string what = args.words()[1];
    bool builtin = false;
    for (auto n : fusion::example_names()) builtin = builtin || n == what;
    if (!builtin && !std::ifstream(what))
        throw InputError("'" + what +
                         "' is neither an example (mlp, softmax, attention, layernorm) nor a readable "
                         "HLO file");
    const fusion::Graph g = builtin ? fusion::example(what) : fusion::graph_from_hlo(ir::parse_hlo(read_dump(what)));
    const Chip& chip = args.chip();
    const fusion::FusionResult r = fusion::fuse(g, chip);
    if (args.flag("json")) {
        Json j;
        j.begin_object().field("graph", r.graph).field("chip", chip.id).field("flops", r.flops);
        j.field("bytes_before", r.bytes_before).field("bytes_after", r.bytes_after);
        j.field("time_before_s", r.time_before).field("time_after_s", r.time_after);
        j.key("before");
        write_kernels(j, g, r.before);
        j.key("after");
        write_kernels(j, g, r.after);
        j.key("notes").strings(r.notes);
        j.key("rules").strings(r.rules);
        return print_with_provenance(j, r.provenance);
    }
    std::cout << r.graph << " on " << chip.id << ": " << r.before.size() << " kernels unfused, " << r.after.size()
              << " after fusion\n\nafter fusion (* = recomputed in this kernel):\n";
    print_kernels(g, r.after);
    std::cout << "\n";
    print_pairs(std::cout, {{"HBM bytes", format_bytes(r.bytes_before) + " -> " + format_bytes(r.bytes_after)},
                            {"time", format_time(r.time_before) + " -> " + format_time(r.time_after)},
                            {"FLOPs", format_fixed(r.flops, 0)}});
    if (!r.notes.empty()) std::cout << "\nwhy these values go through HBM:\n";
    for (const auto& n : r.notes) std::cout << "  - " << n << "\n";
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
