// tpusim vmem: a kernel's VMEM budget, line by line, and the largest blocks that fit.
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/roofline.h"
#include "tpusim/vmem_budget.h"

namespace tpusim::cli {

namespace {

std::string tuple(const std::vector<std::int64_t>& v) {
    std::string t = "(";
    for (std::size_t i = 0; i < v.size(); ++i) t += (i ? ", " : "") + std::to_string(v[i]);
    return t + ")";
}

void print_budget(const VmemBudget& b, const BlockSuggestion& s, const BudgetKernelInfo& info) {
    Table t({"line", "role", "block", "padded", "buffers", "each", "total", "legal"},
            {false, false, false, false, true, true, true, false});
    for (const BudgetLine& l : b.lines)
        t.add({l.name, std::string(role_name(l.role)), tuple(l.block) + " " + std::string(name(l.dtype)),
               tuple(l.padded), std::to_string(l.buffers), format_bytes(l.padded_bytes), format_bytes(l.total_bytes),
               l.legality.legal ? "yes" : "no"});
    t.print(std::cout);
    std::cout << "\n";
    std::string blocks;
    for (std::size_t d = 0; d < s.blocks.size(); ++d)
        blocks += (d ? " " : "") + info.blocks[d].name + "=" + std::to_string(s.blocks[d]);
    print_pairs(std::cout, {{"total", format_bytes(b.total_bytes) + " (data " + format_bytes(b.logical_bytes) + ")"},
                            {"scoped limit", format_bytes(b.limit_bytes) + (b.limit_raised ? " (raised)" : "")},
                            {"physical VMEM", format_bytes(b.physical_bytes) + " per TensorCore"},
                            {"HBM traffic", format_bytes(b.hbm_bytes) + " in " + std::to_string(b.steps) + " steps"},
                            {"verdict", b.verdict},
                            {"largest that fit", s.found ? blocks + ", " + format_bytes(s.total_bytes) : "none"}});
    if (b.error) {
        std::cout << "\nthe " << b.error->stage << " error";
        if (!b.error->quoted.empty()) std::cout << " begins \"" << b.error->quoted << "\" (" << b.error->source << ")";
        std::cout << "\n" << b.error->explanation << "\n";
    }
    print_provenance(b.provenance);
}

void write_budget(Json& j, const VmemBudget& b, const BlockSuggestion& s) {
    j.begin_object();
    j.field("total_bytes", b.total_bytes).field("logical_bytes", b.logical_bytes);
    j.field("limit_bytes", b.limit_bytes).field("default_limit_bytes", b.default_limit_bytes);
    j.field("physical_bytes", b.physical_bytes);
    j.field("legal", b.legal).field("fits", b.fits).field("fits_physical", b.fits_physical);
    j.field("limit_needed_bytes", b.limit_needed_bytes);
    j.field("hbm_bytes", b.hbm_bytes).field("steps", b.steps);
    j.field("verdict", b.verdict);
    j.key("lines").begin_array();
    for (const BudgetLine& l : b.lines) {
        j.begin_object().field("name", l.name).field("role", std::string(role_name(l.role)));
        j.field("dtype", std::string(name(l.dtype))).field("buffers", l.buffers);
        j.key("block").begin_array();
        for (std::int64_t d : l.block) j.value(d);
        j.end_array();
        j.key("padded").begin_array();
        for (std::int64_t d : l.padded) j.value(d);
        j.end_array();
        j.field("logical_bytes", l.logical_bytes).field("padded_bytes", l.padded_bytes);
        j.field("total_bytes", l.total_bytes).field("legal", l.legality.legal).field("reason", l.legality.reason);
        j.end_object();
    }
    j.end_array();
    if (b.error) {
        j.key("error").begin_object().field("stage", b.error->stage).field("quoted", b.error->quoted);
        j.field("source", b.error->source).field("explanation", b.error->explanation).end_object();
    }
    j.key("suggestion").begin_object().field("found", s.found);
    j.key("blocks").begin_array();
    for (std::int64_t d : s.blocks) j.value(d);
    j.end_array();
    j.field("total_bytes", s.total_bytes).field("hbm_bytes", s.hbm_bytes).field("steps", s.steps);
    j.field("reason", s.reason).end_object();
    j.key("provenance");
    write_provenance(j, b.provenance);
    j.end_object();
}

}  // namespace

int cmd_vmem(const Args& args) {
    const std::string what = args.words().size() > 1 ? args.words()[1] : "";
    const std::string command = "tpusim vmem " + what;
    args.max_words(2, command);
    if (what.empty()) throw InputError("tpusim vmem needs a kernel: matmul, attention or layernorm");
    args.allow_only({"chip", "sizes", "blocks", "dtype", "buffers", "vmem-limit-mib"}, command);
    const BudgetKernelInfo& info = budget_kernel_info(what);
    BudgetKernelSpec spec = budget_preset(info.kind);
    if (args.has("sizes")) spec.sizes = args.shape("sizes");
    if (args.has("blocks")) spec.blocks = args.shape("blocks");
    spec.dtype = args.dtype("dtype", spec.dtype);
    spec.input_buffers = static_cast<int>(args.positive("buffers", 2));
    std::optional<double> limit;
    if (args.has("vmem-limit-mib")) limit = args.number("vmem-limit-mib") * 1024.0 * 1024.0;
    const VmemBudget b = vmem_budget(args.chip(), spec, limit);
    const BlockSuggestion s = largest_fitting_blocks(args.chip(), spec, limit);
    if (args.flag("json")) {
        Json j;
        write_budget(j, b, s);
        std::cout << j.str() << "\n";
    } else {
        print_budget(b, s, info);
    }
    return 0;
}

}  // namespace tpusim::cli
