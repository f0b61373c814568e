// Opening a database: creation, migration, per-connection settings, reopening.

#include "support.h"

#include "progress/store.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using progress::Store;
using progress_test::ScratchDir;

namespace {

std::vector<std::string> schemaObjects(const progress::db::Connection& connection, const std::string& type) {
    progress::db::Statement query(connection, "SELECT name FROM sqlite_schema WHERE type = ?1 ORDER BY name");
    query.bind(1, type);
    std::vector<std::string> names;
    while (query.step()) {
        names.push_back(query.textAt(0));
    }
    return names;
}

// Every table, index and trigger with its SQL, for comparing two schemas.
std::vector<std::string> schemaText(const progress::db::Connection& connection) {
    progress::db::Statement query(connection,
                                  "SELECT type || ' ' || name || ': ' || coalesce(sql, '') "
                                  "FROM sqlite_schema ORDER BY type, name");
    std::vector<std::string> rows;
    while (query.step()) {
        rows.push_back(query.textAt(0));
    }
    return rows;
}

}  // namespace

TEST_CASE("a missing file is created, with its folders, at the latest schema") {
    ScratchDir dir;
    const auto file = dir / "nested/deeper/progress.db";
    Store store = Store::open(file);

    CHECK(std::filesystem::exists(file));
    CHECK(store.schemaVersion() == Store::kLatestSchema);
    CHECK(Store::kLatestSchema == static_cast<int>(progress::kMigrations.size()));
    const auto& connection = store.connection();
    CHECK(connection.queryInt64("PRAGMA user_version") == Store::kLatestSchema);
    CHECK(connection.queryInt64("PRAGMA application_id") == progress::kApplicationId);
    CHECK(schemaObjects(connection, "table") ==
          std::vector<std::string>{"chapters", "drill_regrades", "drill_reviews", "event_log", "gate_attempts",
                                   "history_chain", "mastery_goals", "mastery_items", "predictions", "profile_imports",
                                   "profile_op_prices", "profile_ops", "profile_pricings", "reading_marks",
                                   "run_records", "settings"});
    CHECK(schemaObjects(connection, "trigger") ==
          std::vector<std::string>{
              "drill_regrades_no_delete",    "drill_regrades_no_replace",    "drill_regrades_no_update",
              "drill_reviews_no_delete",     "drill_reviews_no_replace",     "drill_reviews_no_update",
              "event_log_no_delete",         "event_log_no_replace",         "event_log_no_update",
              "gate_attempts_no_delete",     "gate_attempts_no_replace",     "gate_attempts_no_update",
              "history_chain_no_delete",     "history_chain_no_replace",     "history_chain_no_update",
              "predictions_no_delete",       "predictions_no_replace",       "predictions_no_update",
              "profile_imports_no_delete",   "profile_imports_no_replace",   "profile_imports_no_update",
              "profile_op_prices_no_delete", "profile_op_prices_no_replace", "profile_op_prices_no_update",
              "profile_ops_no_delete",       "profile_ops_no_replace",       "profile_ops_no_update",
              "profile_pricings_no_delete",  "profile_pricings_no_replace",  "profile_pricings_no_update",
              "run_records_no_delete",       "run_records_no_replace",       "run_records_no_update"});
    CHECK(connection.queryText("PRAGMA journal_mode") == "wal");
    CHECK(connection.queryInt64("PRAGMA foreign_keys") == 1);
    CHECK(connection.queryInt64("PRAGMA busy_timeout") == Store::kBusyTimeoutMs);

    const auto summary = store.eventSummary();
    CHECK(summary.countByKind.at("schema.migrated") == progress::kMigrations.size());
}

TEST_CASE("an empty existing file is taken as a new database") {
    ScratchDir dir;
    const auto file = dir / "empty.db";
    progress_test::writeText(file, "");
    Store store = Store::open(file);
    CHECK(store.schemaVersion() == Store::kLatestSchema);
}

