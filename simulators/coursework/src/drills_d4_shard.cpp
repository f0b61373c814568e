// Drill D4, card kind D4.shard: from a mesh and the PartitionSpecs of an
// MLP block, the collective XLA inserts for one array at one moment, the
// bytes it moves and whether the matmul beside it hides it (chapter 9's
// "shard it", priced by layer_sharding.h as EX·14 prices it).
#include "drills_cards.h"

#include <algorithm>

#include "tpusim/collective.h"
#include "tpusim/layer_sharding.h"
#include "tpusim/provenance.h"

namespace coursework::drills::cards {

using namespace tpusim;
namespace {

struct ShardCase {
    std::string chip_id;
    LayerShardingSpec spec;
    std::size_t collective = 0;  // which of the plan's collectives is asked about
};

// The array and the moment, said without naming the collective: what the
// learner must work out is which collective that takes.
std::string moment(const std::string& what) {
    if (what == "all-gather x") return "x, before x @ W_in reads it";
    if (what == "all-gather W_out") return "W_out, before h @ W_out reads it (forward)";
    if (what == "all-gather W_in") return "W_in, before the backward of W_in reads it";
    if (what == "all-gather dy") return "dy, before the backward of W_out reads it";
    if (what == "reduce-scatter y") return "y = h @ W_out, once each device has its partial sums";
    if (what == "reduce-scatter dx") return "dx, once each device has its partial sums from the backward of W_in";
    if (what == "reduce-scatter dW_out" || what == "all-reduce dW_out")
        return "dW_out, summed over the data devices for the weight update";
    return "";
}

// The plan's collectives a card may ask about: one per array and moment
// (the next block's and the block above's repeat this block's).
std::vector<std::size_t> askable(const LayerShardingResult& r) {
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < r.collectives.size(); ++k)
        if (!moment(r.collectives[k].what).empty()) out.push_back(k);
    return out;
}

// Clear cases only: a transfer either hides with room to spare or shows
// plainly, never within a tenth of its matmul.
bool clear(const LayerShardingResult& r, const ShardedCollective& c) {
    if (c.under < 0) return true;
    const ShardedMatmul& m = r.matmuls[static_cast<std::size_t>(c.under)];
    return c.exposed_s > 0.1 * c.time_s || (c.exposed_s <= 0 && c.start_s + c.time_s - m.start_s <= 0.9 * m.time_s);
}

ShardCase shard_case(int level, std::uint64_t seed) {
    Rng rng(mix("D4.shard", level, seed));
    for (;;) {
        ShardCase d;
        const bool cube = level >= 3 && rng.chance(40);
        d.chip_id = level == 1 ? "v5e"
                    : cube     ? rng.pick(std::vector<std::string>{"v4", "v5p"})
                               : rng.pick(std::vector<std::string>{"v5e", "v6e"});
        LayerShardingSpec& s = d.spec;
        if (cube)
            s.mesh = rng.pick(std::vector<std::vector<std::int64_t>>{{4, 4, 4}, {8, 4, 4}, {4, 4, 8}});
        else if (level == 1)
            s.mesh = rng.pick(std::vector<std::vector<std::int64_t>>{{16}, {16, 16}, {8, 8}});
        else
            s.mesh =
                rng.pick(std::vector<std::vector<std::int64_t>>{{16}, {16, 16}, {8, 8}, {16, 8}, {8, 16}, {4, 16}});
        for (std::size_t a = 0; a < s.mesh.size(); ++a)
            s.roles.push_back(s.mesh.size() > 1 && rng.chance(level == 1 && a + 1 < s.mesh.size() ? 0 : 45)
                                  ? AxisRole::model
                                  : AxisRole::data);
        s.data_mode = rng.chance(50) ? DataMode::fsdp : DataMode::dp;
        s.d_model = rng.pick(std::vector<std::int64_t>{4096, 8192});
        s.d_ff = rng.chance(50) ? 4 * s.d_model : 7 * s.d_model / 2;  // chapter 9's block, or Llama 3's ratio
        std::int64_t data = 1;
        for (std::size_t a = 0; a < s.mesh.size(); ++a)
            if (s.roles[a] == AxisRole::data) data *= s.mesh[a];
        s.batch = data * rng.pick(std::vector<std::int64_t>{256, 512, 1024, 2048, 4096, 8192});
        const LayerShardingResult r = shard_mlp_block(chip(d.chip_id), s);
        const std::vector<std::size_t> options = askable(r);
        if (options.empty()) continue;
        d.collective = options[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(options.size()) - 1))];
        if (clear(r, r.collectives[d.collective])) return d;
    }
}

