// End-to-end: run the built tpusim binary and check its output and exit status.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#ifndef TPUSIM_BIN
#error "TPUSIM_BIN must name the tpusim executable"
#endif

namespace {
struct Run {
    int status = -1;
    std::string out;  // stdout and stderr together
};

Run run(const std::string& arguments) {
    const std::string command = std::string("'") + TPUSIM_BIN + "' " + arguments + " 2>&1";
    Run r;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int raw = pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return r;
}

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}
}  // namespace

TEST_CASE("tpusim bench --chip v5e prints the landing rows", "[cli]") {
    const Run r = run("bench --chip v5e");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("697.7 µs"));
    CHECK_THAT(r.out, Catch::Contains("41.1 µs"));
    CHECK_THAT(r.out, Catch::Contains("122.8 µs"));
}

TEST_CASE("tpusim bench --json has the rows and their provenance", "[cli]") {
    const Run r = run("bench --chip v5e --json");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"time_s\":"));
    CHECK_THAT(r.out, Catch::Contains("\"time\":\"697.7 µs\""));
    CHECK_THAT(r.out, Catch::Contains("\"kind\":\"predicted\""));
    CHECK_THAT(r.out, Catch::Contains("\"assumptions\":["));
}

TEST_CASE("tpusim roofline matmul", "[cli]") {
    const Run r = run("roofline matmul --m 4096 --k 4096 --n 4096 --dtype bf16 --chip v5e --json");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"bound\":\"compute\""));
    CHECK_THAT(r.out, Catch::Contains("\"ridge\":"));
    CHECK_THAT(r.out, Catch::Contains("\"intensity\":"));
}

TEST_CASE("tpusim chips lists every chip; --chip shows sources", "[cli]") {
    const Run all = run("chips");
    CHECK(all.status == 0);
    for (const char* id : {"v4", "v5e", "v5p", "v6e", "v7"}) CHECK_THAT(all.out, Catch::Contains(id));
    const Run one = run("chips --chip v5e");
    CHECK_THAT(one.out, Catch::Contains("[JAX-INFO]"));
    CHECK_THAT(one.out, Catch::Contains("scoped VMEM default *"));
}

TEST_CASE("--help has an example per subcommand; --version prints the version", "[cli]") {
    const Run h = run("--help");
    CHECK(h.status == 0);
    for (const char* s : {"tpusim chips", "tpusim roofline", "tpusim bench", "tpusim pipeline", "tpusim vmem",
                          "tpusim blockspec", "tpusim layout", "tpusim mxu"})
        CHECK_THAT(h.out, Catch::Contains(std::string("e.g. ") + s));
    const Run v = run("--version");
    CHECK(v.status == 0);
    CHECK_THAT(v.out, Catch::StartsWith("tpusim "));
}

TEST_CASE("options come anywhere after the subcommand; its --help lists them with units", "[cli]") {
    // Before, between or after the words, as --name value or --name=value.
    const std::string sample = std::string(TPUSIM_IR_SAMPLES) + "/mlp.hlo";
    const Run before = run("ir decode --json " + sample);
    const Run after = run("ir decode " + sample + " --json");
    CHECK(before.status == 0);
    CHECK(before.out == after.out);
    CHECK_THAT(before.out, Catch::Contains("\"flops\":4194304"));
    const Run between = run("roofline --m=4096 matmul --k 4096 --n=4096");
    CHECK(between.status == 0);
    CHECK_THAT(between.out, Catch::Contains("697.7 µs"));
    // A later word that names another subcommand is a word of the first.
    CHECK(run("fusion attention --chip v5e").status == 0);

    const Run help = run("vmem --help");
    CHECK(help.status == 0);
    CHECK_THAT(help.out, Catch::Contains("matmul | attention | layernorm"));
    CHECK_THAT(help.out, Catch::Contains("--vmem-limit-mib VALUE"));
    CHECK_THAT(help.out, Catch::Contains("the scoped VMEM limit, MiB"));
    CHECK_THAT(help.out, Catch::Contains("example: tpusim vmem matmul"));
}

