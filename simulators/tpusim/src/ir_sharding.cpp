// Shardings and device groups read out of dump text, line by line: they
// sit in attributes the op parsers keep as text (or, for a StableHLO
// function's arguments, drop), and a dump that fails to parse still says
// how its arrays are spread. One attribute is decoded in
// ir_sharding_decode.cpp.
#include "tpusim/ir_sharding.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "ir_sharding_detail.h"
#include "tpusim/error.h"
#include "tpusim/provenance.h"

namespace tpusim::ir {

namespace {

using detail::decode_groups;
using detail::decode_shardy;
using detail::join;
using detail::Meshes;
using detail::Reader;

// The array a sharding belongs to: the nearest "tensor<...>" before it on
// the line (a function argument or result), else after it (a constraint's
// signature); in HLO, the result type after "= ".

TensorType type_on_line(std::string_view line, std::size_t at, ShardingForm form) {
    TensorType t;
    auto read_hlo = [&](std::size_t from) {
        std::size_t k = from;
        while (k < line.size() && std::isalnum(static_cast<unsigned char>(line[k]))) ++k;
        if (k == from || k >= line.size() || line[k] != '[') return;
        const std::size_t close = line.find(']', k);
        if (close == std::string_view::npos) return;
        t.element = std::string(line.substr(from, k - from));
        Reader r(line.substr(k, close - k + 1));
        try {
            t.dims = r.list('[', ']');
        } catch (const InputError&) {
            t = {};
        }
    };
    if (form == ShardingForm::hlo) {
        const std::size_t eq = line.find(" = ");
        if (eq != std::string_view::npos && eq < at) read_hlo(eq + 3);
        return t;
    }
    std::size_t open = line.rfind("tensor<", at);
    if (open == std::string_view::npos) open = line.find("tensor<", at);
    if (open == std::string_view::npos) return t;
    const std::size_t close = line.find('>', open);
    if (close == std::string_view::npos) return t;
    std::string_view body = line.substr(open + 7, close - open - 7);
    std::size_t k = 0;
    while (true) {
        const std::size_t x = body.find('x', k);
        if (x == std::string_view::npos || !std::isdigit(static_cast<unsigned char>(body[k]))) break;
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(body.data() + k, body.data() + x, v);
        if (ec != std::errc() || end != body.data() + x) break;
        t.dims.push_back(v);
        k = x + 1;
    }
    t.element = std::string(body.substr(k));
    return t;
}

// What the scan of one dump knows beyond a line.
struct Context {
    Meshes meshes;
    bool partitioned = false;  // an HLO dump with collective ops
};

bool holds_collectives(std::string_view text) {
    for (const char* op : {" all-gather(", " all-gather-start(", " all-reduce(", " all-reduce-start(",
                           " reduce-scatter(", " collective-permute(", " collective-permute-start(", " all-to-all("})
        if (text.find(op) != std::string_view::npos) return true;
    return false;
}

std::string array_text(const std::string& element, const std::vector<std::int64_t>& dims) {
    return element + "[" + join(dims, ",") + "]";
}

void add_tile_shape(ShardingSite& s, bool partitioned) {
    if (!s.decoded || s.tiles.empty() || s.type.element.empty() || s.type.dims.size() != s.tiles.size()) return;
    s.type_is_tile = partitioned && s.form == ShardingForm::hlo;
    std::vector<std::int64_t> tile, whole;
    for (std::size_t d = 0; d < s.tiles.size(); ++d) {
        const std::int64_t n = s.type.dims[d], ways = s.tiles[d];
        if (ways < 1 || n < 0) return;
        if (s.type_is_tile) {
            tile.push_back(n);
            whole.push_back(n * ways);
        } else {
            if (n % ways != 0) return;
            tile.push_back(n / ways);
            whole.push_back(n);
        }
    }
    s.tile_dims = tile;
    s.whole_dims = whole;
    double elements = 1;
    for (std::int64_t d : tile) elements *= static_cast<double>(d);
    const double bytes = element_bytes(s.type.element);
    const std::string size = bytes > 0 ? " (" + format_bytes(elements * bytes) + ")" : "";
    if (s.type_is_tile)
        s.meaning += " The dump holds collectives, so it is partitioned: the type printed, " + type_text(s.type) +
                     ", is one device's tile" + size + " of a " + array_text(s.type.element, whole) + " array.";
    else
        s.meaning += " One tile of " + type_text(s.type) + " is " + array_text(s.type.element, tile) + size + ".";
}

// The balanced "{...}" that starts at `open`; npos when the line ends first.
std::size_t closing_brace(std::string_view line, std::size_t open) {
    int depth = 0;
    for (std::size_t k = open; k < line.size(); ++k) {
        if (line[k] == '{')
            ++depth;
        else if (line[k] == '}' && --depth == 0)
            return k;
    }
    return std::string_view::npos;
}

void add_site(std::vector<ShardingSite>& out, ShardingForm form, int line_no, std::size_t at, std::string_view text,
              std::string_view line, const Context& context) {
    ShardingSite s;
    try {
        if (form == ShardingForm::replica_groups) {
            s = decode_groups(text);
        } else if (form == ShardingForm::shardy) {
            s = decode_shardy(text, context.meshes);
        } else {
            s = decode_hlo_sharding(text);
            s.form = form;
        }
    } catch (const InputError& e) {
        s = {};
        s.form = form;
        s.meaning = "Not read: " + std::string(e.what()) + ".";
    }
    s.position = {line_no, static_cast<int>(at) + 1};
    s.text = std::string(text);
    if (form != ShardingForm::replica_groups) s.type = type_on_line(line, at, form);
    add_tile_shape(s, context.partitioned);
    out.push_back(std::move(s));
}

void scan_line(std::string_view line, int line_no, const Context& context, std::vector<ShardingSite>& out) {
    for (std::size_t at = line.find("sharding={"); at != std::string_view::npos; at = line.find("sharding={", at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '.')) continue;
        const std::size_t close = closing_brace(line, at + 9);
        const std::size_t end = close == std::string_view::npos ? line.size() : close + 1;
        add_site(out, ShardingForm::hlo, line_no, at, line.substr(at + 9, end - at - 9), line, context);
    }
    for (std::size_t at = line.find("mhlo.sharding = \""); at != std::string_view::npos;
         at = line.find("mhlo.sharding = \"", at + 1)) {
        const std::size_t from = at + 17;
        const std::size_t close = line.find('"', from);
        add_site(out, ShardingForm::gspmd, line_no, at,
                 line.substr(from, (close == std::string_view::npos ? line.size() : close) - from), line, context);
    }
    // Shardy's tensor shardings, wherever they sit: #sdy.sharding<@m, [...]>,
    // sdy.sharding_constraint %x <@m, [...]>, #sdy.sharding_per_value<[<@m, [...]>, ...]>.
    if (line.find("sdy.") != std::string_view::npos && line.find("sdy.mesh @") == std::string_view::npos) {
        for (std::size_t at = line.find("<@"); at != std::string_view::npos; at = line.find("<@", at + 1)) {
            int depth = 0;
            std::size_t end = at;
            for (; end < line.size(); ++end) {
                if (line[end] == '<')
                    ++depth;
                else if (line[end] == '>' && --depth == 0)
                    break;
            }
            add_site(out, ShardingForm::shardy, line_no, at, line.substr(at + 1, end - at - 1), line, context);
        }
    }
    for (const std::string_view key : {std::string_view("replica_groups="), std::string_view("replica_groups = ")}) {
        for (std::size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
            const std::size_t from = at + key.size();
            std::size_t end = line.size();
            if (from < line.size() && line[from] == '{') {
                const std::size_t close = closing_brace(line, from);
                end = close == std::string_view::npos ? line.size() : close + 1;
            } else if (line.substr(from, 6) == "dense<") {
                end = line.find('>', from);
                end = end == std::string_view::npos ? line.size() : end + 1;
            } else if (const std::size_t iota = line.find("<=[", from); iota != std::string_view::npos) {
                end = std::min(line.find(']', iota) + 1, line.size());
                if (line.substr(end, 2) == "T(") end = std::min(line.find(')', end) + 1, line.size());
            } else {
                end = std::min(line.find_first_of(", ", from), line.size());
            }
            add_site(out, ShardingForm::replica_groups, line_no, at, line.substr(from, end - from), line, context);
        }
    }
}

}  // namespace

std::vector<ShardingSite> find_shardings(std::string_view text) {
    Context context;
    context.partitioned = holds_collectives(text);
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    for (std::string_view line : lines) detail::read_mesh(line, context.meshes);
    std::vector<ShardingSite> out;
    for (std::size_t k = 0; k < lines.size(); ++k) scan_line(lines[k], static_cast<int>(k) + 1, context, out);
    return out;
}

}  // namespace tpusim::ir
