// Drill D1: read a dot_general's shapes, contracting and batch dims and cost,
// from a generated dot or a real dump's.
#include "drills_cards.h"
#include "drills_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tpusim/error.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/provenance.h"
#include "tpusim/roofline.h"

namespace coursework::drills::cards {

using namespace tpusim;
namespace {

// Real dots, from dumps copied into assets/drills/ir/ (SOURCES.tsv there
// names each file's repository, path and commit); a test checks these texts
// are those files byte for byte.
struct RealDump {
    const char* file;
    const char* format;
    const char* text;
};
const RealDump kRealDumps[] = {
    {"jax_docs_precision_grad.jaxpr", "jaxpr", R"ir(  { lambda ; a:f32[4,8] b:f32[8,2]. let
      c:f32[4,2] = dot_general[
        dimension_numbers=(([1], [0]), ([], []))
        precision=BF16_BF16_F32
        preferred_element_type=float32
      ] a b
      _:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] c
      d:f32[4,2] = broadcast_in_dim 1.0:f32[]
      e:f32[2,8] = dot_general[
        dimension_numbers=(([0], [0]), ([], []))
        precision=BF16_BF16_F32
        preferred_element_type=float32
      ] d a
      f:f32[8,2] = transpose[permutation=(1, 0)] e
    in (f,) }
)ir"},
    {"stablehlo_linalg_multi_batch_generic.mlir", "stablehlo",
     R"ir(func.func @dot_general_multiple_batch_dimensions(%arg0: tensor<3x4x2x4xi32>,
             %arg1: tensor<3x4x3x2xi32>) -> tensor<3x4x4x3xi32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {
    dot_dimension_numbers = #stablehlo.dot<
      lhs_batching_dimensions = [0, 1],
      rhs_batching_dimensions = [0, 1],
      lhs_contracting_dimensions = [2],
      rhs_contracting_dimensions = [3]>,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>],
    someattr
  } : (tensor<3x4x2x4xi32>, tensor<3x4x3x2xi32>) -> tensor<3x4x4x3xi32>
  return %0 : tensor<3x4x4x3xi32>
}
)ir"},
    {"xla_multiple_gemm_fusions.hlo", "hlo", R"ir(f1 {
  p0 = f16[64,64,64]{2,1,0} parameter(0)
  p1 = s8[64,64,64]{2,1,0} parameter(1)
  c = f16[64,64,64]{2,1,0} convert(p1)
  ROOT d1 = f32[64,64,64]{2,1,0} dot(p0, c),
    lhs_batch_dims={0}, lhs_contracting_dims={2},
    rhs_batch_dims={0}, rhs_contracting_dims={1}
}

f2 {
  p0 = s8[64,64,64]{2,1,0} parameter(0)
  c0 = f32[64,64,64]{2,1,0} convert(p0)
  p1 = f16[64,64,64]{2,1,0} parameter(1)
  c1 = f32[64,64,64]{2,1,0} convert(p1)
  ROOT d2 = f32[64,64,64]{2,1,0} dot(c0, c1),
    lhs_batch_dims={0}, lhs_contracting_dims={2},
    rhs_batch_dims={0}, rhs_contracting_dims={1}
}

f3 {
  p0 = f16[64,64,64]{2,1,0} parameter(0)
  p1 = f16[64,64,64]{2,1,0} parameter(1)
  ROOT d3 = f32[64,64,64]{2,1,0} dot(p0, p1),
    lhs_batch_dims={0}, lhs_contracting_dims={1},
    rhs_batch_dims={0}, rhs_contracting_dims={2}
}

fa {
  p0 = f32[64,64,64]{2,1,0} parameter(0)
  p1 = f32[64,64,64]{2,1,0} parameter(1)
  p2 = f32[64,64,64]{2,1,0} parameter(2)
  a1 = f32[64,64,64]{2,1,0} add(p2, p1)
  a2 = f32[64,64,64]{2,1,0} add(p0, a1)
  c = f32[] constant(1)
  b = f32[64,64,64]{2,1,0} broadcast(c)
  ROOT a3 = f32[64,64,64]{2,1,0} add(a2, b)
}