TEST_CASE("bad input: one line on stderr and exit status 2", "[cli]") {
    for (const char* args : {
             "bench --chip v9",
             "roofline matmul --m 0 --k 4 --n 4",
             "roofline matmul --m -3 --k 4 --n 4",
             "roofline matmul --m 12x --k 4 --n 4",
             "roofline matmul --m 4 --k 4 --n 4 --dtype bf17",
             "roofline matmul --m 4 --k 4",
             "roofline matmul --m 4 --k 4 --n 4 --bogus 1",
             "roofline elementwise --shape 4x0",
             "roofline matmul --m 99999999999999999999 --k 4 --n 4",
             "roofline matmul --m 4 --k 4 --n 4 --dtype int8 --chip v7",
             "frobnicate",
             "",
             "roofline matmul --m 4 --m 5 --k 4 --n 4",
             "roofline matmul --m",
             "validate extra",
         }) {
        INFO(args);
        const Run r = run(args);
        CHECK(r.status == 2);
        CHECK(lines(r.out) == 1);
        CHECK_THAT(r.out, Catch::StartsWith("tpusim: "));
    }
}

TEST_CASE("tpusim pipeline matmul --json has the issue's keys", "[cli]") {
    const Run r =
        run("pipeline matmul --m 4096 --k 4096 --n 4096 --bm 512 --bk 1024 --bn 1024 "
            "--dtype bf16 --chip v5e --json");
    CHECK(r.status == 0);
    for (const char* key :
         {"\"time_s\":", "\"steps\":128", "\"vmem_bytes\":", "\"hbm_bytes\":", "\"utilization\":", "\"provenance\":"})
        CHECK_THAT(r.out, Catch::Contains(key));
    const Run t = run("pipeline matmul --m 256 --k 256 --n 256 --bm 128 --bk 128 --bn 128 --timeline");
    CHECK(t.status == 0);
    CHECK_THAT(t.out, Catch::Contains("(1,1,1)"));
}

TEST_CASE("tpusim pipeline matmul --order walks the grid in another order, as EX·08 does", "[cli]") {
    // K first: the output block changes every step and goes back every step (64 of them).
    const Run k = run("pipeline matmul --m 1024 --k 1024 --n 1024 --bm 256 --bk 256 --bn 256 --order kmn --json");
    CHECK(k.status == 0);
    CHECK_THAT(k.out, Catch::Contains("\"output_copies\":64"));
    const Run d = run("pipeline matmul --m 1024 --k 1024 --n 1024 --bm 256 --bk 256 --bn 256 --json");
    CHECK_THAT(d.out, Catch::Contains("\"output_copies\":16"));
    const Run bad = run("pipeline matmul --m 1024 --k 1024 --n 1024 --bm 256 --bk 256 --bn 256 --order mmk");
    CHECK(bad.status == 2);
    CHECK_THAT(bad.out, Catch::Contains("the grid order must name m, n and k once each"));
    // --trace writes the schedule as EX·08 exports it: an MXU and a DMA track, the launch, the copies.
    const std::string path = "tpusim_cli_order_trace.json";
    const Run t =
        run("pipeline matmul --m 1024 --k 1024 --n 1024 --bm 256 --bk 256 --bn 256 --order kmn --trace " + path);
    CHECK(t.status == 0);
    std::ifstream in(path);
    std::stringstream read;
    read << in.rdbuf();
    const std::string text = read.str();
    for (const char* part : {"\"name\":\"MXU\"", "\"name\":\"DMA\"", "\"name\":\"launch\"", "\"name\":\"out: out\"",
                             "\"name\":\"epilogue: last blocks out\""})
        CHECK_THAT(text, Catch::Contains(part));
    std::remove(path.c_str());
}

