#pragma once
// One op model for the three textual IRs a JAX program passes through:
// jaxpr (the traced program), StableHLO (MLIR text, pretty or generic form)
// and HLO (XLA's text, before or after optimization). The parsers read what
// real dumps of dense programs contain; anything they cannot read is a
// ParseError naming the line and column.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tpusim/dtype.h"
#include "tpusim/error.h"

namespace tpusim::ir {

enum class Format { jaxpr, stablehlo, hlo };

std::string_view format_name(Format format);  // "jaxpr", "stablehlo", "hlo"
// Accepts the names above (and "mlir", "shlo"); throws InputError otherwise.
Format parse_format(std::string_view text);
// Guesses the IR from the text: "{ lambda" is a jaxpr, "HloModule" or
// "ENTRY" is HLO, "module"/"func.func"/"stablehlo." is StableHLO. Throws
// InputError when none fits.
Format detect_format(std::string_view text);

// A bad dump: the message starts "line L, column C: ".
class ParseError : public InputError {
public:
    ParseError(int line, int column, const std::string& what);
    int line() const { return line_; }
    int column() const { return column_; }

private:
    int line_;
    int column_;
};

// An array type, or a tuple of them. Element types are spelled the HLO way
// whatever the source ("f32", "bf16", "s32", "u8", "pred", "f8e4m3fn").
struct TensorType {
    std::string element;             // empty for a tuple or a token
    std::vector<std::int64_t> dims;  // -1 for a dynamic or symbolic size
    // HLO layout, when printed: minor-to-major order, then tiles and memory space.
    std::vector<std::int64_t> minor_to_major;
    std::vector<std::vector<std::int64_t>> tiles;  // T(8,128)(2,1) -> {{8,128},{2,1}}
    int memory_space = 0;                          // S(1) -> 1 (VMEM on TPU); 0 is HBM
    bool has_layout = false;
    bool is_tuple = false;
    std::vector<TensorType> elements;  // the members of a tuple

    std::int64_t element_count() const;  // -1 when a size is unknown
    bool operator==(const TensorType&) const = default;
};

// Bytes per element of an element type (0.5 for s4, 0 when unknown).
double element_bytes(std::string_view element);
// The dtype whose rates price an element type as the IRs print it: bf16,
// f16, f32, s8 and u8 (int8), every f8 variant (fp8), s4 and u4 (int4);
// none for any other.
std::optional<DType> element_dtype(std::string_view element);
// "8,16"; -1 prints as "?".
std::string dims_text(const std::vector<std::int64_t>& dims);
// "f32[8,16]", "(f32[8], s32[])"; with_layout adds "{1,0:T(8,128)S(1)}".
std::string type_text(const TensorType& type, bool with_layout = false);

struct Position {
    int line = 0;    // 1-based
    int column = 0;  // 1-based
};

// Where an op came from in the Python source, as the dump records it.
struct Metadata {
    std::string op_name;      // "jit(f)/jit(main)/dot_general"
    std::string source_file;  // "/home/me/model.py"
    int source_line = 0;
};

struct Attribute {
    std::string name;     // "lhs_contracting_dims", "dimension_numbers", "kind"
    std::string value;    // the text as printed: "{1}", "(([1], [0]), ([], []))", "kLoop"
    bool quoted = false;  // HLO: the value was a quoted string (quotes removed in `value`)
};

struct Computation;

struct Op {
    std::vector<std::string> results;       // "dot.3", "%0", "c"; empty when none
    std::string name;                       // "dot_general", "dot", "add", "fusion", "return"
    std::string dialect;                    // "stablehlo", "func", "" for HLO and jaxpr
    std::vector<std::string> operands;      // value names or literals ("2.0:f32[]")
    std::vector<TensorType> operand_types;  // when the dump prints them
    std::vector<TensorType> result_types;
    std::vector<Attribute> attributes;
    Position position;  // of the op's first character
    int last_line = 0;  // of its last character: params, attributes and regions span lines
    Metadata metadata;
    bool is_root = false;              // HLO ROOT
    bool type_inferred = false;        // HLO printed without its result shape, inferred from the operands
    std::vector<std::string> called;   // HLO calls=/to_apply=/body=..., MLIR call @f
    std::vector<Computation> regions;  // reduce bodies, while cond/body, sub-jaxprs

    // The attribute's value, or nullptr.
    const std::string* attribute(std::string_view attr_name) const;
};

struct Parameter {
    std::string name;
    TensorType type;
};

// An HLO computation, a func.func, a jaxpr or sub-jaxpr, or an op's region.
struct Computation {
    std::string name;  // "main.10", "fused_computation.1", "main", "" for regions
    std::vector<Parameter> parameters;
    std::vector<TensorType> result_types;
    std::vector<Op> ops;
    std::vector<std::string> outputs;  // jaxpr `in (...)` values
    bool is_entry = false;
    Position position;
};

struct Module {
    Format format = Format::hlo;
    std::string name;  // "jit_f"; empty for a jaxpr
    std::vector<Computation> computations;
    std::vector<Attribute> attributes;  // HLO: is_scheduled=true, entry_computation_layout={...}

    // The entry computation (ENTRY, @main, the top jaxpr); throws InputError if none.
    const Computation& entry() const;
    // A computation by name, or nullptr.
    const Computation* find(std::string_view computation_name) const;
};

// Limits that keep hostile input from exhausting the stack or the memory.
inline constexpr std::size_t max_input_bytes = 16u << 20;  // 16 MiB of text
inline constexpr int max_nesting = 200;                    // brackets and regions

Module parse(std::string_view text, Format format);
Module parse(std::string_view text);  // format from detect_format
Module parse_jaxpr(std::string_view text);
Module parse_stablehlo(std::string_view text);
Module parse_hlo(std::string_view text);

// The module as text in its own IR, laid out canonically (one op per line,
// metadata and locations kept): parse(print(m)) equals m but for positions.
std::string print(const Module& module);

// Every op of the module, depth first in print order: each computation's ops,
// with an op's regions visited right after the op itself.
std::vector<const Op*> all_ops(const Module& module);

}  // namespace tpusim::ir