std::string mesh_text(const LayerShardingSpec& s, const LayerShardingResult& r) {
    std::string shape, names;
    for (std::size_t a = 0; a < s.mesh.size(); ++a) {
        shape += (a ? " × " : "") + std::to_string(s.mesh[a]);
        names += (a ? ", '" : "'") + r.axis_names[a] + "'";
    }
    return shape + " chips, axes (" + names + ")";
}

}  // namespace

Question d4_shard(const std::string& kind, int level, std::uint64_t seed) {
    const ShardCase d = shard_case(level, seed);
    const LayerShardingResult r = shard_mlp_block(chip(d.chip_id), d.spec);
    const ShardedCollective& c = r.collectives[d.collective];
    const LayerShardingSpec& s = d.spec;
    Question q;
    q.drill = "D4";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    q.givens = {
        {"chip", chip(d.chip_id).name + " (" + d.chip_id + ")"},
        {"mesh", mesh_text(s, r)},
        {"block", "x[B, D] @ W_in[D, F] → h, h @ W_out[F, D] → y; B = " + count_text(static_cast<double>(s.batch)) +
                      ", D = " + count_text(static_cast<double>(s.d_model)) +
                      ", F = " + count_text(static_cast<double>(s.d_ff)) + ", bf16"},
        {"shardings", "x " + r.x_spec + ", W_in " + r.w_in_spec + ", W_out " + r.w_out_spec},
        {"the array", moment(c.what)}};
    q.prompt =
        "Which collective does XLA insert for this array here, how many bytes is the array it moves (V, all of it), "
        "and does the matmul it can run beside hide it?";
    q.fields = {
        Field{"kind", "collective", FieldType::choice, "", {"all-gather", "reduce-scatter", "all-reduce"}, 0, "", ""},
        Field{"bytes", "V", FieldType::bytes, "B", {}, 0.02, "", ""},
        Field{"hidden", "hidden", FieldType::choice, "", {"yes", "no"}, 0, "", ""}};
    q.expected["kind"] = std::string(collective_name(c.kind));
    q.expected["bytes"] = format_bytes(c.bytes);
    q.expected_value["bytes"] = c.bytes;
    q.expected["hidden"] = c.under >= 0 && c.exposed_s <= 0 ? "yes" : "no";
    return q;
}

std::vector<Step> d4_shard_steps(const Question& q) {
    const ShardCase d = shard_case(q.level, q.seed);
    const LayerShardingResult r = shard_mlp_block(chip(d.chip_id), d.spec);
    const ShardedCollective& c = r.collectives[d.collective];
    std::vector<Step> steps;
    auto ways = [](std::int64_t n, const char* what, const char* axes) {
        return n > 1 ? std::string(what) + " splits " + std::to_string(n) + " ways over the " + axes + " axes"
                     : std::string(what) + " is not split";
    };
    steps.push_back({"The plan is " + r.strategy + ": " + ways(r.data_ways, "the batch", "data") + ", " +
                         ways(r.model_ways, "F", "model") + ".",
                     ""});
    steps.push_back({"So this array needs " + std::string(collective_name(c.kind)) + " over the " +
                         std::string(axis_role_name(c.role)) + " axes.",
                     ""});
    std::string v_words;
    if (c.role == AxisRole::model)
        v_words = r.data_ways > 1
                      ? "V is one data group's activations, B / " + std::to_string(r.data_ways) + " × D × 2 B"
                      : "V is the activations, B × D × 2 B";
    else
        v_words = r.model_ways > 1 ? "V is one weight's model shard, D × F / " + std::to_string(r.model_ways) + " × 2 B"
                                   : "V is one whole weight, D × F × 2 B";
    steps.push_back({v_words, format_bytes(c.bytes)});
    steps.push_back({"Priced hop by hop on the chip's links, it takes", format_time(c.time_s)});
    if (c.under < 0) {
        steps.push_back(
            {"It is on the critical path: the matmul waits for it (unless written as a collective matmul), so "
             "none of it hides.",
             ""});
    } else {
        const ShardedMatmul& m = r.matmuls[static_cast<std::size_t>(c.under)];
        steps.push_back({"It runs beside " + m.name + ", which takes", format_time(m.time_s)});
        steps.push_back({c.exposed_s > 0 ? "Together with the transfers sharing its links, it outlasts the matmul by"
                                         : "It finishes under the matmul; nothing shows.",
                         c.exposed_s > 0 ? format_time(c.exposed_s) : ""});
    }
    if (r.data_threshold_rows > 0)
        steps.push_back({"Rows per device " + std::to_string(r.rows_per_device) +
                             " against what the data axes need to hide their transfers",
                         format_fixed(r.data_threshold_rows, 0) + " rows"});
    return steps;
}

}  // namespace coursework::drills::cards
