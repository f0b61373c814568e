#include "progress/drills.h"
#include "chain.h"

#include "event_log.h"
#include "progress/store_error.h"

#include <algorithm>
#include <map>
#include <set>

namespace progress {

namespace {

constexpr const char* kColumns =
    "id, drill, kind, level, seed, answer, correct, fields_right, fields_asked, elapsed_ms, grade, "
    "reviewed_at_ms, stability, difficulty, due_at_ms";

DrillReview readReview(const db::Statement& q) {
    DrillReview r;
    r.id = q.int64At(0);
    r.drill = q.textAt(1);
    r.kind = q.textAt(2);
    r.level = static_cast<int>(q.int64At(3));
    r.seed = q.int64At(4);
    r.answerJson = q.textAt(5);
    r.correct = q.int64At(6) != 0;
    r.fieldsRight = static_cast<int>(q.int64At(7));
    r.fieldsAsked = static_cast<int>(q.int64At(8));
    r.elapsedMs = static_cast<int>(q.int64At(9));
    r.grade = static_cast<int>(q.int64At(10));
    r.reviewedAtMs = q.int64At(11);
    r.stability = q.doubleAt(12);
    r.difficulty = q.doubleAt(13);
    r.dueAtMs = q.int64At(14);
    return r;
}

}  // namespace

int drillGrade(bool correct, int elapsedMs) {
    if (!correct) return fsrs::Again;
    return elapsedMs <= 180'000 ? fsrs::Good : fsrs::Hard;
}

namespace {

// The kind's memory after a review graded `grade` at `at`, from the review
// before it (none: the kind's first), and when the kind is due again.
struct Scheduled {
    fsrs::Memory memory;
    std::int64_t dueAtMs = 0;
};

Scheduled schedule(const std::optional<DrillReview>& before, std::int64_t at, int grade) {
    std::optional<fsrs::Memory> memory;
    int elapsedDays = 0;
    if (before) {
        memory = fsrs::Memory{before->stability, before->difficulty};
        elapsedDays = static_cast<int>((at - before->reviewedAtMs) / fsrs::kDayMs);
    }
    Scheduled s;
    s.memory = fsrs::review(memory, elapsedDays, grade);
    s.dueAtMs = grade == fsrs::Again ? at + kRelearnStepMs
                                     : at + std::int64_t{fsrs::intervalDays(s.memory.stability)} * fsrs::kDayMs;
    return s;
}

}  // namespace

int drillLevel(const std::vector<DrillReview>& reviews, int maxLevel) {
    int level = 1, right = 0, wrong = 0;
    for (const DrillReview& r : reviews) {
        if (r.level != level) continue;  // an answer to an older level moves nothing
        if (r.correct) {
            ++right;
            wrong = 0;
        } else {
            ++wrong;
            right = 0;
        }
        if (right >= 3 && level < maxLevel) {
            ++level;
            right = wrong = 0;
        } else if (wrong >= 2 && level > 1) {
            --level;
            right = wrong = 0;
        }
    }
    return level;
}

DrillReview DrillLedger::addReview(const NewDrillReview& in) {
    const db::Connection& c = store_.connection();
    const std::int64_t at = store_.nowMs();
    db::Transaction transaction(c);
    DrillReview r;
    r.drill = in.drill;
    r.kind = in.kind;
    r.level = in.level;
    r.seed = in.seed;
    r.answerJson = in.answerJson;
    r.correct = in.correct;
    r.fieldsRight = in.fieldsRight;
    r.fieldsAsked = in.fieldsAsked;
    r.elapsedMs = std::max(0, in.elapsedMs);
    r.grade = drillGrade(in.correct, r.elapsedMs);
    r.reviewedAtMs = at;
    const Scheduled next = schedule(lastReview(in.kind), at, r.grade);
    r.stability = next.memory.stability;
    r.difficulty = next.memory.difficulty;
    r.dueAtMs = next.dueAtMs;

    db::Statement insert(c, R"sql(
        INSERT INTO drill_reviews (drill, kind, level, seed, answer, correct, fields_right, fields_asked,
                                   elapsed_ms, grade, reviewed_at_ms, stability, difficulty, due_at_ms)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14))sql");
    insert.bind(1, r.drill).bind(2, r.kind).bind(3, std::int64_t{r.level}).bind(4, r.seed).bind(5, r.answerJson);
    insert.bind(6, std::int64_t{r.correct ? 1 : 0})
        .bind(7, std::int64_t{r.fieldsRight})
        .bind(8, std::int64_t{r.fieldsAsked});
    insert.bind(9, std::int64_t{r.elapsedMs}).bind(10, std::int64_t{r.grade}).bind(11, r.reviewedAtMs);
    insert.bind(12, r.stability).bind(13, r.difficulty).bind(14, r.dueAtMs);
    insert.run();
    r.id = c.lastInsertRowId();
    chain::append(c, "drill_reviews", r.id);
    event_log::append(c, at, "drill.reviewed", r.kind,
                      std::string(r.correct ? "right" : "wrong") + ", grade " + std::to_string(r.grade));
    transaction.commit();
    return r;
}