TEST_CASE("tpusim vmem: the budget, the compiler's words when over, the largest blocks that fit", "[cli]") {
    const Run r = run("vmem matmul --sizes 4096x4096x4096 --blocks 512x1024x2048 --chip v5e --json");
    CHECK(r.status == 0);
    for (const char* key : {"\"total_bytes\":18874368", "\"fits\":false", "\"stage\":\"compile\"",
                            "\"quoted\":\"RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem",
                            "\"suggestion\":{\"found\":true,\"blocks\":[1024,1024,1024]", "\"provenance\":"})
        CHECK_THAT(r.out, Catch::Contains(key));
    const Run raised = run("vmem matmul --blocks 512x1024x2048 --vmem-limit-mib 32");
    CHECK(raised.status == 0);
    CHECK_THAT(raised.out, Catch::Contains("fits: 18 MiB of the 32 MiB scoped limit (raised)"));
    for (const char* args : {"vmem", "vmem conv", "vmem matmul --blocks 512x1024", "vmem layernorm --buffers 5",
                             "vmem matmul --vmem-limit-mib 1000"}) {
        INFO(args);
        CHECK(run(args).status == 2);
    }
}

TEST_CASE("tpusim blockspec check --json prints legal and reason", "[cli]") {
    const Run r = run("blockspec check --array 1024x1000 --block 256x100 --dtype f32 --json");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"legal\":false"));
    CHECK_THAT(r.out, Catch::Contains("\"reason\":\"the last dimension of the block (100)"));
    const Run ok = run("blockspec check --array 1024x1000 --block 256x1000 --dtype f32 --json");
    CHECK_THAT(ok.out, Catch::Contains("\"legal\":true"));
}

TEST_CASE("tpusim blockspec verify is an off-chip verification", "[cli]") {
    const Run r = run("blockspec verify --m 128 --k 128 --n 128 --bm 32 --bk 32 --bn 32 --json");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"passed\":true"));
    CHECK_THAT(r.out, Catch::Contains("\"kind\":\"verified_off_chip\""));
    const Run bad = run("blockspec verify --m 128 --k 128 --n 128 --bm 32 --bk 32 --bn 32 --order kij");
    CHECK(bad.status == 0);
    CHECK_THAT(bad.out, Catch::StartsWith("FAILED"));
}

TEST_CASE("pipeline and blockspec bad input exits 2", "[cli]") {
    for (const char* args : {
             "pipeline matmul --m 4096 --k 4096 --n 4096 --bm 100 --bk 128 --bn 128",
             "pipeline matmul --m 4096 --k 4096 --n 4096 --bm 1024 --bk 2048 --bn 1024",
             "pipeline matmul --m 4096 --k 4096 --n 4096 --bm 128 --bk 128",
             "pipeline convolution --m 1",
             "blockspec check --array 1024x1000 --block 256",
             "blockspec check --array 1024x --block 256x128",
             "blockspec verify --m 64 --k 64 --n 64 --bm 16 --bk 16 --bn 16 --order abc",
         }) {
        INFO(args);
        const Run r = run(args);
        CHECK(r.status == 2);
        CHECK(lines(r.out) == 1);
    }
}

