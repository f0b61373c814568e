#include "tpusim/dtype.h"

#include <array>
#include <string>
#include <utility>

#include "tpusim/error.h"

namespace tpusim {

int bits(DType dtype) {
    switch (dtype) {
        case DType::f32:
            return 32;
        case DType::int32:
            return 32;
        case DType::bf16:
            return 16;
        case DType::f16:
            return 16;
        case DType::int8:
            return 8;
        case DType::fp8:
            return 8;
        case DType::int4:
            return 4;
    }
    return 32;
}

double bytes(DType dtype) {
    return bits(dtype) / 8.0;
}

std::string_view name(DType dtype) {
    switch (dtype) {
        case DType::f32:
            return "f32";
        case DType::bf16:
            return "bf16";
        case DType::f16:
            return "f16";
        case DType::int8:
            return "int8";
        case DType::fp8:
            return "fp8";
        case DType::int4:
            return "int4";
        case DType::int32:
            return "int32";
    }
    return "?";
}

bool is_integer(DType dtype) {
    return dtype == DType::int8 || dtype == DType::int4 || dtype == DType::int32;
}

DType parse_dtype(std::string_view text) {
    static const std::array<std::pair<std::string_view, DType>, 17> names{{
        {"f32", DType::f32},
        {"float32", DType::f32},
        {"fp32", DType::f32},
        {"bf16", DType::bf16},
        {"bfloat16", DType::bf16},
        {"f16", DType::f16},
        {"float16", DType::f16},
        {"fp16", DType::f16},
        {"int8", DType::int8},
        {"i8", DType::int8},
        {"s8", DType::int8},
        {"fp8", DType::fp8},
        {"f8", DType::fp8},
        {"int4", DType::int4},
        {"i4", DType::int4},
        {"int32", DType::int32},
        {"i32", DType::int32},
    }};
    for (const auto& [n, d] : names)
        if (n == text) return d;
    throw InputError("unknown dtype '" + std::string(text) + "': use one of f32, bf16, f16, int8, fp8, int4, int32");
}

}  // namespace tpusim
