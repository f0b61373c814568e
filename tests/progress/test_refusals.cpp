// Files the store must refuse, each left exactly as it was found.

#include "support.h"

#include "progress/store.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using progress::Store;
using progress::StoreError;
using progress_test::ScratchDir;

namespace {

// Opens `file`, expecting a refusal of `kind`; checks that the file's bytes
// and its neighbours are untouched, and returns the sentence.
std::string refusal(const std::filesystem::path& file, StoreError::Kind kind) {
    const auto bytesBefore = progress_test::readBytes(file);
    const auto sidecarsBefore = progress_test::sidecarFiles(file);
    std::string sentence;
    try {
        Store::open(file);
        FAIL("the file was accepted");
    } catch (const StoreError& error) {
        CHECK(progress::toString(error.kind()) == std::string(progress::toString(kind)));
        CHECK(error.file() == file);
        sentence = error.what();
    }
    CHECK(progress_test::readBytes(file) == bytesBefore);
    CHECK(progress_test::sidecarFiles(file) == sidecarsBefore);
    return sentence;
}

// A real store with enough events to fill several pages, closed cleanly.
void writeStoreWithData(const std::filesystem::path& file) {
    Store store = Store::open(file);
    store.syncChapters({{1, "roofline", "The roofline"}});
    // One transaction for all of them: a commit per row would fsync 400 times.
    const auto& connection = store.connection();
    progress::db::Transaction transaction(connection);
    connection.execute(R"sql(
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
        INSERT INTO event_log (at_ms, kind, subject, detail)
        SELECT i, 'test.filler', 'row ' || i, printf('%.100c', 'x') FROM n)sql");
    transaction.commit();
}

void setUserVersion(const std::filesystem::path& file, int version) {
    auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
    raw.execute("PRAGMA user_version = " + std::to_string(version));
}

bool isOneSentence(const std::string& text) {
    return !text.empty() && text.back() == '.' && text.find('\n') == std::string::npos &&
           text.find(". ") == std::string::npos;
}

}  // namespace

TEST_CASE("a text file is refused as not SQLite") {
    ScratchDir dir;
    const auto file = dir / "notes.db";
    progress_test::writeText(file, "hello");
    const std::string sentence = refusal(file, StoreError::Kind::NotSqlite);
    CHECK(sentence == file.string() + " is not a tpu-course progress database (it is not an SQLite file).");
}

TEST_CASE("a binary file larger than a page is refused as not SQLite") {
    ScratchDir dir;
    const auto file = dir / "image.db";
    std::vector<unsigned char> bytes(8192);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = static_cast<unsigned char>(i * 37 + 11);
    }
    progress_test::writeBytes(file, bytes);
    refusal(file, StoreError::Kind::NotSqlite);
}

TEST_CASE("a file with an SQLite header and nothing sensible after it is refused") {
    ScratchDir dir;
    const auto file = dir / "truncated.db";
    const std::string header("SQLite format 3\0", 16);
    progress_test::writeText(file, header + std::string(600, '\xab'));
    const auto bytesBefore = progress_test::readBytes(file);
    CHECK_THROWS_AS(Store::open(file), StoreError);
    CHECK(progress_test::readBytes(file) == bytesBefore);
    CHECK(progress_test::sidecarFiles(file).empty());
}

