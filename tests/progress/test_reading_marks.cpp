// Bookmarks and notes on paragraphs: the learner's own, changed at will.

#include "support.h"

#include "progress/store.h"

#include <catch2/catch.hpp>

#include <string>

using progress::Store;
using progress::StoreError;
using progress_test::ScratchDir;

TEST_CASE("a bookmark and a note on one paragraph, kept, changed and removed", "[reading]") {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{5'000});
    CHECK(store.readingMarks().empty());

    store.setBookmark(11, "the-pipeline/2", true, "Each grid step copies");
    auto marks = store.readingMarks(11);
    REQUIRE(marks.size() == 1);
    CHECK(marks[0].block == "the-pipeline/2");
    CHECK(marks[0].bookmarked);
    CHECK(marks[0].note.empty());
    CHECK(marks[0].excerpt == "Each grid step copies");

    store.setNote(11, "the-pipeline/2", "why two buffers and not three?", "Each grid step copies");
    marks = store.readingMarks(11);
    REQUIRE(marks.size() == 1);
    CHECK(marks[0].bookmarked);  // a note leaves the bookmark alone
    CHECK(marks[0].note == "why two buffers and not three?");
    const std::int64_t first = marks[0].updatedMs;

    store.setBookmark(11, "the-pipeline/2", false, "Each grid step copies");
    marks = store.readingMarks(11);
    REQUIRE(marks.size() == 1);  // the note keeps the mark
    CHECK_FALSE(marks[0].bookmarked);
    CHECK(marks[0].updatedMs > first);

    store.setNote(11, "the-pipeline/2", "", "Each grid step copies");
    CHECK(store.readingMarks(11).empty());  // nothing left to keep

    // Marks in two chapters, listed by chapter then block; one chapter's alone.
    store.setBookmark(13, "decode/1", true, "Generation runs");
    store.setBookmark(2, "tracing/4", true, "A tracer");
    store.setBookmark(2, "jaxpr/1", true, "A jaxpr");
    const auto all = store.readingMarks();
    REQUIRE(all.size() == 3);
    CHECK(all[0].chapter == 2);
    CHECK(all[0].block == "jaxpr/1");
    CHECK(all[2].chapter == 13);
    CHECK(store.readingMarks(2).size() == 2);
}

TEST_CASE("a long excerpt is cut at a character, a long note or name refused whole", "[reading]") {
    Store store = Store::openInMemory();
    std::string excerpt;
    for (int i = 0; i < 150; ++i) excerpt += "é";  // 300 bytes of two-byte characters
    store.setBookmark(1, "a/1", true, excerpt);
    const auto marks = store.readingMarks(1);
    REQUIRE(marks.size() == 1);
    CHECK(marks[0].excerpt.size() == 200);
    CHECK(marks[0].excerpt == excerpt.substr(0, 200));

    store.setNote(1, "a/1", "kept", "x");
    CHECK_THROWS_AS(store.setNote(1, "a/1", std::string(10'001, 'n'), "x"), StoreError);
    CHECK(store.readingMarks(1)[0].note == "kept");  // the refused note changed nothing
    CHECK_THROWS_AS(store.setBookmark(1, std::string(201, 'b'), true, "x"), StoreError);
    CHECK_THROWS_AS(store.setBookmark(1, "", true, "x"), StoreError);
    CHECK(store.readingMarks().size() == 1);
}

TEST_CASE("marks outlive the store being closed and opened again", "[reading]") {
    ScratchDir dir;
    const auto file = dir / "p.sqlite";
    {
        Store store = Store::open(file);
        store.setNote(7, "native-tiles/3", "bf16 packs two rows", "A vreg is");
    }
    Store again = Store::open(file);
    const auto marks = again.readingMarks(7);
    REQUIRE(marks.size() == 1);
    CHECK(marks[0].note == "bf16 packs two rows");
    CHECK(again.verifyHistory().empty());  // marks are not history: the chain is untouched
}