ENTRY e {
  p0 = f16[64,64,64]{2,1,0} parameter(0)
  p1 = s8[64,64,64]{2,1,0} parameter(1)
  f1r = f32[64,64,64]{2,1,0} fusion(p0, p1), kind=kCustom, calls=f1,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
  f2r = f32[64,64,64]{2,1,0} fusion(p1, p0), kind=kCustom, calls=f2,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
  f3r = f32[64,64,64]{2,1,0} fusion(p0, p0), kind=kCustom, calls=f3,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
  ROOT _ = f32[64,64,64]{2,1,0} fusion(f1r, f2r, f3r), kind=kLoop, calls=fa
}
)ir"},
};

struct D1Case {
    std::string format;  // "jaxpr", "stablehlo", "hlo"
    std::string text;    // as shown: the output's type masked
    std::string full;    // as printed, the output's type given
    std::string result;  // the dot's result name
    std::string source;  // a real dump's file, empty for a generated dot
    std::vector<std::int64_t> lhs, rhs;
    ir::DotDims dims;
    ir::DotShape shape;
    std::string element;
};

std::string masked_dims(std::size_t rank, const std::string& sep) {
    std::string t;
    for (std::size_t i = 0; i < rank; ++i) t += (i ? sep : "") + std::string("?");
    return t;
}

// The dot in the three syntaxes libtpusim reads; `mask` hides the output's dims.
std::string print_dot(const D1Case& d, bool mask) {
    const auto& out = d.shape.output;
    const std::string el = d.element;
    if (d.format == "jaxpr") {
        const std::string jel = el;
        return "{ lambda ; a:" + jel + "[" + joined(d.lhs, ",") + "] b:" + jel + "[" + joined(d.rhs, ",") +
               "]. let\n"
               "    c:" +
               jel + "[" + (mask ? masked_dims(out.size(), ",") : joined(out, ",")) +
               "] = dot_general[\n"
               "      dimension_numbers=(([" +
               joined(d.dims.lhs_contracting, ", ") + "], [" + joined(d.dims.rhs_contracting, ", ") + "]), ([" +
               joined(d.dims.lhs_batch, ", ") + "], [" + joined(d.dims.rhs_batch, ", ") +
               "]))\n"
               "      preferred_element_type=" +
               (el == "bf16" ? "bfloat16" : "float32") +
               "\n"
               "    ] a b\n"
               "  in (c,) }";
    }
    if (d.format == "stablehlo") {
        auto tensor = [&](const std::vector<std::int64_t>& v) { return "tensor<" + joined(v, "x") + "x" + el + ">"; };
        const std::string o = mask ? "tensor<" + masked_dims(out.size(), "x") + "x" + el + ">" : tensor(out);
        std::string dims;
        if (!d.dims.lhs_batch.empty())
            dims +=
                "batching_dims = [" + joined(d.dims.lhs_batch, ", ") + "] x [" + joined(d.dims.rhs_batch, ", ") + "], ";
        dims += "contracting_dims = [" + joined(d.dims.lhs_contracting, ", ") + "] x [" +
                joined(d.dims.rhs_contracting, ", ") + "]";
        return "func.func @main(%arg0: " + tensor(d.lhs) + ", %arg1: " + tensor(d.rhs) + ") -> " + o +
               " {\n"
               "  %0 = stablehlo.dot_general %arg0, %arg1, " +
               dims +
               "\n"
               "      : (" +
               tensor(d.lhs) + ", " + tensor(d.rhs) + ") -> " + o +
               "\n"
               "  return %0 : " +
               o +
               "\n"
               "}";
    }
    auto layout = [](std::size_t rank) {
        std::vector<std::int64_t> l;
        for (std::size_t i = rank; i-- > 0;) l.push_back(static_cast<std::int64_t>(i));
        return "{" + joined(l, ",") + "}";
    };
    auto type = [&](const std::vector<std::int64_t>& v) { return el + "[" + joined(v, ",") + "]"; };
    const std::string o = mask ? el + "[" + masked_dims(out.size(), ",") + "]" : type(out);
    std::string dims;
    if (!d.dims.lhs_batch.empty()) dims += "lhs_batch_dims={" + joined(d.dims.lhs_batch, ",") + "}, ";
    dims += "lhs_contracting_dims={" + joined(d.dims.lhs_contracting, ",") + "}";
    if (!d.dims.rhs_batch.empty()) dims += ", rhs_batch_dims={" + joined(d.dims.rhs_batch, ",") + "}";
    dims += ", rhs_contracting_dims={" + joined(d.dims.rhs_contracting, ",") + "}";
    return "HloModule drill\n\n"
           "ENTRY %main (a: " +
           type(d.lhs) + ", b: " + type(d.rhs) + ") -> " + o +
           " {\n"
           "  %a = " +
           type(d.lhs) + layout(d.lhs.size()) +
           " parameter(0)\n"
           "  %b = " +
           type(d.rhs) + layout(d.rhs.size()) +
           " parameter(1)\n"
           "  ROOT %dot = " +
           o + (mask ? "" : layout(out.size())) +
           " dot(%a, %b),\n"
           "      " +
           dims +
           "\n"
           "}";
}

