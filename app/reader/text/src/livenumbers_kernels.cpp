// The live-number kinds of the production kernels: quantized matmuls,
// decode attention over a paged cache and the grouped matmul.
#include "livenumbers_detail.h"

#include <algorithm>
#include <string_view>

#include <tpusim/decode_attention.h>
#include <tpusim/grouped_matmul.h>
#include <tpusim/quantized_matmul.h>

namespace course::live::detail {

namespace {

// A scheme whose MXU type the chip publishes no rate for is not an error in
// the text: the sentence may be about another chip. It reads as what it is.
Value unpublishedRate(const tpusim::Chip &chip, tpusim::QuantScheme scheme)
{
    const bool fp8 = scheme == tpusim::QuantScheme::fp8;
    const tpusim::Fact &f = fp8 ? chip.peak_fp8 : chip.peak_int8;
    Value v;
    v.isFact = true;
    v.text = std::string("no published ") + (fp8 ? "fp8" : "int8") + " rate";
    v.source = f.source;
    v.details = "published · " + chip.name + " · no source publishes an " + (fp8 ? "fp8" : "int8") +
                " MXU rate for this chip, so the simulator predicts nothing for " +
                std::string(tpusim::scheme_name(scheme)) + " here" + (f.note.empty() ? "" : "\n" + f.note);
    return v;
}

// Whether `field` is one of a comma-separated list such as "time, bound".
bool listed(std::string_view list, const std::string &field)
{
    for (std::size_t at = 0; at <= list.size();) {
        const std::size_t end = std::min(list.find(", ", at), list.size());
        if (list.substr(at, end - at) == field)
            return true;
        at = end + 2;
    }
    return false;
}

std::vector<std::int64_t> lengths(const Args &a)
{
    const std::string text = a.text("context");
    return named([&] { return tpusim::parse_context(text, a.has("batch") ? a.integer("batch") : 0); });
}

} // namespace

Value resolveQuantizedMatmul(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"m", "k", "n", "scheme", "scales", "block"});
    tpusim::QuantizedMatmulSpec s;
    s.m = a.integer("m");
    s.k = a.integer("k");
    s.n = a.integer("n");
    s.scheme = named([&] { return tpusim::parse_scheme(a.text("scheme", "w8a8")); });
    s.scales = named([&] { return tpusim::parse_scales(a.text("scales", "channel")); });
    s.scale_block = a.integer("block", 128);
    const tpusim::DType mxu = s.scheme == tpusim::QuantScheme::w8a8  ? tpusim::DType::int8
                              : s.scheme == tpusim::QuantScheme::fp8 ? tpusim::DType::fp8
                                                                     : tpusim::DType::bf16;
    const tpusim::Fact &rate = mxu == tpusim::DType::int8  ? chip.peak_int8
                               : mxu == tpusim::DType::fp8 ? chip.peak_fp8
                                                           : chip.peak_bf16;
    const std::string &f = p.field;
    static const char *fields =
        "time, call_time, hbm_bytes, weight_bytes, scale_bytes, saved, speedup, mxu_rate, intensity, bound";
    if (!rate.published()) {
        // A misspelt field is still the text's mistake, whatever the chip.
        if (!listed(fields, f))
            unknownField(p, fields);
        return unpublishedRate(chip, s.scheme);
    }
    const tpusim::QuantizedMatmulResult r = tpusim::quantized_matmul(chip, s);
    if (auto v = numberField(p,
                             {{"time", Reads::time, r.time_s},
                              {"call_time", Reads::time, r.call_s},
                              {"hbm_bytes", Reads::bytes, r.hbm_bytes},
                              {"weight_bytes", Reads::bytes, r.weight_bytes},
                              {"scale_bytes", Reads::bytes, r.scale_bytes},
                              {"intensity", Reads::perByte, r.intensity}},
                             r.provenance))
        return *v;
    if (f == "mxu_rate")
        return numbered(tpusim::format_rate(r.mxu_rate, tpusim::is_integer(r.mxu_dtype) ? "OP/s" : "FLOP/s"),
                        r.mxu_rate, r.provenance);
    if (f == "bound")
        return answer(r.bound, r.provenance);
    if (f == "saved" || f == "speedup") {
        // Against the same shape in bf16, priced by the same model.
        tpusim::QuantizedMatmulSpec base = s;
        base.scheme = tpusim::QuantScheme::bf16;
        const tpusim::QuantizedMatmulResult b = tpusim::quantized_matmul(chip, base);
        tpusim::Provenance prov = r.provenance;
        prov.assumptions.push_back("Compared with the same shape in bf16 through the same model: " +
                                   tpusim::format_bytes(b.hbm_bytes) + " and " + tpusim::format_time(b.time_s) + ".");
        if (f == "saved") {
            const double saved = 1.0 - r.hbm_bytes / b.hbm_bytes;
            return numbered(percent(saved), saved, prov);
        }
        const double speedup = b.time_s / r.time_s;
        return numbered(tpusim::format_fixed(speedup, 2) + "×", speedup, prov);
    }
    unknownField(p, fields);
}

