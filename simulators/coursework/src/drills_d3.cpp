// Drill D3: is a BlockSpec legal, what its index map reads, what fits in VMEM.
#include "drills_cards.h"
#include "drills_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tpusim/blockspec_sandbox.h"
#include "tpusim/error.h"
#include "tpusim/provenance.h"
#include "tpusim/vmem_budget.h"

namespace coursework::drills::cards {

using namespace tpusim;
namespace {

struct D3Case {
    SandboxInputs in;
    std::string chip_id;
};

std::int64_t legal_block(Rng& rng, std::int64_t size, std::int64_t unit, int level) {
    // A legal block: a multiple of `unit` that is at most the size, or the whole size.
    if (rng.chance(level >= 3 ? 15 : 5)) return size;
    std::vector<std::int64_t> options;
    for (std::int64_t b = unit; b <= size && b <= 2048; b *= 2) options.push_back(b);
    if (options.empty()) return size;
    return rng.pick(options);
}

std::int64_t illegal_block(Rng& rng, std::int64_t size, std::int64_t unit) {
    // Not a multiple of `unit` and not the whole size.
    const std::vector<std::int64_t> wrong = unit == 8 ? std::vector<std::int64_t>{4, 12, 20, 100, 96 + 4}
                                                      : std::vector<std::int64_t>{64, 96, 192, 200, 320, 100};
    std::int64_t b = rng.pick(wrong);
    if (b >= size) b = unit == 8 ? 4 : 64;
    return b;
}

D3Case d3_case(const std::string& kind, int level, std::uint64_t seed) {
    Rng rng(mix(kind, level, seed));
    D3Case d;
    d.chip_id = level == 1 ? "v5e" : rng.pick(kChipsAll);
    SandboxInputs& in = d.in;
    auto dim = [&](int lo, int hi) {
        std::int64_t v = std::int64_t{1} << rng.range(lo, hi);
        if (level >= 3 && rng.chance(40)) v = v / 2 * 3;  // 3 x a power of two: blocks may not divide it
        return v;
    };
    in.m = dim(9, 13);
    in.k = dim(9, 13);
    in.n = dim(9, 13);
    in.dtype = level == 1 ? DType::bf16 : rng.pick(std::vector<DType>{DType::bf16, DType::f32, DType::int8});

    if (kind == "D3.vmem") {
        // Blocks from modest to huge; legal shapes, the docs' maps.
        auto big = [&](std::int64_t size, std::int64_t unit) {
            std::vector<std::int64_t> options;
            for (std::int64_t b = unit * 2; b <= size; b *= 2) options.push_back(b);
            options.push_back(size);
            return rng.pick(options);
        };
        in.bm = big(in.m, 128);
        in.bk = big(in.k, 128);
        in.bn = big(in.n, 128);
    } else {
        in.bm = legal_block(rng, in.m, 8 * (level >= 2 ? 1 : 16), level);
        in.bk = legal_block(rng, in.k, 128, level);
        in.bn = legal_block(rng, in.n, 128, level);
    }
    if (kind == "D3.blocks" && rng.chance(55)) {
        switch (rng.range(0, 2)) {
            case 0:
                in.bm = illegal_block(rng, in.m, 8);
                break;
            case 1:
                in.bk = illegal_block(rng, in.k, 128);
                break;
            default:
                in.bn = illegal_block(rng, in.n, 128);
                break;
        }
    }
    in.grid = sandbox_grid(in, "ijk");
    if (kind == "D3.maps" && rng.chance(60)) {
        const std::vector<std::string> wrong{"lambda i, j, k: (i, 0)", "lambda i, j, k: (0, j)",
                                             "lambda i, j, k: (i, k)", "lambda i, j, k: (k, j)",
                                             "lambda i, j, k: (j, i)"};
        in.out_map = rng.pick(wrong);
        if (level >= 2 && rng.chance(40)) {
            // The reduction axis marked parallel: the revisits become a race.
            in.semantics = {Semantics::parallel, Semantics::parallel, Semantics::parallel};
        }
    } else if (kind == "D3.maps" && level >= 2 && rng.chance(30)) {
        in.semantics = {Semantics::parallel, Semantics::parallel, Semantics::parallel};
    }
    return d;
}

std::string semantics_text(const std::vector<Semantics>& s) {
    std::string t = "(";
    for (std::size_t i = 0; i < s.size(); ++i)
        t += std::string(i ? ", " : "") + (s[i] == Semantics::parallel ? "\"parallel\"" : "\"arbitrary\"");
    return t + ")";
}

struct D3Verdict {
    SandboxReport report;
    bool legal = false;
    std::vector<std::string> reasons;  // every reason that applies, the main one first
    std::string broken_operand;        // the illegal block's operand
};

D3Verdict d3_verdict(const D3Case& d) {
    D3Verdict v;
    v.report = evaluate_sandbox(chip(d.chip_id), d.in, 0);
    bool shape = false;
    for (const SandboxOperand& op : v.report.operands)
        if (!op.legality.legal) {
            if (!shape) v.broken_operand = op.name;
            shape = true;
        }
    if (shape) v.reasons.push_back("shape");
    if (v.report.coverage) {
        const Coverage& cov = *v.report.coverage;
        if (cov.blocks_written < cov.blocks) v.reasons.push_back("coverage");
        if (cov.race) v.reasons.push_back("race");
        if (cov.non_consecutive && std::find(v.reasons.begin(), v.reasons.end(), "race") == v.reasons.end())
            v.reasons.push_back("race");
    }
    if (v.report.vmem_bytes > v.report.vmem_limit_bytes) v.reasons.push_back("vmem");
    v.legal = v.reasons.empty();
    return v;
}

}  // namespace

Question d3(const std::string& kind, int level, std::uint64_t seed) {
    const D3Case d = d3_case(kind, level, seed);
    const D3Verdict v = d3_verdict(d);
    const Chip& c = chip(d.chip_id);
    Question q;
    q.drill = "D3";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    const std::string dt(name(d.in.dtype));
    q.givens = {{"x", dims_text({d.in.m, d.in.k}) + " " + dt},
                {"y", dims_text({d.in.k, d.in.n}) + " " + dt},
                {"out", dims_text({d.in.m, d.in.n}) + " " + dt + ", f32 accumulator (bm, bn) in scratch"},
                {"chip", c.name + " (" + c.id + "), scoped VMEM " + format_bytes(c.scoped_vmem_default.value)}};
    q.code_language = "python";
    q.code = "grid = " + dims_text(d.in.grid) + "\n" +
             "in_specs = [\n"
             "    pl.BlockSpec((" +
             std::to_string(d.in.bm) + ", " + std::to_string(d.in.bk) + "), " + d.in.x_map + "),\n" +
             "    pl.BlockSpec((" + std::to_string(d.in.bk) + ", " + std::to_string(d.in.bn) + "), " + d.in.y_map +
             "),\n" + "]\n" + "out_specs = pl.BlockSpec((" + std::to_string(d.in.bm) + ", " + std::to_string(d.in.bn) +
             "), " + d.in.out_map + ")\n" + "dimension_semantics = " + semantics_text(d.in.semantics);
    q.prompt =
        "Would this blocked matmul compile and run right with the default VMEM limit? Give its VMEM bytes, "
        "and the reason when it would not.";
    Field legal{"legal", "legal", FieldType::choice, "", {"yes", "no"}, 0, "", ""};
    Field vmem{"vmem", "VMEM bytes", FieldType::bytes, "B", {}, 0.10, "", ""};
    Field reason{"reason", "reason", FieldType::choice, "", {"shape", "coverage", "race", "vmem"}, 0, "legal", "no"};
    q.fields = {legal, vmem, reason};
    q.expected["legal"] = v.legal ? "yes" : "no";
    q.expected["vmem"] = format_bytes(v.report.vmem_bytes);
    q.expected_value["vmem"] = v.report.vmem_bytes;
    std::string reasons;
    for (const std::string& r : v.reasons) reasons += (reasons.empty() ? "" : "|") + r;
    q.expected["reason"] = reasons;
    return q;
}

std::vector<Step> d3_steps(const Question& q) {
    const D3Case d = d3_case(q.kind, q.level, q.seed);
    const D3Verdict v = d3_verdict(d);
    const Chip& c = chip(d.chip_id);
    std::vector<Step> steps;
    const Tiling t = memory_tiling(c, d.in.dtype);
    steps.push_back(
        {"Blocks are legal when the last dimension is a multiple of 128 or the array's whole dimension, "
         "and the second-to-last a multiple of 8 or the whole dimension.",
         ""});
    for (const SandboxOperand& op : v.report.operands)
        steps.push_back({op.name + " block " + dims_text(op.block) + " of " + dims_text(op.array) + ": " +
                             (op.legality.legal ? "" : "illegal: ") + op.legality.reason + ".",
                         ""});
    if (v.report.coverage) {
        const Coverage& cov = *v.report.coverage;
        std::string s = "The output map writes " + std::to_string(cov.blocks_written) + " of " +
                        std::to_string(cov.blocks) + " output blocks over " + std::to_string(cov.writes) +
                        " grid steps";
        if (cov.problems.empty())
            s += ", each block on consecutive steps of the reduction axis, with no race.";
        else {
            s += ": ";
            for (std::size_t i = 0; i < cov.problems.size(); ++i) s += (i ? " " : "") + cov.problems[i];
        }
        steps.push_back({s, ""});
    }
    const std::string dt(name(d.in.dtype));
    std::string tiling = "Each block is stored padded to tiles of " + std::to_string(t.rows) +
                         " rows by 128 lanes for " + dt + " on " + c.id;
    if (d.in.bm < t.rows)
        tiling += "; a block of " + std::to_string(d.in.bm) +
                  " rows gets the fewest rows that hold it, from the "
                  "packing factor up in powers of two: " +
                  std::to_string(block_tile_rows(c, d.in.dtype, d.in.bm)) + " (" +
                  std::to_string(block_tile_rows(c, DType::f32, d.in.bm)) + " for the f32 accumulator)";
    steps.push_back({tiling + ".", ""});
    const double bx = padded_vmem_bytes(c, {d.in.bm, d.in.bk}, d.in.dtype);
    const double by = padded_vmem_bytes(c, {d.in.bk, d.in.bn}, d.in.dtype);
    const double bo = padded_vmem_bytes(c, {d.in.bm, d.in.bn}, d.in.dtype);
    const double acc = padded_vmem_bytes(c, {d.in.bm, d.in.bn}, DType::f32);
    steps.push_back({"x, y and out double-buffered: 2 × (" + count_text(bx) + " + " + count_text(by) + " + " +
                         count_text(bo) + ") B",
                     format_bytes(2 * (bx + by + bo))});
    steps.push_back({"plus the f32 accumulator (bm, bn): " + count_text(acc) + " B", format_bytes(acc)});
    steps.push_back({"VMEM in all, against the scoped limit of " + format_bytes(v.report.vmem_limit_bytes) +
                         (v.report.vmem_bytes > v.report.vmem_limit_bytes ? ": over." : ": within."),
                     format_bytes(v.report.vmem_bytes)});
    if (v.legal)
        steps.push_back(
            {"Legal: every block legal, every output block written once per reduction, and within VMEM.", ""});
    else {
        static const std::map<std::string, std::string> why{
            {"shape", "a block breaks the (8, 128) rule"},
            {"coverage", "the output map leaves blocks unwritten"},
            {"race", "parallel steps write the same output block (or revisit it out of turn)"},
            {"vmem", "the buffers exceed the scoped VMEM limit"}};
        std::string s = "Not legal: ";
        for (std::size_t i = 0; i < v.reasons.size(); ++i) s += (i ? "; " : "") + why.at(v.reasons[i]);
        steps.push_back({s + ".", ""});
    }
    return steps;
}

}  // namespace coursework::drills::cards
