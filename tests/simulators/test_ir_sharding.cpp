#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "tpusim/error.h"
#include "tpusim/ir_sharding.h"

using namespace tpusim::ir;

namespace {
std::string corpus(const std::string& name) {
    std::ifstream in(std::string(TPUSIM_IR_CORPUS) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

using Runs = std::vector<std::vector<std::int64_t>>;
}  // namespace

// XLA's own example of an iota tile assignment (tile_assignment.h [XLA-SHARD]):
// [8,8,8]<=[4,2,2]T(1,0,2) is 0,1,4,5,8,9,12,13,2,3,6,7,10,11,14,15.
TEST_CASE("sharding: an iota tile assignment lays out, transposes and reads the devices", "[ir][sharding]") {
    CHECK(iota_devices({4, 2, 2}, {1, 0, 2}) ==
          std::vector<std::int64_t>{0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15});
    CHECK(iota_devices({2, 64}, {1, 0})[1] == 64);
    CHECK(iota_devices({4}, {}) == std::vector<std::int64_t>{0, 1, 2, 3});
    CHECK_THROWS_AS(iota_devices({2, 2}, {0, 0}), tpusim::InputError);
}

TEST_CASE("sharding: HLO's forms, each in words", "[ir][sharding]") {
    // Llama 3.1 70B's layer weights: 64 tiles along the layers, each on two devices 64 apart.
    const ShardingSite s = decode_hlo_sharding("{devices=[64,1,1,1,2]<=[2,64]T(1,0) last_tile_dim_replicate}");
    CHECK(s.decoded);
    CHECK(s.tiles == std::vector<std::int64_t>{64, 1, 1, 1});
    CHECK(s.replicas == 2);
    CHECK(s.devices == 128);
    CHECK(s.first_tiles == Runs{{0, 64}, {1, 65}, {2, 66}});
    CHECK_THAT(s.meaning, Catch::Contains("split 64 ways along dimension 0, 128 devices in all, each tile on 2"));

    const ShardingSite listed = decode_hlo_sharding("{devices=[2,1]1,0}");
    CHECK(listed.tiles == std::vector<std::int64_t>{2, 1});
    CHECK(listed.first_tiles == Runs{{1}, {0}});
    CHECK(decode_hlo_sharding("{replicated}").replicated);
    CHECK(decode_hlo_sharding("{maximal device=3}").maximal_device == 3);
    CHECK(decode_hlo_sharding("{manual}").manual);
    const ShardingSite tuple = decode_hlo_sharding("{{replicated}, /*index=1*/{replicated}, {devices=[2]0,1}}");
    CHECK(tuple.tuple_elements == 3);
    CHECK_THAT(tuple.meaning, Catch::StartsWith("A tuple of 3. Members 0 to 1: Every device holds the whole array. "
                                                "Member 2: Each device holds a tile"));
    CHECK_THROWS_WITH(decode_hlo_sharding("{devices=[2,2]0,1,2}"), Catch::Contains("3 devices are listed for 4 tiles"));
    CHECK_THROWS_AS(decode_hlo_sharding("{devices=[4]<=[3]}"), tpusim::InputError);
}

TEST_CASE("sharding: a real partitioned dump, every attribute read", "[ir][sharding][corpus]") {
    // Before partitioning (no collective yet), the printed type is the whole array.
    const std::vector<ShardingSite> before = find_shardings(corpus("xla_nv_maxtext_before_optimization.hlo"));
    const auto split =
        std::find_if(before.begin(), before.end(), [](const ShardingSite& s) { return !s.tile_dims.empty(); });
    REQUIRE(split != before.end());
    CHECK_FALSE(split->type_is_tile);
    CHECK(split->whole_dims == split->type.dims);
    CHECK(split->tile_dims[0] * split->tiles[0] == split->type.dims[0]);

    const std::vector<ShardingSite> sites = find_shardings(corpus("xla_llama31_70b_bf16_16x8.hlo"));
    REQUIRE(sites.size() == 119);
    std::size_t groups = 0;
    for (const ShardingSite& s : sites) {
        CHECK(s.decoded);
        groups += s.form == ShardingForm::replica_groups;
    }
    CHECK(groups == 75);  // and 44 shardings, as grep counts them
    // %param.10 = f32[128,80,64,128] ... sharding={devices=[64,1,1,1,2]<=[2,64]T(1,0) last_tile_dim_replicate}
    const auto param = std::find_if(sites.begin(), sites.end(), [](const ShardingSite& s) {
        return s.type.dims == std::vector<std::int64_t>{128, 80, 64, 128} && s.replicas == 2;
    });
    REQUIRE(param != sites.end());
    // The dump holds collectives: partitioned, so the printed type is already one tile.
    CHECK(param->type_is_tile);
    CHECK(param->tile_dims == std::vector<std::int64_t>{128, 80, 64, 128});
    CHECK(param->whole_dims == std::vector<std::int64_t>{8192, 80, 64, 128});
    CHECK_THAT(param->meaning, Catch::Contains("the type printed, f32[128,80,64,128], is one device's tile (320 MiB) "
                                               "of a f32[8192,80,64,128] array"));
    // replica_groups=[2,64]<=[128]: two groups of 64, in order.
    const ShardingSite& g =
        *std::find_if(sites.begin(), sites.end(), [](const ShardingSite& s) { return s.text == "[2,64]<=[128]"; });
    CHECK(g.groups == 2);
    CHECK(g.group_size == 64);
    CHECK(g.first_groups[1].front() == 64);
    // replica_groups=[64,2]<=[2,64]T(1,0): pairs of devices 64 apart.
    const ShardingSite& pairs = *std::find_if(sites.begin(), sites.end(),
                                              [](const ShardingSite& s) { return s.text == "[64,2]<=[2,64]T(1,0)"; });
    CHECK(pairs.first_groups == Runs{{0, 64}, {1, 65}, {2, 66}});
}

TEST_CASE("sharding: Shardy's mesh and dimension lists, as chapter 9 prints them", "[ir][sharding]") {
    const std::string text = R"(module @jit_block attributes {mhlo.num_partitions = 256 : i32} {
  sdy.mesh @mesh = <["data"=16, "model"=16]>
  func.func public @main(%arg0: tensor<8192x8192xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<8192x32768xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "model"}, {}]>}) -> (tensor<8192x8192xbf16>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"data"}, {?}]> : tensor<8192x8192xbf16>
    %1 = sdy.sharding_constraint %arg0 <@other, [{"x"}, {}]> : tensor<8192x8192xbf16>
    return %0 : tensor<8192x8192xbf16>
  }
})";
    const std::vector<ShardingSite> sites = find_shardings(text);
    REQUIRE(sites.size() == 4);
    const ShardingSite& model = sites[0];
    CHECK(model.form == ShardingForm::shardy);
    CHECK(model.position.line == 3);
    CHECK(model.mesh == "mesh");
    CHECK(model.tiles == std::vector<std::int64_t>{1, 16});
    CHECK(model.replicas == 16);
    CHECK(model.devices == 256);
    CHECK(model.tile_dims == std::vector<std::int64_t>{8192, 512});
    CHECK_THAT(model.meaning, Catch::Contains("dimension 1 over \"model\""));
    CHECK(sites[1].tiles == std::vector<std::int64_t>{256, 1});
    CHECK(sites[1].replicas == 1);
    CHECK(sites[1].type.dims == std::vector<std::int64_t>{8192, 32768});
    CHECK(sites[2].tiles == std::vector<std::int64_t>{16, 1});
    CHECK(sites[2].dim_axes[1] == std::vector<std::string>{"?"});
    CHECK_THAT(sites[3].meaning, Catch::Contains("@other is not declared in this dump"));
}

