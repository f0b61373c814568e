#include "tpusim/ir_names.h"

#include <algorithm>
#include <array>

namespace tpusim::ir {
namespace {

// StableHLO's ops, from its specification and the status table of the ops
// it took from MHLO (a few of those since retired but still printed by
// older exports), with tan (opset 1.4.0) and composite (0.19.0) [SHLO-SPEC].
constexpr std::array<std::string_view, 118> kStablehloOps{"abs",
                                                          "add",
                                                          "after_all",
                                                          "all_gather",
                                                          "all_reduce",
                                                          "all_to_all",
                                                          "and",
                                                          "atan2",
                                                          "batch_norm_grad",
                                                          "batch_norm_inference",
                                                          "batch_norm_training",
                                                          "bitcast_convert",
                                                          "broadcast",
                                                          "broadcast_in_dim",
                                                          "case",
                                                          "cbrt",
                                                          "ceil",
                                                          "cholesky",
                                                          "clamp",
                                                          "collective_broadcast",
                                                          "collective_permute",
                                                          "compare",
                                                          "complex",
                                                          "composite",
                                                          "compute_reshape_shape",
                                                          "concatenate",
                                                          "constant",
                                                          "convert",
                                                          "convolution",
                                                          "cosine",
                                                          "count_leading_zeros",
                                                          "create_token",
                                                          "cross-replica-sum",
                                                          "cstr_reshapable",
                                                          "custom_call",
                                                          "divide",
                                                          "dot",
                                                          "dot_general",
                                                          "dynamic_broadcast_in_dim",
                                                          "dynamic_conv",
                                                          "dynamic_gather",
                                                          "dynamic_iota",
                                                          "dynamic_pad",
                                                          "dynamic_reshape",
                                                          "dynamic_slice",
                                                          "dynamic_update_slice",
                                                          "einsum",
                                                          "exponential",
                                                          "exponential_minus_one",
                                                          "fft",
                                                          "floor",
                                                          "gather",
                                                          "get_dimension_size",
                                                          "get_tuple_element",
                                                          "if",
                                                          "imag",
                                                          "infeed",
                                                          "iota",
                                                          "is_finite",
                                                          "log",
                                                          "log_plus_one",
                                                          "logistic",
                                                          "map",
                                                          "maximum",
                                                          "minimum",
                                                          "multiply",
                                                          "negate",
                                                          "not",
                                                          "optimization_barrier",
                                                          "or",
                                                          "outfeed",
                                                          "pad",
                                                          "partition_id",
                                                          "popcnt",
                                                          "power",
                                                          "real",
                                                          "real_dynamic_slice",
                                                          "recv",
                                                          "reduce",
                                                          "reduce_precision",
                                                          "reduce_scatter",
                                                          "reduce_window",
                                                          "remainder",
                                                          "replica_id",
                                                          "reshape",
                                                          "return",
                                                          "reverse",
                                                          "rng",
                                                          "rng_bit_generator",
                                                          "round_nearest_afz",
                                                          "round_nearest_even",
                                                          "rsqrt",
                                                          "scatter",
                                                          "select",
                                                          "select_and_scatter",
                                                          "send",
                                                          "set_dimension_size",
                                                          "shift_left",
                                                          "shift_right_arithmetic",
                                                          "shift_right_logical",
                                                          "sign",
                                                          "sine",
                                                          "slice",
                                                          "sort",
                                                          "sqrt",
                                                          "subtract",
                                                          "tan",
                                                          "tanh",
                                                          "torch_index_select",
                                                          "trace",
                                                          "transpose",
                                                          "triangular_solve",
                                                          "tuple",
                                                          "unary_einsum",
                                                          "uniform_dequantize",
                                                          "uniform_quantize",
                                                          "while",
                                                          "xor"};

// XLA's HLO opcodes, as HloOpcodeString prints them [XLA-OPCODES].
constexpr std::array<std::string_view, 136> kHloOpcodes{"abs",
                                                        "acos",
                                                        "acosh",
                                                        "add",
                                                        "add-dependency",
                                                        "after-all",
                                                        "all-gather",
                                                        "all-gather-done",
                                                        "all-gather-start",
                                                        "all-reduce",
                                                        "all-reduce-done",
                                                        "all-reduce-start",
                                                        "all-to-all",
                                                        "and",
                                                        "asin",
                                                        "asinh",
                                                        "async-done",
                                                        "async-start",
                                                        "async-update",
                                                        "atan",
                                                        "atan2",
                                                        "atanh",
                                                        "batch-norm-grad",
                                                        "batch-norm-inference",
                                                        "batch-norm-training",
                                                        "bitcast",
                                                        "bitcast-convert",
                                                        "broadcast",
                                                        "call",
                                                        "cbrt",
                                                        "ceil",
                                                        "cholesky",
                                                        "clamp",
                                                        "count-leading-zeros",
                                                        "collective-broadcast",
                                                        "collective-permute",
                                                        "collective-permute-done",
                                                        "collective-permute-start",
                                                        "collective-reduce",
                                                        "compare",
                                                        "complex",
                                                        "concatenate",
                                                        "conditional",
                                                        "constant",
                                                        "convert",
                                                        "convolution",
                                                        "copy",
                                                        "copy-done",
                                                        "copy-start",
                                                        "cosine",
                                                        "cosh",
                                                        "custom-call",
                                                        "divide",
                                                        "domain",
                                                        "dot",
                                                        "dynamic-reshape",
                                                        "dynamic-slice",
                                                        "dynamic-update-slice",
                                                        "erf",
                                                        "exponential",
                                                        "exponential-minus-one",
                                                        "fft",
                                                        "floor",
                                                        "fusion",
                                                        "gather",
                                                        "get-dimension-size",
                                                        "get-tuple-element",
                                                        "imag",
                                                        "infeed",
                                                        "iota",
                                                        "is-finite",
                                                        "log",
                                                        "log-plus-one",
                                                        "logistic",
                                                        "map",
                                                        "maximum",
                                                        "minimum",
                                                        "mulhi",
                                                        "multiply",
                                                        "negate",
                                                        "not",
                                                        "opt-barrier",
                                                        "or",
                                                        "outfeed",
                                                        "pad",
                                                        "parameter",
                                                        "partition-id",
                                                        "popcnt",
                                                        "power",
                                                        "ragged-all-to-all",
                                                        "ragged-dot",
                                                        "real",
                                                        "recv",
                                                        "recv-done",
                                                        "reduce",
                                                        "reduce-precision",
                                                        "reduce-scatter",
                                                        "reduce-window",
                                                        "remainder",
                                                        "replica-id",
                                                        "reshape",
                                                        "reverse",
                                                        "rng",
                                                        "rng-bit-generator",
                                                        "rng-get-and-update-state",
                                                        "round-nearest-afz",
                                                        "round-nearest-even",
                                                        "rsqrt",
                                                        "scaled-dot",
                                                        "scan",
                                                        "scatter",
                                                        "select",
                                                        "select-and-scatter",
                                                        "send",
                                                        "send-done",
                                                        "set-dimension-size",
                                                        "shift-left",
                                                        "shift-right-arithmetic",
                                                        "shift-right-logical",
                                                        "shuffle",
                                                        "sign",
                                                        "sine",
                                                        "sinh",
                                                        "slice",
                                                        "sort",
                                                        "sqrt",
                                                        "stochastic-convert",
                                                        "subtract",
                                                        "tan",
                                                        "tanh",
                                                        "topk",
                                                        "transpose",
                                                        "triangular-solve",
                                                        "tuple",
                                                        "while",
                                                        "xor"};

constexpr bool noneEmpty(const auto& names) {
    for (const std::string_view n : names)
        if (n.empty()) return false;
    return true;
}
static_assert(noneEmpty(kStablehloOps) && noneEmpty(kHloOpcodes), "every op name is spelt out");

// Levenshtein distance, stopped early once it passes `limit`.
int distance(std::string_view a, std::string_view b, int limit) {
    if (static_cast<int>(a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
    std::vector<int> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = static_cast<int>(i);
        int best = row[0];
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const int above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
            best = std::min(best, row[j]);
        }
        if (best > limit) return limit + 1;
    }
    return row[b.size()];
}

template <std::size_t N>
std::string nearest(std::string_view name, const std::array<std::string_view, N>& known) {
    // Short names are a step or two from many others: one edit only.
    const int kLimit = name.size() < 5 ? 1 : 2;
    if (std::find(known.begin(), known.end(), name) != known.end()) return {};
    std::string_view best;
    int bestDistance = kLimit + 1;
    for (const std::string_view k : known) {
        const int d = distance(name, k, kLimit);
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    return std::string(best);
}

}  // namespace

std::string nearest_op_name(std::string_view name, Format format) {
    if (format == Format::stablehlo) return nearest(name, kStablehloOps);
    if (format == Format::hlo) return nearest(name, kHloOpcodes);
    return {};
}

std::string MisspeltOp::sentence(Format format) const {
    const char* what = format == Format::hlo ? "an HLO opcode" : "a StableHLO op";
    return "line " + std::to_string(position.line) + ": " + written + " is not " + what + "; did you mean " + meant +
           "?";
}

std::vector<MisspeltOp> misspelt_ops(const Module& module) {
    std::vector<MisspeltOp> out;
    if (module.format == Format::jaxpr) return out;
    for (const Op* op : all_ops(module)) {
        if (module.format == Format::stablehlo && op->dialect != "stablehlo") continue;
        const std::string meant = nearest_op_name(op->name, module.format);
        if (meant.empty()) continue;
        const std::string prefix = module.format == Format::stablehlo ? "stablehlo." : "";
        out.push_back({op->position, prefix + op->name, prefix + meant});
    }
    return out;
}

}  // namespace tpusim::ir
