#include <catch2/catch.hpp>

#include "tpusim/chips.h"
#include "tpusim/collective.h"
#include "tpusim/error.h"
#include "tpusim/layer_sharding.h"
#include "tpusim/mesh.h"
#include "tpusim/roofline.h"

using namespace tpusim;

namespace {
// Chapter 9's block: D = 8192, F = 32768, bf16, so each weight is 512 MiB.
LayerShardingSpec block(std::vector<std::int64_t> mesh, std::vector<AxisRole> roles, DataMode mode,
                        std::int64_t batch) {
    LayerShardingSpec s;
    s.mesh = std::move(mesh);
    s.roles = std::move(roles);
    s.data_mode = mode;
    s.batch = batch;
    s.d_model = 8192;
    s.d_ff = 32768;
    return s;
}

double matmul_time(const Chip& chip, std::int64_t m, std::int64_t k, std::int64_t n) {
    MatmulSpec s;
    s.m = m, s.k = k, s.n = n;
    return roofline_time(chip, matmul_cost(s));
}

double collective_time(const Chip& chip, std::vector<std::int64_t> mesh, CollectiveKind kind, std::vector<int> axes,
                       double bytes) {
    CollectiveSpec s;
    s.kind = kind, s.axes = std::move(axes), s.bytes = bytes;
    return collective(make_mesh(chip, mesh), s).time_s;
}

constexpr double weight = 8192.0 * 32768 * 2;  // one weight, bf16
constexpr auto data = AxisRole::data;
constexpr auto model = AxisRole::model;
}  // namespace

TEST_CASE("layer sharding: FSDP's six transfers, hidden at 4,096 rows on a v5e ring", "[sharding]") {
    const Chip& v5e = chip("v5e");
    const LayerShardingResult r = shard_mlp_block(v5e, block({16}, {data}, DataMode::fsdp, 65536));
    CHECK(r.strategy == "FSDP");
    CHECK(r.x_spec == "P(\"data\", None)");
    CHECK(r.w_in_spec == "P(\"data\", None)");
    CHECK(r.w_out_spec == "P(None, \"data\")");
    CHECK(r.rows_per_device == 4096);
    CHECK(r.weight_bytes_per_device == Approx(2 * weight / 16));
    CHECK(r.gathered_weight_bytes == Approx(weight));
    REQUIRE(r.collectives.size() == 6);
    int gathers = 0, scatters = 0;
    const double gather = collective_time(v5e, {16}, CollectiveKind::all_gather, {0}, weight);
    for (const ShardedCollective& c : r.collectives) {
        CHECK(c.bytes == Approx(weight));
        CHECK(c.under >= 0);
        gathers += c.kind == CollectiveKind::all_gather;
        scatters += c.kind == CollectiveKind::reduce_scatter;
        if (c.kind == CollectiveKind::all_gather) CHECK(c.time_s == Approx(gather));
    }
    CHECK(gathers == 4);
    CHECK(scatters == 2);
    REQUIRE(r.matmuls.size() == 4);
    CHECK(r.matmuls[0].time_s == Approx(matmul_time(v5e, 4096, 8192, 32768)));
    CHECK(r.matmuls[2].time_s == Approx(2 * matmul_time(v5e, 4096, 8192, 32768)));  // dx and dW
    CHECK(r.exposed_s == 0);
    CHECK(r.step_s == Approx(r.compute_s));
    CHECK(r.verdict.rfind("Compute-bound", 0) == 0);
    // C / W_ici: 1.97e14 FLOP/s over two directions of a 45 GB/s link, about 2,200 rows [SB-TRAIN].
    CHECK(r.data_threshold_rows == Approx(1.97e14 / 9e10).epsilon(0.01));
}

TEST_CASE("layer sharding: below the threshold, FSDP's gathers show past their matmuls", "[sharding]") {
    const Chip& v5e = chip("v5e");
    const LayerShardingResult r = shard_mlp_block(v5e, block({16}, {data}, DataMode::fsdp, 16384));
    const double mm = matmul_time(v5e, 1024, 8192, 32768);
    const double gather = collective_time(v5e, {16}, CollectiveKind::all_gather, {0}, weight);
    const double scatter = collective_time(v5e, {16}, CollectiveKind::reduce_scatter, {0}, weight);
    REQUIRE(gather > mm);
    // Forward: one gather under each matmul; backward: a gather and a
    // reduce-scatter under each pair of backward matmuls.
    const double expected = 2 * (gather - mm) + 2 * std::max(0.0, gather + scatter - 2 * mm);
    CHECK(r.exposed_s == Approx(expected));
    CHECK(r.step_s == Approx(r.compute_s + expected));
    // The second matmul waits for the gather under the first.
    CHECK(r.matmuls[1].start_s == Approx(gather));
    CHECK(r.matmuls[3].start_s + std::max(r.matmuls[3].time_s, gather + scatter) == Approx(r.step_s));
    CHECK(r.verdict.find("2,189 rows per device; this has 1,024") != std::string::npos);
    // Over both axes of a 16 x 16 pod the links double, and so does what a gather can hide behind.
    const LayerShardingResult both = shard_mlp_block(v5e, block({16, 16}, {data, data}, DataMode::fsdp, 262144));
    CHECK(both.data_threshold_rows == Approx(r.data_threshold_rows / 2));
    CHECK(both.w_in_spec == "P((\"data0\", \"data1\"), None)");
    CHECK(both.axis_names == std::vector<std::string>{"data0", "data1"});
}

