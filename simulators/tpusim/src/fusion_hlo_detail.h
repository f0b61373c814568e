#pragma once
// What the HLO importer tells the kernel costing about one instruction.
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

}  // namespace tpusim::fusion
