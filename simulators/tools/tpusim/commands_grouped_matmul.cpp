// tpusim grouped-matmul
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/grouped_matmul.h"

namespace tpusim::cli {

int cmd_grouped_matmul(const Args& args) {
    args.max_words(1, "tpusim grouped-matmul");
    args.allow_only({"chip", "groups", "k", "n", "tm", "tk", "tn", "pass", "dtype"}, "tpusim grouped-matmul");
    GroupedMatmulSpec s;
    if (!args.has("groups"))
        throw InputError("tpusim grouped-matmul needs --groups, the rows of each group: 1200,300,0,900");
    s.groups = parse_groups(args.text("groups", ""));
    s.k = args.positive("k");
    s.n = args.positive("n");
    s.tm = args.positive("tm", 128);
    s.tk = args.positive("tk", 512);
    s.tn = args.positive("tn", 512);
    s.pass = parse_grouped_pass(args.text("pass", "forward"));
    s.dtype = args.dtype("dtype", DType::bf16);
    const GroupedMatmulResult r = grouped_matmul(args.chip(), s);
    if (args.flag("json")) {
        Json j;
        j.begin_object();
        j.field("pass", grouped_pass_name(s.pass)).field("m", r.m).field("row_tiles", r.row_tiles);
        j.field("visits", r.visits)
            .field("boundaries_inside", r.boundaries_inside)
            .field("empty_groups", r.empty_groups);
        j.field("rows", r.rows).field("overhead", r.overhead).field("steps", r.steps).field("flops", r.flops);
        j.field("hbm_bytes", r.hbm_bytes).field("time_s", r.time_s).field("call_s", r.call_s).field("bound", r.bound);
        j.field("padded_time_s", r.padded_time_s).field("dense_time_s", r.dense_time_s);
        return print_with_provenance(j, r.provenance);
    }
    print_pairs(
        std::cout,
        {{std::string(grouped_pass_name(s.pass)) + " kernel", format_time(r.time_s) + ", bound by " + r.bound},
         {"a call from Python", format_time(r.call_s)},
         {"tokens", std::to_string(r.m) + " in " + std::to_string(s.groups.size()) + " groups (" +
                        std::to_string(r.empty_groups) + " empty)"},
         {"row tiles", std::to_string(r.row_tiles) + " of " + std::to_string(s.tm) + " rows, " +
                           std::to_string(r.boundaries_inside) + " group boundaries inside one"},
         {"rows computed", std::to_string(r.rows) + " (" + format_fixed(100 * r.overhead, 1) + " % above the tokens)"},
         {"grid steps", std::to_string(r.steps)},
         {"HBM traffic", format_bytes(r.hbm_bytes)},
         {"XLA, groups padded to the largest", format_time(r.padded_time_s)},
         {"XLA, every token through every group", format_time(r.dense_time_s)}});
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
