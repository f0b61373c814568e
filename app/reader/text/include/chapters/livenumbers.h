#pragma once

// Live numbers in chapter text: {{KIND ARG=VALUE ... : FIELD}} (see
// LIVE-NUMBERS.md), resolved through libtpusim for a chosen chip.

#include <tpusim/error.h>
#include <tpusim/provenance.h>

#include <limits>
#include <map>
#include <string>
#include <string_view>

namespace course::live {

// A placeholder that is written wrong: unknown kind, field or argument, a
// malformed value. (A well-formed one the model refuses, such as blocks that
// overflow VMEM on a chip, throws the simulator's plain InputError instead.)
class PlaceholderError : public tpusim::InputError
{
public:
    using tpusim::InputError::InputError;
};

struct Placeholder
{
    std::string kind;
    std::map<std::string, std::string> args;
    std::string field;
};

// What a placeholder shows: the formatted value and what it is. A chip's
// published figure is not a prediction; it carries its source instead.
struct Value
{
    std::string text;              // "697.7 µs", "820 GB/s", "compute"
    bool isFact = false;           // a published figure (or an assumption), not a model's answer
    bool isAssumption = false;     // a fact no source publishes: the simulator's own assumed figure
    std::string source;            // for facts: the source tags
    tpusim::Provenance provenance; // for model answers
    std::string details;           // one paragraph for a tooltip
    // The figure as a plain number in SI units, for charts and timelines:
    // chip facts (when published), ridge points, published figures and the
    // models' times, bytes, FLOPs and ratios where given; NaN for the rest.
    double number = std::numeric_limits<double>::quiet_NaN();
};

// Parses the text between the braces. Throws PlaceholderError with one
// sentence on anything malformed.
Placeholder parse(std::string_view inner);

// Computes the value; `chip` is used unless the placeholder names one.
// Throws PlaceholderError for unknown kinds, arguments or fields, and the
// simulator's InputError when the model refuses the inputs on this chip.
Value resolve(const Placeholder &placeholder, const std::string &chip);

} // namespace course::live
