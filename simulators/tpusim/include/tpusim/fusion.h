#pragma once
// An XLA-like fusion pass over a small op graph, and what it saves: HBM
// bytes and roofline time before (one kernel per op) and after (one kernel
// per fusion). Fusion merges ops along dataflow edges; it never changes the
// algorithm, which is why softmax attention keeps its score matrix in HBM.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/provenance.h"
#include "tpusim/roofline.h"

namespace tpusim::fusion {

enum class OpClass {
    parameter,    // an input of the program, read from HBM
    constant,     // folded into the kernel that uses it: no HBM traffic
    elementwise,  // add, exp, divide, ...: loop-fusible
    movement,     // broadcast, reshape, convert, transpose: loop-fusible, no FLOPs
    reduce,       // the root of an input fusion
    dot,          // dot_general or convolution: the root of an output fusion
    other,        // custom calls, loops, collectives: never fused
};

struct Node {
    std::string name;    // "scores", "exp.3"
    std::string opcode;  // "exp", "dot", "reduce_max"
    OpClass cls = OpClass::elementwise;
    std::vector<int> inputs;  // ids of earlier nodes
    std::vector<std::int64_t> shape;
    double element_bytes = 4;
    DType dtype = DType::f32;  // the rate used when the node runs on the MXU
    double flops = 0;
    bool output = false;     // a result of the program: always written to HBM
    bool expensive = false;  // transcendental or divide: never recomputed

    double bytes() const;  // elements x element_bytes
};

// Builds a graph in topological order: every op names earlier nodes only.
// Each method validates its input and throws InputError with one sentence.
class Graph {
public:
    explicit Graph(std::string name = "graph") : name_(std::move(name)) {}

    int parameter(const std::string& name, std::vector<std::int64_t> shape, DType dtype);
    int constant(const std::string& name, DType dtype);  // a scalar
    // Same-shape inputs (a scalar constant broadcasts); `flops_per_element`
    // VPU operations per output element.
    int elementwise(const std::string& name, const std::string& opcode, std::vector<int> inputs,
                    double flops_per_element = 1);
    int broadcast(const std::string& name, int input, std::vector<std::int64_t> shape);
    int convert(const std::string& name, int input, DType to);
    int reduce(const std::string& name, const std::string& opcode, int input, std::vector<int> axes);
    int dot(const std::string& name, int lhs, int rhs, const ir::DotDims& dims, DType out);
    // Anything else, with its shape, element width and FLOPs given.
    int add(Node node);
    void mark_output(int id);

    const std::string& name() const { return name_; }
    const std::vector<Node>& nodes() const { return nodes_; }
    const Node& node(int id) const;
    // consumers()[i]: the nodes that read node i, in order.
    std::vector<std::vector<int>> consumers() const;

private:
    std::string name_;
    std::vector<Node> nodes_;
};

// "exp", "divide", "rsqrt", ... : ops a fusion must not recompute.
bool is_expensive(std::string_view opcode);

enum class FusionKind { single, loop, input, output };
std::string_view kind_name(FusionKind kind);  // "op", "loop", "input", "output"

// One kernel: an op on its own, or a fusion of several.
struct Kernel {
    std::string name;  // "fusion.2", or the op's name when alone
    FusionKind kind = FusionKind::single;
    std::vector<int> nodes;       // members in graph order; the root is last
    std::vector<int> recomputed;  // cheap shared producers copied into this kernel
    std::vector<int> reads;       // values read from HBM (parameters and other kernels' results)
    double flops = 0;
    double bytes_read = 0, bytes_written = 0;
    double time_s = 0;  // roofline on the chip
    Engine engine = Engine::vpu;
};

struct FusionResult {
    std::string graph;
    std::vector<Kernel> before;  // one kernel per op
    std::vector<Kernel> after;
    double flops = 0;
    double bytes_before = 0, bytes_after = 0;
    double time_before = 0, time_after = 0;
    // Sentences: why each intermediate that stays in HBM could not be fused,
    // and for attention why this is not streaming (flash) attention.
    std::vector<std::string> notes;
    std::vector<std::string> rules;  // the fusion rules, as applied
    Provenance provenance;
};

FusionResult fuse(const Graph& graph, const Chip& chip);

// Built-in examples: "mlp", "softmax", "attention", "layernorm".
Graph example(std::string_view name);
std::vector<std::string_view> example_names();

// The unfused graph of an HLO module's entry computation: fusions and calls
// are inlined, tuples looked through. Throws InputError for ops it cannot cost.
Graph graph_from_hlo(const ir::Module& module);

// One kernel of an HLO module, as XLA fused it: an instruction that runs on
// the chip (a fusion, a lone dot, reduce or copy, a custom call), costed on
// the roofline as reading each operand and writing its result once.
struct HloKernel {
    std::string name;                          // "fusion.2", "dot.5"
    std::string opcode;                        // "fusion", "dot", "copy", "custom-call"
    std::string kind;                          // fusions: "loop", "input", "output", "custom"; else the opcode
    std::string computation;                   // the fused computation it runs; "" when none
    std::string loop;                          // the innermost while loop it runs in; "" when none
    ir::Position position;                     // of the instruction in the dump
    std::int64_t runs = 1;                     // the trip counts of the loops around it, multiplied
    double flops = 0;                          // one run's; whole numbers
    double bytes_read = 0, bytes_written = 0;  // one run's; whole bytes
    Engine engine = Engine::vpu;
    double time_s = 0;  // one run's
    Bound bound = Bound::memory;
    // A custom call whose work the dump does not hold (a cuBLAS gemm, an
    // FFT, a Pallas kernel): its bytes are counted, its FLOPs are not known.
    bool uncosted = false;
    std::string uncosted_reason;
    // A collective is timed on the ICI by the collective model, not on the
    // roofline: how its group was laid on the torus; empty for other kernels.
    std::string ici;
};

// A while loop met on the way, and how often its body was counted.
struct HloLoop {
    std::string name;
    ir::Position position;
    std::int64_t trips = -1;  // -1: the dump does not say; its body is counted once
    std::string reason;       // how the trip count was found, or why it was not
};

struct HloCost {
    std::vector<HloKernel> kernels;  // in program order, loop bodies where their loop runs
    std::vector<HloLoop> loops;
    double time_s = 0;                  // every kernel's runs, one after another on one core
    std::int64_t flops = 0, bytes = 0;  // exact totals over every run
    bool lower_bound = false;  // a loop with an unknown trip count, a conditional's branches or an uncosted custom call
    int uncosted = 0;          // custom calls whose FLOPs are not known
    int collectives = 0;       // kernels timed on the ICI
    bool optimized = true;     // false when the dump has no fusions and is not scheduled
    Provenance provenance;
};

// Costs the entry computation's kernels. Parameters, constants, tuples and
// bitcasts are free; a call is costed as its callee's kernels; a while loop
// as its body's kernels times its trip count (hlo_loops.h), or once, as a
// lower bound, when the dump does not say; a conditional's branches are left
// out, also a lower bound. The provenance says which applied. Throws
// InputError when the module is not HLO or an instruction's shapes cannot be read.
HloCost cost_hlo_kernels(const ir::Module& module, const Chip& chip);

}  // namespace tpusim::fusion
