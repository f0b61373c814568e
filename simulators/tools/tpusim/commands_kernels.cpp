// tpusim quantized-matmul, tpusim decode-attention
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/decode_attention.h"
#include "tpusim/error.h"
#include "tpusim/quantized_matmul.h"

namespace tpusim::cli {

namespace {

std::vector<std::int64_t> context_list(const Args& args) {
    const std::string text = args.text("context", "");
    if (text.empty()) throw InputError("--context is required: one length (4096) or one per sequence (512,4096)");
    return parse_context(text, args.has("batch") ? args.positive("batch") : 0);
}

void write_figures(Json& j, const char* key, const std::vector<Figure>& figures) {
    j.key(key).begin_object();
    for (const Figure& f : figures) j.field(f.name, f.value);
    j.end_object();
}

}  // namespace

int cmd_quantized_matmul(const Args& args) {
    args.max_words(1, "tpusim quantized-matmul");
    args.allow_only({"chip", "m", "k", "n", "scheme", "scales", "block"}, "tpusim quantized-matmul");
    QuantizedMatmulSpec s;
    s.m = args.positive("m");
    s.k = args.positive("k");
    s.n = args.positive("n");
    s.scheme = parse_scheme(args.text("scheme", "w8a8"));
    s.scales = parse_scales(args.text("scales", "channel"));
    s.scale_block = args.positive("block", 128);
    const Chip& chip = args.chip();
    const QuantizedMatmulResult r = quantized_matmul(chip, s);
    QuantizedMatmulSpec base_spec = s;
    base_spec.scheme = QuantScheme::bf16;
    const QuantizedMatmulResult base = quantized_matmul(chip, base_spec);

    if (args.flag("json")) {
        Json j;
        j.begin_object();
        j.field("scheme", std::string(scheme_name(s.scheme))).field("scales", std::string(scales_name(s.scales)));
        j.field("mxu_dtype", std::string(name(r.mxu_dtype))).field("mxu_rate", r.mxu_rate);
        j.field("time_s", r.time_s).field("call_s", r.call_s).field("kernel_s", r.kernel_s);
        j.field("quantize_s", r.quantize_s).field("bound", r.bound);
        j.field("flops", r.flops).field("hbm_bytes", r.hbm_bytes).field("intensity", r.intensity);
        j.field("weight_bytes", r.weight_bytes).field("activation_bytes", r.activation_bytes);
        j.field("scale_bytes", r.scale_bytes).field("output_bytes", r.output_bytes);
        j.field("quantize_bytes", r.quantize_bytes).field("vpu_ops", r.vpu_ops);
        j.field("mxu_s", r.mxu_s).field("vpu_s", r.vpu_s).field("memory_s", r.memory_s);
        j.field("bf16_time_s", base.time_s).field("bf16_hbm_bytes", base.hbm_bytes);
        j.field("speedup", base.time_s / r.time_s);
        j.key("blocks").begin_object().field("bm", r.bm).field("bk", r.bk).field("bn", r.bn).end_object();
        write_figures(j, "bytes", r.bytes);
        return print_with_provenance(j, r.provenance);
    }
    Table t({"", "device time", "as Python sees it", "bound", "HBM traffic", "MXU rate"},
            {false, true, true, false, true, true});
    t.add({"bf16", format_time(base.time_s), format_time(base.call_s), base.bound, format_bytes(base.hbm_bytes),
           format_rate(base.mxu_rate, "FLOP/s")});
    t.add({std::string(scheme_name(s.scheme)), format_time(r.time_s), format_time(r.call_s), r.bound,
           format_bytes(r.hbm_bytes), format_rate(r.mxu_rate, is_integer(r.mxu_dtype) ? "OP/s" : "FLOP/s")});
    t.print(std::cout);
    std::cout << "\n";
    std::vector<std::pair<std::string, std::string>> pairs = {
        {"speedup over bf16", format_fixed(base.time_s / r.time_s, 2) + "x"},
        {"bytes saved", format_fixed(100.0 * (1.0 - r.hbm_bytes / base.hbm_bytes), 1) + " %"},
        {"blocks", std::to_string(r.bm) + " x " + std::to_string(r.bk) + " x " + std::to_string(r.bn)},
        {"intensity", format_fixed(r.intensity, 1) + " FLOP/B"}};
    for (const Figure& f : r.bytes) pairs.emplace_back(f.name, format_bytes(f.value));
    if (r.quantize_s > 0)
        pairs.emplace_back("quantize activations",
                           format_time(r.quantize_s) + " (" + format_bytes(r.quantize_bytes) + ")");
    print_pairs(std::cout, pairs);
    print_provenance(r.provenance);
    return 0;
}

int cmd_decode_attention(const Args& args) {
    args.max_words(1, "tpusim decode-attention");
    args.allow_only(
        {"chip", "batch", "context", "heads", "kv-heads", "head-dim", "page", "pages-per-block", "dtype", "full-grid"},
        "tpusim decode-attention");
    DecodeAttentionSpec s;
    s.context = context_list(args);
    s.heads = args.positive("heads", 8);
    s.kv_heads = args.positive("kv-heads", s.heads);
    s.head_dim = args.positive("head-dim", 128);
    s.page_size = args.positive("page", 16);
    s.pages_per_block = args.positive("pages-per-block", 8);
    s.kv_dtype = args.dtype("dtype", DType::bf16);
    s.full_grid = args.flag("full-grid");
    const DecodeAttentionResult r = decode_attention(args.chip(), s);

    if (args.flag("json")) {
        Json j;
        j.begin_object();
        j.field("time_s", r.time_s).field("call_s", r.call_s).field("bound", r.bound);
        j.field("sequences", r.sequences).field("tokens", r.tokens).field("pages", r.pages);
        j.field("padded_tokens", r.padded_tokens).field("padding", r.padding).field("steps", r.steps);
        j.field("group", r.group).field("kv_bytes", r.kv_bytes).field("hbm_bytes", r.hbm_bytes);
        j.field("bytes_per_token", r.bytes_per_token).field("useful_flops", r.useful_flops);
        j.field("mxu_flops", r.mxu_flops).field("vpu_flops", r.vpu_flops).field("intensity", r.intensity);
        j.field("mxu_s", r.mxu_s).field("vpu_s", r.vpu_s).field("memory_s", r.memory_s);
        j.field("bandwidth", r.bandwidth).field("sequences_per_s", r.sequences_per_s);
        j.field("xla_time_s", r.xla_time_s).field("xla_bytes", r.xla_bytes);
        write_figures(j, "bytes", r.bytes);
        write_figures(j, "xla_stages", r.xla_stages);
        return print_with_provenance(j, r.provenance);
    }
    Table t({"", "device time", "bound", "HBM traffic", "share of HBM peak"}, {false, true, false, true, true});
    t.add({"paged kernel", format_time(r.time_s), r.bound, format_bytes(r.hbm_bytes),
           format_fixed(100 * r.bandwidth, 1) + " %"});
    t.add({"XLA gather + attention", format_time(r.xla_time_s), "-", format_bytes(r.xla_bytes), "-"});
    t.print(std::cout);
    std::cout << "\n";
    std::vector<std::pair<std::string, std::string>> pairs = {
        {"as Python sees it", format_time(r.call_s)},
        {"sequences", std::to_string(r.sequences) + ", " + std::to_string(r.tokens) + " tokens of context"},
        {"pages read",
         std::to_string(r.pages) + " (" + format_fixed(100 * r.padding, 1) + " % of slots past the ends)"},
        {"grid steps", std::to_string(r.steps)},
        {"per generated token", format_bytes(r.bytes_per_token)},
        {"intensity", format_fixed(r.intensity, 2) + " FLOP/B"},
        {"tokens per second", format_rate(r.sequences_per_s, "tokens/s") + " (this layer's attention only)"}};
    for (const Figure& f : r.bytes) pairs.emplace_back(f.name, format_bytes(f.value));
    for (const Figure& f : r.xla_stages) pairs.emplace_back("XLA: " + f.name, format_time(f.value));
    print_pairs(std::cout, pairs);
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
