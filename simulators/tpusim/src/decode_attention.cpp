#include "tpusim/decode_attention.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "tpusim/attention.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

void check(const DecodeAttentionSpec& s) {
    if (s.context.empty()) throw InputError("decode attention needs at least one sequence's context length");
    for (const std::int64_t len : s.context)
        if (len < 1)
            throw InputError("every context length must be at least 1 token (got " + std::to_string(len) + ")");
    if (s.heads < 1 || s.head_dim < 1 || s.page_size < 1 || s.pages_per_block < 1)
        throw InputError("heads, head dim, page size and pages per block must each be at least 1");
    const std::int64_t kv = s.kv_heads > 0 ? s.kv_heads : s.heads;
    if (kv > s.heads || s.heads % kv != 0)
        throw InputError("KV heads (" + std::to_string(kv) + ") must divide the query heads (" +
                         std::to_string(s.heads) + ")");
    switch (s.kv_dtype) {
        case DType::bf16:
        case DType::f32:
        case DType::int8:
        case DType::fp8:
            break;
        default:
            throw InputError("a KV cache in " + std::string(name(s.kv_dtype)) +
                             " is not modelled: use bf16, f32, int8 or fp8");
    }
}

bool quantized(DType d) {
    return d == DType::int8 || d == DType::fp8;
}

// The rates of the device one kernel call runs on, with the fractions the
// validation fits: flash-attention compute and long memory-bound ops.
struct DeviceRates {
    double mxu = 0, vpu = 0, hbm = 0, share = 1;
    double flash_fraction = 1, hbm_fraction = 1, mxu_fraction = 1, step_s = 0, launch_s = 0, dma_s = 0;
};

DeviceRates rates_of(const Chip& chip, DType q_dtype) {
    const auto fraction = [](const Fact& f) { return f.value > 0 ? f.value : 1.0; };
    DeviceRates r;
    r.share = device_fraction(chip);
    r.mxu = peak_flops(chip, q_dtype).value * r.share;
    r.vpu = chip.vpu_flops_per_core.value * chip.tensorcores.value * r.share;
    r.hbm = chip.hbm_bandwidth.value * r.share;
    r.flash_fraction = fraction(chip.flash_attainable);
    r.hbm_fraction = fraction(chip.hbm_attainable);
    r.mxu_fraction = fraction(chip.mxu_attainable);
    r.step_s = chip.flash_step.value > 0 ? chip.flash_step.value : chip.grid_step_overhead.value;
    r.launch_s = chip.kernel_launch.value;
    r.dma_s = chip.dma_latency.value;
    return r;
}

std::string shapes_text(const DecodeAttentionSpec& s, std::int64_t kv) {
    std::string t = std::to_string(s.context.size()) + " sequence" + (s.context.size() == 1 ? "" : "s");
    const auto [lo, hi] = std::minmax_element(s.context.begin(), s.context.end());
    t += *lo == *hi ? " of " + std::to_string(*lo) + " tokens"
                    : " of " + std::to_string(*lo) + " to " + std::to_string(*hi) + " tokens";
    t += ", H=" + std::to_string(s.heads) + " KV heads=" + std::to_string(kv) + " D=" + std::to_string(s.head_dim) +
         ", pages of " + std::to_string(s.page_size) + " tokens, " + std::to_string(s.pages_per_block) +
         " pages a step, " + std::string(name(s.kv_dtype)) + " cache";
    return t;
}

}  // namespace

std::vector<std::int64_t> parse_context(std::string_view text, std::int64_t batch) {
    std::vector<std::int64_t> out;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find(',', at), text.size());
        std::int64_t v = 0;
        const char* first = text.data() + at;
        const char* last = text.data() + end;
        const auto [stop, ec] = std::from_chars(first, last, v);
        if (ec != std::errc() || stop != last || v < 1)
            throw InputError("\"" + std::string(text) +
                             "\" is not a length such as 4096 or a list such as 512,4096 (each at least 1 token)");
        out.push_back(v);
        at = end + 1;
    }
    if (batch > 0) {
        if (out.size() == 1)
            out.assign(static_cast<std::size_t>(batch), out.front());
        else if (static_cast<std::int64_t>(out.size()) != batch)
            throw InputError("a batch of " + std::to_string(batch) + " does not match the " +
                             std::to_string(out.size()) + " lengths given");
    }
    return out;
}

