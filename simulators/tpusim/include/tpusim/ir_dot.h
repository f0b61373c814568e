#pragma once
// dot_general semantics, the same at every level of the stack: the output is
// batch dims (in lhs order), then lhs free dims, then rhs free dims; FLOPs are
// 2 x batch x lhs free x rhs free x contracting.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/ir.h"

namespace tpusim::ir {

struct DotDims {
    std::vector<std::int64_t> lhs_contracting, rhs_contracting;
    std::vector<std::int64_t> lhs_batch, rhs_batch;
    bool operator==(const DotDims&) const = default;
};

// The dimension numbers in any spelling the three IRs print:
//   jaxpr      (([1], [0]), ([], []))   or the older (((1,), (0,)), ((), ()))
//   StableHLO  batching_dims = [0] x [0], contracting_dims = [2] x [1]
//   generic    #stablehlo.dot<lhs_batching_dimensions = [0], ...>
//   HLO        lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_batch_dims={0}, ...
// Throws InputError on anything else.
DotDims parse_jaxpr_dimension_numbers(std::string_view text);
DotDims parse_stablehlo_dot_dims(std::string_view text);  // pretty or #stablehlo.dot<...>

// The dimension numbers of a parsed dot_general/dot op of `format`; a plain
// dot (no dims printed) contracts the last lhs dim with the first rhs dim.
DotDims dot_dims_of(const Op& op, Format format, std::size_t lhs_rank, std::size_t rhs_rank);

// An HLO convolution with dim_labels=bf_io->bf (or bf_oi->bf): a matmul in
// disguise, as XLA on TPU often prints one. find_dots reports it too.
bool is_matmul_convolution(const Op& op);

struct DotShape {
    std::vector<std::int64_t> output;
    std::int64_t batch = 1, lhs_free = 1, rhs_free = 1, contracting = 1;  // products
    std::int64_t flops = 0;  // exact: a dot whose FLOPs pass 2^63 is refused
};

// Checks the dims (in range, not repeated, not both batch and contracting,
// sizes matching pairwise) and derives the output shape and FLOPs. Throws
// InputError with the offending dims named.
DotShape dot_general_shape(const std::vector<std::int64_t>& lhs, const std::vector<std::int64_t>& rhs,
                           const DotDims& dims);

// A ragged dot (jax.lax.ragged_dot_general, chlo.ragged_dot, HLO
// ragged-dot): a dot_general whose lhs dim `lhs_ragged` is cut into groups
// whose sizes the third operand gives. Where that dim is free, each group
// of rows meets its own slice of the rhs's group dim (a mixture of experts'
// layer); where it is contracted, each group makes its own output, so the
// output gains a leading group dim; where it is a batch dim, the output is
// the dot_general's. Every element of the ragged dim meets one group only,
// so the FLOPs are the dot_general's without the group dim, whatever the
// sizes.
struct RaggedDotDims {
    DotDims dot;
    std::vector<std::int64_t> lhs_ragged, rhs_group;
};
bool is_ragged_dot(const Op& op);
// The dims as `format` prints them; the old jaxpr primitive `ragged_dot`
// prints none and means lhs [m, k], rhs [g, k, n], ragged over m.
RaggedDotDims ragged_dot_dims_of(const Op& op, Format format);
// `groups` is the group sizes' last dim. Throws InputError like
// dot_general_shape, and for dims the three modes do not allow.
DotShape ragged_dot_shape(const std::vector<std::int64_t>& lhs, const std::vector<std::int64_t>& rhs,
                          const RaggedDotDims& dims, std::int64_t groups);

// One dot_general (or dot) found in a parsed module.
struct DotSite {
    std::string op;  // as written: "dot_general", "dot", "ragged_dot"
    std::string result;
    std::string element;  // result element type
    // The operands' own element types: a bf16 x bf16 dot printed with an
    // f32 result (preferred_element_type) reads bf16 and multiplies at the
    // bf16 rate.
    std::string lhs_element, rhs_element;
    std::vector<std::int64_t> lhs_shape, rhs_shape, output_shape;
    DotDims dims;
    std::int64_t flops = 0;
    Position position;
    Metadata metadata;
    // When the dump prints a result type, the derived shape must equal it.
    std::vector<std::int64_t> printed_output_shape;
};

// Every dot_general/dot (and matmul-like convolution) of the module (nested ones included), in print
// order. Operand shapes come from printed types or from the types of the
// values they name. Throws ParseError (with the op's position) when the dims
// do not fit the operands, when no result type is printed to check the
// derived shape against, or when the printed result shape disagrees.
std::vector<DotSite> find_dots(const Module& module);

}  // namespace tpusim::ir
