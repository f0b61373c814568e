// The drills' generators and checkers: determinism, answers read as meant,
// hand-worked cases, and no question the models refuse over 10,000 seeds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "coursework/drills.h"
#include "tpusim/chips.h"
#include "tpusim/error.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/provenance.h"

#include <fstream>
#include <sstream>

using namespace coursework::drills;

namespace {

std::map<std::string, std::string> right_answers(const Question& q) {
    std::map<std::string, std::string> a;
    for (const Field& f : q.fields) {
        std::string e = q.expected.at(f.id);
        if (f.type == FieldType::choice) {
            a[f.id] = e.substr(0, e.find('|'));
        } else if (f.type == FieldType::shape || f.type == FieldType::dims) {
            a[f.id] = e;  // shown as the model writes it: "(8, 128)", "[2] x [1]"
        } else {
            // Type the model's value in plain SI units with the field's words.
            const double v = q.expected_value.at(f.id);
            char buf[64];
            if (f.type == FieldType::time)
                std::snprintf(buf, sizeof buf, "%.6g s", v);
            else if (f.type == FieldType::bytes)
                std::snprintf(buf, sizeof buf, "%.0f", v);
            else
                std::snprintf(buf, sizeof buf, "%.6g", v);
            a[f.id] = buf;
        }
    }
    if (q.expected.at(q.fields.front().id) == "yes") a.erase("reason");
    return a;
}

}  // namespace

TEST_CASE("answers are read where the intent is clear", "[drills]") {
    std::string why;
    CHECK(*parse_number("4096 \xc2\xb5s", FieldType::time, "\xc2\xb5s", &why) == Approx(4096e-6));
    CHECK(*parse_number("4.1 ms", FieldType::time, "\xc2\xb5s", &why) == Approx(4.1e-3));
    CHECK(*parse_number(" 4,096 ", FieldType::time, "\xc2\xb5s", &why) == Approx(4096e-6));
    CHECK(*parse_number("4096us", FieldType::time, "\xc2\xb5s", &why) == Approx(4096e-6));
    CHECK(*parse_number("12x", FieldType::intensity, "FLOP/B", &why) == Approx(12));
    CHECK(*parse_number("240 FLOP/B", FieldType::intensity, "FLOP/B", &why) == Approx(240));
    CHECK(*parse_number("4.5 MiB", FieldType::bytes, "B", &why) == Approx(4.5 * 1048576));
    CHECK(*parse_number("1,048,576", FieldType::bytes, "B", &why) == Approx(1048576));
    CHECK(*parse_number("1e6", FieldType::bytes, "B", &why) == Approx(1e6));

    for (const char* bad : {"", "fast", "4,1 ms", "12 parsecs", "4 GB"}) {
        why.clear();
        CHECK_FALSE(parse_number(bad, FieldType::time, "\xc2\xb5s", &why));
        CHECK_FALSE(why.empty());
        CHECK(why.back() == '.');
    }
    const Field bound{"bound", "bound", FieldType::choice, "", {"compute", "memory"}, 0, "", ""};
    CHECK(*parse_choice(" Memory ", bound, &why) == "memory");
    CHECK(*parse_choice("HBM", bound, &why) == "memory");
    CHECK(*parse_choice("c", bound, &why) == "compute");
    CHECK_FALSE(parse_choice("both", bound, &why));
    CHECK(why == "The bound is one of compute or memory.");
}

TEST_CASE("a generator gives the same question for the same seed", "[drills]") {
    for (const std::string& drill : drill_ids())
        for (const std::string& kind : card_kinds(drill))
            for (int level = 1; level <= max_level(); ++level)
                for (std::uint64_t seed : {0ULL, 1ULL, 77ULL, 123456789ULL}) {
                    const Question a = generate(kind, level, seed);
                    const Question b = generate(kind, level, seed);
                    CHECK(a.givens.size() == b.givens.size());
                    for (std::size_t i = 0; i < a.givens.size(); ++i) CHECK(a.givens[i].value == b.givens[i].value);
                    CHECK(a.code == b.code);
                    CHECK(a.expected == b.expected);
                }
    // Different seeds give different questions.
    CHECK(generate("D2.matmul", 2, 1).givens[1].value != generate("D2.matmul", 2, 2).givens[1].value);
    CHECK_THROWS_AS(generate("D2.matmul", 0, 1), tpusim::InputError);
    CHECK_THROWS_AS(generate("D9.x", 1, 1), tpusim::InputError);
    CHECK_THROWS_AS(generate("D2.blocks", 1, 1), tpusim::InputError);
}

