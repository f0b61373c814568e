#include "tpusim/pipeline_trace.h"

#include <map>
#include <string>

namespace tpusim {

namespace {

std::string names(const std::vector<int>& which, const std::vector<BlockSpec>& specs) {
    std::string s;
    for (int i : which) s += (s.empty() ? "" : ",") + specs[static_cast<std::size_t>(i)].name;
    return s.empty() ? "-" : s;
}

std::string grid_text(const std::vector<std::int64_t>& g) {
    std::string s = "(";
    for (std::size_t i = 0; i < g.size(); ++i) s += (i ? "," : "") + std::to_string(g[i]);
    return s + ")";
}

}  // namespace

std::vector<TraceEvent> pipeline_trace(const Kernel& kernel, const PipelineResult& r) {
    std::vector<TraceEvent> events;
    std::map<int, double> last_end;  // per core
    for (const StepRecord& s : r.timeline) {
        const std::string core = "TensorCore " + std::to_string(s.core);
        if (!last_end.count(s.core) && s.start_s > 0)
            events.push_back({"prologue: first blocks in", "dma", core, "DMA engine", 0, s.start_s, {}});
        const double begin = s.start_s + s.overhead_s;
        if (s.overhead_s > 0)
            events.push_back({"step overhead", "overhead", core, "compute", s.start_s, s.overhead_s, {}});
        events.push_back({"step " + std::to_string(s.step) + " " + grid_text(s.grid_index),
                          "compute",
                          core,
                          "compute",
                          begin,
                          s.compute_s,
                          {{"grid", grid_text(s.grid_index)}}});
        if (s.dma_s > 0)
            events.push_back({"copies during step " + std::to_string(s.step),
                              "dma",
                              core,
                              "DMA engine",
                              begin,
                              s.dma_s,
                              {{"next inputs", names(s.fetched, kernel.inputs)},
                               {"written back", names(s.written, kernel.outputs)}}});
        last_end[s.core] = s.end_s;
    }
    // The last output blocks go out after the last step. When the timeline
    // was cut short, the trace ends where the recording did.
    if (r.epilogue_s > 0 && static_cast<std::int64_t>(r.timeline.size()) >= r.steps)
        for (const auto& [core, end] : last_end)
            events.push_back({"epilogue: last blocks out",
                              "dma",
                              "TensorCore " + std::to_string(core),
                              "DMA engine",
                              end,
                              r.epilogue_s,
                              {}});
    return events;
}

}  // namespace tpusim
