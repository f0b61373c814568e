#pragma once
// Index maps as text: the small expression language of the BlockSpec
// sandbox. A map is written as Python's lambda, `lambda i, j, k: (i, k)`, or
// in the form IndexMap::text() prints, `(i, j, k) -> (i, k)`. Each returned
// block index is affine in the grid indices: names the map declares, whole
// numbers, + and -, * by a whole number, parentheses and unary minus.
#include <string_view>

#include "tpusim/pipeline.h"

namespace tpusim {

// Parses `text` into an IndexMap taking `grid_rank` grid indices and
// returning `array_rank` block indices. Throws InputError with one sentence
// that names the column (counted from 1) and what is wrong there: a floor
// division, a modulo, a call, an unknown name, a product of two grid
// indices, or the wrong number of indices in or out.
// parse_index_map(m.text(), grid rank, array rank) gives back m.
IndexMap parse_index_map(std::string_view text, int grid_rank, int array_rank);

}  // namespace tpusim