TEST_CASE("sharding: GSPMD strings in StableHLO, groups in both IRs, and what cannot be read", "[ir][sharding]") {
    const std::string text =
        R"(func.func @main(%arg0: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}, %arg1: tensor<4xf32> {mhlo.sharding = ""}) {
  %0 = "stablehlo.all_reduce"(%arg0) ({}) {replica_groups = dense<[[0, -1], [1, 2]]> : tensor<2x2xi64>} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %x = f32[8,8]{1,0} all-gather(%y), replica_groups={{0,1},{2,3}}, dimensions={0}, sharding={devices=[2,2]0,1,2}
})";
    const std::vector<ShardingSite> sites = find_shardings(text);
    REQUIRE(sites.size() == 5);
    CHECK(sites[0].form == ShardingForm::gspmd);
    CHECK(sites[0].tile_dims == std::vector<std::int64_t>{8, 8});
    CHECK(sites[1].decoded);
    CHECK_THAT(sites[1].meaning, Catch::StartsWith("Empty"));
    CHECK(sites[2].groups == 2);
    CHECK_THAT(sites[2].meaning, Catch::Contains("-1 pads the shorter ones"));
    CHECK(sites[3].form == ShardingForm::hlo);
    CHECK_FALSE(sites[3].decoded);
    CHECK_THAT(sites[3].meaning, Catch::StartsWith("Not read: 3 devices are listed for 4 tiles"));
    CHECK(sites[4].form == ShardingForm::replica_groups);
    CHECK(sites[4].first_groups == Runs{{0, 1}, {2, 3}});
}
