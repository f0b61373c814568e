#include "progress/fsrs.h"

#include <algorithm>
#include <cmath>

namespace progress::fsrs {
namespace {
const auto& w = kDefaultWeights;
double clampDifficulty(double d) {
    return std::clamp(d, 1.0, 10.0);
}
}  // namespace

double retrievability(double elapsedDays, double stability) {
    return std::pow(1.0 + kFactor * elapsedDays / stability, kDecay);
}

double initialStability(int grade) {
    return std::max(w[static_cast<std::size_t>(grade - 1)], 0.01);
}

double initialDifficulty(int grade) {
    return clampDifficulty(w[4] - std::exp(w[5] * (grade - 1)) + 1.0);
}

double nextDifficulty(double difficulty, int grade) {
    const double delta = -w[6] * (grade - 3);
    const double damped = difficulty + delta * (10.0 - difficulty) / 9.0;
    // Mean reversion towards the initial difficulty of an Easy first review.
    const double target = w[4] - std::exp(w[5] * 3) + 1.0;
    return clampDifficulty(w[7] * target + (1.0 - w[7]) * damped);
}

double stabilityAfterRecall(double difficulty, double stability, double r, int grade) {
    const double hard = grade == Hard ? w[15] : 1.0;
    const double easy = grade == Easy ? w[16] : 1.0;
    return stability * (std::exp(w[8]) * (11.0 - difficulty) * std::pow(stability, -w[9]) *
                            (std::exp(w[10] * (1.0 - r)) - 1.0) * hard * easy +
                        1.0);
}

double stabilityAfterLapse(double difficulty, double stability, double r) {
    const double s =
        w[11] * std::pow(difficulty, -w[12]) * (std::pow(stability + 1.0, w[13]) - 1.0) * std::exp(w[14] * (1.0 - r));
    return std::max(std::min(s, stability), 0.01);
}

double stabilitySameDay(double stability, int grade) {
    return std::max(stability * std::exp(w[17] * (grade - 3 + w[18])), 0.01);
}

int intervalDays(double stability) {
    const double days = stability / kFactor * (std::pow(kDesiredRetention, 1.0 / kDecay) - 1.0);
    return std::clamp(static_cast<int>(std::lround(days)), 1, kMaximumIntervalDays);
}

Memory review(const std::optional<Memory>& before, int elapsedDays, int grade) {
    grade = std::clamp(grade, 1, 4);
    if (!before) return {initialStability(grade), initialDifficulty(grade)};
    Memory m;
    m.difficulty = nextDifficulty(before->difficulty, grade);
    if (elapsedDays < 1) {
        m.stability = stabilitySameDay(before->stability, grade);
    } else {
        const double r = retrievability(elapsedDays, before->stability);
        m.stability = grade == Again ? stabilityAfterLapse(before->difficulty, before->stability, r)
                                     : stabilityAfterRecall(before->difficulty, before->stability, r, grade);
    }
    return m;
}

}  // namespace progress::fsrs
