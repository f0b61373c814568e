#include "hlo_shape.h"

#include <stdexcept>

namespace tpuprofile::hlo_shape {

namespace {

// [XLA-DATA] PrimitiveType.
const char* element_name(std::int64_t type) {
    switch (type) {
        case 1:
            return "pred";
        case 2:
            return "s8";
        case 3:
            return "s16";
        case 4:
            return "s32";
        case 5:
            return "s64";
        case 6:
            return "u8";
        case 7:
            return "u16";
        case 8:
            return "u32";
        case 9:
            return "u64";
        case 10:
            return "f16";
        case 11:
            return "f32";
        case 12:
            return "f64";
        case 13:
            return "tuple";
        case 14:
            return "opaque";
        case 15:
            return "c64";
        case 16:
            return "bf16";
        case 17:
            return "token";
        case 18:
            return "c128";
        case 19:
            return "f8e5m2";
        case 20:
            return "f8e4m3fn";
        case 21:
            return "s4";
        case 22:
            return "u4";
        case 23:
            return "f8e4m3b11fnuz";
        case 24:
            return "f8e5m2fnuz";
        case 25:
            return "f8e4m3fnuz";
        case 26:
            return "s2";
        case 27:
            return "u2";
        case 28:
            return "f8e4m3";
        case 29:
            return "f8e3m4";
        case 30:
            return "s1";
        case 31:
            return "u1";
        case 32:
            return "f4e2m1fn";
        case 33:
            return "f8e8m0fnu";
        default:
            return nullptr;
    }
}

constexpr int max_depth = 64;

}  // namespace

Shape read_shape(wire::Fields& f, int depth) {
    if (depth > max_depth) throw std::runtime_error("a shape nested more than 64 deep");
    Shape s;
    f.nested([&](wire::Fields& sf) {
        while (sf.next()) {
            switch (sf.number()) {
                case 2:
                    s.element = sf.int64();
                    break;  // element_type
                case 3:
                    sf.int64s(s.dims);
                    break;  // dimensions
                case 4:
                    s.tuple.push_back(read_shape(sf, depth + 1));
                    break;  // tuple_shapes
                case 5:     // layout
                    s.has_layout = true;
                    sf.nested([&](wire::Fields& lf) {
                        while (lf.next()) {
                            if (lf.number() == 1) {
                                lf.int64s(s.minor_to_major);
                            } else if (lf.number() == 6) {  // tiles: TileProto{dimensions = 1}
                                std::vector<std::int64_t> tile;
                                lf.nested([&](wire::Fields& tf) {
                                    while (tf.next()) {
                                        if (tf.number() == 1)
                                            tf.int64s(tile);
                                        else
                                            tf.skip();
                                    }
                                });
                                s.tiles.push_back(std::move(tile));
                            } else if (lf.number() == 8) {
                                s.memory_space = lf.int64();
                            } else {
                                lf.skip();
                            }
                        }
                    });
                    break;
                default:
                    sf.skip();
            }
        }
    });
    return s;
}

std::string join(const std::vector<std::int64_t>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
    return out;
}

std::string shape_text(const Shape& s) {
    if (s.element == 13) {
        std::string out = "(";
        for (std::size_t i = 0; i < s.tuple.size(); ++i) out += (i ? ", " : "") + shape_text(s.tuple[i]);
        return out + ")";
    }
    const char* e = element_name(s.element);
    if (!e)
        throw std::runtime_error("an element type numbered " + std::to_string(s.element) + " that XLA does not define");
    std::string out = e;
    if (s.element == 17 || s.element == 14) return out + "[]";
    out += "[" + join(s.dims) + "]";
    if (s.has_layout && (s.minor_to_major.size() == s.dims.size())) {
        out += "{" + join(s.minor_to_major);
        if (!s.tiles.empty() || s.memory_space != 0) {
            out += ":";
            for (const auto& t : s.tiles) out += "T(" + join(t) + ")";
            if (s.memory_space != 0) out += "S(" + std::to_string(s.memory_space) + ")";
        }
        out += "}";
    }
    return out;
}

}  // namespace tpuprofile::hlo_shape
