// One sharding or device grouping, read out of its attribute's text: the
// HLO forms, Shardy's dimension lists against their mesh, and
// replica_groups in each spelling.
#include <algorithm>
#include <numeric>
#include <string>

#include "ir_sharding_detail.h"
#include "tpusim/error.h"

namespace tpusim::ir {

std::string_view sharding_form_name(ShardingForm form) {
    switch (form) {
        case ShardingForm::hlo:
            return "sharding";
        case ShardingForm::gspmd:
            return "mhlo.sharding";
        case ShardingForm::shardy:
            return "sdy.sharding";
        case ShardingForm::replica_groups:
            return "replica_groups";
    }
    return "";
}

namespace detail {

std::string join(const std::vector<std::int64_t>& v, const char* sep) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::to_string(v[i]);
    return out;
}

}  // namespace detail

namespace {

using detail::join;
using detail::Reader;

constexpr std::int64_t max_devices = 1 << 20;
constexpr std::size_t listed = 3;  // tiles and groups spelled out

std::int64_t product(const std::vector<std::int64_t>& v) {
    std::int64_t p = 1;
    for (std::int64_t x : v) {
        if (x < 1 || p > max_devices / std::max<std::int64_t>(x, 1)) throw InputError("too many devices to list");
        p *= x;
    }
    return p;
}

// "{0, 64}, {1, 65}, {2, 66}, …" for the first groups of a list.
std::string groups_text(const std::vector<std::vector<std::int64_t>>& groups, std::int64_t total) {
    std::string out;
    for (const auto& g : groups) {
        std::string inner;
        if (g.size() > 6)
            inner = join({g.begin(), g.begin() + 3}) + ", …, " + std::to_string(g.back());
        else
            inner = join(g);
        out += (out.empty() ? "{" : ", {") + inner + "}";
    }
    return out + (total > static_cast<std::int64_t>(groups.size()) ? " and so on" : "");
}

// The devices in order, cut into consecutive runs of `size`: tiles or groups.
std::vector<std::vector<std::int64_t>> first_runs(const std::vector<std::int64_t>& devices, std::int64_t size) {
    std::vector<std::vector<std::int64_t>> out;
    for (std::size_t k = 0; k < listed && (k + 1) * static_cast<std::size_t>(size) <= devices.size(); ++k)
        out.emplace_back(devices.begin() + static_cast<std::ptrdiff_t>(k * static_cast<std::size_t>(size)),
                         devices.begin() + static_cast<std::ptrdiff_t>((k + 1) * static_cast<std::size_t>(size)));
    return out;
}

// "[2,64]<=[128]" or "[64,2]<=[2,64]T(1,0)" after its dims: the devices in order.
std::vector<std::int64_t> iota_after(Reader& r, std::int64_t count) {
    const std::vector<std::int64_t> reshape = r.list('[', ']');
    std::vector<std::int64_t> perm;
    if (r.eat("T")) perm = r.list('(', ')');
    std::vector<std::int64_t> devices = iota_devices(reshape, perm);
    if (static_cast<std::int64_t>(devices.size()) != count)
        r.fail("the iota holds " + std::to_string(devices.size()) + " devices, the tiles need " +
               std::to_string(count));
    return devices;
}

// Tiles per dimension into words: "split 64 ways along dimension 0".
std::string split_words(const std::vector<std::int64_t>& tiles) {
    std::string out;
    int split = 0;
    for (std::size_t d = 0; d < tiles.size(); ++d) {
        if (tiles[d] == 1) continue;
        out += (split++ ? " and " : "") + std::to_string(tiles[d]) + " ways along dimension " + std::to_string(d);
    }
    return split ? "split " + out : "not split";
}

void describe_tiles(ShardingSite& s) {
    std::string m =
        "Each device holds a tile: " + split_words(s.tiles) + ", " + std::to_string(s.devices) + " devices in all";
    if (s.replicas > 1) m += ", each tile on " + std::to_string(s.replicas) + " of them (copies, not splits)";
    m += ".";
    if (!s.first_tiles.empty())
        m += " Tiles 0, 1, 2 sit on devices " + groups_text(s.first_tiles, s.devices / s.replicas) + ".";
    s.meaning = m;
}

ShardingSite decode_one(Reader& r) {
    ShardingSite s;
    s.form = ShardingForm::hlo;
    if (r.eat("replicated")) {
        s.replicated = true;
        s.meaning = "Every device holds the whole array.";
    } else if (r.eat("manual")) {
        s.manual = true;
        s.meaning = "Manual: inside shard_map, each device's value is its own and XLA does not split it.";
    } else if (r.eat("maximal")) {
        r.expect("device");
        r.expect("=");
        s.maximal_device = r.integer();
        s.meaning = "Only device " + std::to_string(s.maximal_device) + " holds it.";
    } else if (r.eat("devices")) {
        r.expect("=");
        std::vector<std::int64_t> dims = r.list('[', ']');
        const std::int64_t count = product(dims);
        std::vector<std::int64_t> devices;
        if (r.eat("<=")) {
            devices = iota_after(r, count);
        } else {
            do devices.push_back(r.integer());
            while (r.eat(","));
            if (static_cast<std::int64_t>(devices.size()) != count)
                r.fail(std::to_string(devices.size()) + " devices are listed for " + std::to_string(count) + " tiles");
        }
        const bool replicate_last = r.eat("last_tile_dim_replicate");
        std::vector<std::string> subgroups;
        if (r.eat("last_tile_dims")) {  // {replicated}, {manual}, ...: the trailing dims are not array dims
            r.expect("=");
            r.expect("{");
            while (!r.eat("}")) {
                if (r.eat("replicated"))
                    subgroups.push_back("replicated");
                else if (r.eat("manual"))
                    subgroups.push_back("manual");
                else if (r.eat("unreduced"))
                    subgroups.push_back("unreduced");
                else
                    r.fail("expected replicated, manual or unreduced");
                r.eat(",");
            }
        }
        const std::size_t extra = replicate_last ? 1 : subgroups.size();
        if (extra >= dims.size()) r.fail("no dimensions are left for the array");
        s.replicas = 1;
        for (std::size_t k = dims.size() - extra; k < dims.size(); ++k) s.replicas *= dims[k];
        s.tiles.assign(dims.begin(), dims.end() - static_cast<std::ptrdiff_t>(extra));
        s.devices = count;
        s.first_tiles = first_runs(devices, s.replicas);
        describe_tiles(s);
    } else {
        r.fail("expected replicated, maximal, manual or devices=");
    }
    s.decoded = true;
    return s;
}

// Shardy's mesh declarations: "sdy.mesh @mesh = <["data"=16, "model"=16]>".

}  // namespace

