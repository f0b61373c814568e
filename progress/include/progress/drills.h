#pragma once

// Drill reviews: every answer to a drill question, kept with the answer as
// typed, the time taken, the grade and the card kind's memory after it
// (FSRS, fsrs.h). The table is append-only in SQL, like gate attempts; a
// card kind's schedule is its newest review, as the learner last graded it
// (drill_regrades, read through the drill_reviews_graded view).

#include "progress/fsrs.h"
#include "progress/store.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace progress {

struct DrillReview {
    std::int64_t id = 0;
    std::string drill;  // "D2"
    std::string kind;   // "D2.matmul": the card kind FSRS schedules
    int level = 1;
    std::int64_t seed = 0;   // regenerates the question
    std::string answerJson;  // {"time": "4.1 ms", ...} as typed
    bool correct = false;
    int fieldsRight = 0;
    int fieldsAsked = 0;
    int elapsedMs = 0;  // from the question shown to the answer checked
    int grade = 1;      // FSRS: 1 Again, 2 Hard, 3 Good, 4 Easy
    std::int64_t reviewedAtMs = 0;
    double stability = 0;  // the kind's memory after this review
    double difficulty = 0;
    std::int64_t dueAtMs = 0;
};

struct NewDrillReview {
    std::string drill;
    std::string kind;
    int level = 1;
    std::int64_t seed = 0;
    std::string answerJson;
    bool correct = false;
    int fieldsRight = 0;
    int fieldsAsked = 0;
    int elapsedMs = 0;
};

struct DayCount {
    std::int64_t dayStartMs = 0;
    int reviews = 0;
};

struct DrillStats {
    std::string drill;
    int reviews = 0;
    int correct = 0;
    double accuracy = 0;              // correct / reviews; 0 without reviews
    std::optional<double> retention;  // correct among second and later reviews of a kind
    int level = 1;
    std::vector<std::string>
        dueKinds;  // kinds due by the end of today, new ones included, as DrillLedger::dueKinds orders them
    int due() const { return static_cast<int>(dueKinds.size()); }
    std::vector<DayCount> perDay;  // the last `days` days, oldest first
};

// The grade a checked answer earns: wrong is Again; right is Good, or
// Hard when it took over 3 minutes. Speed alone never makes an answer
// Easy: a quick right answer may still be a guess, and Easy would put the
// kind off for weeks after one sight.
int drillGrade(bool correct, int elapsedMs);

// A kind answered wrong comes back within the session, this long after:
// FSRS's relearning step (Anki's default of 10 minutes), not a day later.
inline constexpr std::int64_t kRelearnStepMs = 10 * 60 * 1000;

// A drill's level from its reviews, oldest first: it starts at 1, rises
// after three right answers in a row at the current level and falls after
// two wrong ones, within 1..maxLevel.
int drillLevel(const std::vector<DrillReview>& reviews, int maxLevel = 3);

// dueKinds() from kinds' due times read once (DrillLedger::lastDueByKind).
std::vector<std::string> dueAmong(const std::map<std::string, std::int64_t>& lastDue,
                                  const std::vector<std::string>& kinds, std::int64_t endOfDayMs);

// Whether a drill is ahead of the learner's path, with nothing of it due:
// its chapter not yet opened and none of its kinds ever reviewed. The app's
// list of drills due, a drill's page and the report all ask this.
bool aheadOfPath(const std::map<std::string, std::int64_t>& lastDue, const std::vector<std::string>& kinds,
                 bool chapterOpened);
// The chapters the learner has opened, for aheadOfPath.
std::set<int> openedChapters(const Store& store);

// The order to practise kinds in: those due by `nowMs`, most overdue first;
// then new ones; then those due later today (a missed kind waiting out its
// relearning step), soonest first, so a step is waited out while other
// work remains.
std::vector<std::string> practiceOrder(const std::map<std::string, std::int64_t>& lastDue,
                                       const std::vector<std::string>& kinds, std::int64_t nowMs,
                                       std::int64_t endOfDayMs);

class DrillLedger {
public:
    explicit DrillLedger(const Store& store) : store_(store) {}

    // Grades the answer, schedules its kind with FSRS from the kind's last
    // review and appends the review, all in one transaction.
    DrillReview addReview(const NewDrillReview& review);
    // The learner's own grade for review `reviewId`, which must be its
    // kind's newest: its memory and due time worked again from the review
    // before it, as if it had been graded so, and a regrade appended. A
    // wrong answer stays Again; a right one takes any grade (Again for "I
    // guessed"). Throws StoreError, with nothing written, otherwise.
    DrillReview regrade(std::int64_t reviewId, int grade);
    // Oldest first; every drill when `drill` is empty.
    std::vector<DrillReview> reviews(const std::string& drill = {}) const;
    std::optional<DrillReview> lastReview(const std::string& kind) const;
    // The kinds of `kinds` due by `endOfDayMs`, never-reviewed ones included,
    // most overdue first, new ones last.
    std::vector<std::string> dueKinds(const std::vector<std::string>& kinds, std::int64_t endOfDayMs) const;
    // Every reviewed kind's due time, from its last review, in one statement:
    // for asking dueAmong() of many drills at once.
    std::map<std::string, std::int64_t> lastDueByKind() const;
    // `todayStartMs` is the local midnight that starts today.
    DrillStats stats(const std::string& drill, const std::vector<std::string>& kinds, std::int64_t todayStartMs,
                     int days = 14) const;

private:
    const Store& store_;
};

}  // namespace progress