TEST_CASE("tpusim mxu and layout", "[cli]") {
    const Run r = run("mxu --m 4 --k 4 --n 4 --array 4 --json");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"cycles\":14"));
    CHECK_THAT(r.out, Catch::Contains("\"utilization\":"));
    const Run book = run("mxu --m 4 --k 8 --n 8 --array 4 --no-overlap --json");
    CHECK_THAT(book.out, Catch::Contains("\"cycles\":56"));
    const Run big = run("mxu --m 8192 --k 8192 --n 8192 --array 128 --json");
    CHECK_THAT(big.out, Catch::Contains("\"method\":\"formula\""));
    const Run l = run("layout --shape 8x128 --dtype bf16 --json");
    CHECK(l.status == 0);
    CHECK_THAT(l.out, Catch::Contains("\"waste\":0.5"));
    // Chapter 7's skinny array reshaped lane-dense: 32 MiB of padded tiles read, 2 MiB written.
    const Run reshape = run("layout --shape 65536x8 --reshape 4096x128 --chip v5e --json");
    CHECK(reshape.status == 0);
    CHECK_THAT(reshape.out, Catch::Contains("\"moves\":true,\"in_kernel\":false"));
    CHECK_THAT(reshape.out, Catch::Contains("\"bytes_moved\":35651584"));
    const Run cast = run("layout --shape 8x128 --cast bf16 --json");
    CHECK(cast.status == 0);
    CHECK_THAT(cast.out, Catch::Contains("\"bytes_moved\":8192"));
    for (const char* args : {"mxu --m 4 --k 4 --n 0", "mxu --m 4 --k 4 --n 4 --array 2000",
                             "layout --shape 8x128 --dtype int8 --tile 2x128", "layout --shape 8x128 --reshape 8x100",
                             "layout --shape 8x0 --cast bf16", "layout --shape 8x128 --reshape 1024 --cast bf16"}) {
        INFO(args);
        const Run bad = run(args);
        CHECK(bad.status == 2);
        CHECK(lines(bad.out) == 1);
    }
}

TEST_CASE("tpusim attention: causal tiles, the JSON's figures and the off-chip check", "[cli]") {
    const Run r = run("attention --seq 4096 --head-dim 128 --block-q 512 --block-k 512 --causal --chip v5e --json");
    CHECK(r.status == 0);
    // 8 x 8 tiles; a causal mask keeps the 36 on or below the diagonal (8 + 7 + ... + 1).
    CHECK_THAT(r.out, Catch::Contains("\"tiles\":64,\"tiles_computed\":36,\"tiles_skipped\":28"));
    CHECK_THAT(r.out, Catch::Contains("\"kind\":\"predicted\""));
    // The scores in f32 by default, as the naive program's first contraction writes them:
    // 4096^2 x 4 B; the probabilities go back to bf16: 4096^2 x 2 B.
    CHECK_THAT(r.out, Catch::Contains("\"write S\":67108864"));
    CHECK_THAT(r.out, Catch::Contains("\"write P\":33554432"));
    CHECK_THAT(r.out, Catch::Contains("\"score_bytes\":67108864"));
    const Run bf16_scores = run("attention --seq 4096 --head-dim 128 --score-dtype bf16 --chip v5e --json");
    CHECK(bf16_scores.status == 0);
    CHECK_THAT(bf16_scores.out, Catch::Contains("\"write S\":33554432"));
    const Run bad_score = run("attention --seq 4096 --head-dim 128 --score-dtype f33");
    CHECK(bad_score.status == 2);
    const Run v = run("attention --seq 256 --head-dim 64 --block-q 64 --block-k 64 --verify");
    CHECK(v.status == 0);
    CHECK_THAT(v.out, Catch::Contains("stepper vs direct softmax, max |error| 0.000000"));
    const Run bad = run("attention --seq 100 --block-q 64");
    CHECK(bad.status == 2);
    CHECK(lines(bad.out) == 1);
}

TEST_CASE("tpusim collective: closed form against the hop-by-hop run, and its refusals", "[cli]") {
    const Run r = run("collective all-gather --chip v5e --mesh 8x4 --axis 1 --bytes 33554432 --json");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"time\":\"560.2 µs\""));
    CHECK_THAT(r.out, Catch::Contains("\"agrees\":true"));
    CHECK_THAT(r.out, Catch::Contains("\"lines_simulated\":1,\"lines_total\":8"));
    CHECK_THAT(r.out, Catch::Contains("no wraparound: v5e wraps only axes of 16 [SB-TPU]"));
    const Run bad = run("collective all-gather --chip v5e --mesh 8x4 --axis 2 --bytes 1024");
    CHECK(bad.status == 2);
    CHECK(lines(bad.out) == 1);
    CHECK_THAT(bad.out, Catch::Contains("axis 2 is not an axis of the 8x4 mesh"));
}

