#pragma once
// The steps of a pipeline run as a Chrome trace (see trace.h): per
// TensorCore, one track for compute (with each step's fixed overhead) and
// one for its DMA engine (prologue, the copies overlapping each step,
// epilogue). Needs a run recorded with PipelineOptions::timeline_steps.
#include <vector>

#include "tpusim/pipeline.h"
#include "tpusim/trace.h"

namespace tpusim {

std::vector<TraceEvent> pipeline_trace(const Kernel& kernel, const PipelineResult& result);

}  // namespace tpusim
