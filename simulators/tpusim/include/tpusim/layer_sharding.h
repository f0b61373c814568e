#pragma once
// One transformer MLP block, y = act(x @ W_in) @ W_out with x[B, D],
// W_in[D, F] and W_out[F, D], trained on a slice under a sharding: each
// mesh axis carries the batch ("data") or the weights' F dimension
// ("model"), and the data axes keep whole weights (DP) or a shard of them
// (FSDP). From that follow the PartitionSpecs, the collectives XLA inserts
// and their bytes [SB-TRAIN]; each collective is priced by the hop-by-hop
// model of collective.h on the chip's own links, each matmul by the
// roofline, and each collective is set against the matmul it can run under.
//
// The block is one of a stack of identical blocks, in steady state. Its
// four matmuls run in this order, and each carries the transfers the
// schedule can start before it and finish by its end:
//   x @ W_in           FSDP: the gather of W_out
//   h @ W_out          FSDP: the gather of the next block's W_in
//   backward of W_out  FSDP: the gather of W_in, the reduce-scatter of the
//                      block above's dW_in; DP: the block above's dW_in all-reduce
//   backward of W_in   FSDP: the reduce-scatter of dW_out, the gather of the
//                      block below's W_out; DP: the dW_out all-reduce
// The block below and above are the same shapes, so their transfers cost the
// same. TP's collectives (gather x, reduce-scatter y; gather dy,
// reduce-scatter dx) sit on the critical path: the matmul waits for them,
// unless `overlap_tp` asks for chapter 14's collective matmul, which runs
// each under its matmul. Data and model axes use different links, so their
// transfers under one matmul proceed at once; transfers on the same links
// run one after another.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/collective.h"
#include "tpusim/dtype.h"
#include "tpusim/provenance.h"

namespace tpusim {

enum class AxisRole { data, model };
enum class DataMode { dp, fsdp };

std::string_view axis_role_name(AxisRole role);  // "data", "model"
// "data" or "model"; throws InputError otherwise.
AxisRole parse_axis_role(std::string_view text);
std::string_view data_mode_name(DataMode mode);  // "DP", "FSDP"
// "dp" or "fsdp", any case; throws InputError otherwise.
DataMode parse_data_mode(std::string_view text);

struct LayerShardingSpec {
    std::vector<std::int64_t> mesh;  // the slice, axis 0 first: {16, 16}
    std::vector<AxisRole> roles;     // one per mesh axis
    DataMode data_mode = DataMode::fsdp;
    std::int64_t batch = 0;    // B: rows (tokens) of the global batch
    std::int64_t d_model = 0;  // D
    std::int64_t d_ff = 0;     // F
    DType dtype = DType::bf16;
    bool overlap_tp = false;  // TP's collectives as collective matmuls
};

// A matmul of the block on one device.
struct ShardedMatmul {
    std::string name;                  // "x @ W_in", "backward of W_out (dh, dW_out)"
    std::string pass;                  // "forward", "backward"
    std::int64_t m = 0, k = 0, n = 0;  // of the forward matmul it belongs to
    double flops = 0;
    double time_s = 0;
    double start_s = 0;  // on the step's timeline
};

struct ShardedCollective {
    std::string what;  // "all-gather W_in"
    std::string pass;  // "forward", "backward"
    CollectiveKind kind = CollectiveKind::all_gather;
    AxisRole role = AxisRole::data;  // which axes it spans
    std::vector<int> axes;
    double bytes = 0;  // V, the whole array (collective.h)
    double time_s = 0;
    int under = -1;        // the matmul (index into `matmuls`) it runs under; -1: on the critical path
    double exposed_s = 0;  // the part of time_s no matmul covers
    double start_s = 0;    // on the step's timeline
};

struct LayerShardingResult {
    std::string strategy;                        // "FSDP + TP"
    std::vector<std::string> axis_names;         // per mesh axis: "data", "model", or "data0", "data1"...
    std::int64_t data_ways = 1;                  // X: devices the batch is split over
    std::int64_t model_ways = 1;                 // Y: devices F is split over
    std::int64_t rows_per_device = 0;            // B / X
    std::string x_spec, w_in_spec, w_out_spec;   // PartitionSpecs as JAX prints them: P('data', None)
    double weight_bytes_per_device = 0;          // W_in and W_out as held between uses
    double gathered_weight_bytes = 0;            // FSDP: one weight gathered for use; else 0
    std::vector<ShardedMatmul> matmuls;          // the four, in run order
    std::vector<ShardedCollective> collectives;  // in run order
    double compute_s = 0;                        // the matmuls
    double collective_s = 0;                     // every collective, end to end
    double exposed_s = 0;                        // collective time no matmul covers
    double step_s = 0;                           // compute + exposed, one block's forward and backward
    // The rows per device above which the data axes' transfers hide:
    // C / (the data axes' links, both directions where they wrap); 0 without data axes.
    double data_threshold_rows = 0;
    // TP hides (with overlap_tp) when F / Y passes this: C / the model axes' links; 0 without model axes.
    double model_threshold = 0;
    std::string verdict;  // one or two sentences: what binds, and what would change it
    Provenance provenance;
};

// Throws InputError for a mesh the chip cannot form, a role list of another
// length, sizes below 1, or ways that do not divide B, D and F.
LayerShardingResult shard_mlp_block(const Chip& chip, const LayerShardingSpec& spec);

}  // namespace tpusim