TEST_CASE("a damaged b-tree page is refused as corrupt") {
    ScratchDir dir;
    const auto file = dir / "damaged.db";
    writeStoreWithData(file);
    // The root page of the event log's table, an interior page over its 400 rows.
    const auto root =
        static_cast<std::size_t>(progress::db::Connection::open(file, progress::db::Access::ReadOnlySnapshot)
                                     .queryInt64("SELECT rootpage FROM sqlite_master WHERE name = 'event_log'"));
    REQUIRE(progress_test::sidecarFiles(file).empty());

    auto bytes = progress_test::readBytes(file);
    const std::size_t pageSize = (std::size_t{bytes[16]} << 8) | bytes[17];
    const std::size_t pages = bytes.size() / pageSize;
    REQUIRE(pages >= 8);
    REQUIRE(root >= 2);
    REQUIRE(root <= pages);
    // Scribble over its cell pointers and the start of its cells.
    const std::size_t start = (root - 1) * pageSize + 8;
    for (std::size_t i = 0; i < 512; ++i) {
        bytes[start + i] = static_cast<unsigned char>(0xA5 ^ (i * 29));
    }
    progress_test::writeBytes(file, bytes);

    const std::string sentence = refusal(file, StoreError::Kind::Corrupt);
    CHECK(sentence.rfind(file.string() + " is damaged (SQLite's integrity check failed: ", 0) == 0);
    CHECK(isOneSentence(sentence));
}

TEST_CASE("a database from a newer version is refused as too new") {
    ScratchDir dir;
    const auto file = dir / "future.db";
    writeStoreWithData(file);
    setUserVersion(file, 999);
    REQUIRE(progress_test::sidecarFiles(file).empty());

    const std::string sentence = refusal(file, StoreError::Kind::TooNew);
    CHECK(sentence == file.string() +
                          " was written by a newer version of tpu-course (schema 999; this version "
                          "understands up to " +
                          std::to_string(Store::kLatestSchema) + ").");
}

TEST_CASE("a newer database is refused even while another program has it open") {
    ScratchDir dir;
    const auto file = dir / "busy-future.db";
    writeStoreWithData(file);
    setUserVersion(file, Store::kLatestSchema + 1);

    // This connection keeps -wal and -shm in place, so the check must read
    // the file with locking rather than as a snapshot.
    auto other = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
    other.execute("PRAGMA journal_mode = WAL");
    CHECK(other.queryInt64("SELECT count(*) FROM event_log") > 0);
    REQUIRE_FALSE(progress_test::sidecarFiles(file).empty());

    refusal(file, StoreError::Kind::TooNew);
}

TEST_CASE("another program's SQLite database is refused and not claimed") {
    ScratchDir dir;
    const auto file = dir / "places.sqlite";
    {
        auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
        raw.execute("CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('https://example.org')");
    }
    const std::string sentence = refusal(file, StoreError::Kind::NotSqlite);
    CHECK(sentence.find("another program") != std::string::npos);

    SECTION("also when it carries another application id") {
        auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
        raw.execute("PRAGMA application_id = 42");
        raw = progress::db::Connection::openInMemory();  // close before the check
        refusal(file, StoreError::Kind::NotSqlite);
    }
}

TEST_CASE("a folder in place of the file cannot be opened") {
    ScratchDir dir;
    const auto file = dir / "a-folder.db";
    std::filesystem::create_directory(file);
    try {
        Store::open(file);
        FAIL("a folder was accepted");
    } catch (const StoreError& error) {
        CHECK(error.kind() == StoreError::Kind::CannotOpen);
        CHECK(isOneSentence(error.what()));
    }
}

TEST_CASE("a table or a column removed by hand is refused at open, not at first use") {
    ScratchDir dir;
    const auto file = dir / "edited.db";
    writeStoreWithData(file);
    {
        auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
        raw.execute("DROP TABLE drill_reviews");
    }
    const std::string sentence = refusal(file, StoreError::Kind::Corrupt);
    CHECK(sentence == file.string() +
                          " was changed outside tpu-course (the table drill_reviews is missing); it was "
                          "left as it is.");
    CHECK(isOneSentence(sentence));

    const auto other = dir / "column.db";
    writeStoreWithData(other);
    {
        auto raw = progress::db::Connection::open(other, progress::db::Access::ReadWriteCreate);
        raw.execute("DROP TRIGGER predictions_no_update");
        raw.execute("ALTER TABLE predictions DROP COLUMN subject");
    }
    CHECK(refusal(other, StoreError::Kind::Corrupt).find("the column subject of the table predictions is missing") !=
          std::string::npos);
}
