// libFuzzer target for the drills' typed answers: a question from the first
// bytes (card kind, level, one of 64 seeds), then the rest as the learner's
// text for its fields, a line each, and the same text through every parser.
// Each answer is graded or refused in one sentence; a crash, a sanitizer
// report, an empty refusal or more fields right than asked is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "coursework/drills.h"

namespace drills = coursework::drills;

namespace {

// Generating runs the models; a question is made once per kind, level and seed.
const drills::Question& question(std::size_t kind_index, int level, std::uint64_t seed) {
    static std::map<std::tuple<std::size_t, int, std::uint64_t>, drills::Question> made;
    const auto key = std::make_tuple(kind_index, level, seed);
    auto it = made.find(key);
    if (it == made.end()) {
        std::size_t index = kind_index;
        for (const std::string& drill : drills::drill_ids()) {
            const auto& kinds = drills::card_kinds(drill);
            if (index < kinds.size()) {
                it = made.emplace(key, drills::generate(kinds[index], level, seed)).first;
                break;
            }
            index -= kinds.size();
        }
    }
    return it->second;
}

std::size_t kind_count() {
    std::size_t n = 0;
    for (const std::string& drill : drills::drill_ids()) n += drills::card_kinds(drill).size();
    return n;
}

void parsers(const std::string& text) {
    std::string why;
    for (const auto type :
         {drills::FieldType::time, drills::FieldType::bytes, drills::FieldType::intensity, drills::FieldType::count}) {
        why.clear();
        if (!drills::parse_number(text, type, type == drills::FieldType::time ? "µs" : "", &why) && why.empty())
            std::abort();
    }
    why.clear();
    if (!drills::parse_shape(text, &why) && why.empty()) std::abort();
    why.clear();
    if (!drills::parse_dims(text, &why) && why.empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    static const std::size_t kinds = kind_count();
    const drills::Question& q = question(data[0] % kinds, 1 + data[1] % drills::max_level(), data[2] % 64);
    const std::string text(reinterpret_cast<const char*>(data + 3), size - 3);
    parsers(text);
    // One line per field, in order.
    std::map<std::string, std::string> answers;
    std::size_t start = 0;
    for (const drills::Field& field : q.fields) {
        const std::size_t end = text.find('\n', start);
        answers[field.id] =
            text.substr(std::min(start, text.size()), end == std::string::npos ? std::string::npos : end - start);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    const drills::Check check = drills::check(q, answers);
    if (check.refused ? check.refusal.empty() : check.fields_right > check.fields_asked) std::abort();
    return 0;
}