TEST_CASE("no generator asks a question the models refuse (10,000 seeds per drill)", "[drills][slow]") {
    for (const std::string& drill : drill_ids()) {
        const auto& kinds = card_kinds(drill);
        int legal = 0, illegal = 0;
        std::map<std::string, int> shard_kinds, shard_hidden;
        for (std::uint64_t seed = 0; seed < 10000; ++seed) {
            const std::string& kind = kinds[seed % kinds.size()];
            const int level = 1 + static_cast<int>(seed / kinds.size() % 3);
            INFO(kind << " level " << level << " seed " << seed);
            Question q;
            REQUIRE_NOTHROW(q = generate(kind, level, seed));
            for (const auto& [id, v] : q.expected_value) REQUIRE((std::isfinite(v) && v > 0));
            const Check c = check(q, right_answers(q));
            REQUIRE_FALSE(c.refused);
            REQUIRE(c.correct);
            REQUIRE_FALSE(c.steps.empty());
            // Products of figures are written with the times sign, as the
            // chapters write them ("2 × (", "64 × 512"); x stays a name ("x @ W_in")
            // and D1's dimension pairs keep the x StableHLO prints ("[1] x [0]").
            const auto only_pairs = [](const std::string& text) {
                for (auto at = text.find(" x "); at != std::string::npos; at = text.find(" x ", at + 1))
                    if (at > 0 && (std::isdigit(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == ')'))
                        return false;
                return true;
            };
            for (const auto& step : c.steps) {
                INFO(step.text << " | " << step.figure);
                REQUIRE(only_pairs(step.text));
                REQUIRE(only_pairs(step.figure));
            }
            if (drill == "D3") (q.expected.at("legal") == "yes" ? legal : illegal)++;
            if (drill == "D4" && q.expected.count("links")) (q.expected.at("links") == "ring" ? legal : illegal)++;
            if (q.kind == "D4.shard") {
                ++shard_kinds[q.expected.at("kind")];
                ++shard_hidden[q.expected.at("hidden")];
            }
        }
        if (drill == "D3" || drill == "D4") {
            // Both verdicts (D4: a ring or a line of links) come up often.
            CHECK(legal > 750);
            CHECK(illegal > 750);
        }
        if (drill == "D4") {
            // A sharded layer's cards ask about every kind, hidden and not.
            for (const char* k : {"all-gather", "reduce-scatter", "all-reduce"}) CHECK(shard_kinds[k] > 100);
            CHECK(shard_hidden["yes"] > 300);
            CHECK(shard_hidden["no"] > 300);
        }
    }
}

TEST_CASE("D2 checks a hand-worked matmul", "[drills]") {
    // Level 1 is always v5e, bf16. Find a seed whose matmul is 4096 cubed
    // is not guaranteed, so work this one by hand from whatever the seed gives.
    const Question q = generate("D2.matmul", 1, 7);
    REQUIRE(q.givens[3].value == "TPU v5e (v5e)");
    int m = 0, k = 0, n = 0;
    REQUIRE(std::sscanf(q.givens[1].value.c_str(), "M=%d  K=%d  N=%d", &m, &k, &n) == 3);
    // v5e: 197 TFLOP/s bf16, 819 GB/s HBM [JAX-MM].
    const double flops = 2.0 * m * k * n;
    const double bytes = 2.0 * (double(m) * k + double(k) * n + double(m) * n);
    const double time = std::max(flops / 197e12, bytes / 819e9);
    const auto c = check(q, {{"time", std::to_string(time * 1e6)},
                             {"bound", flops / bytes > 197e12 / 819e9 ? "compute" : "memory"},
                             {"intensity", std::to_string(flops / bytes)}});
    REQUIRE_FALSE(c.refused);
    CHECK(c.correct);
    // 20 % off is wrong; the bound alone right is one field of three.
    const auto off = check(q, {{"time", std::to_string(time * 1.2e6)},
                               {"bound", flops / bytes > 240 ? "compute" : "memory"},
                               {"intensity", std::to_string(flops / bytes * 0.5)}});
    CHECK_FALSE(off.correct);
    CHECK(off.fields_right == 1);
    CHECK(off.fields_asked == 3);
    // The worked ridge reads as the chapters write it: "240 FLOP/B", not 240.2.
    const auto ridge = std::find_if(c.steps.begin(), c.steps.end(),
                                    [](const auto& s) { return s.text.find("the ridge is") != std::string::npos; });
    REQUIRE(ridge != c.steps.end());
    CHECK(ridge->figure == tpusim::format_intensity(tpusim::ridge_point(tpusim::chip("v5e"), tpusim::DType::bf16)));
    CHECK(ridge->figure == "240 FLOP/B");
    // Products are written with the times sign, as the chapters write them.
    CHECK(c.steps.front().text.rfind("FLOPs = 2 × M × K × N", 0) == 0);
}

TEST_CASE("D3 checks a hand-worked schedule", "[drills]") {
    // Any seed; the case is re-derived from what the question shows.
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        const Question q = generate("D3.blocks", 1, seed);
        int bm = 0, bk = 0, bn = 0, m = 0, kk = 0, n = 0;
        REQUIRE(std::sscanf(q.givens[0].value.c_str(), "(%d, %d)", &m, &kk) == 2);
        REQUIRE(std::sscanf(q.givens[1].value.c_str(), "(%*d, %d)", &n) == 1);
        const auto at = q.code.find("BlockSpec((");
        REQUIRE(std::sscanf(q.code.c_str() + at, "BlockSpec((%d, %d)", &bm, &bk) == 2);
        const auto at2 = q.code.find("BlockSpec((", at + 1);
        REQUIRE(std::sscanf(q.code.c_str() + at2, "BlockSpec((%*d, %d)", &bn) == 1);
        auto ok = [](int b, int size, int unit) { return b == size || b % unit == 0; };
        const bool shape_ok = ok(bm, m, 8) && ok(bk, kk, 128) && ok(bn, n, 128) && ok(bk, kk, 8);
        // v5e: blocks padded to (8, 128) tiles for every dtype before TPU7x, two buffers each, an f32 accumulator;
        // a block shorter than 8 rows to the packing factor (bf16: 2, f32: 1) doubled until it holds them.
        auto pad = [](double v, double to) { return std::ceil(v / to) * to; };
        auto rows = [](int r, int packing) {
            if (r >= 8) return 8;
            int t = packing;
            while (t < r) t *= 2;
            return t;
        };
        const double vmem = 2 * 2 *
                                (pad(bm, rows(bm, 2)) * pad(bk, 128) + pad(bk, rows(bk, 2)) * pad(bn, 128) +
                                 pad(bm, rows(bm, 2)) * pad(bn, 128)) +
                            4 * pad(bm, rows(bm, 1)) * pad(bn, 128);
        const bool fits = vmem <= 16.0 * 1024 * 1024;
        INFO(q.code);
        CHECK(q.expected.at("legal") == (shape_ok && fits ? "yes" : "no"));
        CHECK(q.expected_value.at("vmem") == Approx(vmem));
        if (!shape_ok) CHECK(q.expected.at("reason").find("shape") != std::string::npos);
        const auto c = check(q, {{"legal", shape_ok && fits ? "yes" : "no"},
                                 {"vmem", std::to_string(vmem)},
                                 {"reason", shape_ok ? (fits ? "" : "vmem") : "shape"}});
        CHECK(c.correct);
    }
}

