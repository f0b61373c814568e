#pragma once

// What the dot readers share: HLO prints a dot's dims the same way for a
// dot and a ragged dot.
#include <optional>

#include "tpusim/ir_dot.h"

namespace tpusim::ir::detail {

// An HLO dot's lhs_/rhs_contracting_dims and lhs_/rhs_batch_dims; none when
// the op prints none of them (a plain dot).
std::optional<DotDims> hlo_dot_dims(const Op& op);

}  // namespace tpusim::ir::detail
