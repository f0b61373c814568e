#include <chapters/livenumbers.h>

#include "livenumbers_detail.h"

#include <tpusim/attention.h>
#include <tpusim/chips.h>
#include <tpusim/collective.h>
#include <tpusim/collective_matmul.h>
#include <tpusim/dtype.h>
#include <tpusim/error.h>
#include <tpusim/layout.h>
#include <tpusim/mesh.h>
#include <tpusim/mxu.h>
#include <tpusim/pipeline.h>
#include <tpusim/roofline.h>

#include <charconv>
#include <functional>
#include <set>
#include <sstream>

namespace course::live {

namespace {

using tpusim::InputError;
using namespace detail;

std::string trim(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

Value rooflineField(const Placeholder &p, const tpusim::Roofline &r)
{
    const std::string &f = p.field;
    std::string t;
    double number = std::numeric_limits<double>::quiet_NaN();
    if (f == "time")
        t = tpusim::format_time(number = r.time_s);
    else if (f == "compute_time")
        t = tpusim::format_time(number = r.compute_s);
    else if (f == "memory_time")
        t = tpusim::format_time(number = r.memory_s);
    else if (f == "flops")
        t = tpusim::format_rate(number = r.flops, "FLOP");
    else if (f == "bytes")
        t = tpusim::format_bytes(number = r.bytes);
    else if (f == "intensity")
        t = perByte(number = r.intensity);
    else if (f == "ridge")
        t = perByte(number = r.ridge);
    else if (f == "bound")
        t = std::string(tpusim::bound_name(r.bound));
    else
        unknownField(p, "time, compute_time, memory_time, flops, bytes, intensity, ridge, bound");
    Value v = answer(t, tpusim::with_working(r.provenance, tpusim::roofline_working(r)));
    v.number = number;
    return v;
}

const tpusim::Fact &chipFact(const tpusim::Chip &c, const std::string &name)
{
    static const std::map<std::string, std::function<const tpusim::Fact &(const tpusim::Chip &)>> facts{
        {"peak_bf16", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.peak_bf16; }},
        {"peak_int8", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.peak_int8; }},
        {"peak_fp8", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.peak_fp8; }},
        {"hbm_bandwidth", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.hbm_bandwidth; }},
        {"hbm_capacity", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.hbm_capacity; }},
        {"vmem_per_core", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.vmem_per_core; }},
        {"smem_per_core", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.smem_per_core; }},
        {"scoped_vmem_default", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.scoped_vmem_default; }},
        {"mxus_per_core", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.mxus_per_core; }},
        {"mxu_size", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.mxu_size; }},
        {"tensorcores", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.tensorcores; }},
        {"ici_link_bandwidth", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.ici_link_bandwidth; }},
        {"ici_chip_bandwidth", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.ici_chip_bandwidth; }},
        {"ici_hop_latency", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.ici_hop_latency; }},
        {"ici_ports", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.ici_ports; }},
        {"pod_chips", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.pod_chips; }},
        {"grid_step_overhead", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.grid_step_overhead; }},
        {"kernel_launch", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.kernel_launch; }},
        {"flash_step", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.flash_step; }},
        {"collective_floor", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.collective_floor; }},
        {"flash_attainable", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.flash_attainable; }},
        {"mxu_attainable", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.mxu_attainable; }},
        {"hbm_attainable", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.hbm_attainable; }},
        {"ici_attainable", [](const tpusim::Chip &x) -> const tpusim::Fact & { return x.ici_attainable; }},
    };
    const auto it = facts.find(name);
    if (it == facts.end())
        throw PlaceholderError("\"chip\" has no fact \"" + name + "\".");
    return it->second(c);
}

Value resolveChip(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"fact"});
    if (p.field != "value")
        unknownField(p, "value");
    const tpusim::Fact &f = chipFact(chip, a.text("fact"));
    Value v;
    v.isFact = true;
    v.isAssumption = f.assumption;
    v.text = tpusim::format_fact(f);
    v.source = f.source;
    if (f.published() && f.unit != "yes/no")
        v.number = f.value;
    // The first line in the provenance form the explanation card colours.
    v.details = (f.assumption ? "assumed · " + chip.name + " · the simulator's, not a published figure"
                              : "published · " + chip.name + " · a published figure") +
                (f.source.empty() ? "" : "\nsource " + f.source) + (f.note.empty() ? "" : "\n" + f.note);
    return v;
}

