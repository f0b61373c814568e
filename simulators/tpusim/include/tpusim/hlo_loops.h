#pragma once
// How many times an HLO while loop runs, when the dump says: XLA's
// `known_trip_count` in the backend config, or a counter that starts at a
// constant, steps by a constant and is compared with a constant.
#include <cstdint>
#include <string>

#include "tpusim/ir.h"

namespace tpusim::ir {

struct TripCount {
    std::int64_t count = -1;  // -1 when the dump does not say
    std::string reason;       // how it was found, or why it could not be
};

// `loop` is a `while` instruction of `caller`, a computation of `module`.
TripCount while_trip_count(const Module& module, const Computation& caller, const Op& loop);

}  // namespace tpusim::ir
