// Reading a drill's typed answers: numbers with their units, shapes and
// choices, read where the intent is clear and refused in one sentence
// where it is not.
#include "coursework/drills.h"
#include "drills_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace coursework::drills {

namespace {

struct Unit {
    const char* text;
    double scale;
};

const std::vector<Unit> kTimeUnits{{"s", 1},     {"sec", 1},  {"ms", 1e-3}, {"\xc2\xb5s", 1e-6}, {"\xce\xbcs", 1e-6},
                                   {"us", 1e-6}, {"ns", 1e-9}};
const std::vector<Unit> kByteUnits{{"b", 1},           {"bytes", 1},          {"byte", 1},     {"kib", 1024.0},
                                   {"mib", 1048576.0}, {"gib", 1073741824.0}, {"kb", 1e3},     {"mb", 1e6},
                                   {"gb", 1e9},        {"k", 1024.0},         {"m", 1048576.0}};
const std::vector<Unit> kCountUnits{{"flop", 1},    {"flops", 1}, {"k", 1e3},     {"kflop", 1e3}, {"m", 1e6},
                                    {"mflop", 1e6}, {"g", 1e9},   {"gflop", 1e9}, {"t", 1e12},    {"tflop", 1e12}};
const std::vector<Unit> kIntensityUnits{{"x", 1},       {"\xc3\x97", 1},  {"flop/b", 1},
                                        {"flops/b", 1}, {"flop/byte", 1}, {"flops/byte", 1}};

double unit_scale(const std::vector<Unit>& units, const std::string& unit) {
    for (const Unit& u : units)
        if (lower(unit) == u.text) return u.scale;
    return 0;
}

const char* what_of(FieldType type) {
    switch (type) {
        case FieldType::time:
            return "a time";
        case FieldType::bytes:
            return "a size in bytes";
        case FieldType::intensity:
            return "an intensity";
        case FieldType::count:
            return "a count";
        default:
            return "an answer";
    }
}

const char* example_of(FieldType type) {
    switch (type) {
        case FieldType::time:
            return "write it like 4.1 ms or 4100 \xc2\xb5s";
        case FieldType::bytes:
            return "write it like 4,718,592 or 4.5 MiB";
        case FieldType::intensity:
            return "write it like 240 or 240 FLOP/B";
        case FieldType::count:
            return "write it like 1,073,741,824 or 1.07 GFLOP";
        default:
            return "";
    }
}

}  // namespace

std::optional<double> parse_number(const std::string& raw, FieldType type, const std::string& unit, std::string* why) {
    const std::string text = trim(raw);
    auto refuse = [&](const std::string& sentence) -> std::optional<double> {
        if (why) *why = sentence;
        return std::nullopt;
    };
    if (text.empty()) return refuse(std::string("Give ") + what_of(type) + " before you check.");
    // The number: digits with an optional point, thousands commas (a comma
    // followed by exactly three digits), an optional exponent.
    std::string digits;
    std::size_t i = 0;
    bool point = false;
    while (i < text.size()) {
        const char ch = text[i];
        if (std::isdigit(static_cast<unsigned char>(ch))) {
            digits += ch;
            ++i;
        } else if (ch == '.' && !point) {
            point = true;
            digits += ch;
            ++i;
        } else if ((ch == ',' || ch == '_') && !point && !digits.empty()) {
            std::size_t n = 0;
            while (i + 1 + n < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1 + n]))) ++n;
            if (n != 3)
                return refuse("\u201c" + text + "\u201d is not " + what_of(type) + " I can read: " + example_of(type) +
                              ".");
            ++i;
        } else if ((ch == 'e' || ch == 'E') && !digits.empty() && i + 1 < text.size() &&
                   (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' ||
                    text[i + 1] == '+')) {
            digits += 'e';
            ++i;
            if (text[i] == '-' || text[i] == '+') digits += text[i++];
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) digits += text[i++];
        } else {
            break;
        }
    }
    if (digits.empty() || digits == ".")
        return refuse("\u201c" + text + "\u201d is not " + what_of(type) + " I can read: " + example_of(type) + ".");
    const double value = std::strtod(digits.c_str(), nullptr);
    const std::string rest = trim(text.substr(i));
    double scale = 1;
    if (rest.empty()) {
        scale = type == FieldType::time ? unit_scale(kTimeUnits, unit) : 1;
        if (scale == 0) scale = 1;
    } else {
        const auto& units = type == FieldType::time    ? kTimeUnits
                            : type == FieldType::bytes ? kByteUnits
                            : type == FieldType::count ? kCountUnits
                                                       : kIntensityUnits;
        scale = unit_scale(units, rest);
        if (scale == 0)
            return refuse("\u201c" + rest + "\u201d is not a unit for " + what_of(type) + ": " + example_of(type) +
                          ".");
    }
    if (!std::isfinite(value)) return refuse("\u201c" + text + "\u201d is too large to be " + what_of(type) + ".");
    return value * scale;
}

