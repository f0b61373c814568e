// Field numbers from openxla/xla's xla/service/hlo.proto [HLO-PROTO] and
// xla/xla_data.proto [XLA-DATA]; the order of a while loop's called
// computations (body, then condition) from xla/hlo/ir/hlo_instruction.h
// (kBodyComputationIndex = 0) [HLO-INSTRUCTION].
#include "hlo_proto.h"

#include <cstring>
#include <map>
#include <stdexcept>
#include <vector>

#include <google/protobuf/io/coded_stream.h>

#include "hlo_shape.h"
#include "wire.h"

namespace tpuprofile {

namespace {

using hlo_shape::join;
using hlo_shape::read_shape;
using hlo_shape::Shape;
using hlo_shape::shape_text;
using wire::Fields;

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

struct Instruction {
    std::string name, opcode;
    Shape shape;
    std::int64_t id = 0;
    std::vector<std::int64_t> operands, called, dimensions, dynamic_slice_sizes;
    std::int64_t parameter_number = 0, tuple_index = 0;
    std::string fusion_kind, custom_call_target, comparison_direction;
    std::vector<std::int64_t> lhs_contracting, rhs_contracting, lhs_batch, rhs_batch;
    bool has_dot = false;
    struct Slice {
        std::int64_t start = 0, limit = 0, stride = 1;
    };
    std::vector<Slice> slices;
    std::string literal;  // the constant's value as HLO prints it, or "{...}"
    std::string op_name, source_file;
    std::int64_t source_line = 0;
};

// A constant's value, for scalars of the common types; larger constants are
// elided as "{...}" (the course reads shapes, not constant data).
std::string read_literal(Fields& f, const Shape& shape) {
    std::string value;
    f.nested([&](Fields& lf) {
        while (lf.next()) {
            const int n = lf.number();
            if (n == 8 && lf.type() == wire::length_type) {  // f32s, packed
                const std::string raw = lf.bytes();
                if (raw.size() == 4) {
                    float x = 0;
                    std::memcpy(&x, raw.data(), 4);
                    char buf[32];
                    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x));
                    value = buf;
                }
            } else if ((n == 4 || n == 5 || n == 6 || n == 7) && lf.type() == wire::length_type) {
                std::vector<std::int64_t> v;
                lf.int64s(v);
                if (v.size() == 1) value = std::to_string(n == 4 ? static_cast<std::int32_t>(v[0]) : v[0]);
            } else if (n == 2 && lf.type() == wire::length_type) {  // preds, packed
                std::vector<std::int64_t> v;
                lf.int64s(v);
                if (v.size() == 1) value = v[0] ? "true" : "false";
            } else {
                lf.skip();
            }
        }
    });
    if (!shape.dims.empty() || value.empty()) return "{...}";
    return value;
}

Instruction read_instruction(Fields& f) {
    Instruction in;
    f.nested([&](Fields& i) {
        Shape shape;
        while (i.next()) {
            switch (i.number()) {
                case 1:
                    in.name = i.bytes();
                    break;
                case 2:
                    in.opcode = i.bytes();
                    break;
                case 3:
                    in.shape = read_shape(i, 0);
                    break;
                case 7:  // metadata: OpMetadata{op_type 1, op_name 2, source_file 3, source_line 4}
                    i.nested([&](Fields& m) {
                        while (m.next()) {
                            if (m.number() == 2)
                                in.op_name = m.bytes();
                            else if (m.number() == 3)
                                in.source_file = m.bytes();
                            else if (m.number() == 4)
                                in.source_line = m.int64();
                            else
                                m.skip();
                        }
                    });
                    break;
                case 8:
                    in.literal = read_literal(i, in.shape);
                    break;
                case 9:
                    in.parameter_number = i.int64();
                    break;
                case 11:
                    in.fusion_kind = i.bytes();
                    break;
                case 13:
                    in.tuple_index = i.int64();
                    break;
                case 14:
                    i.int64s(in.dimensions);
                    break;
                case 17: {  // slice_dimensions
                    Instruction::Slice s;
                    i.nested([&](Fields& sf) {
                        while (sf.next()) {
                            if (sf.number() == 1)
                                s.start = sf.int64();
                            else if (sf.number() == 2)
                                s.limit = sf.int64();
                            else if (sf.number() == 3)
                                s.stride = sf.int64();
                            else
                                sf.skip();
                        }
                    });
                    in.slices.push_back(s);
                    break;
                }
                case 20:
                    i.int64s(in.dynamic_slice_sizes);
                    break;
                case 28:
                    in.custom_call_target = i.bytes();
                    break;
                case 30:  // dot_dimension_numbers [XLA-DATA] DotDimensionNumbers
                    in.has_dot = true;
                    i.nested([&](Fields& d) {
                        while (d.next()) {
                            if (d.number() == 1)
                                d.int64s(in.lhs_contracting);
                            else if (d.number() == 2)
                                d.int64s(in.rhs_contracting);
                            else if (d.number() == 3)
                                d.int64s(in.lhs_batch);
                            else if (d.number() == 4)
                                d.int64s(in.rhs_batch);
                            else
                                d.skip();
                        }
                    });
                    break;
                case 35:
                    in.id = i.int64();
                    break;
                case 36:
                    i.int64s(in.operands);
                    break;
                case 38:
                    i.int64s(in.called);
                    break;
                case 63:
                    in.comparison_direction = i.bytes();
                    break;
                default:
                    i.skip();
            }
        }
    });
    if (in.literal.empty() && in.opcode == "constant") in.literal = "{...}";
    return in;
}