DrillReview DrillLedger::regrade(std::int64_t reviewId, int grade) {
    const db::Connection& c = store_.connection();
    db::Transaction transaction(c);
    const auto refuse = [this](const std::string& why) {
        return StoreError(StoreError::Kind::Constraint, store_.file(), why + " The grade was not changed.");
    };
    if (grade < fsrs::Again || grade > fsrs::Easy) throw refuse("A grade is 1 (again) to 4 (easy).");
    db::Statement q(c, std::string("SELECT ") + kColumns + " FROM drill_reviews_graded WHERE id = ?1");
    q.bind(1, reviewId);
    if (!q.step()) throw refuse("There is no drill review " + std::to_string(reviewId) + ".");
    DrillReview r = readReview(q);
    if (lastReview(r.kind)->id != r.id)
        throw refuse("Only the newest review of a card kind can be regraded: a later one was scheduled from it.");
    if (!r.correct && grade != fsrs::Again) throw refuse("A wrong answer is graded again.");
    if (grade == r.grade) return r;

    // Worked from the review before this one, as if graded so at the time.
    db::Statement earlier(c, std::string("SELECT ") + kColumns +
                                 " FROM drill_reviews_graded WHERE kind = ?1 AND id < ?2 ORDER BY id DESC LIMIT 1");
    earlier.bind(1, r.kind).bind(2, r.id);
    const std::optional<DrillReview> before = earlier.step() ? std::optional(readReview(earlier)) : std::nullopt;
    const Scheduled next = schedule(before, r.reviewedAtMs, grade);
    const std::int64_t at = store_.nowMs();
    db::Statement insert(c, R"sql(
        INSERT INTO drill_regrades (review_id, grade, regraded_at_ms, stability, difficulty, due_at_ms)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6))sql");
    insert.bind(1, r.id).bind(2, std::int64_t{grade}).bind(3, at).bind(4, next.memory.stability);
    insert.bind(5, next.memory.difficulty).bind(6, next.dueAtMs).run();
    chain::append(c, "drill_regrades", c.lastInsertRowId());
    event_log::append(c, at, "drill.regraded", r.kind,
                      "grade " + std::to_string(r.grade) + " to " + std::to_string(grade) + " by the learner");
    transaction.commit();
    r.grade = grade;
    r.stability = next.memory.stability;
    r.difficulty = next.memory.difficulty;
    r.dueAtMs = next.dueAtMs;
    return r;
}

std::vector<DrillReview> DrillLedger::reviews(const std::string& drill) const {
    db::Statement q(store_.connection(), std::string("SELECT ") + kColumns +
                                             " FROM drill_reviews_graded WHERE ?1 = '' OR drill = ?1 ORDER BY id");
    q.bind(1, drill);
    std::vector<DrillReview> out;
    while (q.step()) out.push_back(readReview(q));
    return out;
}