std::optional<std::vector<std::int64_t>> parse_shape(const std::string& raw, std::string* why) {
    std::string text = lower(trim(raw));
    // A dtype around the dims says nothing about them: f32[8,128], tensor<8x128xbf16>.
    for (const char* dt : {"bfloat16", "float32", "float16", "bf16", "f32", "f16", "f64", "s32", "s8", "i32", "i8",
                           "u8", "int8", "int32", "tensor"})
        for (auto at = text.find(dt); at != std::string::npos; at = text.find(dt))
            text.replace(at, std::string(dt).size(), " ");
    std::vector<std::int64_t> dims;
    std::string number;
    for (char ch : text + " ") {
        if (std::isdigit(static_cast<unsigned char>(ch))) {
            number += ch;
            continue;
        }
        if (!number.empty()) {
            if (number.size() > 12) break;
            dims.push_back(std::stoll(number));
            number.clear();
        }
        if (std::string(" ,x()[]<>{}\t*").find(ch) == std::string::npos) {
            if (why)
                *why = "\u201c" + trim(raw) +
                       "\u201d is not a shape I can read: write it like (8, 128, 512) or 8x128x512.";
            return std::nullopt;
        }
    }
    if (dims.empty()) {
        if (why)
            *why = trim(raw).empty()
                       ? "Give the output shape before you check."
                       : "\u201c" + trim(raw) +
                             "\u201d is not a shape I can read: write it like (8, 128, 512) or 8x128x512.";
        return std::nullopt;
    }
    return dims;
}

std::optional<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> parse_dims(const std::string& raw,
                                                                                          std::string* why) {
    const std::string text = lower(trim(raw));
    if (text.empty()) {
        if (why) *why = "Give the contracting dims before you check.";
        return std::nullopt;
    }
    const char* const refusal = "Write the contracting dims as the lhs's, then x, then the rhs's, like [2] x [1].";
    std::size_t split = std::string::npos, width = 1;
    for (const char* sep : {"\xc3\x97", " x ", "x", ";", "|", "/"}) {
        split = text.find(sep);
        if (split != std::string::npos) {
            width = std::string(sep).size();
            break;
        }
    }
    if (split == std::string::npos) {
        if (why) *why = refusal;
        return std::nullopt;
    }
    auto side = [&](const std::string& part) -> std::optional<std::vector<std::int64_t>> {
        std::vector<std::int64_t> out;
        std::string number;
        for (char ch : part + " ") {
            if (std::isdigit(static_cast<unsigned char>(ch))) {
                number += ch;
                continue;
            }
            if (!number.empty()) {
                if (number.size() > 3) return std::nullopt;
                out.push_back(std::stoll(number));
                number.clear();
            }
            if (std::string(" ,()[]{}\t").find(ch) == std::string::npos && part.find("lhs") == std::string::npos &&
                part.find("rhs") == std::string::npos)
                return std::nullopt;
        }
        if (out.empty()) return std::nullopt;
        return out;
    };
    std::string left = text.substr(0, split), right = text.substr(split + width);
    for (std::string* part : {&left, &right})
        for (const char* word : {"lhs", "rhs", ":"})
            for (auto at = part->find(word); at != std::string::npos; at = part->find(word))
                part->replace(at, std::string(word).size(), " ");
    const auto l = side(left), r = side(right);
    if (!l || !r || l->size() != r->size()) {
        if (why) *why = refusal;
        return std::nullopt;
    }
    return std::make_pair(*l, *r);
}

std::optional<std::string> parse_choice(const std::string& raw, const Field& field, std::string* why) {
    static const std::map<std::string, std::string> aliases{
        {"c", "compute"},
        {"compute-bound", "compute"},
        {"compute bound", "compute"},
        {"mxu", "compute"},
        {"vpu", "compute"},
        {"flops", "compute"},
        {"m", "memory"},
        {"mem", "memory"},
        {"memory-bound", "memory"},
        {"memory bound", "memory"},
        {"hbm", "memory"},
        {"bandwidth", "memory"},
        {"y", "yes"},
        {"legal", "yes"},
        {"true", "yes"},
        {"ok", "yes"},
        {"n", "no"},
        {"illegal", "no"},
        {"false", "no"},
        {"not legal", "no"},
        {"block", "shape"},
        {"tile", "shape"},
        {"tiling", "shape"},
        {"(8,128)", "shape"},
        {"8,128", "shape"},
        {"block shape", "shape"},
        {"missing", "coverage"},
        {"misses", "coverage"},
        {"cover", "coverage"},
        {"gap", "coverage"},
        {"unwritten", "coverage"},
        {"races", "race"},
        {"overlap", "race"},
        {"parallel", "race"},
        {"revisit", "race"},
        {"memory limit", "vmem"},
        {"over", "vmem"},
        {"limit", "vmem"},
        {"too big", "vmem"},
        {"oom", "vmem"},
    };
    std::string text = lower(trim(raw));
    if (text.empty()) {
        if (why) *why = "Give the " + field.label + " before you check.";
        return std::nullopt;
    }
    for (const std::string& choice : field.choices)
        if (text == choice) return choice;
    const auto it = aliases.find(text);
    if (it != aliases.end() && std::find(field.choices.begin(), field.choices.end(), it->second) != field.choices.end())
        return it->second;
    std::string list;
    for (std::size_t k = 0; k < field.choices.size(); ++k)
        list += (k == 0 ? "" : k + 1 == field.choices.size() ? " or " : ", ") + field.choices[k];
    if (why) *why = "The " + field.label + " is one of " + list + ".";
    return std::nullopt;
}

}  // namespace coursework::drills
