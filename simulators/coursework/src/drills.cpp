#include "coursework/drills.h"
#include "drills_cards.h"
#include "drills_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tpusim/error.h"
#include "tpusim/provenance.h"

namespace coursework::drills {

using namespace tpusim;
namespace cards {

std::uint64_t mix(const std::string& kind, int level, std::uint64_t seed) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the kind, then the level and seed
    for (unsigned char c : kind) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ static_cast<std::uint64_t>(level)) * 1099511628211ULL;
    return h ^ (seed * 0x9e3779b97f4a7c15ULL);
}

std::string fixed(double v, int decimals) {
    return format_fixed(v, decimals);
}

std::string count_text(double v) {
    return format_count(v);
}

std::string dims_text(const std::vector<std::int64_t>& shape) {
    return "(" + joined(shape, ", ") + ")";
}

const std::vector<std::string> kChipsL1{"v5e"};
const std::vector<std::string> kChipsAll{"v4", "v5e", "v5p", "v6e", "v7"};

std::vector<DType> matmul_dtypes(const Chip& c, int level) {
    std::vector<DType> out{DType::bf16};
    if (level >= 2) {
        out.push_back(DType::f32);
        if (c.peak_int8.published()) out.push_back(DType::int8);
    }
    if (level >= 3 && c.peak_fp8.published()) out.push_back(DType::fp8);
    return out;
}

std::string joined(const std::vector<std::int64_t>& v, const std::string& sep) {
    std::string t;
    for (std::size_t i = 0; i < v.size(); ++i) t += (i ? sep : "") + std::to_string(v[i]);
    return t;
}

std::string pairs_text(const std::vector<std::int64_t>& l, const std::vector<std::int64_t>& r) {
    return "[" + joined(l, ", ") + "] x [" + joined(r, ", ") + "]";
}

}  // namespace cards

using namespace cards;

namespace {

const std::map<std::string, std::vector<std::string>> kKinds{
    {"D1", {"D1.jaxpr", "D1.stablehlo", "D1.hlo", "D1.real"}},
    {"D2", {"D2.matmul", "D2.elementwise", "D2.reduction"}},
    {"D3", {"D3.blocks", "D3.maps", "D3.vmem"}},
    {"D4", {"D4.gather", "D4.reduce", "D4.all-to-all", "D4.shard"}},
};

}  // namespace

const std::vector<std::string>& drill_ids() {
    static const std::vector<std::string> ids{"D1", "D2", "D3", "D4"};
    return ids;
}

const std::vector<std::string>& card_kinds(const std::string& drill) {
    const auto it = kKinds.find(drill);
    if (it == kKinds.end()) throw InputError("there is no drill '" + drill + "'");
    return it->second;
}

int max_level() {
    return 3;
}

std::vector<std::pair<std::string, std::string>> real_dumps() {
    return cards::real_dump_texts();
}

Question generate(const std::string& kind, int level, std::uint64_t seed) {
    if (level < 1 || level > max_level())
        throw InputError("a drill's level is 1 to " + std::to_string(max_level()) + " (got " + std::to_string(level) +
                         ")");
    const std::string drill = kind.substr(0, kind.find('.'));
    const auto& kinds = card_kinds(drill);
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        throw InputError("drill " + drill + " has no card kind '" + kind + "'");
    if (kind == "D4.shard") return d4_shard(kind, level, seed);
    return drill == "D1"   ? d1(kind, level, seed)
           : drill == "D2" ? d2(kind, level, seed)
           : drill == "D3" ? d3(kind, level, seed)
                           : d4(kind, level, seed);
}