std::optional<DrillReview> DrillLedger::lastReview(const std::string& kind) const {
    db::Statement q(store_.connection(), std::string("SELECT ") + kColumns +
                                             " FROM drill_reviews_graded WHERE kind = ?1 ORDER BY id DESC LIMIT 1");
    q.bind(1, kind);
    if (!q.step()) return std::nullopt;
    return readReview(q);
}

std::map<std::string, std::int64_t> DrillLedger::lastDueByKind() const {
    db::Statement q(store_.connection(), R"sql(
        SELECT kind, due_at_ms FROM drill_reviews_graded
        WHERE id IN (SELECT max(id) FROM drill_reviews GROUP BY kind))sql");
    std::map<std::string, std::int64_t> lastDue;
    while (q.step()) lastDue.emplace(q.textAt(0), q.int64At(1));
    return lastDue;
}

std::vector<std::string> DrillLedger::dueKinds(const std::vector<std::string>& kinds, std::int64_t endOfDayMs) const {
    return dueAmong(lastDueByKind(), kinds, endOfDayMs);
}

std::vector<std::string> dueAmong(const std::map<std::string, std::int64_t>& lastDue,
                                  const std::vector<std::string>& kinds, std::int64_t endOfDayMs) {
    std::vector<std::pair<std::int64_t, std::string>> due;
    std::vector<std::string> fresh;
    for (const std::string& k : kinds) {
        const auto last = lastDue.find(k);
        if (last == lastDue.end())
            fresh.push_back(k);
        else if (last->second <= endOfDayMs)
            due.emplace_back(last->second, k);
    }
    std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (const auto& d : due) out.push_back(d.second);
    out.insert(out.end(), fresh.begin(), fresh.end());
    return out;
}

bool aheadOfPath(const std::map<std::string, std::int64_t>& lastDue, const std::vector<std::string>& kinds,
                 bool chapterOpened) {
    return !chapterOpened &&
           std::none_of(kinds.begin(), kinds.end(), [&](const std::string& k) { return lastDue.count(k) > 0; });
}

std::set<int> openedChapters(const Store& store) {
    std::set<int> opened;
    for (const auto& c : store.chapterStates())
        if (c.firstOpenedMs) opened.insert(c.number);
    return opened;
}

std::vector<std::string> practiceOrder(const std::map<std::string, std::int64_t>& lastDue,
                                       const std::vector<std::string>& kinds, std::int64_t nowMs,
                                       std::int64_t endOfDayMs) {
    std::vector<std::string> now, later;
    for (const std::string& k : dueAmong(lastDue, kinds, endOfDayMs)) {
        const auto last = lastDue.find(k);
        (last != lastDue.end() && last->second > nowMs ? later : now).push_back(k);
    }
    now.insert(now.end(), later.begin(), later.end());
    return now;
}

DrillStats DrillLedger::stats(const std::string& drill, const std::vector<std::string>& kinds,
                              std::int64_t todayStartMs, int days) const {
    DrillStats s;
    s.drill = drill;
    const auto all = reviews(drill);
    std::set<std::string> seen;
    int later = 0, laterRight = 0;
    for (const DrillReview& r : all) {
        ++s.reviews;
        if (r.correct) ++s.correct;
        if (seen.count(r.kind)) {
            ++later;
            if (r.correct) ++laterRight;
        }
        seen.insert(r.kind);
    }
    s.accuracy = s.reviews ? static_cast<double>(s.correct) / s.reviews : 0;
    if (later) s.retention = static_cast<double>(laterRight) / later;
    s.level = drillLevel(all);
    s.dueKinds = dueKinds(kinds, todayStartMs + fsrs::kDayMs - 1);
    for (int d = days - 1; d >= 0; --d) {
        const std::int64_t start = todayStartMs - std::int64_t{d} * fsrs::kDayMs;
        int n = 0;
        for (const DrillReview& r : all)
            if (r.reviewedAtMs >= start && r.reviewedAtMs < start + fsrs::kDayMs) ++n;
        s.perDay.push_back({start, n});
    }
    return s;
}

}  // namespace progress
