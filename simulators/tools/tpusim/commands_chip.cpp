// tpusim layout | mxu
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/layout.h"
#include "tpusim/mxu.h"

namespace tpusim::cli {

namespace {

Tiling parse_tiling(const Args& args, std::string_view option, DType dtype) {
    if (!args.has(option)) return native_tiling(dtype);
    const auto t = args.shape(option);
    if (t.size() != 2) throw InputError("--" + std::string(option) + " takes rows x columns, like 8x128");
    return Tiling{t[0], t[1]};
}

std::string tiling_text(Tiling t) {
    return "(" + std::to_string(t.rows) + "," + std::to_string(t.cols) + ")";
}

void write_layout(Json& j, const Layout& l) {
    j.begin_object();
    j.key("shape").begin_array();
    for (auto d : l.shape) j.value(d);
    j.end_array().key("padded_shape").begin_array();
    for (auto d : l.padded_shape) j.value(d);
    j.end_array();
    j.field("dtype", name(l.dtype)).field("tile", tiling_text(l.tile));
    j.field("packing", packing(l.dtype)).field("tiles", l.tiles);
    j.field("logical_bytes", l.logical_bytes).field("padded_bytes", l.padded_bytes);
    j.field("waste", l.waste);
    j.end_object();
}

// --reshape or --cast: a change between native tilings, as the bytes it moves.
int layout_change_command(const Args& args, const std::vector<std::int64_t>& shape, DType dtype) {
    if (args.has("reshape") && args.has("cast")) throw InputError("give --reshape or --cast, not both");
    if (args.has("tile") || args.has("to") || args.flag("transpose"))
        throw InputError(
            "--reshape and --cast price a change between native tilings; give them without "
            "--tile, --to or --transpose");
    LayoutChangeSpec spec;
    if (args.has("reshape")) {
        spec.kind = RelayoutKind::reshape;
        spec.to_shape = args.shape("reshape");
    } else {
        spec.kind = RelayoutKind::cast;
        spec.to_dtype = args.dtype("cast", DType::bf16);
    }
    const LayoutChange c = layout_change(args.chip(), shape, dtype, spec);
    if (args.flag("json")) {
        Json j;
        j.begin_object().key("layout");
        write_layout(j, c.from);
        j.key("change").begin_object().field("kind", relayout_name(c.kind)).key("to");
        write_layout(j, c.to);
        j.field("moves", c.moves).field("in_kernel", c.in_kernel);
        j.field("bytes_read", c.bytes_read).field("bytes_written", c.bytes_written);
        j.field("bytes_moved", c.bytes_moved).field("time_s", c.time_s).field("verdict", c.verdict);
        j.key("provenance");
        write_provenance(j, c.provenance);
        j.end_object().end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    print_pairs(std::cout,
                {{"from", shape_text(c.from.shape) + " " + std::string(name(c.from.dtype)) + " in " +
                              tiling_text(c.from.tile) + ", waste " + format_fixed(100 * c.from.waste, 1) + " %"},
                 {"to", shape_text(c.to.shape) + " " + std::string(name(c.to.dtype)) + " in " + tiling_text(c.to.tile) +
                            ", waste " + format_fixed(100 * c.to.waste, 1) + " %"},
                 {"moved", c.moves ? format_bytes(c.bytes_moved) + " (" + format_bytes(c.bytes_read) + " read, " +
                                         format_bytes(c.bytes_written) + " written)"
                                   : std::string("nothing")},
                 {"time", format_time(c.time_s)}});
    std::cout << "\n" << c.verdict << "\n";
    print_provenance(c.provenance);
    return 0;
}

}  // namespace

int cmd_layout(const Args& args) {
    args.allow_only({"shape", "dtype", "tile", "to", "transpose", "reshape", "cast", "chip"}, "tpusim layout");
    args.max_words(1, "tpusim layout");
    const auto shape = args.shape("shape");
    const DType dtype = args.dtype("dtype", DType::f32);
    if (args.has("reshape") || args.has("cast")) return layout_change_command(args, shape, dtype);
    const Tiling from = parse_tiling(args, "tile", dtype);
    const Layout l = tiled_layout(shape, dtype, from);
    const bool relayout = args.has("to") || args.flag("transpose");
    Relayout r;
    if (relayout)
        r = relayout_cost(args.chip(), shape, dtype, from, parse_tiling(args, "to", dtype), args.flag("transpose"));
    if (args.flag("json")) {
        Json j;
        j.begin_object().key("layout");
        write_layout(j, l);
        if (relayout) {
            j.key("relayout").begin_object().key("to");
            write_layout(j, r.to);
            j.field("bytes_moved", r.bytes_moved).field("time_s", r.time_s);
            j.key("provenance");
            write_provenance(j, r.provenance);
            j.end_object();
        }
        j.end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    print_pairs(std::cout,
                {{"array", shape_text(shape) + " " + std::string(name(dtype))},
                 {"tile", tiling_text(l.tile) + ", " + std::to_string(packing(dtype)) + " row(s) per 32-bit word"},
                 {"padded", shape_text(l.padded_shape) + " in " + std::to_string(l.tiles) + " tiles"},
                 {"bytes", format_fixed(l.logical_bytes, 0) + " used of " + format_fixed(l.padded_bytes, 0)},
                 {"waste", format_fixed(100 * l.waste, 1) + " %"}});
    if (relayout) {
        std::cout << "\nrelayout to " << tiling_text(r.to.tile) << (args.flag("transpose") ? ", transposed" : "")
                  << ": " << format_bytes(r.bytes_moved) << " through HBM, " << format_time(r.time_s) << "\n";
        print_provenance(r.provenance);
    }
    return 0;
}

int cmd_mxu(const Args& args) {
    args.allow_only({"m", "k", "n", "array", "no-overlap", "stepped", "chip"}, "tpusim mxu");
    args.max_words(1, "tpusim mxu");
    const std::int64_t m = args.positive("m"), k = args.positive("k"), n = args.positive("n");
    const std::int64_t array = args.positive("array", 128);
    if (array > 1024) throw InputError("--array must be at most 1024 (got " + std::to_string(array) + ")");
    const MxuMode mode = args.flag("no-overlap") ? MxuMode::no_overlap : MxuMode::overlapped;
    const bool small = static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n) <= 16777216.0;
    if (args.flag("stepped") && !small)
        throw InputError(
            "--stepped is for GEMMs up to 2^24 multiply-accumulates; drop it to use "
            "the cycle formula");
    MxuRun r;
    if (small) {
        // Small whole numbers keep the check exact.
        std::vector<float> x(static_cast<std::size_t>(m * k)), w(static_cast<std::size_t>(k * n));
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
        for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
        r = mxu_step(x, w, m, k, n, static_cast<int>(array), mode);
        const MxuRun formula = mxu_cycles(m, k, n, static_cast<int>(array), mode);
        if (formula.cycles != r.cycles) throw std::logic_error("stepped and formula cycle counts disagree");
    } else {
        r = mxu_cycles(m, k, n, static_cast<int>(array), mode);
    }
    const Chip* chip = args.has("chip") ? &args.chip() : nullptr;
    const double clock = chip ? chip->clock_hz.value : 0;
    if (chip) r.provenance.chip = chip->id;
    if (args.flag("json")) {
        Json j;
        j.begin_object().field("cycles", r.cycles).field("utilization", r.utilization);
        j.field("folds", r.folds).field("macs", r.macs);
        j.field("exposed_load_cycles", r.exposed_load_cycles);
        j.field("array", static_cast<std::int64_t>(array)).field("mode", mode_name(mode));
        j.field("method", r.stepped ? "stepped" : "formula");
        if (clock > 0) j.field("time_s", static_cast<double>(r.cycles) / clock);
        return print_with_provenance(j, r.provenance);
    }
    std::vector<std::pair<std::string, std::string>> rows = {
        {"cycles", std::to_string(r.cycles)},
        {"utilization", format_fixed(100 * r.utilization, 2) + " %"},
        {"weight tiles", std::to_string(r.folds)},
        {"cycles only loading", std::to_string(r.exposed_load_cycles)},
        {"counted by", r.stepped ? "stepping the array (and the formula agrees)" : "the formula"}};
    if (chip)
        rows.emplace_back(
            "time", clock > 0 ? format_time(static_cast<double>(r.cycles) / clock) + " at " + format_rate(clock, "Hz")
                              : "no published clock for " + chip->id);
    print_pairs(std::cout, rows);
    print_provenance(r.provenance);
    return 0;
}

}  // namespace tpusim::cli