TEST_CASE("reopening an up-to-date database changes nothing") {
    ScratchDir dir;
    const auto file = dir / "progress.db";
    {
        Store store = Store::open(file);
        store.syncChapters({{1, "roofline", "The roofline"}});
        store.setMasteryItemDone(1, "ridge-point", true);
    }
    CHECK(progress_test::sidecarFiles(file).empty());  // the last connection checkpoints and tidies up
    const auto bytesBefore = progress_test::readBytes(file);

    {
        Store store = Store::open(file);
        CHECK(store.schemaVersion() == Store::kLatestSchema);
        CHECK(store.eventSummary().countByKind.at("schema.migrated") == progress::kMigrations.size());
        CHECK(store.masteryItemsDone() == std::set<std::string>{"ridge-point"});
        REQUIRE(store.chapterStates().size() == 1);
        CHECK(store.chapterStates()[0].title == "The roofline");
    }
    CHECK(progress_test::readBytes(file) == bytesBefore);
}

TEST_CASE("a store that refuses writes reads as before and writes nothing") {
    ScratchDir dir;
    const auto file = dir / "progress.db";
    {
        Store store = Store::open(file);
        store.syncChapters({{1, "roofline", "The roofline"}});
        store.setMasteryItemDone(1, "ridge-point", true);
    }
    const auto bytesBefore = progress_test::readBytes(file);
    {
        Store store = Store::open(file);
        CHECK_FALSE(store.writesRefused());
        store.refuseWrites();
        CHECK(store.writesRefused());
        CHECK(store.masteryItemsDone() == std::set<std::string>{"ridge-point"});
        CHECK_THROWS_AS(store.noteChapterOpened(1), progress::StoreError);
        CHECK_THROWS_AS(store.setSetting("chip", "v6e"), progress::StoreError);
        CHECK(store.setting("chip").empty());
        CHECK_FALSE(store.chapterStates()[0].firstOpenedMs.has_value());
    }
    CHECK(progress_test::readBytes(file) == bytesBefore);
}

TEST_CASE("an in-memory store has the full schema and foreign keys") {
    Store store = Store::openInMemory();
    CHECK(store.schemaVersion() == Store::kLatestSchema);
    CHECK(store.connection().queryInt64("PRAGMA foreign_keys") == 1);
    CHECK(schemaObjects(store.connection(), "table").size() == 16);
}

TEST_CASE("every migration step leads to the same schema as a fresh database") {
    Store fresh = Store::openInMemory();
    const auto expected = schemaText(fresh.connection());

    // For each older version, build that database by hand and let open() finish the job.
    for (int start = 0; start < Store::kLatestSchema; ++start) {
        CAPTURE(start);
        ScratchDir dir;
        const auto file = dir / "old.db";
        {
            auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
            for (int step = 0; step < start; ++step) {
                raw.execute(progress::kMigrations[static_cast<std::size_t>(step)].sql);
            }
            if (start > 0) {
                raw.execute("PRAGMA application_id = " + std::to_string(progress::kApplicationId));
                raw.execute("PRAGMA user_version = " + std::to_string(start));
            }
        }
        Store store = Store::open(file);
        CHECK(store.schemaVersion() == Store::kLatestSchema);
        CHECK(schemaText(store.connection()) == expected);
        CHECK(store.eventSummary().countByKind.at("schema.migrated") ==
              static_cast<std::size_t>(Store::kLatestSchema - start));
    }
}

TEST_CASE("a blank SQLite database made elsewhere is claimed") {
    ScratchDir dir;
    const auto file = dir / "blank.db";
    {
        auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
        raw.execute("PRAGMA page_size = 1024; VACUUM");  // writes a header, no tables
    }
    REQUIRE(std::filesystem::file_size(file) > 0);
    Store store = Store::open(file);
    CHECK(store.schemaVersion() == Store::kLatestSchema);
}

TEST_CASE("file names with URI characters, spaces and non-ASCII letters work") {
    ScratchDir dir;
    const auto file = dir / "odd ?#%25 n\xc3\xa4me&mode=ro.db";
    {
        Store store = Store::open(file);
        store.logEvent("note", "", "");
    }
    CHECK(std::filesystem::exists(file));
    Store store = Store::open(file);
    CHECK(store.eventSummary().countByKind.at("note") == 1);
    // Nothing was created under a name SQLite mis-parsed.
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        ++entries;
    }
    CHECK(entries <= 3);  // the file, and its -wal and -shm while open
}
