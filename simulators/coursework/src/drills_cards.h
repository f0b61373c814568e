#pragma once

// What the drills' card makers share, and each drill's maker and worked
// steps, one file a drill (drills_d1.cpp ... drills_d4.cpp). Private to
// libtpusim's drills.

#include "coursework/drills.h"
#include "tpusim/chips.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace coursework::drills::cards {

// A small portable generator (splitmix64): the same numbers from a seed on
// every compiler and standard library, which std::uniform_int_distribution
// does not promise.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // A whole number in [lo, hi].
    std::int64_t range(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    bool chance(int percent) { return range(1, 100) <= percent; }
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[static_cast<std::size_t>(range(0, static_cast<std::int64_t>(items.size()) - 1))];
    }

private:
    std::uint64_t state_;
};

// The seed of a card: its kind, level and the learner's seed mixed.
std::uint64_t mix(const std::string& kind, int level, std::uint64_t seed);

std::string fixed(double v, int decimals);
std::string count_text(double v);                               // 68719476736 -> "68,719,476,736"
std::string dims_text(const std::vector<std::int64_t>& shape);  // "(4, 8)"
std::string joined(const std::vector<std::int64_t>& v, const std::string& sep);
std::string pairs_text(const std::vector<std::int64_t>& l, const std::vector<std::int64_t>& r);

// The chips a level's cards are about.
extern const std::vector<std::string> kChipsL1;
extern const std::vector<std::string> kChipsAll;
// dtypes whose MXU rate the chip publishes (the roofline refuses the rest).
std::vector<tpusim::DType> matmul_dtypes(const tpusim::Chip& c, int level);

// Each drill: a card of `kind` at `level` from `seed`, and the worked steps
// of its answer.
Question d1(const std::string& kind, int level, std::uint64_t seed);
std::vector<Step> d1_steps(const Question& q);
Question d2(const std::string& kind, int level, std::uint64_t seed);
std::vector<Step> d2_steps(const Question& q);
Question d3(const std::string& kind, int level, std::uint64_t seed);
std::vector<Step> d3_steps(const Question& q);
Question d4(const std::string& kind, int level, std::uint64_t seed);
std::vector<Step> d4_steps(const Question& q);
// D4.shard (drills_d4_shard.cpp): a sharded block's collective, its bytes, whether it hides.
Question d4_shard(const std::string& kind, int level, std::uint64_t seed);
std::vector<Step> d4_shard_steps(const Question& q);

// D1's real dumps: each file's name and text.
std::vector<std::pair<std::string, std::string>> real_dump_texts();

}  // namespace coursework::drills::cards