namespace detail {

void read_mesh(std::string_view line, Meshes& meshes) {
    const std::size_t at = line.find("sdy.mesh @");
    if (at == std::string_view::npos) return;
    const std::size_t name_end = line.find_first_of(" =", at + 10);
    if (name_end == std::string_view::npos) return;
    const std::string name(line.substr(at + 10, name_end - at - 10));
    const std::size_t open = line.find("<[", name_end);
    if (open == std::string_view::npos) return;
    try {
        Reader r(line.substr(open + 2));
        std::vector<std::pair<std::string, std::int64_t>> axes;
        if (!r.eat("]")) {
            do {
                std::string axis = r.quoted();
                r.expect("=");
                axes.emplace_back(std::move(axis), r.integer());
            } while (r.eat(","));
        }
        meshes[name] = std::move(axes);
    } catch (const InputError&) {  // a mesh written some other way: its shardings say the mesh is unknown
    }
}

// "<@mesh, [{"data"}, {}], replicated={"x"}>" from its '@'.
ShardingSite decode_shardy(std::string_view text, const Meshes& meshes) {
    ShardingSite s;
    s.form = ShardingForm::shardy;
    Reader r(text);
    r.expect("@");
    std::size_t comma = text.find(',');
    if (comma == std::string_view::npos) r.fail("expected the mesh's name, then ','");
    s.mesh = std::string(text.substr(1, comma - 1));
    Reader dims(text.substr(comma + 1));
    dims.expect("[");
    if (!dims.eat("]")) {
        do {
            dims.expect("{");
            std::vector<std::string> axes;
            while (!dims.eat("}")) {
                if (dims.eat("?")) {
                    axes.push_back("?");
                } else {
                    std::string axis = dims.quoted();
                    if (dims.eat(":")) {  // a sub-axis: "x":(pre)size
                        const std::vector<std::int64_t> pre = dims.list('(', ')');
                        axis += ":(" + join(pre) + ")" + std::to_string(dims.integer());
                    }
                    axes.push_back(std::move(axis));
                }
                dims.eat(",");
            }
            dims.eat("?");  // an open dimension, "{...}?"
            s.dim_axes.push_back(std::move(axes));
        } while (dims.eat(","));
        dims.expect("]");
    }
    const auto mesh = meshes.find(s.mesh);
    std::string m;
    for (std::size_t d = 0; d < s.dim_axes.size(); ++d) {
        std::string names;
        for (const std::string& a : s.dim_axes[d])
            if (a != "?") names += (names.empty() ? "\"" : ", \"") + a + "\"";
        if (!names.empty())
            m += (m.empty() ? "" : "; ") + std::string("dimension ") + std::to_string(d) + " over " + names;
    }
    if (mesh == meshes.end()) {
        s.meaning = (m.empty() ? std::string("Not split") : "Split: " + m) + ". The mesh @" + s.mesh +
                    " is not declared in this dump, so the ways are not known.";
        s.decoded = true;
        return s;
    }
    auto size_of = [&](const std::string& axis) -> std::int64_t {
        if (const std::size_t colon = axis.find(":("); colon != std::string::npos)
            return std::stoll(axis.substr(axis.find(')', colon) + 1));
        for (const auto& [name, size] : mesh->second)
            if (name == axis) {
                if (size < 1) r.fail("axis \"" + axis + "\" of @" + s.mesh + " has no devices");
                return size;
            }
        r.fail("axis \"" + axis + "\" is not an axis of @" + s.mesh);
    };
    s.devices = 1;
    for (const auto& axis : mesh->second) s.devices *= axis.second;
    std::int64_t split = 1;
    for (const auto& axes : s.dim_axes) {
        std::int64_t ways = 1;
        for (const std::string& a : axes)
            if (a != "?") ways *= size_of(a);
        s.tiles.push_back(ways);
        split *= ways;
    }
    s.replicas = split > 0 ? s.devices / split : 1;
    s.replicated = split == 1;
    if (s.replicated)
        s.meaning = "Every device of @" + s.mesh + " (" + std::to_string(s.devices) + ") holds the whole array.";
    else {
        describe_tiles(s);
        s.meaning += " " + m + ".";
    }
    s.decoded = true;
    return s;
}

// "replica_groups=[2,64]<=[128]", "replica_groups={{0,1},{2,3}}",
// "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>".
ShardingSite decode_groups(std::string_view text) {
    ShardingSite s;
    s.form = ShardingForm::replica_groups;
    Reader r(text);
    std::vector<std::vector<std::int64_t>> groups;
    if (r.peek() == '[') {
        const std::vector<std::int64_t> dims = r.list('[', ']');
        if (dims.size() != 2) r.fail("expected [groups,size]");
        r.expect("<=");
        const std::vector<std::int64_t> devices = iota_after(r, product(dims));
        s.groups = dims[0];
        s.group_size = dims[1];
        s.first_groups = first_runs(devices, s.group_size);
    } else {
        const bool dense = r.eat("dense<");
        const char open = dense ? '[' : '{', close = dense ? ']' : '}';
        r.expect(std::string_view(&open, 1));
        // StableHLO pads groups of unequal size with -1.
        bool padded = false;
        while (r.peek() == open) {
            std::vector<std::int64_t> group = r.list(open, close, dense);
            const auto real = std::remove_if(group.begin(), group.end(), [](std::int64_t d) { return d < 0; });
            padded = padded || real != group.end();
            group.erase(real, group.end());
            groups.push_back(std::move(group));
            r.eat(",");
        }
        r.expect(std::string_view(&close, 1));
        s.groups = static_cast<std::int64_t>(groups.size());
        for (const auto& g : groups) s.group_size = std::max(s.group_size, static_cast<std::int64_t>(g.size()));
        if (padded) {
            std::int64_t devices = 0;
            for (const auto& g : groups) devices += static_cast<std::int64_t>(g.size());
            s.decoded = true;
            s.devices = devices;
            groups.resize(std::min(groups.size(), listed));
            s.first_groups = groups;
            s.meaning = std::to_string(s.groups) + " groups of up to " + std::to_string(s.group_size) +
                        " devices (-1 pads the shorter ones), " + std::to_string(devices) +
                        " devices in all: " + groups_text(s.first_groups, s.groups) + ".";
            return s;
        }
        groups.resize(std::min(groups.size(), listed));
        s.first_groups = groups;
    }
    s.decoded = true;
    if (s.groups == 0) {
        s.meaning = "One group of every device.";
        return s;
    }
    s.devices = s.groups * s.group_size;
    s.meaning = std::to_string(s.groups) + " group" + (s.groups == 1 ? "" : "s") + " of " +
                std::to_string(s.group_size) +
                " devices, each running the collective among its own: " + groups_text(s.first_groups, s.groups) + ".";
    return s;
}

}  // namespace detail

