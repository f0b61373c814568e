// The event log: order, summary, and that it cannot be rewritten.

#include "support.h"

#include "progress/store.h"

#include <catch2/catch.hpp>

#include <string>

using progress::Store;
using progress::StoreError;
using progress_test::ScratchDir;

namespace {

struct Interrupted {};

std::int64_t rowCount(const progress::db::Connection& connection) {
    return connection.queryInt64("SELECT count(*) FROM event_log");
}

}  // namespace

TEST_CASE("events come back newest first, with their clock time") {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{1'700'000'000'000});
    store.logEvent("lab.run", "matmul", "bf16 4096");
    store.logEvent("gate.attempt", "chapter-10", "pass");
    store.logEvent("lab.run", "attention", "");

    const auto newest = store.events(2);
    REQUIRE(newest.size() == 2);
    CHECK(newest[0].kind == "lab.run");
    CHECK(newest[0].subject == "attention");
    CHECK(newest[0].atMs == 1'700'000'000'002);
    CHECK(newest[1].kind == "gate.attempt");
    CHECK(newest[1].detail == "pass");
    CHECK(newest[0].id > newest[1].id);

    const auto all = store.events();
    CHECK(all.size() == 3 + progress::kMigrations.size());
    CHECK(all.back().kind == "schema.migrated");
}

TEST_CASE("the summary counts each kind and spans first to last") {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{10'000});
    store.logEvent("lab.run", "a", "");
    store.logEvent("lab.run", "b", "");
    store.logEvent("note", "c", "");

    const auto summary = store.eventSummary();
    CHECK(summary.total == 3 + progress::kMigrations.size());
    CHECK(summary.countByKind.at("lab.run") == 2);
    CHECK(summary.countByKind.at("note") == 1);
    REQUIRE(summary.firstAtMs.has_value());
    CHECK(summary.lastAtMs == 10'002);
    CHECK(*summary.firstAtMs > 10'002);  // the migration was stamped with the real clock
}

TEST_CASE("text round-trips byte for byte") {
    Store store = Store::openInMemory();
    const std::string awkward = std::string("quote ' double \" newline\n nul ") + '\0' + " end \xe2\x9c\x93";
    store.logEvent("note", awkward, awkward);
    const auto event = store.events(1).at(0);
    CHECK(event.subject == awkward);
    CHECK(event.detail == awkward);
}

TEST_CASE("the event log cannot be changed, deleted or replaced") {
    ScratchDir dir;
    const auto file = dir / "progress.db";
    Store store = Store::open(file);
    store.logEvent("lab.run", "matmul", "first");
    const auto before = store.events();

    // A second, hand-made connection: the triggers guard the file, not our code.
    auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
    const auto attempt = [&](const std::string& sql) {
        try {
            raw.execute(sql);
            FAIL("the event log accepted: " << sql);
        } catch (const StoreError& error) {
            CHECK(error.kind() == StoreError::Kind::Constraint);
            CHECK(std::string(error.what()).find("append-only") != std::string::npos);
        }
    };
    attempt("UPDATE event_log SET detail = 'rewritten'");
    attempt("DELETE FROM event_log");
    attempt("DELETE FROM event_log WHERE kind = 'lab.run'");
    attempt(
        "INSERT OR REPLACE INTO event_log (id, at_ms, kind, subject, detail) "
        "SELECT id, 0, 'forged', '', '' FROM event_log ORDER BY id DESC LIMIT 1");
    attempt("REPLACE INTO event_log (id, at_ms, kind, subject, detail) VALUES (1, 0, 'forged', '', '')");

    const auto after = store.events();
    REQUIRE(after.size() == before.size());
    for (std::size_t i = 0; i < after.size(); ++i) {
        CHECK(after[i].id == before[i].id);
        CHECK(after[i].detail == before[i].detail);
        CHECK(after[i].kind == before[i].kind);
    }
    CHECK(rowCount(raw) == static_cast<std::int64_t>(before.size()));
}

TEST_CASE("a transaction that throws leaves nothing behind") {
    Store store = Store::openInMemory();
    const auto& connection = store.connection();
    const auto before = rowCount(connection);
    try {
        progress::db::Transaction transaction(connection);
        connection.execute("INSERT INTO event_log (at_ms, kind, subject, detail) VALUES (1, 'k', 's', 'd')");
        CHECK(rowCount(connection) == before + 1);
        throw Interrupted{};
    } catch (const Interrupted&) {
    }
    CHECK(rowCount(connection) == before);
    // And the connection is usable again: no transaction was left open.
    store.logEvent("after", "", "");
    CHECK(rowCount(connection) == before + 1);
}