struct Computation {
    std::string name;
    std::int64_t id = 0, root_id = -1;
    std::vector<Instruction> instructions;
};

std::string braces(const std::vector<std::int64_t>& v) {
    return "{" + join(v) + "}";
}

void print_instruction(const Instruction& in, const Computation& c,
                       const std::map<std::int64_t, const Instruction*>& by_id,
                       const std::map<std::int64_t, std::string>& computation_names, std::string& out) {
    out += "  ";
    if (in.id == c.root_id) out += "ROOT ";
    out += "%" + in.name + " = " + shape_text(in.shape) + " " + in.opcode + "(";
    if (in.opcode == "parameter") {
        out += std::to_string(in.parameter_number);
    } else if (in.opcode == "constant") {
        out += in.literal;
    } else {
        for (std::size_t k = 0; k < in.operands.size(); ++k) {
            const auto it = by_id.find(in.operands[k]);
            if (it == by_id.end())
                throw std::runtime_error("instruction " + in.name +
                                         " names an operand that its computation does not hold");
            out += (k ? ", " : "") + shape_text(it->second->shape) + " %" + it->second->name;
        }
    }
    out += ")";
    auto called = [&](std::size_t k) {
        if (k >= in.called.size())
            throw std::runtime_error("instruction " + in.name + " calls fewer computations than its opcode needs");
        const auto it = computation_names.find(in.called[k]);
        if (it == computation_names.end())
            throw std::runtime_error("instruction " + in.name + " calls a computation the module does not hold");
        return "%" + it->second;
    };
    const std::string& op = in.opcode;
    if (op == "get-tuple-element") out += ", index=" + std::to_string(in.tuple_index);
    if (op == "fusion") {
        std::string kind = in.fusion_kind.empty() ? "kLoop" : in.fusion_kind;
        out += ", kind=" + kind + ", calls=" + called(0);
    }
    if (in.has_dot) {
        if (!in.lhs_batch.empty()) out += ", lhs_batch_dims=" + braces(in.lhs_batch);
        out += ", lhs_contracting_dims=" + braces(in.lhs_contracting);
        if (!in.rhs_batch.empty()) out += ", rhs_batch_dims=" + braces(in.rhs_batch);
        out += ", rhs_contracting_dims=" + braces(in.rhs_contracting);
    }
    if (op == "broadcast" || op == "reduce" || op == "transpose" || op == "reverse" || op == "concatenate")
        out += ", dimensions=" + braces(in.dimensions);
    if (op == "iota" && !in.dimensions.empty()) out += ", iota_dimension=" + std::to_string(in.dimensions[0]);
    if (op == "slice" && !in.slices.empty()) {
        out += ", slice={";
        for (std::size_t k = 0; k < in.slices.size(); ++k) {
            const auto& s = in.slices[k];
            out += (k ? ", " : "") + std::string("[") + std::to_string(s.start) + ":" + std::to_string(s.limit);
            if (s.stride != 1) out += ":" + std::to_string(s.stride);
            out += "]";
        }
        out += "}";
    }
    if (op == "dynamic-slice") out += ", dynamic_slice_sizes=" + braces(in.dynamic_slice_sizes);
    if (op == "compare" && !in.comparison_direction.empty()) out += ", direction=" + in.comparison_direction;
    if (op == "while") out += ", condition=" + called(1) + ", body=" + called(0);
    if (op == "conditional") {
        out += ", branch_computations={";
        for (std::size_t k = 0; k < in.called.size(); ++k) out += (k ? ", " : "") + called(k);
        out += "}";
    }
    if (op != "fusion" && op != "while" && op != "conditional" && !in.called.empty()) {
        if (op == "custom-call" || op == "async-start")
            out += ", called_computations={" + called(0) + "}";
        else
            out += ", to_apply=" + called(0);
    }
    if (!in.custom_call_target.empty()) out += ", custom_call_target=" + quoted(in.custom_call_target);
    if (!in.op_name.empty() || !in.source_file.empty()) {
        out += ", metadata={";
        std::string sep;
        if (!in.op_name.empty()) {
            out += "op_name=" + quoted(in.op_name);
            sep = " ";
        }
        if (!in.source_file.empty()) {
            out += sep + "source_file=" + quoted(in.source_file);
            if (in.source_line > 0) out += " source_line=" + std::to_string(in.source_line);
        }
        out += "}";
    }
    out += "\n";
}

}  // namespace