TEST_CASE("a refused answer says why in one sentence and is not graded", "[drills]") {
    const Question q = generate("D2.elementwise", 1, 3);
    const auto c = check(q, {{"time", "soon"}, {"bound", "memory"}, {"intensity", "1"}});
    CHECK(c.refused);
    CHECK(c.refusal ==
          "\xe2\x80\x9csoon\xe2\x80\x9d is not a time I can read: write it like 4.1 ms or 4100 \xc2\xb5s.");
    CHECK(c.fields_asked == 0);
    const auto d = check(q, {{"time", "10"}, {"bound", "sideways"}, {"intensity", "1"}});
    CHECK(d.refused);
    CHECK(d.refusal == "The bound is one of compute or memory.");
}

TEST_CASE("D4 checks a hand-worked all-gather on a v5e ring", "[drills]") {
    // Find a level-1 all-gather over an axis of 16 (v5e wraps only those).
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const Question q = generate("D4.gather", 1, seed);
        if (q.givens[2].value.rfind("all-gather", 0) != 0 || q.expected.at("links") != "ring") continue;
        double mib = 0;
        REQUIRE(std::sscanf(q.givens[3].value.c_str(), "V = %lf MiB", &mib) == 1);
        const double v = mib * 1048576;
        // A bidirectional ring of 16: each device's V/16 travels 15 hops in
        // all, half each way, so the busiest link carries V/16 x 15/2 one way
        // [SB-SHARD]; at 45 GB/s a link that is V x 15/32 / 45e9 seconds.
        INFO(q.givens[1].value << " " << q.givens[2].value << " " << q.givens[3].value);
        CHECK(q.expected_value.at("link_bytes") == Approx(v / 16 * 15 / 2).epsilon(0.02));
        const double t = v / 16 * 15 / 2 / 45e9;
        const auto c = check(
            q, {{"time", std::to_string(t * 1e6)}, {"links", "ring"}, {"link_bytes", std::to_string(v / 16 * 7.5)}});
        CHECK(c.correct);
        // The hop latency is the simulator's own figure, and its step says
        // so; every other figure is a prediction.
        REQUIRE(tpusim::chip("v5e").ici_hop_latency.assumption);
        for (const Step& step : c.steps) {
            INFO(step.text);
            CHECK(step.assumed == (step.text.find("a hop costs") != std::string::npos));
        }
        const auto line = check(
            q, {{"time", std::to_string(t * 1e6)}, {"links", "line"}, {"link_bytes", std::to_string(v / 16 * 7.5)}});
        CHECK_FALSE(line.correct);
        return;
    }
    FAIL("no level-1 all-gather over a ring in 400 seeds");
}

