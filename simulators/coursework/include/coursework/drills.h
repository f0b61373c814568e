#pragma once
// The drills: questions that never run out. Each question comes from a seeded
// generator (the same drill, kind, level and seed give the same question on
// every machine), and each answer is checked with the models the instruments
// use: the roofline for D2, the BlockSpec sandbox for D3, the ICI mesh and
// its collectives (closed form and hop-by-hop simulation) for D4. A worked
// explanation, every figure predicted, follows every answer.
//
// Answers are typed text. A field's text is parsed where the intent is clear
// ("12x", " 4,096 ", "4096 µs", "4.1 ms", "yes"); anything else is refused
// with one sentence, and a refused answer is not graded.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coursework::drills {

// How a field's text is read.
enum class FieldType {
    time,       // seconds; a bare number is in the field's display unit
    bytes,      // bytes; B, KiB, MiB, GiB, KB, MB, GB
    intensity,  // FLOP per byte; "12x" and "12 FLOP/B" both read 12
    count,      // a plain count (FLOPs); "1,048,576", "1.05e6", "1.05 MFLOP"
    shape,      // a shape: "(8, 128, 512)", "8x128x512", "f32[8,128,512]"
    dims,       // two lists of dims, lhs then rhs: "[2] x [1]", "1, 2 x 0, 1"
    choice,     // one of `choices` (or an alias of one)
};

struct Field {
    std::string id;     // "time", "bound", "intensity", "legal", "vmem", "reason"
    std::string label;  // "time floor"
    FieldType type = FieldType::time;
    std::string unit;                  // the unit a bare number is in: "µs", "B", "FLOP/B"
    std::vector<std::string> choices;  // for a choice: the canonical answers
    double tolerance = 0;              // relative, for numbers: 0.1 is within 10 %
    // Only asked when another field has a given answer ("reason" when "legal" is "no").
    std::string only_when_field;
    std::string only_when_value;
};

// One line of what the question gives: "op" -> "matmul".
struct Given {
    std::string label;
    std::string value;
};

struct Question {
    std::string drill;  // "D2", "D3"
    std::string kind;   // the card kind: "D2.matmul", "D3.blocks", ...
    int level = 1;      // 1 to 3
    std::uint64_t seed = 0;
    std::string prompt;  // one sentence
    std::vector<Given> givens;
    std::string code;           // a snippet to show (D3: the BlockSpecs); may be empty
    std::string code_language;  // "python", "jaxpr", "stablehlo", "hlo"
    std::string code_unmasked;  // D1: the code with the output's type printed (the answer shows)
    std::vector<Field> fields;
    std::map<std::string, std::string> expected;   // field id -> the answer as shown
    std::map<std::string, double> expected_value;  // numeric fields, in SI units
    std::map<std::string, double> expected_alt;    // a second model's value that counts too
    // Shapes and dims: "shape" -> the output shape; "contract_lhs",
    // "contract_rhs" -> the contracting dims, paired in order.
    std::map<std::string, std::vector<std::int64_t>> expected_dims;
};

// A step of the worked explanation: a sentence and, when it has one, its
// figure as shown (every figure here is predicted by the simulator).
struct Step {
    std::string text;
    std::string figure;  // "697.7 µs"; empty when the step has none
    // The figure is a chip figure no source publishes, the simulator's own
    // choice (Fact::assumption): shown as assumed rather than predicted.
    bool assumed = false;
};

struct FieldResult {
    std::string id;
    std::string given;     // the learner's text as typed
    std::string read_as;   // how it was read: "4.10 ms"
    std::string expected;  // the model's answer as shown
    bool asked = true;     // false when the field did not apply (a reason for a legal block)
    bool correct = false;
};

struct Check {
    bool refused = false;       // the answer could not be read: not graded
    std::string refusal;        // one sentence when refused
    std::string refused_field;  // the id of the field whose text could not be read
    bool correct = false;       // every asked field right
    int fields_right = 0;
    int fields_asked = 0;
    std::vector<FieldResult> fields;
    std::vector<Step> steps;  // the worked explanation
};

// The drills and their card kinds, in the order they are taught.
const std::vector<std::string>& drill_ids();  // {"D2", "D3", "D4"}
const std::vector<std::string>& card_kinds(const std::string& drill);
int max_level();  // 3

// The IR dumps D1 draws real dots from, as embedded: {file name, text}.
std::vector<std::pair<std::string, std::string>> real_dumps();

// The question of `kind` at `level` from `seed`. Throws InputError for an
// unknown drill or kind, or a level outside 1..max_level().
Question generate(const std::string& kind, int level, std::uint64_t seed);

// Checks `answers` (field id -> text) against the question the seed gives.
Check check(const Question& question, const std::map<std::string, std::string>& answers);

// The parsers, for tests and the app's live hints. Each returns the value in
// SI units, or nothing with `why` set to one sentence.
std::optional<double> parse_number(const std::string& text, FieldType type, const std::string& unit, std::string* why);
// The whole numbers of a shape or of one side of a dims answer, or nothing (with `why`).
std::optional<std::vector<std::int64_t>> parse_shape(const std::string& text, std::string* why);
// "lhs x rhs": two lists of dims, or nothing (with `why`).
std::optional<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> parse_dims(const std::string& text,
                                                                                          std::string* why);
// The canonical choice `text` names, or nothing (with `why`).
std::optional<std::string> parse_choice(const std::string& text, const Field& field, std::string* why);

}  // namespace coursework::drills
