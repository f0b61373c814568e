// tpusim attention
#include <algorithm>
#include <cmath>
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/attention.h"
#include "tpusim/error.h"
#include "tpusim/online_softmax.h"

namespace tpusim::cli {

namespace {

// --verify runs the stepper on the host; beyond this many multiply-adds it
// would keep the command waiting.
constexpr double verify_limit = 1 << 26;

struct Verification {
    bool ran = false;
    double max_abs_error = 0;
    std::int64_t tiles_computed = 0;
};

Verification verify(const AttentionSpec& s) {
    const double work = static_cast<double>(s.seq_q) * static_cast<double>(s.seq_kv) * static_cast<double>(s.head_dim);
    if (work > verify_limit)
        throw InputError(
            "--verify runs one head on the host and allows at most 2^26 "
            "multiply-adds (seq_q x seq_kv x head_dim); use shorter sequences");
    OnlineSoftmaxStepper stepper(
        random_attention_problem(s.seq_q, s.seq_kv, s.head_dim, s.block_q, s.block_k, s.causal, 1));
    stepper.run();
    const std::vector<double> got = stepper.output();
    const std::vector<double> want = attention_reference(stepper.problem());
    Verification v;
    v.ran = true;
    v.tiles_computed = stepper.tiles_computed();
    for (std::size_t i = 0; i < got.size(); ++i)
        v.max_abs_error = std::max(v.max_abs_error, std::abs(got[i] - want[i]));
    return v;
}

void write_form(Json& j, const AttentionForm& f) {
    j.begin_object();
    j.field("time_s", f.time_s).field("time", format_time(f.time_s));
    j.field("bound", f.bound);
    j.field("mxu_flops", f.mxu_flops).field("vpu_flops", f.vpu_flops);
    j.field("hbm_bytes", f.hbm_bytes);
    j.field("mxu_s", f.mxu_s).field("vpu_s", f.vpu_s).field("memory_s", f.memory_s);
    j.field("peak_s", f.peak_s).field("grid_steps", f.grid_steps);
    j.key("bytes").begin_object();
    for (const Figure& b : f.bytes) j.field(b.name, b.value);
    j.end_object();
    if (!f.stages.empty()) {
        j.key("stages").begin_object();
        for (const Figure& st : f.stages) j.field(st.name, st.value);
        j.end_object();
    }
    j.end_object();
}

std::string bytes_list(const AttentionForm& f) {
    std::string s;
    for (const Figure& b : f.bytes) {
        if (!s.empty()) s += ", ";
        s += b.name + " " + format_bytes(b.value);
    }
    return s;
}

}  // namespace

int cmd_attention(const Args& args) {
    args.max_words(1, "tpusim attention");
    args.allow_only({"chip", "batch", "heads", "kv-heads", "seq", "seq-kv", "head-dim", "block-q", "block-k", "dtype",
                     "score-dtype", "causal", "bias", "pass", "verify", "window", "documents"},
                    "tpusim attention");
    AttentionSpec s;
    s.batch = args.positive("batch", 1);
    s.heads = args.positive("heads", 1);
    s.seq_q = args.positive("seq");
    s.seq_kv = args.positive("seq-kv", s.seq_q);
    s.head_dim = args.positive("head-dim");
    s.block_q = args.positive("block-q", std::min<std::int64_t>(128, s.seq_q));
    s.block_k = args.positive("block-k", std::min<std::int64_t>(128, s.seq_kv));
    s.causal = args.flag("causal");
    s.dtype = args.dtype("dtype", DType::bf16);
    s.score_dtype = args.dtype("score-dtype", DType::f32);
    s.kv_heads = args.positive("kv-heads", s.heads);
    s.bias = args.flag("bias");
    if (args.has("window")) s.window = args.positive("window");
    s.documents = args.positive("documents", 1);
    const std::string pass = args.text("pass", "forward");
    if (pass == "forward")
        s.pass = AttentionPass::forward;
    else if (pass == "backward")
        s.pass = AttentionPass::backward;
    else if (pass == "both" || pass == "forward-backward")
        s.pass = AttentionPass::forward_backward;
    else
        throw InputError("--pass must be forward, backward or both (got '" + pass + "')");
    const AttentionResult r = attention(args.chip(), s);
    if (args.flag("verify") && (s.window > 0 || s.documents > 1))
        throw InputError(
            "--verify steps the online softmax with no mask or the causal one; drop --window and --documents");
    const Verification v = args.flag("verify") ? verify(s) : Verification{};

    if (args.flag("json")) {
        Json j;
        j.begin_object();
        j.field("naive_time_s", r.naive.time_s).field("flash_time_s", r.flash.time_s);
        j.field("naive_hbm_bytes", r.naive.hbm_bytes).field("flash_hbm_bytes", r.flash.hbm_bytes);
        j.field("speedup", r.speedup).field("useful_flops", r.useful_flops);
        j.field("score_bytes", r.score_bytes);
        j.field("q_blocks", r.q_blocks).field("kv_blocks", r.kv_blocks);
        j.field("tiles", r.tiles).field("tiles_computed", r.tiles_computed);
        j.field("tiles_skipped", r.tiles_skipped).field("kv_block_fetches", r.kv_block_fetches);
        j.key("naive");
        write_form(j, r.naive);
        j.key("flash");
        write_form(j, r.flash);
        if (v.ran) {
            j.key("verify").begin_object();
            j.field("max_abs_error", v.max_abs_error).field("tiles_computed", v.tiles_computed);
            j.end_object();
        }
        return print_with_provenance(j, r.provenance);
    }
    Table t({"", "predicted", "bound", "at the peaks", "HBM traffic", "MXU FLOPs", "grid steps"},
            {false, true, false, true, true, true, true});
    for (const auto* f : {&r.naive, &r.flash})
        t.add({f == &r.naive ? "naive" : "flash", format_time(f->time_s), f->bound, format_time(f->peak_s),
               format_bytes(f->hbm_bytes), format_fixed(f->mxu_flops / 1e9, 3) + " G",
               f == &r.naive ? "-" : std::to_string(f->grid_steps)});
    t.print(std::cout);
    std::cout << "\n";
    std::vector<std::pair<std::string, std::string>> pairs = {
        {"flash speedup", format_fixed(r.speedup, 2) + "x"},
        {"tiles", std::to_string(r.tiles_computed) + " of " + std::to_string(r.tiles) + " computed per head (" +
                      std::to_string(r.q_blocks) + " x " + std::to_string(r.kv_blocks) + " blocks)"},
        {"useful FLOPs", format_fixed(r.useful_flops / 1e9, 3) + " G"},
        {"naive score matrix", format_bytes(r.score_bytes) + " of " + std::string(name(s.score_dtype)) + " scores"},
        {"naive traffic", bytes_list(r.naive)},
        {"flash traffic", bytes_list(r.flash)}};
    for (const auto* f : {&r.naive, &r.flash})
        for (const Figure& st : f->stages)
            pairs.emplace_back((f == &r.naive ? "naive: " : "flash: ") + st.name, format_time(st.value));
    if (v.ran)
        pairs.emplace_back("verify", "stepper vs direct softmax, max |error| " + std::to_string(v.max_abs_error));
    print_pairs(std::cout, pairs);
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
