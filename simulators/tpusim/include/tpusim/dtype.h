#pragma once
// Element types the models understand, with their widths.
#include <string_view>

namespace tpusim {

enum class DType { f32, bf16, f16, int8, fp8, int4, int32 };

// Width of one element in bits (int4 is 4).
int bits(DType dtype);
// Width of one element in bytes; 0.5 for int4.
double bytes(DType dtype);
// The short name used everywhere: "f32", "bf16", "f16", "int8", "fp8", "int4", "int32".
std::string_view name(DType dtype);
bool is_integer(DType dtype);
// Accepts the short names and the common long ones ("bfloat16", "float32", "i8", ...).
// Throws InputError for anything else.
DType parse_dtype(std::string_view text);

}  // namespace tpusim
