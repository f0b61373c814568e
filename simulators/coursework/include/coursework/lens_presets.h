#pragma once
// Chapter 7's worked cases of tiled layouts, as EX·12 opens them: an array's
// shape and dtype, and the change (reshape, transpose, cast) it may go
// through, each with the sentence that says what it shows.
#include "tpusim/layout.h"

#include <string>
#include <string_view>
#include <vector>

namespace coursework {

struct LensPreset {
    std::string id;
    std::string title;  // short, for a button
    std::string note;   // what it shows, one sentence
    std::vector<std::int64_t> shape;
    tpusim::DType dtype = tpusim::DType::f32;
    tpusim::LayoutChangeSpec change;
};
const std::vector<LensPreset>& lens_presets();
// Throws tpusim::InputError for an unknown id.
const LensPreset& lens_preset(std::string_view id);

}  // namespace coursework