DecodeAttentionResult decode_attention(const Chip& chip, const DecodeAttentionSpec& s) {
    check(s);
    const DeviceRates rates = rates_of(chip, s.q_dtype);
    const std::int64_t kv = s.kv_heads > 0 ? s.kv_heads : s.heads;
    const std::int64_t block_tokens = s.page_size * s.pages_per_block;
    const double d = static_cast<double>(s.head_dim);
    const double d_pad = std::ceil(d / 128.0) * 128.0;
    const double kvb = bytes(s.kv_dtype), qb = bytes(s.q_dtype);

    DecodeAttentionResult r;
    r.sequences = static_cast<std::int64_t>(s.context.size());
    r.group = s.heads / kv;
    std::int64_t read_tokens = 0, blocks = 0, max_len = 0;
    for (const std::int64_t len : s.context) {
        const std::int64_t seq_blocks = ceil_div(len, block_tokens);
        r.tokens += len;
        read_tokens += seq_blocks * block_tokens;
        blocks += seq_blocks;
        max_len = std::max(max_len, len);
    }
    r.padded_tokens = read_tokens - r.tokens;
    r.padding = static_cast<double>(r.padded_tokens) / static_cast<double>(read_tokens);
    r.pages = blocks * s.pages_per_block * kv;
    const std::int64_t max_blocks = ceil_div(max_len, block_tokens);
    r.steps = (s.full_grid ? r.sequences * max_blocks : blocks) * kv;

    // Traffic: K and V pages (and their scales), the query rows in and the
    // output out, and the page table and lengths the scalar prefetch reads.
    const double cache_elems = static_cast<double>(read_tokens) * static_cast<double>(kv) * d;
    const double kv_data = 2 * cache_elems * kvb;
    const double kv_scales = quantized(s.kv_dtype) ? 2.0 * static_cast<double>(read_tokens * kv) * 4 : 0;
    const double q_bytes = static_cast<double>(r.sequences * s.heads) * d * qb;
    const double table = static_cast<double>(blocks * s.pages_per_block) * 4 + static_cast<double>(r.sequences) * 4;
    r.kv_bytes = kv_data + kv_scales;
    r.bytes = {{"read K and V pages", kv_data, "B"}};
    if (kv_scales > 0) r.bytes.push_back({"read K and V scales", kv_scales, "B"});
    r.bytes.push_back({"read queries", q_bytes, "B"});
    r.bytes.push_back({"write outputs", q_bytes, "B"});
    r.bytes.push_back({"read page table and lengths", table, "B"});
    for (const Figure& f : r.bytes) r.hbm_bytes += f.value;
    r.bytes_per_token = r.hbm_bytes / static_cast<double>(r.sequences);

    // Work: QK^T and PV for every query head over the tokens read. On the
    // MXU the group's query rows fill at least 8 sublanes and the head dim
    // at least 128 lanes; the softmax is the flash recurrence on the VPU,
    // and a quantized cache is converted and scaled there first.
    const double rows = std::max<double>(8.0, static_cast<double>(r.group));
    r.useful_flops = 4.0 * static_cast<double>(s.heads) * static_cast<double>(r.tokens) * d;
    r.mxu_flops = 4.0 * rows * static_cast<double>(kv) * static_cast<double>(read_tokens) * d_pad;
    r.vpu_flops = softmax_ops_per_score * static_cast<double>(s.heads * read_tokens) +
                  (quantized(s.kv_dtype) ? 2.0 * 2.0 * cache_elems : 0.0);
    r.intensity = r.useful_flops / r.hbm_bytes;
    r.mxu_s = r.mxu_flops / rates.mxu;
    r.vpu_s = r.vpu_flops / rates.vpu;
    r.memory_s = r.hbm_bytes / rates.hbm;

    // Every step takes the longest of its share of the work, of the copies
    // and the step's least time; the first block's copies are not hidden.
    const double kernel = flash_kernel_time(r.mxu_s + r.vpu_s, r.memory_s, r.steps, rates.flash_fraction,
                                            rates.hbm_fraction, rates.step_s);
    r.time_s = kernel + rates.dma_s;
    r.call_s = r.time_s + rates.launch_s;
    r.bandwidth = r.hbm_bytes / r.time_s / rates.hbm;
    r.sequences_per_s = static_cast<double>(r.sequences) / r.time_s;
    const double compute = (r.mxu_s + r.vpu_s) / rates.flash_fraction, memory = r.memory_s / rates.hbm_fraction;
    r.bound = kernel == memory ? "HBM" : kernel == compute ? (r.mxu_s >= r.vpu_s ? "MXU" : "VPU") : "grid steps";

    // XLA: a gather writes every sequence's pages into one cache padded to
    // the longest sequence (rounded up to whole pages), which the three
    // attention ops then read back, with f32 scores and bf16 probabilities.
    const double padded_len = static_cast<double>(ceil_div(max_len, s.page_size) * s.page_size);
    const double gathered = 2.0 * static_cast<double>(r.sequences * kv) * padded_len * d * kvb +
                            (quantized(s.kv_dtype) ? 2.0 * static_cast<double>(r.sequences * kv) * padded_len * 4 : 0);
    const double scores = static_cast<double>(r.sequences * s.heads) * padded_len;
    const auto op = [&](const char* what, double mxu_flops, double vpu_flops, double traffic) {
        const double t = xla_op_time(mxu_flops / rates.mxu, vpu_flops / rates.vpu, traffic / rates.hbm,
                                     rates.mxu_fraction, rates.hbm_fraction);
        r.xla_stages.push_back({what, t, "s"});
        r.xla_bytes += traffic;
        r.xla_time_s += t;
    };
    const double half = 0.5 * gathered;
    op("gather pages", 0, 0, 2 * gathered + table);
    op("QK^T", 2 * rows * static_cast<double>(kv * r.sequences) * padded_len * d_pad, 0, q_bytes + half + 4 * scores);
    op("softmax", 0, softmax_ops_per_score * scores, 4 * scores + 2 * scores);
    op("PV", 2 * rows * static_cast<double>(kv * r.sequences) * padded_len * d_pad, 0, 2 * scores + half + q_bytes);

    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = std::string(name(s.q_dtype)) + " queries and output, " + std::string(name(s.kv_dtype)) +
              " KV cache, f32 softmax state";
    p.shapes = shapes_text(s, kv);
    p.model =
        "paged decode attention: one Pallas kernel streaming blocks of pages over its grid [JAX-PAGED], "
        "against XLA gathering the pages and then attending";
    p.assumptions = {
        "Pages are laid out per KV head, as JAX's paged-attention kernel takes them; each step copies " +
            std::to_string(s.pages_per_block) +
            " pages of K and of V for one KV head, whole blocks even past the "
            "sequence's end, and skips blocks wholly past it [JAX-PAGED].",
        "The query heads sharing a KV head are multiplied against its pages together, so each K/V byte is read "
        "once per sequence; on the MXU their rows fill at least 8 sublanes and the head dim at least 128 lanes.",
        "Each grid step takes the longest of its share of the work (at the flash-attention fraction " +
            format_fixed(rates.flash_fraction * 100, 1) + " %), of its copies (at " +
            format_fixed(rates.hbm_fraction * 100, 1) + " % of HBM bandwidth) and a step's least time, " +
            format_time(rates.step_s) + ", all fitted on published runs; the first block's copies, " +
            format_time(rates.dma_s) + " of DMA latency, are not hidden.",
        "One page is one DMA; how the size of a page changes a DMA's efficiency is not modelled.",
        "A call as Python times it adds " + format_time(rates.launch_s) + " of launch (the fitted Pallas launch).",
        "XLA gathers every sequence's pages into one cache padded to the longest sequence, then runs QK^T, softmax "
        "and PV as three ops through HBM, each at its slowest unit's attainable fraction; the gather is priced as a "
        "copy, though a gather of small pages may run slower.",
    };
    if (s.full_grid)
        p.assumptions.push_back("The grid walks every sequence to the longest one's " + std::to_string(max_blocks) +
                                " blocks; a step past a sequence's end copies and computes nothing but still takes a "
                                "step's least time.");
    if (quantized(s.kv_dtype))
        p.assumptions.push_back(
            "A quantized cache carries one f32 scale per token and KV head, for K and for V, "
            "and is converted and scaled on the VPU (2 operations an element) before the MXU.");
    if (rates.share < 1)
        p.assumptions.push_back("The kernel runs on one of the chip's " + format_fixed(chip.tensorcores.value, 0) +
                                " TensorCores, each its own device, with its share of the chip's peaks.");
    return r;
}

}  // namespace tpusim
