// tpusim shard-layer
#include <iostream>
#include <sstream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/layer_sharding.h"

namespace tpusim::cli {

namespace {

std::vector<AxisRole> parse_roles(const std::string& text) {
    std::vector<AxisRole> roles;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) roles.push_back(parse_axis_role(part));
    return roles;
}

std::string hidden_text(const ShardedCollective& c, const LayerShardingResult& r) {
    if (c.under < 0) return "no: on the critical path";
    const std::string under = "under " + r.matmuls[static_cast<std::size_t>(c.under)].name;
    if (c.exposed_s <= 0) return "yes, " + under;
    return format_time(c.exposed_s) + " exposed, " + under;
}

}  // namespace

int cmd_shard_layer(const Args& args) {
    args.max_words(1, "tpusim shard-layer");
    args.allow_only({"chip", "mesh", "roles", "mode", "batch", "d-model", "d-ff", "dtype", "overlap-tp"},
                    "tpusim shard-layer");
    LayerShardingSpec s;
    s.mesh = args.shape("mesh");
    s.roles = parse_roles(args.text("roles", s.mesh.size() == 1 ? "data" : "data,model"));
    s.data_mode = parse_data_mode(args.text("mode", "fsdp"));
    s.batch = args.positive("batch");
    s.d_model = args.positive("d-model");
    s.d_ff = args.positive("d-ff");
    s.dtype = args.dtype("dtype", DType::bf16);
    s.overlap_tp = args.flag("overlap-tp");
    const LayerShardingResult r = shard_mlp_block(args.chip(), s);

    if (args.flag("json")) {
        Json j;
        j.begin_object();
        j.field("strategy", r.strategy).key("axis_names").strings(r.axis_names);
        j.field("data_ways", r.data_ways).field("model_ways", r.model_ways).field("rows_per_device", r.rows_per_device);
        j.field("x_spec", r.x_spec).field("w_in_spec", r.w_in_spec).field("w_out_spec", r.w_out_spec);
        j.field("weight_bytes_per_device", r.weight_bytes_per_device)
            .field("gathered_weight_bytes", r.gathered_weight_bytes);
        j.key("matmuls").begin_array();
        for (const ShardedMatmul& m : r.matmuls) {
            j.begin_object()
                .field("name", m.name)
                .field("pass", m.pass)
                .field("m", m.m)
                .field("k", m.k)
                .field("n", m.n);
            j.field("flops", m.flops).field("time_s", m.time_s).end_object();
        }
        j.end_array().key("collectives").begin_array();
        for (const ShardedCollective& c : r.collectives) {
            j.begin_object().field("what", c.what).field("pass", c.pass).field("kind", collective_name(c.kind));
            j.field("role", axis_role_name(c.role)).field("bytes", c.bytes).field("time_s", c.time_s);
            j.key("under");
            if (c.under < 0)
                j.null();
            else
                j.value(r.matmuls[static_cast<std::size_t>(c.under)].name);
            j.field("exposed_s", c.exposed_s).end_object();
        }
        j.end_array();
        j.field("compute_s", r.compute_s).field("collective_s", r.collective_s).field("exposed_s", r.exposed_s);
        j.field("step_s", r.step_s).field("data_threshold_rows", r.data_threshold_rows);
        j.field("model_threshold", r.model_threshold).field("verdict", r.verdict);
        return print_with_provenance(j, r.provenance);
    }

    std::string axes;
    for (std::size_t i = 0; i < r.axis_names.size(); ++i)
        axes += (i ? ", " : "") + r.axis_names[i] + "=" + std::to_string(s.mesh[i]);
    print_pairs(std::cout, {{"strategy", r.strategy + " on mesh axes " + axes},
                            {"x, W_in, W_out", r.x_spec + ", " + r.w_in_spec + ", " + r.w_out_spec},
                            {"rows per device", std::to_string(r.rows_per_device)},
                            {"weights per device", format_bytes(r.weight_bytes_per_device)},
                            {"step (one block)", format_time(r.step_s) + " = " + format_time(r.compute_s) +
                                                     " of matmuls + " + format_time(r.exposed_s) + " exposed"}});
    std::cout << "\n";
    Table matmuls({"matmul", "pass", "time"}, {false, false, true});
    for (const ShardedMatmul& m : r.matmuls) matmuls.add({m.name, m.pass, format_time(m.time_s)});
    matmuls.print(std::cout);
    std::cout << "\n";
    if (!r.collectives.empty()) {
        Table cs({"collective", "axes", "V", "time", "hidden"}, {false, false, true, true, false});
        for (const ShardedCollective& c : r.collectives)
            cs.add({c.what, std::string(axis_role_name(c.role)), format_bytes(c.bytes), format_time(c.time_s),
                    hidden_text(c, r)});
        cs.print(std::cout);
        std::cout << "\n";
    }
    std::cout << r.verdict << "\n\n";
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