std::vector<std::int64_t> iota_devices(const std::vector<std::int64_t>& dims, const std::vector<std::int64_t>& perm) {
    const std::int64_t n = product(dims);
    if (perm.empty()) {
        std::vector<std::int64_t> out(static_cast<std::size_t>(n));
        std::iota(out.begin(), out.end(), 0);
        return out;
    }
    std::vector<std::int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k)
        if (sorted[k] != static_cast<std::int64_t>(k) || perm.size() != dims.size())
            throw InputError("T(" + join(perm, ",") + ") is not a permutation of the " + std::to_string(dims.size()) +
                             " dimensions");
    // Strides of the untransposed array, read in the transposed order.
    std::vector<std::int64_t> stride(dims.size(), 1);
    for (std::size_t d = dims.size() - 1; d-- > 0;) stride[d] = stride[d + 1] * dims[d + 1];
    std::vector<std::int64_t> shape, step;
    for (std::int64_t p : perm) {
        shape.push_back(dims[static_cast<std::size_t>(p)]);
        step.push_back(stride[static_cast<std::size_t>(p)]);
    }
    std::vector<std::int64_t> out;
    out.reserve(static_cast<std::size_t>(n));
    std::vector<std::int64_t> index(shape.size(), 0);
    for (std::int64_t k = 0; k < n; ++k) {
        std::int64_t v = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) v += index[d] * step[d];
        out.push_back(v);
        for (std::size_t d = shape.size(); d-- > 0;) {
            if (++index[d] < shape[d]) break;
            index[d] = 0;
        }
    }
    return out;
}

