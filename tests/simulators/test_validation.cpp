// The validation table: every row sourced, the pipeline model within the
// goal on the rows it was not fitted on, and the chip table's two fitted
// constants reproducible from the rows they name.
#include <catch2/catch.hpp>

#include <set>

#include "tpusim/chips.h"
#include "tpusim/validation.h"

using namespace tpusim;

TEST_CASE("every published row says what ran, where, how it was timed and where it was printed", "[validation]") {
    std::set<std::string> ids;
    for (const Measurement& m : published_measurements()) {
        INFO(m.id);
        CHECK(ids.insert(m.id).second);
        CHECK(m.published_s > 0);
        CHECK_FALSE(m.what.empty());
        CHECK_FALSE(m.timing.empty());
        CHECK(m.source.find("@") != std::string::npos);  // a repository at a commit
        CHECK_NOTHROW(chip(m.chip));
        CHECK(m.m > 0);
    }
    CHECK(ids.size() >= 20);
}

TEST_CASE("the pipeline model on the rows it was not fitted on: median within 15 %, worst within 35 %", "[validation]") {
    const Validation v = validate();
    std::int64_t fewest = INT64_MAX, most = 0;
    for (const ValidationRow& r : v.rows) {
        INFO(r.measurement->id << ": predicted " << r.predicted_s << " s, published " << r.measurement->published_s);
        if (r.measurement->model != ValidatedModel::pipeline) continue;
        fewest = std::min(fewest, r.grid_steps);
        most = std::max(most, r.grid_steps);
        if (r.measurement->fitted) CHECK(std::abs(r.error) < 0.01);
    }
    CHECK(fewest == 2);  // grids from 2 steps ...
    CHECK(most == 262144);  // ... to 262,144
    const ModelErrors& pipeline = v.models.at(0);
    REQUIRE(pipeline.model == ValidatedModel::pipeline);
    CHECK(pipeline.fitted == 2);
    CHECK(pipeline.held_out >= 12);
    CHECK(pipeline.held_out_median <= 0.15);
    CHECK(pipeline.held_out_worst <= 0.35);
}

TEST_CASE("the chip table's fitted constants come from the rows they name", "[validation]") {
    const PipelineFit fit = fit_pipeline_constants();
    for (const Chip& c : all_chips()) {
        INFO(c.id);
        CHECK(c.grid_step_overhead.value == Approx(fit.step_s).epsilon(0.01));
        CHECK(c.kernel_launch.value == Approx(fit.launch_s).epsilon(0.01));
        CHECK(c.grid_step_overhead.assumption);
        CHECK(c.kernel_launch.assumption);
    }
    // Each names a fitted row of the table.
    for (const Fact* f : {&chip("v5e").grid_step_overhead, &chip("v5e").kernel_launch}) {
        bool named = false;
        for (const Measurement& m : published_measurements())
            named = named || (m.fitted && f->source.find("row " + m.id) != std::string::npos);
        CHECK(named);
    }
}

TEST_CASE("each prediction says what it is: predicted, by the model it validates, on the row's chip and dtype", "[validation]") {
    for (const ValidationRow& r : validate().rows) {
        const Measurement& m = *r.measurement;
        INFO(m.id);
        CHECK(r.provenance.kind == Kind::predicted);
        CHECK(r.provenance.model.find(model_name(m.model)) != std::string::npos);
        CHECK(r.provenance.chip == m.chip);
        CHECK(r.provenance.dtype.find(m.dtype) != std::string::npos);
        CHECK_FALSE(r.provenance.assumptions.empty());
    }
}