Value resolveAttention(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"batch", "heads", "kv_heads", "seq", "head_dim", "block_q", "block_k", "dtype", "score_dtype", "causal",
               "bias", "pass", "window", "documents"});
    tpusim::AttentionSpec s;
    s.batch = a.integer("batch", 1);
    s.heads = a.integer("heads", 1);
    s.seq_q = s.seq_kv = a.integer("seq");
    s.head_dim = a.integer("head_dim");
    s.block_q = a.integer("block_q", 128);
    s.block_k = a.integer("block_k", 128);
    s.causal = a.text("causal", "0") == "1";
    s.dtype = a.dtype();
    s.score_dtype = a.dtype("score_dtype", "f32");
    s.kv_heads = a.integer("kv_heads", s.heads);
    s.bias = a.text("bias", "0") == "1";
    if (a.has("window"))
        s.window = a.integer("window");
    s.documents = a.integer("documents", 1);
    const std::string pass = a.text("pass", "forward");
    if (pass == "both")
        s.pass = tpusim::AttentionPass::forward_backward;
    else if (pass == "backward")
        s.pass = tpusim::AttentionPass::backward;
    else if (pass != "forward")
        throw PlaceholderError("\"pass=" + pass + "\" must be forward, backward or both.");
    const tpusim::AttentionResult r = named([&] { return tpusim::attention(chip, s); });
    if (auto v = numberField(p,
                             {{"naive_time", Reads::time, r.naive.time_s},
                              {"flash_time", Reads::time, r.flash.time_s},
                              {"naive_bytes", Reads::bytes, r.naive.hbm_bytes},
                              {"flash_bytes", Reads::bytes, r.flash.hbm_bytes},
                              {"score_bytes", Reads::bytes, r.score_bytes},
                              {"flash_steps", Reads::count, static_cast<double>(r.flash.grid_steps)}},
                             r.provenance))
        return *v;
    if (p.field == "tiles") {
        // The tiles of one head the flash kernel computes, of all its grid's.
        const double share = static_cast<double>(r.tiles_computed) / static_cast<double>(r.tiles);
        return numbered(std::to_string(r.tiles_computed) + " of " + std::to_string(r.tiles) + ", " + percent(share),
                        static_cast<double>(r.tiles_computed), r.provenance);
    }
    unknownField(p, "naive_time, flash_time, naive_bytes, flash_bytes, score_bytes, flash_steps, tiles");
}

Value resolveCollective(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"op", "mesh", "axis", "bytes"});
    const tpusim::Mesh mesh = tpusim::make_mesh(chip, a.shape("mesh"));
    tpusim::CollectiveSpec spec;
    const std::string op = a.text("op");
    spec.kind = named([&] { return tpusim::parse_collective(op); });
    const std::string axis = a.text("axis", "0");
    if (axis.size() != 1 || axis[0] < '0' || axis[0] > '2')
        throw PlaceholderError("\"axis=" + axis + "\" must be 0, 1 or 2.");
    spec.axes = {axis[0] - '0'};
    spec.bytes = static_cast<double>(a.integer("bytes"));
    tpusim::CollectiveOptions options;
    options.link_loads = false;
    const tpusim::CollectiveResult r = tpusim::collective(mesh, spec, options);
    const tpusim::Provenance worked = tpusim::with_working(r.provenance, tpusim::collective_working(r));
    if (p.field == "time")
        return answer(tpusim::format_time(r.time_s), worked);
    if (p.field == "analytic")
        return answer(tpusim::format_time(r.analytic_s), worked);
    if (p.field == "simulated")
        return answer(tpusim::format_time(r.simulated_s), worked);
    unknownField(p, "time, analytic, simulated");
}

Value resolveCollectiveMatmul(const Placeholder &p, const tpusim::Chip &chip)
{
    Args a(p, {"m", "k", "n", "devices", "directions", "dtype"});
    tpusim::CollectiveMatmulSpec s;
    s.m = a.integer("m");
    s.k = a.integer("k");
    s.n = a.integer("n");
    s.devices = a.integer("devices", 4);
    s.directions = static_cast<int>(a.integer("directions", 1));
    s.dtype = a.dtype();
    const tpusim::CollectiveMatmulResult r = tpusim::collective_matmul(chip, s);
    if (auto v = numberField(p,
                             {{"time", Reads::time, r.time_s},
                              {"compute_only", Reads::time, r.compute_only_s},
                              {"step_compute", Reads::time, r.step_compute_s},
                              {"step_transfer", Reads::time, r.step_transfer_s},
                              {"exposed", Reads::time, r.exposed_s},
                              {"exposed_fraction", Reads::percent, r.exposed_fraction},
                              {"gather_then_matmul", Reads::time, r.gather_then_matmul_s},
                              {"hops", Reads::count, static_cast<double>(r.hops)}},
                             r.provenance))
        return *v;
    if (p.field == "ratio") {
        const double ratio = r.time_s / r.compute_only_s;
        return numbered(tpusim::format_fixed(ratio, 2) + "×", ratio, r.provenance);
    }
    unknownField(p,
                 "time, compute_only, step_compute, step_transfer, exposed, exposed_fraction, ratio, "
                 "gather_then_matmul, hops");
}

} // namespace

