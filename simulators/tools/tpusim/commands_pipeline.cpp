// tpusim pipeline | blockspec
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/blockspec.h"
#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/pipeline_schedule.h"
#include "tpusim/pipeline_trace.h"

namespace tpusim::cli {

namespace {

constexpr std::size_t timeline_rows = 64;

std::string list_text(const std::vector<int>& which, const std::vector<BlockSpec>& specs) {
    std::string s;
    for (int i : which) {
        if (!s.empty()) s += ",";
        s += specs[static_cast<std::size_t>(i)].name;
    }
    return s.empty() ? "-" : s;
}

void print_pipeline(const Kernel& kernel, const PipelineResult& r) {
    print_pairs(std::cout, {{"kernel", kernel.name + " (" + kernel.shapes + ")"},
                            {"time", format_time(r.time_s)},
                            {"roofline floor", format_time(r.floor_s)},
                            {"utilization", format_fixed(100 * r.utilization, 1) + " %"},
                            {"grid steps", std::to_string(r.steps) + " on " + std::to_string(r.cores) + " TensorCore" +
                                               (r.cores > 1 ? "s" : "")},
                            {"compute", format_time(r.compute_s)},
                            {"step overhead", format_time(r.overhead_s) + " (steps at their fixed least time)"},
                            {"launch", format_time(r.launch_s)},
                            {"exposed DMA", format_time(r.exposed_dma_s) + " (prologue " + format_time(r.prologue_s) +
                                                ", epilogue " + format_time(r.epilogue_s) + ")"},
                            {"HBM traffic", format_bytes(r.hbm_bytes) + " in " +
                                                std::to_string(r.input_copies + r.output_copies) + " block copies"},
                            {"VMEM", format_bytes(r.vmem_bytes) + " of " + format_bytes(r.vmem_limit_bytes)}});
    if (!r.timeline.empty()) {
        std::cout << "\n";
        Table t({"step", "core", "grid", "fetched", "written", "start", "compute", "DMA", "end"},
                {true, true, false, false, false, true, true, true, true});
        for (const StepRecord& s : r.timeline) {
            std::string g;
            for (std::size_t i = 0; i < s.grid_index.size(); ++i) g += (i ? "," : "") + std::to_string(s.grid_index[i]);
            t.add({std::to_string(s.step), std::to_string(s.core), "(" + g + ")", list_text(s.fetched, kernel.inputs),
                   list_text(s.written, kernel.outputs), format_time(s.start_s), format_time(s.compute_s),
                   format_time(s.dma_s), format_time(s.end_s)});
        }
        t.print(std::cout);
    }
    print_provenance(r.provenance);
}

void write_pipeline(Json& j, const Kernel& kernel, const PipelineResult& r) {
    j.begin_object();
    j.field("kernel", kernel.name);
    j.field("time_s", r.time_s).field("time", format_time(r.time_s));
    j.field("steps", r.steps).field("cores", r.cores);
    j.field("vmem_bytes", r.vmem_bytes).field("vmem_limit_bytes", r.vmem_limit_bytes);
    j.field("hbm_bytes", r.hbm_bytes);
    j.field("input_copies", r.input_copies).field("output_copies", r.output_copies);
    j.field("flops", r.flops).field("utilization", r.utilization);
    j.field("compute_s", r.compute_s).field("overhead_s", r.overhead_s).field("launch_s", r.launch_s);
    j.field("exposed_dma_s", r.exposed_dma_s);
    j.field("prologue_s", r.prologue_s).field("epilogue_s", r.epilogue_s);
    j.field("floor_s", r.floor_s);
    j.key("grid").begin_array();
    for (std::int64_t g : kernel.grid) j.value(g);
    j.end_array();
    if (!r.timeline.empty()) {
        j.key("timeline").begin_array();
        for (const StepRecord& s : r.timeline) {
            j.begin_object().field("step", s.step).field("core", s.core);
            j.key("grid_index").begin_array();
            for (std::int64_t g : s.grid_index) j.value(g);
            j.end_array();
            j.key("fetched").begin_array();
            for (int i : s.fetched) j.value(kernel.inputs[static_cast<std::size_t>(i)].name);
            j.end_array();
            j.key("written").begin_array();
            for (int i : s.written) j.value(kernel.outputs[static_cast<std::size_t>(i)].name);
            j.end_array();
            j.field("start_s", s.start_s).field("compute_s", s.compute_s);
            j.field("dma_s", s.dma_s).field("overhead_s", s.overhead_s).field("end_s", s.end_s);
            j.end_object();
        }
        j.end_array();
    }
    j.key("provenance");
    write_provenance(j, r.provenance);
    j.end_object();
}

}  // namespace

int cmd_pipeline(const Args& args) {
    const std::string what = args.words().size() > 1 ? args.words()[1] : "";
    const std::string command = "tpusim pipeline " + what;
    args.max_words(2, command);
    Kernel kernel;
    if (what == "matmul") {
        args.allow_only({"chip", "m", "k", "n", "bm", "bk", "bn", "order", "dtype", "out-dtype", "vmem-limit-mib",
                         "timeline", "trace"},
                        command);
        BlockedMatmul s;
        s.m = args.positive("m");
        s.k = args.positive("k");
        s.n = args.positive("n");
        s.bm = args.positive("bm");
        s.bk = args.positive("bk");
        s.bn = args.positive("bn");
        s.in = args.dtype("dtype", DType::bf16);
        s.out = args.dtype("out-dtype", s.in);
        s.order = args.text("order", "mnk");
        kernel = blocked_matmul(s);
    } else if (what == "elementwise") {
        args.allow_only(
            {"chip", "shape", "block", "inputs", "dtype", "flops-per-element", "vmem-limit-mib", "timeline", "trace"},
            command);
        const auto shape = args.shape("shape");
        const auto block = args.shape("block");
        if (shape.size() != 2 || block.size() != 2)
            throw InputError("--shape and --block take two dimensions, like 4096x4096");
        kernel =
            blocked_elementwise(shape[0], shape[1], block[0], block[1], static_cast<int>(args.positive("inputs", 2)),
                                args.dtype("dtype", DType::bf16), args.number("flops-per-element", 1.0));
    } else {
        throw InputError(what.empty() ? "tpusim pipeline needs a kernel: matmul or elementwise"
                                      : "unknown pipeline kernel '" + what + "': use matmul or elementwise");
    }
    PipelineOptions options;
    if (args.has("vmem-limit-mib")) options.vmem_limit_bytes = args.number("vmem-limit-mib") * 1024.0 * 1024.0;
    if (args.flag("timeline")) options.timeline_steps = timeline_rows;
    const PipelineResult r = simulate(args.chip(), kernel, options);
    if (args.has("trace")) {  // a second run with its schedule: the trace EX·08 exports, up to 65,536 steps a core
        PipelineOptions every_step = options;
        every_step.schedule = true;
        write_chrome_trace(args.text("trace", ""),
                           schedule_trace(kernel, simulate(args.chip(), kernel, every_step), std::size_t{1} << 16));
    }
    if (args.flag("json")) {
        Json j;
        write_pipeline(j, kernel, r);
        std::cout << j.str() << "\n";
    } else {
        print_pipeline(kernel, r);
    }
    return 0;
}

int cmd_blockspec(const Args& args) {
    const std::string what = args.words().size() > 1 ? args.words()[1] : "";
    const std::string command = "tpusim blockspec " + what;
    args.max_words(2, command);
    if (what == "check") {
        args.allow_only({"array", "block", "dtype", "space"}, command);
        const std::string space_text = args.text("space", "vmem");
        MemorySpace space = MemorySpace::vmem;
        if (space_text == "any")
            space = MemorySpace::any;
        else if (space_text == "smem")
            space = MemorySpace::smem;
        else if (space_text != "vmem")
            throw InputError("--space must be vmem, any or smem (got '" + space_text + "')");
        const Legality l =
            check_block(args.shape("array"), args.shape("block"), args.dtype("dtype", DType::f32), space);
        if (args.flag("json")) {
            Json j;
            j.begin_object().field("legal", l.legal).field("reason", l.reason);
            j.key("notes").strings(l.notes).end_object();
            std::cout << j.str() << "\n";
        } else {
            std::cout << (l.legal ? "legal" : "illegal") << ": " << l.reason << "\n";
            for (const auto& n : l.notes) std::cout << "note: " << n << "\n";
        }
        return 0;
    }
    if (what == "verify") {
        args.allow_only({"m", "k", "n", "bm", "bk", "bn", "dtype", "order", "seed"}, command);
        const MatmulSchedule s = matmul_schedule(args.positive("m"), args.positive("k"), args.positive("n"),
                                                 args.positive("bm"), args.positive("bk"), args.positive("bn"),
                                                 args.dtype("dtype", DType::bf16), args.text("order", "ijk"));
        const Verification v = verify_matmul(s, static_cast<std::uint64_t>(args.positive("seed", 1)));
        if (args.flag("json")) {
            Json j;
            j.begin_object().field("passed", v.passed).field("reason", v.reason);
            j.field("elements", v.elements).field("mismatches", v.mismatches);
            j.field("max_abs_error", v.max_abs_error).field("tolerance", v.tolerance);
            j.field("steps", v.steps);
            j.key("coverage").begin_object();
            j.field("ok", v.coverage.ok).field("blocks", v.coverage.blocks);
            j.field("blocks_written", v.coverage.blocks_written);
            j.field("race", v.coverage.race).field("non_consecutive", v.coverage.non_consecutive);
            j.key("problems").strings(v.coverage.problems).end_object();
            j.key("provenance");
            write_provenance(j, v.provenance);
            j.end_object();
            std::cout << j.str() << "\n";
        } else {
            std::cout << (v.passed ? "passed" : "FAILED") << ": " << v.reason << "\n";
            for (const auto& p : v.coverage.problems) std::cout << "coverage: " << p << "\n";
            print_provenance(v.provenance);
        }
        return 0;
    }
    throw InputError(what.empty() ? "tpusim blockspec needs check or verify"
                                  : "unknown blockspec action '" + what + "': use check or verify");
}

}  // namespace tpusim::cli