ShardingSite decode_hlo_sharding(std::string_view text) {
    if (text.find_first_not_of(" ") == std::string_view::npos) {  // mhlo.sharding = "": none asked for
        ShardingSite none;
        none.decoded = true;
        none.meaning = "Empty: no sharding was asked for, so the partitioner chooses one.";
        return none;
    }
    Reader r(text);
    r.expect("{");
    if (r.peek() == '{') {  // a tuple: one sharding per member
        ShardingSite tuple;
        std::vector<std::string> meanings;
        while (r.peek() == '{') {
            r.expect("{");
            meanings.push_back(decode_one(r).meaning);
            r.expect("}");
            r.eat(",");
        }
        r.expect("}");
        tuple.tuple_elements = static_cast<std::int64_t>(meanings.size());
        tuple.decoded = true;
        // Members that read alike are told once: "members 0 to 38: ...".
        std::string parts;
        for (std::size_t k = 0; k < meanings.size();) {
            std::size_t end = k + 1;
            while (end < meanings.size() && meanings[end] == meanings[k]) ++end;
            parts += (parts.empty() ? "" : " ") +
                     (end - k == 1 ? "Member " + std::to_string(k)
                                   : "Members " + std::to_string(k) + " to " + std::to_string(end - 1)) +
                     ": " + meanings[k];
            k = end;
        }
        tuple.meaning = "A tuple of " + std::to_string(meanings.size()) + ". " + parts;
        return tuple;
    }
    ShardingSite s = decode_one(r);
    r.eat("metadata");  // shardings may carry {... metadata={...}}; what follows is not read
    if (r.peek() != '}' && r.peek() != '=') r.fail("unexpected text");
    return s;
}

}  // namespace tpusim::ir