TEST_CASE("layer sharding: DP all-reduces whole gradients in the backward only", "[sharding]") {
    const Chip& v5e = chip("v5e");
    const LayerShardingResult r = shard_mlp_block(v5e, block({16}, {data}, DataMode::dp, 65536));
    CHECK(r.w_in_spec == "P()");
    CHECK(r.weight_bytes_per_device == Approx(2 * weight));
    CHECK(r.gathered_weight_bytes == 0);
    REQUIRE(r.collectives.size() == 2);
    for (const ShardedCollective& c : r.collectives) {
        CHECK(c.kind == CollectiveKind::all_reduce);
        CHECK(c.pass == "backward");
        CHECK(c.time_s == Approx(collective_time(v5e, {16}, CollectiveKind::all_reduce, {0}, weight)));
    }
    CHECK(r.exposed_s == 0);
}

TEST_CASE("layer sharding: TP waits for its collectives unless they run as collective matmuls", "[sharding]") {
    const Chip& v5e = chip("v5e");
    const LayerShardingResult tp = shard_mlp_block(v5e, block({16}, {model}, DataMode::fsdp, 8192));
    CHECK(tp.strategy == "TP");
    CHECK(tp.x_spec == "P(None, \"model\")");
    CHECK(tp.w_in_spec == "P(None, \"model\")");
    CHECK(tp.w_out_spec == "P(\"model\", None)");
    REQUIRE(tp.collectives.size() == 4);
    double waits = 0;
    for (const ShardedCollective& c : tp.collectives) {
        CHECK(c.under == -1);
        CHECK(c.bytes == Approx(8192.0 * 8192 * 2));  // 2BD: the activations
        waits += c.time_s;
    }
    CHECK(tp.exposed_s == Approx(waits));
    // The timeline: gather x, two matmuls, reduce-scatter y, gather dy, two matmuls, reduce-scatter dx.
    CHECK(tp.collectives[0].start_s == 0);
    CHECK(tp.matmuls[0].start_s == Approx(tp.collectives[0].time_s));
    CHECK(tp.collectives[3].start_s + tp.collectives[3].time_s == Approx(tp.step_s));
    CHECK(tp.matmuls[3].start_s == Approx(tp.step_s - tp.collectives[3].time_s - tp.matmuls[3].time_s));
    CHECK(tp.verdict.find("critical path") != std::string::npos);

    // On a 16 x 16 pod with DP on the other axis: F / 16 = 2,048 falls just
    // short of v5e's 2,189, so even overlapped a sliver shows; F / 8 = 4,096 hides.
    LayerShardingSpec sixteen = block({16, 16}, {data, model}, DataMode::dp, 65536);
    sixteen.overlap_tp = true;
    const LayerShardingResult near = shard_mlp_block(v5e, sixteen);
    CHECK(near.exposed_s > 0);
    CHECK(near.exposed_s < 0.01 * near.step_s);
    LayerShardingSpec eight = block({16, 8}, {data, model}, DataMode::dp, 65536);
    eight.overlap_tp = true;
    const LayerShardingResult hides = shard_mlp_block(v5e, eight);
    CHECK(hides.strategy == "DP + TP");
    CHECK(hides.exposed_s == 0);
    CHECK(hides.x_spec == "P(\"data\", \"model\")");
}

TEST_CASE("layer sharding: bad shardings are refused in one sentence", "[sharding]") {
    const Chip& v5e = chip("v5e");
    CHECK_THROWS_AS(shard_mlp_block(v5e, block({16, 16}, {data}, DataMode::fsdp, 65536)), InputError);
    CHECK_THROWS_WITH(shard_mlp_block(v5e, block({16}, {data}, DataMode::fsdp, 1000)),
                      Catch::Contains("does not split evenly over the 16 data devices"));
    LayerShardingSpec odd = block({16}, {model}, DataMode::fsdp, 64);
    odd.d_ff = 1000;
    CHECK_THROWS_WITH(shard_mlp_block(v5e, odd), Catch::Contains("must divide both d_ff"));
    CHECK_THROWS_AS(shard_mlp_block(v5e, block({32, 32}, {data, model}, DataMode::fsdp, 1024)), InputError);
    CHECK_THROWS_AS(parse_axis_role("batch"), InputError);
    CHECK(parse_data_mode("FSDP") == DataMode::fsdp);
}
