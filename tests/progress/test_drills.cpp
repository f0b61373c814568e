// FSRS-5 against values worked by hand from the published formulas, and the
// drill reviews: graded, scheduled, append-only, kept across restarts.
#include <catch2/catch.hpp>

#include "progress/drills.h"
#include "progress/fsrs.h"
#include "progress/store_error.h"
#include "support.h"

#include <memory>

using namespace progress;

namespace {
constexpr std::int64_t kDay = fsrs::kDayMs;
constexpr std::int64_t kStart = 1'764'547'200'000;  // 2025-12-01 00:00 UTC

struct Clock {
    std::shared_ptr<std::int64_t> now = std::make_shared<std::int64_t>(kStart);
    std::int64_t operator()() const { return *now; }
};

NewDrillReview answer(const std::string& kind, bool correct, int elapsedMs = 60'000) {
    return {kind.substr(0, 2), kind, 1, 42, R"({"time":"4.1 ms"})", correct, correct ? 3 : 1, 3, elapsedMs};
}
}  // namespace

// Worked from the FSRS-5 formulas in fsrs.h with the default weights:
//   first review: S0(G) = w[G-1] = 0.40255, 1.18385, 3.173, 15.69105
//     -> intervals round(S) = 1 (at least 1), 1, 3, 16 days;
//   D0(3) = 7.1949 - e^(0.5345 * 2) + 1 = 5.28243;
//   Good after 3 days: R = (1 + 19/81 * 3 / 3.173)^-0.5 = 0.904698,
//     S' = 3.173 (e^1.54575 (11 - 5.28243) 3.173^-0.1192 (e^(1.01925 (1 - R)) - 1) + 1) = 10.7389 -> 11 days;
//   Good again after 11 days: S'' = 34.5776 -> 35 days;
//   Again instead: S'f = min(10.7389, 1.9395 D^-0.11 ((S + 1)^0.29605 - 1) e^(2.2698 (1 - R))) = 2.18578 -> 2 days;
//   Hard or Easy as the second review: 4.92451 -> 5 days, 25.7936 -> 26 days.
TEST_CASE("FSRS-5 intervals match the published formulas worked by hand", "[fsrs]") {
    CHECK(fsrs::initialStability(fsrs::Again) == Approx(0.40255));
    CHECK(fsrs::intervalDays(fsrs::initialStability(fsrs::Again)) == 1);
    CHECK(fsrs::intervalDays(fsrs::initialStability(fsrs::Hard)) == 1);
    CHECK(fsrs::intervalDays(fsrs::initialStability(fsrs::Good)) == 3);
    CHECK(fsrs::intervalDays(fsrs::initialStability(fsrs::Easy)) == 16);
    CHECK(fsrs::initialDifficulty(fsrs::Good) == Approx(5.282434).epsilon(1e-6));
    CHECK(fsrs::initialDifficulty(fsrs::Again) == Approx(7.1949));
    CHECK(fsrs::retrievability(3, 3.173) == Approx(0.9046982).epsilon(1e-6));
    CHECK(fsrs::retrievability(10, 10) == Approx(0.9).epsilon(1e-9));  // S is the 90 % interval

    const fsrs::Memory first = fsrs::review(std::nullopt, 0, fsrs::Good);
    const fsrs::Memory second = fsrs::review(first, 3, fsrs::Good);
    CHECK(second.stability == Approx(10.738926).epsilon(1e-6));
    CHECK(second.difficulty == Approx(5.272968).epsilon(1e-6));
    CHECK(fsrs::intervalDays(second.stability) == 11);
    const fsrs::Memory third = fsrs::review(second, 11, fsrs::Good);
    CHECK(third.stability == Approx(34.577624).epsilon(1e-6));
    CHECK(fsrs::intervalDays(third.stability) == 35);
    const fsrs::Memory lapse = fsrs::review(second, 11, fsrs::Again);
    CHECK(lapse.stability == Approx(2.185775).epsilon(1e-6));
    CHECK(lapse.difficulty == Approx(6.790568).epsilon(1e-6));
    CHECK(fsrs::intervalDays(lapse.stability) == 2);
    CHECK(fsrs::review(first, 3, fsrs::Hard).stability == Approx(4.924512).epsilon(1e-6));
    CHECK(fsrs::intervalDays(fsrs::review(first, 3, fsrs::Easy).stability) == 26);
    // A second review the same day: S e^(w17 (G - 3 + w18)).
    CHECK(fsrs::review(first, 0, fsrs::Good).stability == Approx(4.466858).epsilon(1e-6));
    CHECK(fsrs::intervalDays(1e9) == fsrs::kMaximumIntervalDays);
}

