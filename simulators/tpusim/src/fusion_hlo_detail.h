#pragma once
// What the HLO importer tells the kernel costing about one instruction.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/ir.h"
#include "tpusim/roofline.h"

namespace tpusim::fusion {

struct OpWork {
    double flops = 0;             // of every op it runs, fusions inlined
    Engine engine = Engine::vpu;  // MXU when it holds a dot or convolution
    DType dtype = DType::f32;     // the MXU rate's input type
};

// `wrapped` holds the instruction as its root, its operands as parameters.
OpWork op_work(const ir::Module& module, const ir::Computation& wrapped);

// A collective's time on the ICI, and how it was laid on the torus.
struct IciCost {
    double time_s = 0;
    std::string how;  // "all-reduce of 4 B among 8 chips, laid as one line of 8, latency-bound"
};

// An all-reduce, all-gather, reduce-scatter or all-to-all (or its -start)
// priced by the collective model over its device group, taken as one axis
// of the chip's torus, or the pod's side by the rest; nullopt for any other
// instruction, or one whose group size the dump does not give. `priced`
// keeps what was worked out, so the same collective is simulated once.
std::optional<IciCost> ici_cost(const ir::Op& op, const Chip& chip, double bytes_read, double bytes_written,
                                std::map<std::string, IciCost>& priced);
// The -done of an asynchronous collective: it waits, and moves nothing itself.
bool waits_for_collective(std::string_view opcode);

}  // namespace tpusim::fusion
