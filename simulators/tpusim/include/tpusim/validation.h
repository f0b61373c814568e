#pragma once
// How wrong the models are on real chips: published timings, each with its
// source, chip, shapes and how it was timed, set against what libtpusim
// predicts for the same run. Some rows fix the pipeline model's two fitted
// constants; every other row is held out, and its error is reported apart.
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/provenance.h"

namespace tpusim {

enum class ValidatedModel { pipeline, roofline };
std::string_view model_name(ValidatedModel model);  // "pipeline", "roofline"

struct Measurement {
    std::string id;       // "jax-mm-8192-b128"
    ValidatedModel model = ValidatedModel::pipeline;
    std::string what;     // "Pallas blocked matmul, x @ y"
    std::string chip;     // "v5e"
    std::string dtype;    // "bf16"
    std::int64_t m = 0, k = 0, n = 0;
    std::int64_t bm = 0, bk = 0, bn = 0;  // 0 for an XLA op
    double published_s = 0;
    std::string timing;   // how the source timed it
    std::string source;   // repository, path, commit and cell
    bool fitted = false;  // fixes one of the pipeline model's constants
};

// The table, in the order the sources print it.
const std::vector<Measurement>& published_measurements();

struct ValidationRow {
    const Measurement* measurement = nullptr;
    std::int64_t grid_steps = 0;  // 0 for an XLA op
    double predicted_s = 0;
    double error = 0;             // predicted / published - 1
    Provenance provenance;        // of the prediction: the model and its assumptions
};

struct ModelErrors {
    ValidatedModel model = ValidatedModel::pipeline;
    int held_out = 0, fitted = 0;                 // rows of each kind
    double held_out_median = 0, held_out_worst = 0;  // of |error|
    double fitted_median = 0, fitted_worst = 0;
};

struct Validation {
    std::vector<ValidationRow> rows;
    std::vector<ModelErrors> models;
};

// Every row predicted with the chip table as it stands.
Validation validate();

// The pipeline model's fixed step time and launch cost that reproduce the
// fitted rows exactly, everything else as the chip table has it: what the
// chip table's two constants were set from.
struct PipelineFit {
    double step_s = 0;
    double launch_s = 0;
};
PipelineFit fit_pipeline_constants();

}  // namespace tpusim
