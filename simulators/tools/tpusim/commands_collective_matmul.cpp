// tpusim collective-matmul
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/collective_matmul.h"
#include "tpusim/error.h"

namespace tpusim::cli {

int cmd_collective_matmul(const Args& args) {
    args.max_words(1, "tpusim collective-matmul");
    args.allow_only({"chip", "m", "k", "n", "devices", "directions", "dtype"}, "tpusim collective-matmul");
    CollectiveMatmulSpec s;
    s.m = args.positive("m");
    s.k = args.positive("k");
    s.n = args.positive("n");
    s.devices = args.positive("devices", 4);
    s.directions = static_cast<int>(args.positive("directions", 1));
    s.dtype = args.dtype("dtype", DType::bf16);
    const CollectiveMatmulResult r = collective_matmul(args.chip(), s);
    if (args.flag("json")) {
        Json j;
        j.begin_object();
        j.field("time_s", r.time_s).field("compute_only_s", r.compute_only_s).field("exposed_s", r.exposed_s);
        j.field("exposed_fraction", r.exposed_fraction).field("gather_then_matmul_s", r.gather_then_matmul_s);
        j.field("step_compute_s", r.step_compute_s).field("step_transfer_s", r.step_transfer_s);
        j.field("chunk_bytes", r.chunk_bytes).field("hops", r.hops).field("wraps", r.wraps);
        return print_with_provenance(j, r.provenance);
    }
    print_pairs(
        std::cout,
        {{"collective matmul", format_time(r.time_s) + " (" + std::to_string(s.devices) + " steps, " +
                                   std::to_string(s.devices - 1) + " transfers)"},
         {"gather, then matmul", format_time(r.gather_then_matmul_s)},
         {"compute only", format_time(r.compute_only_s)},
         {"exposed", format_time(r.exposed_s) + " (" + format_fixed(r.exposed_fraction * 100, 1) + " % of compute)"},
         {"one step's matmul (C)", format_time(r.step_compute_s)},
         {"one step's transfer (X)", format_time(r.step_transfer_s) + ", " + std::to_string(r.hops) + " hop" +
                                         (r.hops == 1 ? "" : "s") + (r.wraps ? ", ring" : ", line: no wraparound")},
         {"x chunk", format_bytes(r.chunk_bytes)}});
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