Check check(const Question& q, const std::map<std::string, std::string>& answers) {
    Check out;
    auto answer_of = [&](const std::string& id) {
        const auto it = answers.find(id);
        return it == answers.end() ? std::string() : it->second;
    };
    std::map<std::string, std::string> canonical;  // parsed choices, for only_when
    for (const Field& f : q.fields) {
        if (f.type != FieldType::choice) continue;
        const std::string text = answer_of(f.id);
        if (!f.only_when_field.empty()) continue;
        std::string why;
        const auto c = parse_choice(text, f, &why);
        if (!c) {
            out.refused = true;
            out.refusal = why;
            out.refused_field = f.id;
            return out;
        }
        canonical[f.id] = *c;
    }
    for (const Field& f : q.fields) {
        FieldResult r;
        r.id = f.id;
        r.given = answer_of(f.id);
        r.expected = q.expected.at(f.id);
        // A field that applies only to some answers is asked when the learner's
        // answer, or the model's, needs it: a wrong "legal" still shows the reason.
        if (!f.only_when_field.empty()) {
            const bool learner_needs = canonical[f.only_when_field] == f.only_when_value;
            const bool model_needs = q.expected.at(f.only_when_field) == f.only_when_value;
            if (!model_needs) {
                r.asked = false;
                r.correct = true;
                r.read_as = trim(r.given);
                out.fields.push_back(r);
                continue;
            }
            if (!learner_needs && trim(r.given).empty()) {
                r.correct = false;
                out.fields.push_back(r);
                ++out.fields_asked;
                continue;
            }
        }
        std::string why;
        if (f.type == FieldType::choice) {
            const auto c = parse_choice(r.given, f, &why);
            if (!c) {
                out.refused = true;
                out.refusal = why;
                out.refused_field = f.id;
                return out;
            }
            r.read_as = *c;
            // Several reasons may apply; any of them is right.
            std::string alternatives = "|" + r.expected + "|";
            r.correct = alternatives.find("|" + *c + "|") != std::string::npos;
        } else if (f.type == FieldType::shape) {
            const auto v = parse_shape(r.given, &why);
            if (!v) {
                out.refused = true;
                out.refusal = why;
                out.refused_field = f.id;
                return out;
            }
            r.read_as = dims_text(*v);
            r.correct = *v == q.expected_dims.at(f.id);
        } else if (f.type == FieldType::dims) {
            const auto v = parse_dims(r.given, &why);
            if (!v) {
                out.refused = true;
                out.refusal = why;
                out.refused_field = f.id;
                return out;
            }
            r.read_as = pairs_text(v->first, v->second);
            // The same pairs in any order: [1, 2] x [0, 1] is [2, 1] x [1, 0].
            std::vector<std::pair<std::int64_t, std::int64_t>> given, want;
            for (std::size_t k = 0; k < v->first.size(); ++k) given.emplace_back(v->first[k], v->second[k]);
            const auto& wl = q.expected_dims.at(f.id + "_lhs");
            const auto& wr = q.expected_dims.at(f.id + "_rhs");
            for (std::size_t k = 0; k < wl.size(); ++k) want.emplace_back(wl[k], wr[k]);
            std::sort(given.begin(), given.end());
            std::sort(want.begin(), want.end());
            r.correct = given == want;
        } else {
            const auto v = parse_number(r.given, f.type, f.unit, &why);
            if (!v) {
                out.refused = true;
                out.refusal = why;
                out.refused_field = f.id;
                return out;
            }
            r.read_as = f.type == FieldType::time    ? format_time(*v)
                        : f.type == FieldType::bytes ? format_bytes(*v)
                        : f.type == FieldType::count ? count_text(*v)
                                                     : format_intensity(*v);
            auto near = [&](double want) { return std::fabs(*v - want) <= f.tolerance * std::fabs(want) + 1e-12; };
            r.correct = near(q.expected_value.at(f.id));
            // A second model's answer counts too (D4: the closed form or the simulation).
            if (const auto alt = q.expected_alt.find(f.id); alt != q.expected_alt.end())
                r.correct = r.correct || near(alt->second);
        }
        ++out.fields_asked;
        if (r.correct) ++out.fields_right;
        out.fields.push_back(r);
    }
    out.correct = out.fields_right == out.fields_asked;
    out.steps = q.kind == "D4.shard" ? d4_shard_steps(q)
                : q.drill == "D1"    ? d1_steps(q)
                : q.drill == "D2"    ? d2_steps(q)
                : q.drill == "D3"    ? d3_steps(q)
                                     : d4_steps(q);
    return out;
}

}  // namespace coursework::drills
