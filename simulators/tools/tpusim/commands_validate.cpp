// tpusim validate: the models against published timings of real TPU runs.
#include <cmath>
#include <iostream>

#include "commands.h"
#include "table.h"
#include "tpusim/validation.h"

namespace tpusim::cli {

namespace {

std::string percent(double error) {
    return (error >= 0 ? "+" : "") + format_fixed(100 * error, 1) + " %";
}

std::string shape_of(const Measurement& m) {
    std::string s = std::to_string(m.m) + "x" + std::to_string(m.k) + "x" + std::to_string(m.n);
    if (m.bm > 0) s += " in " + std::to_string(m.bm) + "x" + std::to_string(m.bk) + "x" + std::to_string(m.bn);
    return s;
}

}  // namespace

int cmd_validate(const Args& args) {
    args.allow_only({}, "tpusim validate");
    args.max_words(1, "tpusim validate");
    const Validation v = validate();
    if (args.flag("json")) {
        Json j;
        j.begin_object().key("rows").begin_array();
        for (const ValidationRow& r : v.rows) {
            const Measurement& m = *r.measurement;
            j.begin_object().field("id", m.id).field("model", model_name(m.model)).field("what", m.what);
            j.field("chip", m.chip).field("dtype", m.dtype).field("m", m.m).field("k", m.k).field("n", m.n);
            j.field("bm", m.bm).field("bk", m.bk).field("bn", m.bn).field("grid_steps", r.grid_steps);
            j.field("published_s", m.published_s).field("predicted_s", r.predicted_s).field("error", r.error);
            j.field("fitted", m.fitted).field("timing", m.timing).field("source", m.source);
            j.end_object();
        }
        j.end_array().key("models").begin_array();
        for (const ModelErrors& e : v.models) {
            j.begin_object().field("model", model_name(e.model));
            j.field("held_out_rows", e.held_out).field("held_out_median", e.held_out_median);
            j.field("held_out_worst", e.held_out_worst).field("fitted_rows", e.fitted);
            j.field("fitted_median", e.fitted_median).field("fitted_worst", e.fitted_worst).end_object();
        }
        j.end_array().end_object();
        std::cout << j.str() << "\n";
        return 0;
    }
    Table t({"id", "model", "chip", "shape", "steps", "published", "predicted", "error", "row"},
            {false, false, false, false, true, true, true, true, false});
    for (const ValidationRow& r : v.rows) {
        const Measurement& m = *r.measurement;
        t.add({m.id, std::string(model_name(m.model)), m.chip, shape_of(m),
               r.grid_steps > 0 ? std::to_string(r.grid_steps) : "-", format_time(m.published_s),
               format_time(r.predicted_s), percent(r.error), m.fitted ? "fitted" : "held out"});
    }
    t.print(std::cout);
    std::cout << "\n";
    Table s({"model", "held-out rows", "median |error|", "worst |error|", "fitted rows", "their worst"},
            {false, true, true, true, true, true});
    for (const ModelErrors& e : v.models)
        s.add({std::string(model_name(e.model)), std::to_string(e.held_out), percent(e.held_out_median).substr(1),
               percent(e.held_out_worst).substr(1), std::to_string(e.fitted),
               e.fitted > 0 ? percent(e.fitted_worst).substr(1) : "-"});
    s.print(std::cout);
    std::cout << "\nSources: every row's source and timing method are in --json. All rows time a call from "
                 "Python, dispatch included; the roofline is a floor and leaves that out.\n";
    return 0;
}

}  // namespace tpusim::cli