TEST_CASE("tpusim shard-layer: specs, collectives and whether they hide; its refusals", "[cli]") {
    const Run r =
        run("shard-layer --chip v5e --mesh 16 --roles data --mode fsdp --batch 65536 --d-model 8192 "
            "--d-ff 32768");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("P(\"data\", None), P(\"data\", None), P(None, \"data\")"));
    CHECK_THAT(r.out, Catch::Contains("all-gather W_out"));
    CHECK_THAT(r.out, Catch::Contains("yes, under x @ W_in"));
    CHECK_THAT(r.out, Catch::Contains("Compute-bound"));
    const Run tp =
        run("shard-layer --chip v5e --mesh 16 --roles model --batch 8192 --d-model 8192 --d-ff 32768 "
            "--json");
    CHECK(tp.status == 0);
    CHECK_THAT(tp.out, Catch::Contains("\"strategy\":\"TP\""));
    CHECK_THAT(tp.out, Catch::Contains("\"under\":null"));
    const Run bad = run("shard-layer --chip v5e --mesh 16x16 --roles data,batch --batch 64 --d-model 64 --d-ff 64");
    CHECK(bad.status == 2);
    CHECK(lines(bad.out) == 1);
    CHECK_THAT(bad.out, Catch::Contains("\"batch\" is not an axis role"));
}

TEST_CASE("tpusim ir shardings: a real dump's shardings and groups in words", "[cli][corpus]") {
    const Run r = run("ir shardings " + std::string(TPUSIM_IR_CORPUS) + "/xla_llama31_70b_bf16_16x8.hlo");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("2 groups of 64 devices, each running the collective among its own: "
                                      "{0, 1, 2, …, 63}, {64, 65, 66, …, 127}."));
    CHECK_THAT(r.out, Catch::Contains("is one device's tile (320 MiB) of a f32[8192,80,64,128] array."));
    const Run json = run("ir shardings " + std::string(TPUSIM_IR_CORPUS) + "/xla_llama31_70b_bf16_16x8.hlo --json");
    CHECK_THAT(json.out, Catch::Contains("\"tiles\":[64,1,1,1],\"replicas\":2,\"devices\":128"));
    const Run none = run("ir shardings " + std::string(TPUSIM_IR_SAMPLES) + "/mlp.hlo");
    CHECK_THAT(none.out, Catch::Contains("no sharding or replica_groups attributes in"));
}

TEST_CASE("tpusim grouped-matmul: chapter 5's routing, and a bad group", "[cli]") {
    const Run r = run("grouped-matmul --groups 1200,300,0,900,700,500,296,200 --k 4096 --n 4096 --chip v5e");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("32 of 128 rows, 6 group boundaries inside one"));
    CHECK_THAT(r.out, Catch::Contains("4864 (18.8 % above the tokens)"));
    const Run t = run("grouped-matmul --groups 1200,300,0,900,700,500,296,200 --k 4096 --n 4096 --pass tgmm --json");
    CHECK_THAT(t.out, Catch::Contains("\"pass\":\"tgmm\""));
    CHECK_THAT(t.out, Catch::Contains("\"rows\":4864"));
    const Run bad = run("grouped-matmul --groups 12,x --k 64 --n 64");
    CHECK(bad.status == 2);
    CHECK(lines(bad.out) == 1);
}

TEST_CASE("tpusim ir cost: an optimized HLO's kernels, each costed", "[cli]") {
    const std::string mlp = std::string(TPUSIM_IR_SAMPLES) + "/mlp.hlo";
    const Run r = run("ir cost '" + mlp + "' --chip v5e");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("jit_mlp on v5e: 2 kernels"));
    // The first output fusion: the dot 2x32x512x128 plus the bias add and the relu max.
    CHECK_THAT(r.out, Catch::Contains("fusion    output  MXU        1  4227072    274 KiB   64 KiB"));
    CHECK_THAT(r.out, Catch::Contains("predicted · v5e"));
    const Run j = run("ir cost '" + mlp + "' --chip v6e --json");
    CHECK(j.status == 0);
    CHECK_THAT(j.out, Catch::Contains("\"kind\":\"output\""));
    CHECK_THAT(j.out, Catch::Contains("\"chip\":\"v6e\""));
    const Run bad = run("ir cost '" + std::string(TPUSIM_IR_SAMPLES) + "/mlp.jaxpr'");
    CHECK(bad.status == 2);
    CHECK(lines(bad.out) == 1);
    CHECK_THAT(bad.out, Catch::Contains("reads optimized HLO; "));
}