std::string hlo_text_from_proto(const std::string& hlo_proto) {
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(hlo_proto.data()),
                                              static_cast<int>(hlo_proto.size()));
    std::string module_name;
    std::int64_t entry_id = -1;
    std::string entry_name;
    std::vector<Computation> computations;
    try {
        Fields top(in);
        bool found = false;
        while (top.next()) {
            if (top.number() != 1) {  // HloProto.hlo_module
                top.skip();
                continue;
            }
            found = true;
            top.nested([&](Fields& m) {
                while (m.next()) {
                    switch (m.number()) {
                        case 1:
                            module_name = m.bytes();
                            break;
                        case 2:
                            entry_name = m.bytes();
                            break;
                        case 6:
                            entry_id = m.int64();
                            break;
                        case 3: {
                            Computation c;
                            m.nested([&](Fields& cf) {
                                while (cf.next()) {
                                    if (cf.number() == 1)
                                        c.name = cf.bytes();
                                    else if (cf.number() == 2)
                                        c.instructions.push_back(read_instruction(cf));
                                    else if (cf.number() == 5)
                                        c.id = cf.int64();
                                    else if (cf.number() == 6)
                                        c.root_id = cf.int64();
                                    else
                                        cf.skip();
                                }
                            });
                            computations.push_back(std::move(c));
                            break;
                        }
                        default:
                            m.skip();
                    }
                }
            });
        }
        if (!found) throw std::runtime_error("The Hlo Proto holds no module.");
    } catch (const wire::WireError& e) {
        throw std::runtime_error(std::string("The Hlo Proto is damaged (") + e.what() + ").");
    }
    if (computations.empty()) throw std::runtime_error("The Hlo Proto's module holds no computations.");

    std::map<std::int64_t, std::string> names;
    for (const Computation& c : computations) names[c.id] = c.name;
    std::string out = "HloModule " + (module_name.empty() ? std::string("module") : module_name) + "\n";
    try {
        for (const Computation& c : computations) {
            std::map<std::int64_t, const Instruction*> by_id;
            for (const Instruction& i : c.instructions) by_id[i.id] = &i;
            const bool entry = entry_id >= 0 ? c.id == entry_id : c.name == entry_name;
            out += "\n" + std::string(entry ? "ENTRY " : "") + "%" + c.name + " {\n";
            for (const Instruction& i : c.instructions) print_instruction(i, c, by_id, names, out);
            out += "}\n";
        }
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(std::string("The Hlo Proto cannot be printed: ") + e.what() + ".");
    }
    return out;
}

}  // namespace tpuprofile