D1Case d1_real(Rng& rng) {
    const RealDump& dump = kRealDumps[rng.range(0, static_cast<std::int64_t>(std::size(kRealDumps)) - 1)];
    const ir::Module module = ir::parse(dump.text, ir::parse_format(dump.format));
    const auto dots = ir::find_dots(module);
    const ir::DotSite& dot = dots[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(dots.size()) - 1))];
    D1Case d;
    d.format = dump.format;
    d.source = dump.file;
    d.full = dump.text;
    d.result = dot.result;
    d.lhs = dot.lhs_shape;
    d.rhs = dot.rhs_shape;
    d.dims = dot.dims;
    d.element = dot.element;
    d.shape = ir::dot_general_shape(d.lhs, d.rhs, d.dims);
    // Mask the output's type where it is printed: on the dot's own lines
    // (jaxpr, HLO), and wherever the exact result type is spelled (MLIR).
    std::vector<std::string> lines;
    {
        std::string line;
        for (char ch : d.full) {
            if (ch == '\n') {
                lines.push_back(line);
                line.clear();
            } else
                line += ch;
        }
        lines.push_back(line);
    }
    const auto& out = d.shape.output;
    if (d.format == "stablehlo") {
        // "tensor<3x4x4x3x" followed by the element type (a letter, not another dim).
        const std::string t = "tensor<" + joined(out, "x") + "x";
        const std::string m = "tensor<" + masked_dims(out.size(), "x") + "x";
        for (auto& l : lines)
            for (auto at = l.find(t); at != std::string::npos; at = l.find(t, at + 1))
                if (at + t.size() < l.size() && std::isalpha(static_cast<unsigned char>(l[at + t.size()])))
                    l.replace(at, t.size(), m);
    } else {
        const std::string t = "[" + joined(out, ",") + "]";
        const std::string m = "[" + masked_dims(out.size(), ",") + "]";
        auto& l = lines[static_cast<std::size_t>(dot.position.line - 1)];
        if (const auto at = l.find(t); at != std::string::npos) l.replace(at, t.size(), m);
    }
    for (std::size_t i = 0; i < lines.size(); ++i) d.text += (i ? "\n" : "") + lines[i];
    while (!d.text.empty() && d.text.back() == '\n') d.text.pop_back();
    return d;
}