Placeholder parse(std::string_view inner)
{
    const auto colon = inner.rfind(':');
    if (colon == std::string_view::npos)
        throw PlaceholderError("a live number needs \": FIELD\" at its end, as in {{matmul m=8 k=8 n=8 : time}}.");
    Placeholder p;
    p.field = trim(inner.substr(colon + 1));
    std::stringstream words{std::string(inner.substr(0, colon))};
    std::string word;
    words >> p.kind;
    if (p.kind.empty())
        throw PlaceholderError("a live number names no kind.");
    while (words >> word) {
        const auto eq = word.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
            throw PlaceholderError("\"" + word + "\" is not ARG=VALUE.");
        if (!p.args.emplace(word.substr(0, eq), word.substr(eq + 1)).second)
            throw PlaceholderError("\"" + word.substr(0, eq) + "\" is given twice.");
    }
    if (p.field.empty())
        throw PlaceholderError("a live number names no field after \":\".");
    return p;
}

Value resolve(const Placeholder &p, const std::string &defaultChip)
{
    const auto chipIt = p.args.find("chip");
    const std::string chipId = chipIt == p.args.end() ? defaultChip : chipIt->second;
    const tpusim::Chip &chip = named([&]() -> const tpusim::Chip & { return tpusim::chip(chipId); });
    const std::string &k = p.kind;
    if (k == "chip")
        return resolveChip(p, chip);
    if (k == "published") {
        // A figure a paper or a document states, typed with its source tag
        // (the page's Sources say what the tag names): shown as published,
        // never as the simulator's answer. `_` in the unit is a space.
        Args a(p, {"value", "unit", "source"});
        if (p.field != "value")
            unknownField(p, "value");
        const std::string value = a.text("value");
        double number = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
        if (ec != std::errc() || end != value.data() + value.size())
            throw PlaceholderError("\"value=" + value + "\" is not a number.");
        std::string unit = a.has("unit") ? a.text("unit") : std::string();
        for (char &c : unit)
            if (c == '_')
                c = ' ';
        Value v;
        v.isFact = true;
        v.text = value + (unit.empty() ? "" : " " + unit);
        v.source = a.text("source");
        v.number = number;
        v.details = "published · " + v.source + " · a published figure, not the simulator's\nsource " + v.source;
        return v;
    }
    if (k == "ridge") {
        Args a(p, {"dtype"});
        if (p.field != "value" && p.field != "bytes_per_flop")
            unknownField(p, "value, bytes_per_flop");
        tpusim::Provenance prov;
        prov.chip = chip.id;
        prov.dtype = std::string(tpusim::name(a.dtype()));
        prov.model = "roofline: peak FLOP/s over HBM bandwidth";
        const double ridge = tpusim::ridge_point(chip, a.dtype());
        if (p.field == "bytes_per_flop") {
            // HBM bytes the chip can deliver for each FLOP at peak: the ridge's inverse.
            Value v = answer(tpusim::format_fixed(1.0 / ridge, 4) + " B/FLOP", prov);
            v.number = 1.0 / ridge;
            return v;
        }
        Value v = answer(perByte(ridge), prov);
        v.number = ridge;
        return v;
    }
    if (k == "matmul") {
        Args a(p, {"m", "k", "n", "batch", "dtype", "pass"});
        tpusim::MatmulSpec s;
        s.m = a.integer("m");
        s.k = a.integer("k");
        s.n = a.integer("n");
        s.batch = a.integer("batch", 1);
        s.in = s.out = a.dtype();
        const std::string pass = a.text("pass", "forward");
        if (pass == "forward")
            return rooflineField(p, tpusim::roofline(chip, tpusim::matmul_cost(s)));
        if (pass != "backward" && pass != "both")
            throw PlaceholderError("\"pass=" + pass + "\" must be forward, backward or both.");
        const auto passes = pass == "both" ? tpusim::MatmulPass::forward_backward : tpusim::MatmulPass::backward;
        return rooflineField(p, tpusim::roofline_sequence(chip, tpusim::matmul_pass_costs(s, passes)));
    }
    if (k == "elementwise") {
        Args a(p, {"shape", "inputs", "outputs", "dtype"});
        return rooflineField(p, tpusim::roofline(chip, tpusim::elementwise_cost(
                                                           a.shape("shape"), static_cast<int>(a.integer("inputs", 2)),
                                                           static_cast<int>(a.integer("outputs", 1)), a.dtype())));
    }
    if (k == "reduction") {
        Args a(p, {"shape", "axes", "dtype"});
        std::vector<int> axes;
        std::stringstream in(a.text("axes"));
        std::string part;
        while (std::getline(in, part, ',')) {
            int axis = -1;
            const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), axis);
            if (ec != std::errc() || end != part.data() + part.size() || axis < 0)
                throw PlaceholderError("\"axes=" + a.text("axes") + "\" is not a list of axes such as 1 or 0,1.");
            axes.push_back(axis);
        }
        return rooflineField(p, tpusim::roofline(chip, tpusim::reduction_cost(a.shape("shape"), axes, a.dtype())));
    }
    if (k == "pipeline") {
        Args a(p, {"m", "k", "n", "bm", "bk", "bn", "dtype"});
        tpusim::BlockedMatmul b;
        b.m = a.integer("m"), b.k = a.integer("k"), b.n = a.integer("n");
        b.bm = a.integer("bm"), b.bk = a.integer("bk"), b.bn = a.integer("bn");
        b.in = b.out = a.dtype();
        const tpusim::Kernel kernel = tpusim::blocked_matmul(b);
        const tpusim::PipelineResult r = tpusim::simulate(chip, kernel);
        const std::string &f = p.field;
        // Each figure's card starts with its own working.
        if (f == "time")
            return answer(tpusim::format_time(r.time_s), tpusim::with_working(r.provenance, tpusim::time_working(r)));
        if (f == "steps")
            return answer(tpusim::format_fixed(static_cast<double>(r.steps), 0), r.provenance);
        if (f == "vmem")
            return answer(tpusim::format_bytes(r.vmem_bytes),
                          tpusim::with_working(r.provenance, tpusim::vmem_working(chip, kernel)));
        if (f == "hbm_bytes")
            return answer(tpusim::format_bytes(r.hbm_bytes),
                          tpusim::with_working(r.provenance, tpusim::hbm_working(r)));
        if (f == "utilization")
            return answer(percent(r.utilization), r.provenance);
        unknownField(p, "time, steps, vmem, hbm_bytes, utilization");
    }
    if (k == "layout") {
        Args a(p, {"shape", "dtype"});
        const tpusim::Layout l = tpusim::tiled_layout(a.shape("shape"), a.dtype());
        tpusim::Provenance prov;
        prov.chip = chip.id;
        prov.dtype = std::string(tpusim::name(a.dtype()));
        prov.shapes = a.text("shape");
        prov.model = "(8,128) tiling with sublane packing";
        const std::string &f = p.field;
        if (f == "waste")
            return answer(percent(l.waste), prov);
        if (f == "padded_bytes")
            return answer(tpusim::format_bytes(l.padded_bytes), prov);
        if (f == "logical_bytes")
            return answer(tpusim::format_bytes(l.logical_bytes), prov);
        if (f == "tile")
            return answer("(" + std::to_string(l.tile.rows) + "," + std::to_string(l.tile.cols) + ")", prov);
        unknownField(p, "waste, padded_bytes, logical_bytes, tile");
    }
    if (k == "mxu") {
        Args a(p, {"m", "k", "n", "array", "mode"});
        const int array = static_cast<int>(a.integer("array", 128));
        const std::string mode = a.text("mode", "overlapped");
        if (mode != "overlapped" && mode != "no-overlap")
            throw PlaceholderError("\"mode=" + mode + "\" is neither overlapped nor no-overlap.");
        const tpusim::MxuRun r =
            tpusim::mxu_cycles(a.integer("m"), a.integer("k"), a.integer("n"), array,
                               mode == "no-overlap" ? tpusim::MxuMode::no_overlap : tpusim::MxuMode::overlapped);
        tpusim::Provenance prov;
        prov.chip = chip.id;
        prov.shapes = "M=" + a.text("m") + " K=" + a.text("k") + " N=" + a.text("n") + " on a " +
                      std::to_string(array) + "x" + std::to_string(array) + " array";
        prov.model = std::string("weight-stationary systolic array, ") + std::string(tpusim::mode_name(r.mode));
        if (p.field == "cycles")
            return answer(tpusim::format_fixed(static_cast<double>(r.cycles), 0), prov);
        if (p.field == "utilization")
            return answer(percent(r.utilization), prov);
        unknownField(p, "cycles, utilization");
    }
    if (k == "attention")
        return resolveAttention(p, chip);
    if (k == "collective")
        return resolveCollective(p, chip);
    if (k == "collective_matmul")
        return resolveCollectiveMatmul(p, chip);
    if (k == "quantized_matmul")
        return resolveQuantizedMatmul(p, chip);
    if (k == "decode")
        return resolveDecode(p, chip);
    if (k == "shard_layer")
        return resolveShardLayer(p, chip);
    if (k == "grouped_matmul")
        return resolveGroupedMatmul(p, chip);
    throw PlaceholderError("\"" + k + "\" is not a kind of live number (see LIVE-NUMBERS.md).");
}

} // namespace course::live