// How far a printed figure ("3.8 MiB", "43.7 µs") may lie from the value
// it rounds, relative to it: half its last digit's place.
double rounding_of(const std::string& figure) {
    const auto end = figure.find_first_not_of("0123456789.");
    const std::string digits = figure.substr(0, end);
    const auto dot = digits.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(digits.size() - dot - 1);
    return 0.5 * std::pow(10.0, -decimals) / std::stod(digits);
}

// The answers a card counts right, as a learner would type them.
std::map<std::string, std::string> d4_answers(const Question& q, double time_s, double link_bytes) {
    return {{"time", std::to_string(time_s * 1e6)},
            {"links", q.expected.at("links")},
            {"link_bytes", std::to_string(link_bytes)}};
}

TEST_CASE("D4 counts an all-reduce on a line by either model, and its steps add up", "[drills]") {
    // A v5e axis of 4 has no wraparound. The closed form runs each half one
    // way [SB-SHARD]: the reduce-scatter puts V x 3/4 on the busiest link,
    // the all-gather as much again, 1.5 V at 45 GB/s. The simulation sends
    // the halves both ways along the line and counts its own busiest link.
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const Question q = generate("D4.reduce", 1, seed);
        if (q.givens[0].value.find("(v5e)") == std::string::npos || q.givens[1].value.rfind("4x4 ", 0) != 0 ||
            q.expected.at("links") != "line")
            continue;
        double mib = 0;
        REQUIRE(std::sscanf(q.givens[3].value.c_str(), "V = %lf MiB", &mib) == 1);
        const double v = mib * 1048576, closed = 1.5 * v, t = closed / 45e9;
        INFO(q.givens[1].value << " " << q.givens[2].value << " " << q.givens[3].value);
        CHECK(q.expected_value.at("link_bytes") == Approx(closed).epsilon(0.01));
        CHECK(check(q, d4_answers(q, t, closed)).correct);
        CHECK(check(q, d4_answers(q, t, q.expected_alt.at("link_bytes"))).correct);
        CHECK_FALSE(check(q, d4_answers(q, t, 0.5 * v)).correct);  // one half's, one way
        return;
    }
    FAIL("no level-1 all-reduce on a v5e 4x4 line in 400 seeds");
}

TEST_CASE("D4's worked steps hold: the closed form's bytes over the link's rate are its bandwidth time", "[drills]") {
    for (const std::string kind : {"D4.gather", "D4.reduce", "D4.all-to-all"})
        for (int level = 1; level <= max_level(); ++level)
            for (std::uint64_t seed = 0; seed < 40; ++seed) {
                const Question q = generate(kind, level, seed);
                const std::string& chip_given = q.givens[0].value;
                const auto open = chip_given.rfind('(');
                const double rate =
                    tpusim::chip(chip_given.substr(open + 1, chip_given.size() - open - 2)).ici_link_bandwidth.value;
                const Check c = check(q, d4_answers(q, q.expected_value.at("time"), q.expected_value.at("link_bytes")));
                INFO(kind << " level " << level << " seed " << seed);
                REQUIRE(c.correct);
                std::string why;
                std::optional<double> bytes, seconds;
                double rounding = 0;
                for (const Step& step : c.steps) {
                    if (step.text.rfind("bytes on the busiest link by the closed form", 0) == 0) {
                        bytes = parse_number(step.figure, FieldType::bytes, "B", &why);
                        rounding += rounding_of(step.figure);
                    }
                    if (step.text.rfind("bandwidth time:", 0) == 0) {
                        seconds = parse_number(step.figure, FieldType::time, "s", &why);
                        rounding += rounding_of(step.figure);
                    }
                }
                REQUIRE(bytes);
                REQUIRE(seconds);
                // Equal but for the rounding of the two printed figures.
                CHECK(*bytes / rate == Approx(*seconds).epsilon(rounding * 1.01));
            }
}