D1Case d1_case(const std::string& kind, int level, std::uint64_t seed) {
    Rng rng(mix(kind, level, seed));
    if (kind == "D1.real" && level >= 2) return d1_real(rng);
    D1Case d;
    const std::vector<std::string> formats{"jaxpr", "stablehlo", "hlo"};
    d.format = kind == "D1.jaxpr"       ? "jaxpr"
               : kind == "D1.stablehlo" ? "stablehlo"
               : kind == "D1.hlo"       ? "hlo"
                                        : rng.pick(formats);
    d.element = rng.chance(50) ? "bf16" : "f32";
    d.result = d.format == "jaxpr" ? "c" : d.format == "stablehlo" ? "%0" : "%dot";
    // Logical dims: batch, lhs free, rhs free, contracting; each with a size.
    const int nb = level == 1 ? 0 : level == 2 ? static_cast<int>(rng.range(0, 1)) : static_cast<int>(rng.range(1, 2));
    const int nc = level >= 3 ? static_cast<int>(rng.range(1, 2)) : 1;
    const int nl = level >= 3 ? static_cast<int>(rng.range(0, 2)) : 1;
    const int nr = level >= 3 ? static_cast<int>(rng.range(1, 2)) : 1;
    auto size = [&] { return std::int64_t{1} << rng.range(level == 1 ? 6 : 2, level == 1 ? 12 : 10); };
    struct Logical {
        char role;
        int index;
        std::int64_t size;
    };
    std::vector<Logical> lhs_dims, rhs_dims;
    std::vector<std::int64_t> batch_sizes, contract_sizes;
    for (int i = 0; i < nb; ++i) batch_sizes.push_back(rng.range(2, 16));
    for (int i = 0; i < nc; ++i) contract_sizes.push_back(size());
    for (int i = 0; i < nb; ++i) {
        lhs_dims.push_back({'b', i, batch_sizes[static_cast<std::size_t>(i)]});
        rhs_dims.push_back({'b', i, batch_sizes[static_cast<std::size_t>(i)]});
    }
    for (int i = 0; i < nl; ++i) lhs_dims.push_back({'l', i, size()});
    for (int i = 0; i < nr; ++i) rhs_dims.push_back({'r', i, size()});
    // The rhs contracting dims come first, as in [K, N]; a transposed operand swaps them.
    std::vector<Logical> rhs_c;
    for (int i = 0; i < nc; ++i) {
        lhs_dims.push_back({'c', i, contract_sizes[static_cast<std::size_t>(i)]});
        rhs_c.push_back({'c', i, contract_sizes[static_cast<std::size_t>(i)]});
    }
    rhs_dims.insert(rhs_dims.begin() + nb, rhs_c.begin(), rhs_c.end());
    auto shuffle = [&](std::vector<Logical>& v) {
        for (std::size_t i = v.size(); i > 1; --i)
            std::swap(v[i - 1], v[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(i) - 1))]);
    };
    if (level == 1) {
        if (rng.chance(30)) std::reverse(lhs_dims.begin(), lhs_dims.end());  // x^T
        if (rng.chance(30)) std::reverse(rhs_dims.begin(), rhs_dims.end());  // w^T
    } else if (level == 2) {
        if (rng.chance(40)) std::reverse(lhs_dims.begin() + nb, lhs_dims.end());
        if (rng.chance(40)) std::reverse(rhs_dims.begin() + nb, rhs_dims.end());
        if (nb == 1 && rng.chance(30))
            std::rotate(rhs_dims.begin(), rhs_dims.begin() + 1, rhs_dims.end());  // batch not first
    } else {
        shuffle(lhs_dims);
        shuffle(rhs_dims);
    }
    auto find = [](const std::vector<Logical>& v, char role, int index) {
        for (std::size_t i = 0; i < v.size(); ++i)
            if (v[i].role == role && v[i].index == index) return static_cast<std::int64_t>(i);
        return std::int64_t{-1};
    };
    for (const auto& l : lhs_dims) d.lhs.push_back(l.size);
    for (const auto& r : rhs_dims) d.rhs.push_back(r.size);
    for (int i = 0; i < nb; ++i) {
        d.dims.lhs_batch.push_back(find(lhs_dims, 'b', i));
        d.dims.rhs_batch.push_back(find(rhs_dims, 'b', i));
    }
    for (int i = 0; i < nc; ++i) {
        d.dims.lhs_contracting.push_back(find(lhs_dims, 'c', i));
        d.dims.rhs_contracting.push_back(find(rhs_dims, 'c', i));
    }
    d.shape = ir::dot_general_shape(d.lhs, d.rhs, d.dims);
    d.full = print_dot(d, false);
    d.text = print_dot(d, true);
    return d;
}

}  // namespace

