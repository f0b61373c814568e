// tpusim: the command line of libtpusim.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "args.h"
#include "commands.h"
#include "tpusim/error.h"

#ifndef TPUSIM_VERSION
#define TPUSIM_VERSION "unknown"
#endif

namespace {

using Handler = int (*)(const tpusim::cli::Args&);

struct Subcommand {
    std::string_view name;
    Handler run;
    std::string_view summary;
    std::string_view example;
};

constexpr Subcommand subcommands[] = {
    {"chips", tpusim::cli::cmd_chips, "the chip table; with --chip, every figure and its source",
     "tpusim chips --chip v5e"},
    {"roofline", tpusim::cli::cmd_roofline,
     "roofline floor of matmul | elementwise | reduce | generic",
     "tpusim roofline matmul --m 4096 --k 4096 --n 4096 --dtype bf16 --chip v5e"},
    {"bench", tpusim::cli::cmd_bench, "the landing page's bench rows (--full for all, --chip all)",
     "tpusim bench --chip v5e"},
    {"pipeline", tpusim::cli::cmd_pipeline,
     "a Pallas grid pipeline: matmul | elementwise (--timeline for the steps)",
     "tpusim pipeline matmul --m 4096 --k 4096 --n 4096 --bm 512 --bk 1024 --bn 1024 --chip v5e"},
    {"vmem", tpusim::cli::cmd_vmem,
     "a kernel's VMEM budget: matmul | attention | layernorm, line by line, and the largest blocks that fit",
     "tpusim vmem matmul --sizes 4096x4096x4096 --blocks 512x1024x2048 --chip v5e --vmem-limit-mib 32"},
    {"blockspec", tpusim::cli::cmd_blockspec,
     "check: block legality; verify: run a matmul schedule on the host (--order kij)",
     "tpusim blockspec check --array 1024x1000 --block 256x100 --dtype f32"},
    {"layout", tpusim::cli::cmd_layout,
     "(8,128) tiling, sublane packing, padding waste; --to/--transpose, --reshape or --cast for a relayout",
     "tpusim layout --shape 8x128 --dtype bf16 --to 8x128"},
    {"mxu", tpusim::cli::cmd_mxu,
     "a systolic array cycle by cycle: fill, steady state, drain (--no-overlap: textbook)",
     "tpusim mxu --m 128 --k 128 --n 128 --array 128"},
    {"attention", tpusim::cli::cmd_attention,
     "naive vs flash attention: FLOPs, HBM bytes, time (--verify: run the online softmax)",
     "tpusim attention --seq 4096 --head-dim 128 --block-q 512 --block-k 512 --causal"},
    {"decode-attention", tpusim::cli::cmd_decode_attention,
     "one decode step of attention over a paged KV cache: pages, bytes per token, time, against XLA's gather",
     "tpusim decode-attention --context 512,4096,2048 --heads 32 --kv-heads 8 --page 16 --pages-per-block 8"},
    {"quantized-matmul", tpusim::cli::cmd_quantized_matmul,
     "a matmul with int8 or fp8 operands (--scheme w8a16 | w8a8 | fp8, --scales tensor | channel | block) "
     "against bf16",
     "tpusim quantized-matmul --m 8 --k 8192 --n 8192 --scheme w8a16 --chip v6e"},
    {"collective", tpusim::cli::cmd_collective,
     "all-gather | reduce-scatter | all-reduce | all-to-all | permute on a mesh: closed form "
     "and hop-by-hop simulation (--links, --trace out.json)",
     "tpusim collective all-gather --chip v5e --mesh 8x4 --axis 1 --bytes 33554432"},
    {"collective-matmul", tpusim::cli::cmd_collective_matmul,
     "y = x @ w with x's row shards passed round a ring while each device multiplies: time, exposed transfer, "
     "against gathering first",
     "tpusim collective-matmul --m 8192 --k 8192 --n 32768 --devices 4 --chip v5e"},
    {"grouped-matmul", tpusim::cli::cmd_grouped_matmul,
     "a mixture-of-experts grouped matmul (--pass forward | tgmm) over ragged groups: row tiles, rows computed, "
     "time, against XLA padding every group or running every token",
     "tpusim grouped-matmul --groups 1200,300,0,900,700,500,296,200 --k 4096 --n 4096 --chip v5e"},
    {"shard-layer", tpusim::cli::cmd_shard_layer,
     "one MLP block trained under DP, FSDP, TP or a mix on a mesh: PartitionSpecs, the collectives XLA "
     "inserts, their bytes and whether a matmul hides them",
     "tpusim shard-layer --chip v5e --mesh 16x16 --roles data,model --mode fsdp --batch 65536 --d-model 8192 "
     "--d-ff 32768"},
    {"ir", tpusim::cli::cmd_ir,
     "read a jaxpr, StableHLO or HLO dump: decode FILE (every dot), ops FILE, cost HLO (kernels), xref J S H, "
     "shardings FILE",
     "tpusim ir decode assets/ir-samples/mlp.hlo --json"},
    {"semaphores", tpusim::cli::cmd_semaphores,
     "run per-device DMA/semaphore programs: deadlocks, races, nonzero semaphores",
     "tpusim semaphores assets/semaphores/ring_all_gather.sem --devices 4 --json"},
    {"fusion", tpusim::cli::cmd_fusion,
     "an XLA-like fusion pass on mlp | softmax | attention | layernorm | FILE.hlo",
     "tpusim fusion attention --chip v5e"},
    {"profile", tpusim::cli::cmd_profile,
     "a jax.profiler profile's ops: measured device time beside the prediction (--device N, --chip ID)",
     "tpusim profile run/plugins/profile/2025_03_11/host.xplane.pb --device 0"},
    {"validate", tpusim::cli::cmd_validate,
     "the models against published timings of real TPUs: error per row, median and worst per model",
     "tpusim validate --json"},
};

void print_help() {
    std::cout << "tpusim " TPUSIM_VERSION " - a TPU performance simulator (predictions, not "
                 "measurements)\n\n"
                 "usage: tpusim <subcommand> [words] [--option value ...] [--json]\n\n"
                 "subcommands:\n";
    std::size_t column = 0;  // the summaries line up after the longest name
    for (const auto& s : subcommands) column = std::max(column, s.name.size() + 2);
    for (const auto& s : subcommands) {
        std::cout << "  " << s.name << std::string(column - s.name.size(), ' ') << s.summary << "\n"
                  << std::string(column + 2, ' ') << "e.g. " << s.example << "\n";
    }
    std::cout << "\noptions for every subcommand:\n"
                 "  --chip ID   v4, v5e, v5p, v6e or v7 (default v5e)\n"
                 "  --json      machine-readable output\n"
                 "  --help      this text\n"
                 "  --version   the version\n\n"
                 "Sizes are positive integers; shapes are written 1024x1000. Bad input prints one\n"
                 "line on stderr and exits with status 2.\n";
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc >= 2 && std::string_view(argv[1]) == "--version") {
            std::cout << "tpusim " TPUSIM_VERSION "\n";
            return 0;
        }
        const tpusim::cli::Args args(argc, argv);
        if (args.words().empty()) {
            if (args.flag("help")) {
                print_help();
                return 0;
            }
            throw tpusim::InputError("no subcommand given: try 'tpusim --help'");
        }
        for (const auto& s : subcommands) {
            if (args.words()[0] != s.name) continue;
            if (args.flag("help")) {
                std::cout << "tpusim " << s.name << ": " << s.summary << "\nexample: " << s.example
                          << "\n";
                return 0;
            }
            return s.run(args);
        }
        throw tpusim::InputError("unknown subcommand '" + args.words()[0] +
                                 "': try 'tpusim --help'");
    } catch (const tpusim::InputError& e) {
        std::cerr << "tpusim: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tpusim: internal error: " << e.what() << "\n";
        return 1;
    }
}
