// The live-number kind of chapter 9's sharded block: {{shard_layer ...}}.
#include "livenumbers_detail.h"

#include <sstream>

#include <tpusim/layer_sharding.h>

namespace course::live::detail {

Value resolveShardLayer(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"mesh", "roles", "mode", "batch", "d_model", "d_ff", "dtype", "overlap_tp"});
    tpusim::LayerShardingSpec s;
    s.mesh = a.shape("mesh");
    std::stringstream roles(a.text("roles", s.mesh.size() == 1 ? "data" : "data,model"));
    for (std::string role; std::getline(roles, role, ',');)
        s.roles.push_back(named([&] { return tpusim::parse_axis_role(role); }));
    s.data_mode = named([&] { return tpusim::parse_data_mode(a.text("mode", "fsdp")); });
    s.batch = a.integer("batch");
    s.d_model = a.integer("d_model");
    s.d_ff = a.integer("d_ff");
    s.dtype = a.dtype();
    const std::string overlap = a.text("overlap_tp", "0");
    if (overlap != "0" && overlap != "1")
        throw PlaceholderError("\"overlap_tp=" + overlap + "\" must be 0 or 1.");
    s.overlap_tp = overlap == "1";
    const tpusim::LayerShardingResult r = named([&] { return tpusim::shard_mlp_block(chip, s); });
    const tpusim::Provenance &prov = r.provenance;
    const double share = r.step_s > 0 ? r.exposed_s / r.step_s : 0;
    const std::string &f = p.field;
    if (f == "step")
        return numbered(tpusim::format_time(r.step_s), r.step_s, prov);
    if (f == "compute")
        return numbered(tpusim::format_time(r.compute_s), r.compute_s, prov);
    if (f == "exposed")
        return numbered(tpusim::format_time(r.exposed_s), r.exposed_s, prov);
    if (f == "exposed_share")
        return numbered(percent(share), share, prov);
    if (f == "rows_per_device")
        return numbered(std::to_string(r.rows_per_device), static_cast<double>(r.rows_per_device), prov);
    if (f == "data_threshold")
        return numbered(tpusim::format_fixed(r.data_threshold_rows, 0) + " rows", r.data_threshold_rows, prov);
    if (f == "weight_bytes")
        return numbered(tpusim::format_bytes(r.weight_bytes_per_device), r.weight_bytes_per_device, prov);
    if (f == "collectives")
        return numbered(std::to_string(r.collectives.size()), static_cast<double>(r.collectives.size()), prov);
    if (f == "strategy")
        return answer(r.strategy, prov);
    unknownField(p,
                 "step, compute, exposed, exposed_share, rows_per_device, data_threshold, weight_bytes, "
                 "collectives, strategy");
}

} // namespace course::live::detail
