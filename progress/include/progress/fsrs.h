#pragma once

// Spaced repetition: FSRS-5, the Free Spaced Repetition Scheduler, with its
// published default parameters. Formulas and parameters from "The Algorithm"
// page of open-spaced-repetition/fsrs4anki's wiki (FSRS-5 section):
// https://github.com/open-spaced-repetition/fsrs4anki/wiki/The-Algorithm
//
//   R(t, S)  = (1 + FACTOR * t / S) ^ DECAY,  DECAY = -0.5, FACTOR = 19/81
//   I(r, S)  = S / FACTOR * (r ^ (1 / DECAY) - 1)   (= S when r = 0.9)
//   S0(G)    = w[G-1]
//   D0(G)    = w4 - e^(w5 (G - 1)) + 1
//   D'       = w7 D0(4) + (1 - w7) (D + dD (10 - D) / 9),  dD = -w6 (G - 3), in [1, 10]
//   S'r      = S (e^w8 (11 - D) S^-w9 (e^(w10 (1 - R)) - 1) [w15 if Hard] [w16 if Easy] + 1)
//   S'f      = min(S, w11 D^-w12 ((S + 1)^w13 - 1) e^(w14 (1 - R)))
//   same day = S e^(w17 (G - 3 + w18))
//
// Grades: 1 Again, 2 Hard, 3 Good, 4 Easy. Intervals are whole days, at
// least 1, at most 36500, for a desired retention of 0.9.

#include <array>
#include <cstdint>
#include <optional>

namespace progress::fsrs {

inline constexpr std::array<double, 19> kDefaultWeights{0.40255, 1.18385, 3.173,  15.69105, 7.1949, 0.5345, 1.4604,
                                                        0.0046,  1.54575, 0.1192, 1.01925,  1.9395, 0.11,   0.29605,
                                                        2.2698,  0.2315,  2.9898, 0.51655,  0.6621};
inline constexpr double kDecay = -0.5;
inline constexpr double kFactor = 19.0 / 81.0;
inline constexpr double kDesiredRetention = 0.9;
inline constexpr int kMaximumIntervalDays = 36500;
inline constexpr std::int64_t kDayMs = 86'400'000;

enum Grade : int { Again = 1, Hard = 2, Good = 3, Easy = 4 };

struct Memory {
    double stability = 0;   // days until recall falls to 90 %
    double difficulty = 0;  // 1 to 10
};

double retrievability(double elapsedDays, double stability);
double initialStability(int grade);
double initialDifficulty(int grade);
double nextDifficulty(double difficulty, int grade);
double stabilityAfterRecall(double difficulty, double stability, double retrievability, int grade);
double stabilityAfterLapse(double difficulty, double stability, double retrievability);
double stabilitySameDay(double stability, int grade);
// Whole days until the next review: round(I(0.9, S)), within 1..36500.
int intervalDays(double stability);

// The memory after a review graded `grade`, `elapsedDays` (whole days) after
// the previous one; `before` empty for a card's first review.
Memory review(const std::optional<Memory>& before, int elapsedDays, int grade);

}  // namespace progress::fsrs