Question d1(const std::string& kind, int level, std::uint64_t seed) {
    const D1Case d = d1_case(kind, level, seed);
    Question q;
    q.drill = "D1";
    q.kind = kind;
    q.level = level;
    q.seed = seed;
    q.code = d.text;
    q.code_unmasked = d.full;
    q.code_language = d.format;
    q.givens = {{"syntax", d.format == "jaxpr"       ? "jaxpr"
                           : d.format == "stablehlo" ? "StableHLO"
                                                     : "HLO"},
                {"the dot", "the one that defines " + d.result}};
    if (!d.source.empty()) q.givens.push_back({"from", d.source + " (assets/drills/ir)"});
    q.prompt = "Decode this dot_general: its output shape, its FLOPs, and which dimensions of each operand contract.";
    q.fields = {Field{"shape", "output shape", FieldType::shape, "", {}, 0, "", ""},
                Field{"flops", "FLOPs", FieldType::count, "FLOP", {}, 0.01, "", ""},
                Field{"contract", "contracting dims, lhs x rhs", FieldType::dims, "", {}, 0, "", ""}};
    q.expected["shape"] = dims_text(d.shape.output);
    q.expected_dims["shape"] = d.shape.output;
    q.expected["flops"] = count_text(static_cast<double>(d.shape.flops));
    q.expected_value["flops"] = static_cast<double>(d.shape.flops);
    q.expected["contract"] = pairs_text(d.dims.lhs_contracting, d.dims.rhs_contracting);
    q.expected_dims["contract_lhs"] = d.dims.lhs_contracting;
    q.expected_dims["contract_rhs"] = d.dims.rhs_contracting;
    return q;
}

std::vector<Step> d1_steps(const Question& q) {
    const D1Case d = d1_case(q.kind, q.level, q.seed);
    std::vector<Step> steps;
    const std::string how =
        d.format == "jaxpr"       ? "dimension_numbers=((lhs contracting, rhs contracting), (lhs batch, rhs batch))"
        : d.format == "stablehlo" ? "batching_dims = lhs x rhs, contracting_dims = lhs x rhs"
                                  : "lhs_batch_dims, lhs_contracting_dims, rhs_batch_dims, rhs_contracting_dims";
    steps.push_back({"Read the dimension numbers (" + how + "): contracting " +
                         pairs_text(d.dims.lhs_contracting, d.dims.rhs_contracting) + ", batch " +
                         pairs_text(d.dims.lhs_batch, d.dims.rhs_batch) + ".",
                     ""});
    steps.push_back({"Operands: lhs (" + joined(d.lhs, ", ") + "), rhs (" + joined(d.rhs, ", ") + ").", ""});
    std::string pairs;
    for (std::size_t i = 0; i < d.dims.lhs_contracting.size(); ++i)
        pairs += (i ? ", " : "") + std::string("lhs ") + std::to_string(d.dims.lhs_contracting[i]) + " with rhs " +
                 std::to_string(d.dims.rhs_contracting[i]) + " (" +
                 std::to_string(d.lhs[static_cast<std::size_t>(d.dims.lhs_contracting[i])]) + ")";
    steps.push_back({"Contracting pairs, summed away: " + pairs + ".", std::to_string(d.shape.contracting)});
    if (!d.dims.lhs_batch.empty())
        steps.push_back(
            {"Batch dims, kept and matched pairwise: " + pairs_text(d.dims.lhs_batch, d.dims.rhs_batch) + ".",
             std::to_string(d.shape.batch)});
    steps.push_back({"Free dims, kept: the lhs's and the rhs's remaining dims, in order.",
                     std::to_string(d.shape.lhs_free) + " × " + std::to_string(d.shape.rhs_free)});
    steps.push_back({"Output = batch dims (lhs order), then lhs free, then rhs free.", dims_text(d.shape.output)});
    steps.push_back({"FLOPs = 2 × batch × lhs free × rhs free × contracting = 2 × " + std::to_string(d.shape.batch) +
                         " × " + std::to_string(d.shape.lhs_free) + " × " + std::to_string(d.shape.rhs_free) + " × " +
                         std::to_string(d.shape.contracting),
                     count_text(static_cast<double>(d.shape.flops))});
    return steps;
}

std::vector<std::pair<std::string, std::string>> real_dump_texts() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const RealDump& d : kRealDumps) out.emplace_back(d.file, d.text);
    return out;
}

}  // namespace coursework::drills::cards
