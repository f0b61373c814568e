// Chapters and mastery items.

#include "support.h"

#include "progress/store.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using progress::Store;
using progress::StoreError;
using progress_test::ScratchDir;
using Items = std::set<std::string>;

namespace {

Store storeWithChapters() {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{1'000});
    store.syncChapters({{1, "roofline", "The roofline"}, {2, "pipeline", "Pipelines"}, {3, "mxu", "The MXU"}});
    return store;
}

std::size_t countOf(const Store& store, std::string_view kind) {
    const auto summary = store.eventSummary();
    const auto found = summary.countByKind.find(std::string(kind));
    return found == summary.countByKind.end() ? 0 : found->second;
}

}  // namespace

TEST_CASE("chapters are listed by number, unopened until opened") {
    Store store = storeWithChapters();
    const auto states = store.chapterStates();
    REQUIRE(states.size() == 3);
    CHECK(states[0].number == 1);
    CHECK(states[0].slug == "roofline");
    CHECK(states[2].title == "The MXU");
    CHECK_FALSE(states[1].firstOpenedMs.has_value());
    CHECK_FALSE(states[1].lastOpenedMs.has_value());
}

TEST_CASE("syncing chapters renames known ones and keeps missing ones") {
    Store store = storeWithChapters();
    store.noteChapterOpened(3);
    store.syncChapters({{1, "roofline", "Rooflines, revisited"}, {4, "layout", "Layouts"}});

    const auto states = store.chapterStates();
    REQUIRE(states.size() == 4);
    CHECK(states[0].title == "Rooflines, revisited");
    CHECK(states[2].number == 3);  // absent from this sync, but its progress stays
    CHECK(states[2].firstOpenedMs.has_value());
    CHECK(states[3].slug == "layout");
}

TEST_CASE("opening a chapter stamps first and last opened and logs it") {
    Store store = storeWithChapters();
    store.setClock([] { return std::int64_t{5'000}; });
    store.noteChapterOpened(2);
    store.setClock([] { return std::int64_t{9'000}; });
    store.noteChapterOpened(2);

    const auto chapter = store.chapterStates()[1];
    CHECK(chapter.firstOpenedMs == 5'000);
    CHECK(chapter.lastOpenedMs == 9'000);
    CHECK(countOf(store, progress::event_kind::kChapterOpened) == 2);
    const auto newest = store.events(1).at(0);
    CHECK(newest.kind == "chapter.opened");
    CHECK(newest.subject == "2");
    CHECK(newest.atMs == 9'000);
}

TEST_CASE("opening an unknown chapter is refused and logs nothing") {
    Store store = storeWithChapters();
    const auto before = store.eventSummary().total;
    try {
        store.noteChapterOpened(42);
        FAIL("an unknown chapter was accepted");
    } catch (const StoreError& error) {
        CHECK(error.kind() == StoreError::Kind::Constraint);
        CHECK(std::string(error.what()).find("Chapter 42") != std::string::npos);
    }
    CHECK(store.eventSummary().total == before);
}

TEST_CASE("mastery items round-trip per chapter") {
    Store store = storeWithChapters();
    store.setMasteryItemDone(1, "ridge-point", true);
    store.setMasteryItemDone(1, "intensity", true);
    store.setMasteryItemDone(3, "fill-drain", true);

    CHECK(store.masteryItemsDone() == Items{"fill-drain", "intensity", "ridge-point"});
    CHECK(store.masteryItemsDone(1) == Items{"intensity", "ridge-point"});
    CHECK(store.masteryItemsDone(2).empty());
    CHECK(countOf(store, progress::event_kind::kMasteryDone) == 3);

    SECTION("marking done twice changes nothing") {
        store.setMasteryItemDone(1, "ridge-point", true);
        CHECK(store.masteryItemsDone(1) == Items{"intensity", "ridge-point"});
        CHECK(countOf(store, progress::event_kind::kMasteryDone) == 3);
    }
    SECTION("unmarking removes the item once") {
        store.setMasteryItemDone(1, "ridge-point", false);
        store.setMasteryItemDone(1, "ridge-point", false);
        CHECK(store.masteryItemsDone(1) == Items{"intensity"});
        CHECK(countOf(store, progress::event_kind::kMasteryUndone) == 1);
        const auto newest = store.events(1).at(0);
        CHECK(newest.subject == "ridge-point");
        CHECK(newest.detail == "chapter 1");
    }
}

TEST_CASE("mastery items survive closing and reopening the file") {
    ScratchDir dir;
    const auto file = dir / "progress.db";
    {
        Store store = Store::open(file);
        store.syncChapters({{7, "attention", "Attention"}});
        store.setMasteryItemDone(7, "online-softmax", true);
    }
    Store store = Store::open(file);
    CHECK(store.masteryItemsDone(7) == Items{"online-softmax"});
}

TEST_CASE("the foreign key refuses mastery items of unknown chapters") {
    Store store = storeWithChapters();
    const auto eventsBefore = store.eventSummary().total;

    try {
        store.setMasteryItemDone(99, "ghost", true);
        FAIL("an item of an unknown chapter was accepted");
    } catch (const StoreError& error) {
        CHECK(error.kind() == StoreError::Kind::Constraint);
        CHECK(std::string(error.what()).find("Chapter 99") != std::string::npos);
    }
    CHECK(store.masteryItemsDone().empty());
    CHECK(store.eventSummary().total == eventsBefore);

    SECTION("also for SQL typed by hand on the store's connection") {
        CHECK_THROWS_AS(store.connection().execute(
                            "INSERT INTO mastery_items (chapter, item_id, done_at_ms) VALUES (99, 'ghost', 0)"),
                        StoreError);
    }
    SECTION("and a chapter with items done cannot be deleted") {
        store.setMasteryItemDone(2, "double-buffering", true);
        CHECK_THROWS_AS(store.connection().execute("DELETE FROM chapters WHERE number = 2"), StoreError);
        CHECK(store.chapterStates().size() == 3);
    }
}

TEST_CASE("a goal is reached once, logged once, and refused for an unknown chapter") {
    Store store = storeWithChapters();
    CHECK(store.masteryGoalsReached().empty());
    store.reachMasteryGoal(2, "pipeline-sandbox", "verify");
    store.reachMasteryGoal(2, "pipeline-sandbox", "verify");  // again: nothing new
    store.reachMasteryGoal(3, "mxu-steps", "fill");
    CHECK(store.masteryGoalsReached() == Items{"pipeline-sandbox/verify", "mxu-steps/fill"});
    CHECK(store.masteryGoalsReached(2) == Items{"pipeline-sandbox/verify"});
    std::size_t logged = 0;
    for (const auto& e : store.events()) logged += e.kind == progress::event_kind::kGoalReached ? 1 : 0;
    CHECK(logged == 2);
    // A goal is not an item: the item stays undone until its piece says so.
    CHECK(store.masteryItemsDone(2).empty());
    try {
        store.reachMasteryGoal(9, "nowhere", "goal");
        FAIL("an unknown chapter was accepted");
    } catch (const StoreError& e) {
        CHECK(std::string(e.what()).find("Chapter 9 is not in") != std::string::npos);
    }
    CHECK(store.masteryGoalsReached().size() == 2);
}

TEST_CASE("a setting keeps its last value") {
    Store store = storeWithChapters();
    CHECK(store.setting("chip").empty());
    store.setSetting("chip", "v6e");
    store.setSetting("chip", "v5p");
    CHECK(store.setting("chip") == "v5p");
    CHECK(store.setting("other").empty());
}