TEST_CASE("grades and levels follow the answers", "[drills]") {
    CHECK(drillGrade(false, 1000) == fsrs::Again);
    CHECK(drillGrade(true, 5'000) == fsrs::Good);  // quick is not easy
    CHECK(drillGrade(true, 90'000) == fsrs::Good);
    CHECK(drillGrade(true, 400'000) == fsrs::Hard);
    std::vector<DrillReview> history;
    auto add = [&](int level, bool correct) {
        DrillReview r;
        r.level = level;
        r.correct = correct;
        history.push_back(r);
    };
    CHECK(drillLevel(history) == 1);
    add(1, true);
    add(1, true);
    CHECK(drillLevel(history) == 1);
    add(1, true);
    CHECK(drillLevel(history) == 2);
    add(2, false);
    add(2, false);
    CHECK(drillLevel(history) == 1);
    for (int i = 0; i < 3; ++i) add(1, true);
    for (int i = 0; i < 3; ++i) add(2, true);
    for (int i = 0; i < 3; ++i) add(3, true);
    CHECK(drillLevel(history) == 3);  // never above the top level
}

TEST_CASE("reviews are scheduled per card kind and kept across restarts", "[drills]") {
    progress_test::ScratchDir dir;
    const auto file = dir / "progress.sqlite";
    Clock clock;
    {
        Store store = Store::open(file);
        store.setClock(clock);
        DrillLedger ledger(store);
        const std::vector<std::string> kinds{"D2.matmul", "D2.elementwise"};
        CHECK(ledger.dueKinds(kinds, kStart + kDay - 1) == kinds);          // new kinds are due
        const DrillReview r = ledger.addReview(answer("D2.matmul", true));  // Good: 3 days
        CHECK(r.grade == fsrs::Good);
        CHECK(r.dueAtMs == kStart + 3 * kDay);
        CHECK(ledger.dueKinds(kinds, kStart + kDay - 1) == std::vector<std::string>{"D2.elementwise"});
        *clock.now += 3 * kDay;
        CHECK(ledger.dueKinds(kinds, *clock.now + kDay - 1).front() == "D2.matmul");
        const DrillReview again = ledger.addReview(answer("D2.matmul", true));
        CHECK(again.stability == Approx(10.738926).epsilon(1e-6));
        CHECK(again.dueAtMs == *clock.now + 11 * kDay);
        ledger.addReview(answer("D2.elementwise", false, 5000));
    }
    Store store = Store::open(file);
    DrillLedger ledger(store);
    const auto all = ledger.reviews("D2");
    REQUIRE(all.size() == 3);
    CHECK(all[0].answerJson == R"({"time":"4.1 ms"})");
    CHECK(all[1].dueAtMs == kStart + 14 * kDay);
    CHECK(all[2].grade == fsrs::Again);
    CHECK(all[2].elapsedMs == 5000);
    const DrillStats s = ledger.stats("D2", {"D2.matmul", "D2.elementwise"}, kStart + 3 * kDay, 7);
    CHECK(s.reviews == 3);
    CHECK(s.correct == 2);
    CHECK(s.accuracy == Approx(2.0 / 3));
    REQUIRE(s.retention);
    CHECK(*s.retention == Approx(1.0));  // the one second review was right
    REQUIRE(s.perDay.size() == 7);
    CHECK(s.perDay.back().reviews == 2);
    CHECK(s.perDay[3].reviews == 1);
    // matmul in 11 days; elementwise, failed, comes back 10 minutes later, still today.
    CHECK(all[2].dueAtMs == all[2].reviewedAtMs + progress::kRelearnStepMs);
    CHECK(s.dueKinds == std::vector<std::string>{"D2.elementwise"});
    CHECK(ledger.reviews("D3").empty());
}

TEST_CASE("a kind answered wrong is relearnt in the session, then spaced out again", "[drills]") {
    Store store = Store::openInMemory();
    Clock clock;
    store.setClock(clock);
    DrillLedger ledger(store);
    const DrillReview first = ledger.addReview(answer("D3.maps", true));
    CHECK(first.dueAtMs == kStart + 3 * kDay);
    *clock.now += 3 * kDay;
    const DrillReview missed = ledger.addReview(answer("D3.maps", false, 12'000));
    CHECK(missed.grade == fsrs::Again);
    CHECK(missed.dueAtMs == *clock.now + progress::kRelearnStepMs);
    CHECK(ledger.dueKinds({"D3.maps"}, *clock.now + progress::kRelearnStepMs) == std::vector<std::string>{"D3.maps"});
    CHECK(ledger.dueKinds({"D3.maps"}, *clock.now + progress::kRelearnStepMs - 1).empty());
    // Right on the relearning step: a same-day review, due again in whole days.
    *clock.now += progress::kRelearnStepMs;
    const DrillReview relearnt = ledger.addReview(answer("D3.maps", true));
    CHECK(relearnt.grade == fsrs::Good);
    CHECK(relearnt.stability == Approx(fsrs::stabilitySameDay(missed.stability, fsrs::Good)));
    CHECK(relearnt.dueAtMs >= *clock.now + kDay);
}

TEST_CASE("a kind waiting out its relearning step comes after the kinds due now and the new ones", "[drills]") {
    Store store = Store::openInMemory();
    Clock clock;
    store.setClock(clock);
    DrillLedger ledger(store);
    const std::vector<std::string> kinds{"D4.gather", "D4.reduce", "D4.all-to-all"};
    const std::int64_t endOfDay = kStart + kDay - 1;
    ledger.addReview(answer("D4.gather", true));   // Good: in 3 days
    ledger.addReview(answer("D4.reduce", false));  // Again: in 10 minutes
    CHECK(ledger.dueKinds(kinds, endOfDay) == std::vector<std::string>{"D4.reduce", "D4.all-to-all"});
    CHECK(practiceOrder(ledger.lastDueByKind(), kinds, *clock.now, endOfDay) ==
          std::vector<std::string>{"D4.all-to-all", "D4.reduce"});
    // Its step waited out, the missed kind comes before the new one.
    *clock.now += progress::kRelearnStepMs;
    CHECK(practiceOrder(ledger.lastDueByKind(), kinds, *clock.now, endOfDay) ==
          std::vector<std::string>{"D4.reduce", "D4.all-to-all"});
}

TEST_CASE("drill reviews are append-only in SQL", "[drills]") {
    Store store = Store::openInMemory();
    DrillLedger ledger(store);
    ledger.addReview(answer("D3.blocks", true));
    const auto& c = store.connection();
    CHECK_THROWS_AS(c.execute("UPDATE drill_reviews SET correct = 0"), StoreError);
    CHECK_THROWS_AS(c.execute("DELETE FROM drill_reviews"), StoreError);
    CHECK_THROWS_AS(c.execute("INSERT OR REPLACE INTO drill_reviews (id, drill, kind, level, seed, answer, correct, "
                              "fields_right, fields_asked, elapsed_ms, grade, reviewed_at_ms, stability, difficulty, "
                              "due_at_ms) VALUES (1, 'D3', 'D3.blocks', 1, 1, '{}', 0, 0, 3, 1, 1, 1, 1.0, 5.0, 1)"),
                    StoreError);
    CHECK(ledger.reviews().size() == 1);
}

// The learner's own grade: first review Good (3 days) regraded Easy gives
// S0(Easy) = 15.69105 -> 16 days; the second review then schedules from it.
TEST_CASE("a review the learner regrades is scheduled as if graded so, and kept", "[drills]") {
    progress_test::ScratchDir dir;
    const auto file = dir / "progress.sqlite";
    Clock clock;
    std::int64_t firstId = 0;
    {
        Store store = Store::open(file);
        store.setClock(clock);
        DrillLedger ledger(store);
        const DrillReview first = ledger.addReview(answer("D2.matmul", true));
        firstId = first.id;
        REQUIRE(first.grade == fsrs::Good);
        CHECK(first.dueAtMs == kStart + 3 * kDay);
        *clock.now += 5'000;
        const DrillReview easy = ledger.regrade(first.id, fsrs::Easy);
        CHECK(easy.grade == fsrs::Easy);
        CHECK(easy.stability == Approx(fsrs::initialStability(fsrs::Easy)));
        CHECK(easy.dueAtMs == kStart + 16 * kDay);  // from the review's time, not the regrade's
        // What scheduling reads is the regrade: not due before day 16.
        CHECK(ledger.dueKinds({"D2.matmul"}, kStart + 15 * kDay).empty());
        CHECK(ledger.dueKinds({"D2.matmul"}, kStart + 16 * kDay) == std::vector<std::string>{"D2.matmul"});
        // Changed again ("I guessed"): the newest regrade counts, relearnt within the session.
        const DrillReview again = ledger.regrade(first.id, fsrs::Again);
        CHECK(again.dueAtMs == kStart + progress::kRelearnStepMs);
        CHECK(ledger.lastReview("D2.matmul")->grade == fsrs::Again);
        CHECK(ledger.regrade(first.id, fsrs::Good).dueAtMs == kStart + 3 * kDay);
    }
    // Kept: a relaunch reads the last regrade; the review itself is as it was.
    Store store = Store::open(file);
    store.setClock(clock);
    CHECK(store.historyFinding().empty());
    DrillLedger ledger(store);
    CHECK(ledger.lastReview("D2.matmul")->grade == fsrs::Good);
    CHECK(store.connection().queryInt64("SELECT grade FROM drill_reviews WHERE id = " + std::to_string(firstId)) ==
          fsrs::Good);
    CHECK(store.connection().queryInt64("SELECT count(*) FROM drill_regrades") == 3);
    CHECK_THROWS_AS(store.connection().execute("UPDATE drill_regrades SET grade = 4"), StoreError);
    CHECK_THROWS_AS(store.connection().execute("DELETE FROM drill_regrades"), StoreError);
    // The next review of the kind schedules from the regraded memory.
    *clock.now = kStart + 3 * kDay;
    const DrillReview second = ledger.addReview(answer("D2.matmul", true));
    CHECK(second.stability == Approx(10.738926).epsilon(1e-6));
}

TEST_CASE("a regrade that cannot be is refused with nothing written", "[drills]") {
    Store store = Store::openInMemory();
    DrillLedger ledger(store);
    const DrillReview wrong = ledger.addReview(answer("D3.maps", false));
    const DrillReview older = ledger.addReview(answer("D3.blocks", true));
    const DrillReview newer = ledger.addReview(answer("D3.blocks", true));
    const auto refusedWith = [&](std::int64_t id, int grade, const std::string& words) {
        try {
            ledger.regrade(id, grade);
        } catch (const StoreError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(words) != std::string::npos);
            CHECK(std::string(e.what()).find("The grade was not changed.") != std::string::npos);
            return;
        }
        FAIL("regrade(" << id << ", " << grade << ") was not refused");
    };
    refusedWith(wrong.id, fsrs::Good, "A wrong answer is graded again");
    refusedWith(older.id, fsrs::Easy, "Only the newest review");
    refusedWith(newer.id, 5, "1 (again) to 4 (easy)");
    refusedWith(9999, fsrs::Easy, "There is no drill review 9999");
    CHECK(store.connection().queryInt64("SELECT count(*) FROM drill_regrades") == 0);
    // The same grade again writes nothing either.
    CHECK(ledger.regrade(newer.id, fsrs::Good).grade == fsrs::Good);
    CHECK(store.connection().queryInt64("SELECT count(*) FROM drill_regrades") == 0);
}
