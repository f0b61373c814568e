#pragma once
// How a dump says an array is spread over devices, read out in words. Three
// spellings of a sharding and one of device groups:
//   HLO          sharding={devices=[64,1,2]<=[2,64]T(1,0) last_tile_dim_replicate}
//   GSPMD        mhlo.sharding = "{devices=[2,1]0,1}"   (StableHLO, the same text quoted)
//   Shardy       #sdy.sharding<@mesh, [{"data"}, {}]>  with  sdy.mesh @mesh = <["data"=16, "model"=16]>
//   groups       replica_groups=[2,64]<=[128], replica_groups={{0,1},{2,3}},
//                replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
// A tile assignment `<=[dims]T(perm)` is the iota 0..n-1 laid out as dims,
// transposed by perm and read in row-major order [XLA-SHARD]; a Shardy
// dimension is split over the product of its axes' sizes [SDY-JAX].
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/ir.h"

namespace tpusim::ir {

enum class ShardingForm { hlo, gspmd, shardy, replica_groups };
std::string_view sharding_form_name(
    ShardingForm form);  // "sharding", "mhlo.sharding", "sdy.sharding", "replica_groups"

// One sharding or device grouping found in a dump.
struct ShardingSite {
    ShardingForm form = ShardingForm::hlo;
    Position position;     // of the attribute's first character
    std::string text;      // the attribute's value as printed
    bool decoded = false;  // false: `meaning` says what could not be read
    // A sharding of an array.
    bool replicated = false;                             // every device holds all of it
    bool manual = false;                                 // inside shard_map: each device's own value
    std::int64_t maximal_device = -1;                    // only this device holds it
    std::vector<std::int64_t> tiles;                     // ways each dimension is split
    std::int64_t replicas = 1;                           // devices holding each tile
    std::int64_t devices = 0;                            // tiles x replicas; 0 when not known
    std::vector<std::vector<std::string>> dim_axes;      // Shardy: the mesh axes of each dimension
    std::string mesh;                                    // Shardy: the mesh's name
    std::vector<std::vector<std::int64_t>> first_tiles;  // the devices of tiles 0, 1, 2 (when listed)
    std::int64_t tuple_elements = 0;                     // a tuple's sharding: how many members
    // Device groups of a collective.
    std::int64_t groups = 0;
    std::int64_t group_size = 0;
    std::vector<std::vector<std::int64_t>> first_groups;  // groups 0, 1, 2
    // The array it applies to, when the line prints its type, and one tile of it.
    // An HLO dump that already holds collectives has been partitioned: the
    // type it prints is one device's tile, not the whole array.
    TensorType type;
    bool type_is_tile = false;
    std::vector<std::int64_t> tile_dims;   // one device's tile
    std::vector<std::int64_t> whole_dims;  // the whole array
    std::string meaning;                   // one to three sentences
};

// Every sharding and replica_groups attribute of a dump, in text order.
// Never throws for a malformed attribute: it is listed undecoded, with why.
// StableHLO's types are the whole arrays (JAX lowers before partitioning);
// an HLO dump's are one tile once it holds a collective op.
std::vector<ShardingSite> find_shardings(std::string_view text);

// One HLO sharding, "{...}" included; throws InputError naming what is wrong.
ShardingSite decode_hlo_sharding(std::string_view text);
// The devices of an iota tile assignment: 0..n-1 laid out as `dims`,
// transposed by `perm` (empty: no transpose), in row-major order.
// Throws InputError for a bad permutation or more than 2^20 devices.
std::vector<std::int64_t> iota_devices(const std::vector<std::int64_t>& dims, const std::vector<std::int64_t>& perm);

}  // namespace tpusim::ir
