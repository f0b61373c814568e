#pragma once
// Op names that look misspelt. StableHLO's ops and XLA's HLO opcodes are
// closed sets; a dump, most often one pasted and edited by hand, that names
// an op outside its set but within two edits of one inside it has a typo,
// which the readers would otherwise take in silence for an op they do not
// know ("stablehlo.dot_genral": no dot found, and nothing said why). A name
// far from every known one is left alone: it may be an op newer than these
// lists, or another dialect's. jaxpr's primitives are an open set and are
// not checked.
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/ir.h"

namespace tpusim::ir {

struct MisspeltOp {
    Position position;    // of the op
    std::string written;  // "stablehlo.dot_genral", "multipy"
    std::string meant;    // "stablehlo.dot_general", "multiply"

    // "line 2: stablehlo.dot_genral is not a StableHLO op; did you mean stablehlo.dot_general?"
    std::string sentence(Format format) const;
};

// Every op of `module` whose name looks misspelt, in print order.
std::vector<MisspeltOp> misspelt_ops(const Module& module);

// The closest name of the op set of `format` within two edits of `name`
// (StableHLO names without "stablehlo."), or "" when none is, or when
// `name` is in the set. Exposed for tests.
std::string nearest_op_name(std::string_view name, Format format);

}  // namespace tpusim::ir