Value resolveDecode(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"batch", "heads", "kv_heads", "head_dim", "context", "page", "pages_per_block", "dtype", "grid"});
    tpusim::DecodeAttentionSpec s;
    s.context = lengths(a);
    s.heads = a.integer("heads", 1);
    s.kv_heads = a.integer("kv_heads", s.heads);
    s.head_dim = a.integer("head_dim", 128);
    s.page_size = a.integer("page", 16);
    s.pages_per_block = a.integer("pages_per_block", 8);
    s.kv_dtype = a.dtype();
    const std::string grid = a.text("grid", "skip");
    if (grid != "skip" && grid != "full")
        throw PlaceholderError("\"grid=" + grid + "\" must be skip or full.");
    s.full_grid = grid == "full";
    const tpusim::DecodeAttentionResult r = named([&] { return tpusim::decode_attention(chip, s); });
    const tpusim::Provenance &prov = r.provenance;
    if (auto v = numberField(p,
                             {{"time", Reads::time, r.time_s},
                              {"call_time", Reads::time, r.call_s},
                              {"kv_bytes", Reads::bytes, r.kv_bytes},
                              {"hbm_bytes", Reads::bytes, r.hbm_bytes},
                              {"bytes_per_token", Reads::bytes, r.bytes_per_token},
                              {"intensity", Reads::perByte, r.intensity},
                              {"bandwidth", Reads::percent, r.bandwidth},
                              {"pages", Reads::count, static_cast<double>(r.pages)},
                              {"padding", Reads::percent, r.padding},
                              {"steps", Reads::count, static_cast<double>(r.steps)},
                              {"xla_time", Reads::time, r.xla_time_s},
                              {"xla_bytes", Reads::bytes, r.xla_bytes}},
                             prov))
        return *v;
    if (p.field == "tokens_per_s")
        return numbered(tpusim::format_rate(r.sequences_per_s, "tokens/s"), r.sequences_per_s, prov);
    if (p.field == "bound")
        return answer(r.bound, prov);
    unknownField(p,
                 "time, call_time, kv_bytes, hbm_bytes, bytes_per_token, intensity, bandwidth, pages, padding, "
                 "steps, tokens_per_s, xla_time, xla_bytes, bound");
}

Value resolveGroupedMatmul(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"groups", "k", "n", "tm", "tk", "tn", "pass", "dtype"});
    tpusim::GroupedMatmulSpec s;
    const std::string groups = a.text("groups");
    s.groups = named([&] { return tpusim::parse_groups(groups); });
    s.k = a.integer("k");
    s.n = a.integer("n");
    s.tm = a.integer("tm", 128);
    s.tk = a.integer("tk", 512);
    s.tn = a.integer("tn", 512);
    const std::string pass = a.text("pass", "forward");
    s.pass = named([&] { return tpusim::parse_grouped_pass(pass); });
    s.dtype = a.dtype();
    const tpusim::GroupedMatmulResult r = named([&] { return tpusim::grouped_matmul(chip, s); });
    const tpusim::Provenance &prov = r.provenance;
    if (auto v = numberField(p,
                             {{"time", Reads::time, r.time_s},
                              {"call_time", Reads::time, r.call_s},
                              {"steps", Reads::count, static_cast<double>(r.steps)},
                              {"rows", Reads::count, static_cast<double>(r.rows)},
                              {"overhead", Reads::percent, r.overhead},
                              {"hbm_bytes", Reads::bytes, r.hbm_bytes},
                              {"padded_time", Reads::time, r.padded_time_s},
                              {"dense_time", Reads::time, r.dense_time_s}},
                             prov))
        return *v;
    if (p.field == "bound")
        return answer(r.bound, prov);
    unknownField(p, "time, call_time, steps, rows, overhead, hbm_bytes, padded_time, dense_time, bound");
}

} // namespace course::live::detail
