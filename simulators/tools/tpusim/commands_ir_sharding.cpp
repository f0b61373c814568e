// tpusim ir shardings FILE: every sharding and replica_groups of a dump, in words.
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/ir_sharding.h"

namespace tpusim::cli {

namespace {

void write_runs(Json& j, std::string_view key, const std::vector<std::vector<std::int64_t>>& runs) {
    j.key(key).begin_array();
    for (const auto& run : runs) {
        j.begin_array();
        for (std::int64_t d : run) j.value(d);
        j.end_array();
    }
    j.end_array();
}

void write_numbers(Json& j, std::string_view key, const std::vector<std::int64_t>& v) {
    j.key(key).begin_array();
    for (std::int64_t d : v) j.value(d);
    j.end_array();
}

}  // namespace

int ir_shardings(const Args& args) {
    args.allow_only({}, "tpusim ir shardings");
    args.max_words(3, "tpusim ir shardings");
    if (args.words().size() < 3) throw InputError("tpusim ir shardings needs a FILE");
    const std::vector<ir::ShardingSite> sites = ir::find_shardings(read_dump(args.words()[2]));
    if (args.flag("json")) {
        Json j;
        j.begin_array();
        for (const ir::ShardingSite& s : sites) {
            j.begin_object().field("line", s.position.line).field("column", s.position.column);
            j.field("form", ir::sharding_form_name(s.form)).field("text", s.text).field("decoded", s.decoded);
            if (s.form == ir::ShardingForm::replica_groups) {
                j.field("groups", s.groups).field("group_size", s.group_size);
                write_runs(j, "first_groups", s.first_groups);
            } else {
                j.field("replicated", s.replicated).field("manual", s.manual).field("maximal_device", s.maximal_device);
                write_numbers(j, "tiles", s.tiles);
                j.field("replicas", s.replicas).field("devices", s.devices);
                write_runs(j, "first_tiles", s.first_tiles);
                j.field("type", s.type.element.empty() ? std::string() : ir::type_text(s.type));
                write_numbers(j, "tile_dims", s.tile_dims);
            }
            j.field("meaning", s.meaning).end_object();
        }
        j.end_array();
        std::cout << j.str() << "\n";
        return 0;
    }
    if (sites.empty()) {
        std::cout << "no sharding or replica_groups attributes in " << args.words()[2] << "\n";
        return 0;
    }
    Table t({"line", "attribute", "meaning"}, {true, false, false});
    for (const ir::ShardingSite& s : sites)
        t.add({std::to_string(s.position.line), std::string(ir::sharding_form_name(s.form)), s.meaning});
    t.print(std::cout);
    return 0;
}

}  // namespace tpusim::cli
