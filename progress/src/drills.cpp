#include "chain.h"
#include "progress/drills.h"

#include "event_log.h"

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
    std::optional<fsrs::Memory> before;
    int elapsedDays = 0;
    if (const auto last = lastReview(in.kind)) {
        before = fsrs::Memory{last->stability, last->difficulty};
        elapsedDays = static_cast<int>((at - last->reviewedAtMs) / fsrs::kDayMs);
    }
    const fsrs::Memory m = fsrs::review(before, elapsedDays, r.grade);
    r.stability = m.stability;
    r.difficulty = m.difficulty;
    r.dueAtMs = r.grade == fsrs::Again ? at + kRelearnStepMs
                                       : at + std::int64_t{fsrs::intervalDays(m.stability)} * fsrs::kDayMs;

    db::Statement insert(c, R"sql(
        INSERT INTO drill_reviews (drill, kind, level, seed, answer, correct, fields_right, fields_asked,
                                   elapsed_ms, grade, reviewed_at_ms, stability, difficulty, due_at_ms)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14))sql");
    insert.bind(1, r.drill).bind(2, r.kind).bind(3, std::int64_t{r.level}).bind(4, r.seed).bind(5, r.answerJson);
    insert.bind(6, std::int64_t{r.correct ? 1 : 0}).bind(7, std::int64_t{r.fieldsRight}).bind(8, std::int64_t{r.fieldsAsked});
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

std::vector<DrillReview> DrillLedger::reviews(const std::string& drill) const {
    db::Statement q(store_.connection(), std::string("SELECT ") + kColumns +
                                             " FROM drill_reviews WHERE ?1 = '' OR drill = ?1 ORDER BY id");
    q.bind(1, drill);
    std::vector<DrillReview> out;
    while (q.step()) out.push_back(readReview(q));
    return out;
}

std::optional<DrillReview> DrillLedger::lastReview(const std::string& kind) const {
    db::Statement q(store_.connection(), std::string("SELECT ") + kColumns +
                                             " FROM drill_reviews WHERE kind = ?1 ORDER BY id DESC LIMIT 1");
    q.bind(1, kind);
    if (!q.step()) return std::nullopt;
    return readReview(q);
}

std::map<std::string, std::int64_t> DrillLedger::lastDueByKind() const {
    db::Statement q(store_.connection(), R"sql(
        SELECT kind, due_at_ms FROM drill_reviews
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
        if (last == lastDue.end()) fresh.push_back(k);
        else if (last->second <= endOfDayMs) due.emplace_back(last->second, k);
    }
    std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (const auto& d : due) out.push_back(d.second);
    out.insert(out.end(), fresh.begin(), fresh.end());
    return out;
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