TEST_CASE("D1 reads shapes and dims where the intent is clear", "[drills]") {
    std::string why;
    CHECK(*parse_shape("(8, 128, 512)", &why) == std::vector<std::int64_t>{8, 128, 512});
    CHECK(*parse_shape("8x128x512", &why) == std::vector<std::int64_t>{8, 128, 512});
    CHECK(*parse_shape("f32[8,128,512]", &why) == std::vector<std::int64_t>{8, 128, 512});
    CHECK(*parse_shape("tensor<8x128xbf16>", &why) == std::vector<std::int64_t>{8, 128});
    CHECK_FALSE(parse_shape("eight by four", &why));
    CHECK(parse_dims("[2] x [1]", &why)->first == std::vector<std::int64_t>{2});
    CHECK(parse_dims("lhs 1, 2 x rhs 0, 1", &why)->second == std::vector<std::int64_t>{0, 1});
    CHECK_FALSE(parse_dims("2", &why));
    CHECK(why == "Write the contracting dims as the lhs's, then x, then the rhs's, like [2] x [1].");
    CHECK_FALSE(parse_dims("[1, 2] x [0]", &why));
    CHECK(*parse_number("1.07 GFLOP", FieldType::count, "FLOP", &why) == Approx(1.07e9));
}

TEST_CASE("D1's dots are printed in syntax libtpusim parses, with the answer it derives", "[drills]") {
    for (const std::string& kind : card_kinds("D1"))
        for (int level = 1; level <= max_level(); ++level)
            for (std::uint64_t seed = 0; seed < 60; ++seed) {
                const Question q = generate(kind, level, seed);
                INFO(kind << " level " << level << " seed " << seed << "\n" << q.code_unmasked);
                const auto module = tpusim::ir::parse(q.code_unmasked, tpusim::ir::parse_format(q.code_language));
                const auto dots = tpusim::ir::find_dots(module);
                REQUIRE_FALSE(dots.empty());
                bool found = false;
                for (const auto& dot : dots)
                    if (dot.output_shape == q.expected_dims.at("shape") &&
                        dot.dims.lhs_contracting == q.expected_dims.at("contract_lhs") &&
                        dot.dims.rhs_contracting == q.expected_dims.at("contract_rhs") &&
                        static_cast<double>(dot.flops) == q.expected_value.at("flops"))
                        found = true;
                CHECK(found);
                // The question hides the output's dims.
                CHECK(q.code.find("?") != std::string::npos);
            }
}

TEST_CASE("D1 checks a hand-worked batched dot", "[drills]") {
    // Level 2 with a batch dim: find one and work it from the printed operands.
    const Question q = generate("D1.hlo", 1, 5);
    // [M, K] x [K, N] (either may be transposed): 2 x M x N x K FLOPs.
    const auto& shape = q.expected_dims.at("shape");
    REQUIRE(shape.size() == 2);
    const auto c = check(q, {{"shape", std::to_string(shape[0]) + "x" + std::to_string(shape[1])},
                             {"flops", q.expected.at("flops")},
                             {"contract", q.expected.at("contract")}});
    CHECK(c.correct);
    const auto swapped = check(q, {{"shape", std::to_string(shape[1]) + "x" + std::to_string(shape[0])},
                                   {"flops", q.expected.at("flops")},
                                   {"contract", q.expected.at("contract")}});
    CHECK((shape[0] == shape[1] || !swapped.correct));
}

TEST_CASE("D1's real dots are the copied dumps, byte for byte", "[drills]") {
    for (const auto& [file, text] : real_dumps()) {
        std::ifstream in(std::string(TPUSIM_DRILL_DUMPS) + "/" + file, std::ios::binary);
        REQUIRE(in);
        std::stringstream buffer;
        buffer << in.rdbuf();
        CHECK(buffer.str() == text);
    }
}