TEST_CASE("tpusim ir on real dumps: exact integers, loops multiplied out, lower bounds said", "[cli][corpus]") {
    const std::string corpus = std::string(TPUSIM_IR_CORPUS) + "/";
    // Llama 3.1 70B's dot.5: 2 x 2 x 8192 x 16384 x 8192 FLOPs, past 10 significant digits.
    const Run decoded = run("ir decode '" + corpus + "xla_llama31_70b_bf16_16x8.hlo' --json");
    CHECK(decoded.status == 0);
    CHECK_THAT(decoded.out, Catch::Contains("\"flops\":2199023255552,"));
    CHECK_THAT(decoded.out, Catch::Contains("\"total_flops\":276595893862400}"));
    const Run looped = run("ir cost '" + corpus + "xla_llama31_70b_bf16_16x8.hlo' --chip v5e --json");
    CHECK(looped.status == 0);
    CHECK_THAT(looped.out, Catch::Contains("\"trips\":80,\"reason\":\"its counter runs from 0 by 1 while < 80\""));
    // Its fused-attention custom calls are uncosted: a lower bound, said so.
    CHECK_THAT(looped.out, Catch::Contains("\"lower_bound\":true,\"optimized\":false,\"uncosted\":3"));
    CHECK_THAT(looped.out, Catch::Contains("\"uncosted_reason\":\"custom call 'te_fused_attn_forward_ffi'"));
    const Run mnist = run("ir cost '" + corpus + "xla_mnist_training_loop.hlo' --chip v5e");
    CHECK(mnist.status == 0);
    CHECK_THAT(mnist.out, Catch::Contains("kernels, at least "));
    CHECK_THAT(mnist.out, Catch::Contains("(not an optimized dump: no fusions)"));
    CHECK_THAT(mnist.out, Catch::Contains("so the totals are a lower bound"));
    const Run untyped = run("ir decode '" + corpus + "jax_docs_2020_untyped.jaxpr'");
    CHECK(untyped.status == 2);
    CHECK(lines(untyped.out) == 1);
    CHECK_THAT(untyped.out, Catch::Contains("line 1, column 10: this jaxpr's variables carry no types"));
}

TEST_CASE("tpusim validate: published against predicted, per row, per family and per constant", "[cli][validation]") {
    const Run r = run("validate");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("jax-mm-8192-b128"));
    CHECK_THAT(r.out, Catch::Contains("xprof-v6e-broadcast-add-fusion"));
    CHECK_THAT(r.out, Catch::Contains("fitted"));
    CHECK_THAT(r.out, Catch::Contains("held out"));
    CHECK_THAT(r.out, Catch::Contains("median |error|"));
    CHECK_THAT(r.out, Catch::Contains("memory-bound ops"));
    CHECK_THAT(r.out, Catch::Contains("attainable HBM fraction"));
    const Run j = run("validate --json");
    CHECK(j.status == 0);
    CHECK_THAT(j.out, Catch::Contains("\"source\":\"jax-ml/jax@1082251cde876f91608b403d1995b5e0025f0398"));
    CHECK_THAT(j.out, Catch::Contains("\"model\":\"roofline, attainable\""));
    CHECK_THAT(j.out, Catch::Contains("\"family\":\"host-link\""));
    CHECK_THAT(j.out, Catch::Contains("\"fitted_on\":["));
}
