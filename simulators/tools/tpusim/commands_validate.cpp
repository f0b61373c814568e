// tpusim validate: the models against published timings of real TPU runs,
// family by family, with the constants fitted on them.
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

std::string magnitude(double error) {
    return format_fixed(100 * std::abs(error), 1) + " %";
}

std::string shape_of(const PublishedRow& r) {
    std::string s;
    for (const auto& [key, value] : r.shape) s += (s.empty() ? "" : " ") + key + "=" + value;
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::string constant_value(const FittedConstant& c) {
    if (c.unit == "s") return format_time(c.value);
    if (c.key == "f32_over_bf16") return format_fixed(c.value, 2) + "x";
    return format_fixed(100 * c.value, 1) + " %";
}

void print_json(const Validation& v) {
    Json j;
    j.begin_object().key("rows").begin_array();
    for (const ValidationRow& r : v.rows) {
        const PublishedRow& p = *r.row;
        j.begin_object().field("id", p.id).field("family", family_key(p.family)).field("what", p.what);
        j.field("chip", p.chip).field("dtype", p.dtype).key("shape").begin_object();
        for (const auto& [key, value] : p.shape) j.field(key, value);
        j.end_object();
        j.field("timing", p.timing == Timing::device ? "device" : "host").field("timed", p.timing_how);
        j.field("published_s", p.published_s).field("expressible", r.expressible);
        if (r.expressible) {
            j.field("model", r.model).field("grid_steps", r.grid_steps).field("device_s", r.device_s);
            j.field("call_s", r.call_s).field("predicted_s", r.predicted_s).field("error", r.error);
        } else {
            j.field("not_expressible", r.not_expressible);
        }
        j.field("held_out", r.held_out).field("fitted", r.fitted).field("doubt", p.doubt);
        j.field("source", p.source).field("quote", p.quote);
        j.field("table", p.table).field("line", p.line).end_object();
    }
    j.end_array().key("families").begin_array();
    for (const FamilyErrors& e : v.families) {
        j.begin_object()
            .field("family", family_key(e.family))
            .field("rows", e.rows)
            .field("expressible", e.expressible);
        j.field("held_out_rows", e.held_out).field("held_out_median", e.held_out_median);
        j.field("held_out_worst", e.held_out_worst).field("in_doubt_rows", e.in_doubt);
        j.field("in_doubt_median", e.in_doubt_median).field("in_doubt_worst", e.in_doubt_worst);
        j.field("fitted_rows", e.fitted);
        j.field("fitted_median", e.fitted_median)
            .field("fitted_worst", e.fitted_worst)
            .field("all_median", e.all_median);
        j.end_object();
    }
    j.end_array().key("constants").begin_array();
    for (const FittedConstant& c : v.constants) {
        j.begin_object().field("key", c.key).field("chip", c.chip).field("value", c.value).field("unit", c.unit);
        j.field("how", c.how).key("fitted_on").begin_array();
        for (const std::string& id : c.fitted_on) j.value(id);
        j.end_array().end_object();
    }
    j.end_array().end_object();
    std::cout << j.str() << "\n";
}

}  // namespace

int cmd_validate(const Args& args) {
    args.allow_only({}, "tpusim validate");
    args.max_words(1, "tpusim validate");
    const Validation& v = validation();
    if (args.flag("json")) {
        print_json(v);
        return 0;
    }
    Table t({"id", "family", "chip", "shape", "timed", "published", "predicted", "error", "row"},
            {false, false, false, false, false, true, true, true, false});
    for (const ValidationRow& r : v.rows) {
        const PublishedRow& p = *r.row;
        if (!(p.published_s > 0)) continue;
        const char* timed = p.timing == Timing::device ? "device" : "host";
        if (!r.expressible) {
            t.add({p.id, std::string(family_key(p.family)), p.chip, shape_of(p), timed, format_time(p.published_s), "-",
                   "-", "not expressible"});
            continue;
        }
        t.add({p.id, std::string(family_key(p.family)), p.chip, shape_of(p), timed, format_time(p.published_s),
               format_time(r.predicted_s), percent(r.error),
               !p.doubt.empty() ? "in doubt"
               : r.fitted       ? "fitted"
               : r.held_out     ? "held out"
                                : "tested"});
    }
    t.print(std::cout);
    std::cout << "\n";
    Table s({"family", "rows", "chips", "held-out rows", "median |error|", "worst |error|", "fitted rows",
             "their median", "in doubt", "their worst", "all rows' median"},
            {false, true, false, true, true, true, true, true, true, true, true});
    for (const FamilyErrors& e : v.families) {
        std::string chips;
        for (const std::string& c : e.chips) chips += (chips.empty() ? "" : " ") + c;
        s.add({std::string(family_title(e.family)), std::to_string(e.rows), chips, std::to_string(e.held_out),
               e.held_out > 0 ? magnitude(e.held_out_median) : "-", e.held_out > 0 ? magnitude(e.held_out_worst) : "-",
               std::to_string(e.fitted), e.fitted > 0 ? magnitude(e.fitted_median) : "-", std::to_string(e.in_doubt),
               e.in_doubt > 0 ? magnitude(e.in_doubt_worst) : "-", e.expressible > 0 ? magnitude(e.all_median) : "-"});
    }
    s.print(std::cout);
    std::cout << "\n";
    Table k({"constant", "chip", "value", "how"}, {false, false, true, false});
    for (const FittedConstant& c : v.constants) k.add({c.name, c.chip, constant_value(c), c.how});
    k.print(std::cout);
    std::cout << "\nA row its own source contradicts is in doubt: no fit uses it, and its errors are counted apart "
                 "from the held-out rows'. Of the other rows, a third of every family (the first by a hash of their "
                 "ids) is kept out of every fit. Each row's source, the excerpt its number stands in, its doubt and "
                 "the rows each constant was fitted on are in --json. A device row is compared with the predicted "
                 "device time, a host row with the predicted call time.\n";
    return 0;
}

}  // namespace tpusim::cli
