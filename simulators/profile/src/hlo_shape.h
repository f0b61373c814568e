#pragma once
// An HLO shape as hlo.proto's ShapeProto holds it [XLA-DATA], and as HLO's
// text prints it: "f32[8,128]{1,0:T(8,128)}", a tuple "(s32[], f32[4])".
// Internal to libtpuprofile (hlo_proto.cpp reads modules with it).
#include <cstdint>
#include <string>
#include <vector>

#include "wire.h"

namespace tpuprofile::hlo_shape {

struct Shape {
    std::int64_t element = 0;
    std::vector<std::int64_t> dims;
    std::vector<Shape> tuple;
    bool has_layout = false;
    std::vector<std::int64_t> minor_to_major;
    std::vector<std::vector<std::int64_t>> tiles;
    std::int64_t memory_space = 0;
};

// Reads a ShapeProto from the message `f` is at; throws std::runtime_error
// for one nested more than 64 deep.
Shape read_shape(wire::Fields& f, int depth);
// The shape as HLO's text prints it; throws std::runtime_error for an
// element type XLA does not define.
std::string shape_text(const Shape& s);
// "1,2,3".
std::string join(const std::vector<std::int64_t>& v);

}  // namespace tpuprofile::hlo_shape
