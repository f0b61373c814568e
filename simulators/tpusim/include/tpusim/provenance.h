#pragma once
// Every number the learner sees travels with what it is: the honesty rule.
// The simulator only ever produces `predicted` values, or `verified_off_chip`
// from the numeric run of a schedule; `measured` exists so that the app and
// the progress store can use the same type for runs on real chips.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tpusim {

enum class Kind { predicted, verified_off_chip, measured };

// "predicted", "verified off-chip", "measured"
std::string_view kind_name(Kind kind);
// The same, as a JSON-friendly key: "predicted", "verified_off_chip", "measured"
std::string_view kind_key(Kind kind);

struct Provenance {
    Kind kind = Kind::predicted;
    std::string chip;    // "v5e"
    std::string dtype;   // "bf16", or "bf16 in, f32 acc, bf16 out"
    std::string shapes;  // "M=4096 K=4096 N=4096"
    std::string model;   // "roofline", "pipeline", "systolic array", ...
    std::string date;    // only for measured values (ISO date); empty otherwise
    // Each assumption the answer rests on, in one sentence; the app shows them.
    std::vector<std::string> assumptions;
    // The value's own arithmetic, a step a line ("2 buffers x 128.0 KiB"),
    // shown before the model and its assumptions. Empty for most values:
    // a result's provenance is shared by its figures, and each figure that
    // has working gets a copy with its own (with_working).
    std::vector<std::string> working;
};

// `p` with `lines` as its working.
Provenance with_working(Provenance p, std::vector<std::string> lines);

// One named number with its unit, for the secondary figures of an answer.
struct Figure {
    std::string name;  // "arithmetic intensity"
    double value = 0;
    std::string unit;  // "FLOP/B"
};

// The value type for any answer shown to the learner: the headline number,
// its unit, the figures that explain it, and its provenance.
struct Estimate {
    std::string label;  // "matmul NxNxN"
    double value = 0;   // in SI units (seconds, bytes, FLOP/s, ...)
    std::string unit;   // "s"
    std::vector<Figure> details;
    Provenance provenance;
};

// What a value is, for a tooltip: "predicted · v5e · bf16", then the
// working, the shapes, the model, the date and each assumption on lines of
// their own.
std::string describe(const Provenance& p);

// Time for people: "697.7 µs", "1.25 ms", "850 ns", "2.50 s". A whole
// number of the unit has no decimals (the same for bytes and rates).
std::string format_time(double seconds);
// Bytes for people with binary prefixes: "16 MiB", "1.5 KiB", "512 B".
std::string format_bytes(double bytes);
// A rate with decimal prefixes: format_rate(1.97e14, "FLOP/s") == "197 TFLOP/s".
std::string format_rate(double per_second, std::string_view unit);
// Fixed-point with `decimals` digits after the point.
std::string format_fixed(double value, int decimals);
// A prediction's error against a measurement, (predicted - measured) /
// measured, signed with a true minus, to a tenth of a percent: "+3.2 %",
// "−18.8 %"; one that rounds to nothing is "0.0 %", and none is "–".
std::string format_error(double fraction);
// A shape, grid point or block index as Python prints it: "(256, 1024)".
std::string format_tuple(const std::vector<std::int64_t>& values);
// FLOPs per HBM byte: "1365 FLOP/B", "2.5 FLOP/B", and two significant
// digits below 1, "0.17 FLOP/B".
std::string format_intensity(double flop_per_byte);
// A count with thousands separated: 68719476736 -> "68,719,476,736";
// from 1e15 on, three significant digits in scientific form.
std::string format_count(double value);

}  // namespace tpusim
