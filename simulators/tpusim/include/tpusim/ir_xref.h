#pragma once
// One program seen at three layers: which jaxpr equation became which
// StableHLO ops and which HLO instructions. StableHLO and HLO carry the
// JAX op name and the source line (MLIR loc(...), HLO metadata); a jaxpr
// carries neither, so its equations are matched in order, primitive by
// primitive, within each jit scope.
#include <string>
#include <vector>

#include "tpusim/ir.h"

namespace tpusim::ir {

struct CrossLink {
    std::string primitive;  // "dot_general", "jit(relu)", "reduce_max"
    std::string scope;      // "relu" inside jit(relu); empty at the top level
    std::string op_name;    // "jit(mlp)/jit(main)/dot_general"; empty for a jaxpr-only link
    std::string source;     // "mlp.py:8"
    // Where the op sits in each dump (empty when a layer has none of it).
    std::vector<Position> jaxpr, stablehlo, hlo;
};

// Splits "jit(mlp)/jit(main)/jit(relu)/max" into the scope "relu" and the
// primitive "max"; the outer jit and jit(main) are not scopes.
void split_op_name(std::string_view op_name, std::string& scope, std::string& primitive);

// Links in StableHLO print order (or HLO order when the StableHLO module is
// empty), then jaxpr equations no StableHLO op claimed. Any module may be
// empty (a default-constructed Module) when that layer is missing.
std::vector<CrossLink> correspond(const Module& jaxpr, const Module& stablehlo, const Module& hlo);

// The link holding an op that starts on `line` of the `layer` dump, or nullptr.
const CrossLink* link_at_line(const std::vector<CrossLink>& links, Format layer, int line);

// Which link owns each line of the `layer` dump, for panes that highlight
// whole ops: entry L-1 is the index in `links` of the op covering line L,
// or -1. An op covers its first to its last line (jaxpr params and MLIR
// regions span several); an op nested in another's region owns its own
// lines. `module` is the parse of that dump; `line_count` its lines.
std::vector<int> link_of_each_line(const std::vector<CrossLink>& links, const Module& module, Format layer,
                                   int line_count);

}  // namespace tpusim::ir
