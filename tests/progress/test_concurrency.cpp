// Several connections on one file, as two app windows would have.
//
// Catch2's assertions are not thread-safe: worker threads only record what
// happened, and the test thread checks it afterwards.

#include "support.h"

#include "progress/store.h"

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using progress::Store;
using progress_test::ScratchDir;

namespace {

std::string quickCheck(const std::filesystem::path& file) {
    auto raw = progress::db::Connection::open(file, progress::db::Access::ReadOnly);
    return raw.queryText("PRAGMA quick_check");
}

class FailureLog {
public:
    void add(const std::string& what) {
        const std::lock_guard lock(mutex_);
        failures_.push_back(what);
    }
    std::vector<std::string> all() const {
        const std::lock_guard lock(mutex_);
        return failures_;
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::string> failures_;
};

}  // namespace

TEST_CASE("two stores on one file see each other's interleaved writes") {
    ScratchDir dir;
    const auto file = dir / "shared.db";
    Store first = Store::open(file);
    Store second = Store::open(file);
    first.syncChapters({{1, "roofline", "The roofline"}, {2, "pipeline", "Pipelines"}});

    for (int i = 0; i < 20; ++i) {
        first.logEvent("from.first", std::to_string(i), "");
        second.logEvent("from.second", std::to_string(i), "");
        Store& writer = (i % 2 == 0) ? first : second;
        writer.setMasteryItemDone(1 + i % 2, "item-" + std::to_string(i), true);
    }
    second.noteChapterOpened(2);

    for (const Store* reader : {&first, &second}) {
        const auto summary = reader->eventSummary();
        CHECK(summary.countByKind.at("from.first") == 20);
        CHECK(summary.countByKind.at("from.second") == 20);
        CHECK(reader->masteryItemsDone().size() == 20);
        CHECK(reader->chapterStates()[1].lastOpenedMs.has_value());
    }
    CHECK(quickCheck(file) == "ok");
}

TEST_CASE("two threads with their own stores write 200 events each, all kept") {
    ScratchDir dir;
    const auto file = dir / "threads.db";
    Store::open(file);  // created up front; the next test races the creation

    constexpr int kPerThread = 200;
    FailureLog failures;
    const auto writer = [&](const std::string& name) {
        try {
            Store store = Store::open(file);
            for (int i = 0; i < kPerThread; ++i) {
                store.logEvent("thread.write", name, std::to_string(i));
            }
        } catch (const std::exception& error) {
            failures.add(name + ": " + error.what());
        }
    };
    std::thread a(writer, "a");
    std::thread b(writer, "b");
    a.join();
    b.join();
    REQUIRE(failures.all().empty());

    Store store = Store::open(file);
    std::set<std::string> seen;
    std::set<std::int64_t> ids;
    for (const auto& event : store.events()) {
        if (event.kind == "thread.write") {
            seen.insert(event.subject + "/" + event.detail);
            ids.insert(event.id);
        }
    }
    CHECK(seen.size() == 2 * kPerThread);
    CHECK(ids.size() == 2 * kPerThread);
    CHECK(seen.count("a/0") == 1);
    CHECK(seen.count("b/199") == 1);
    CHECK(quickCheck(file) == "ok");
}

TEST_CASE("stores racing to create and migrate a new file migrate it once") {
    for (int round = 0; round < 10; ++round) {
        CAPTURE(round);
        ScratchDir dir;
        const auto file = dir / "fresh.db";
        FailureLog failures;
        const auto opener = [&] {
            try {
                Store store = Store::open(file);
                store.logEvent("opened", "", "");
            } catch (const std::exception& error) {
                failures.add(error.what());
            }
        };
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back(opener);
        }
        for (auto& thread : threads) {
            thread.join();
        }
        REQUIRE(failures.all() == std::vector<std::string>{});

        Store store = Store::open(file);
        const auto summary = store.eventSummary();
        CHECK(summary.countByKind.at("schema.migrated") == progress::kMigrations.size());
        CHECK(summary.countByKind.at("opened") == 4);
        CHECK(quickCheck(file) == "ok");
    }
}

TEST_CASE("writes committed by a process that died are there on the next open") {
    ScratchDir dir;
    const auto file = dir / "crashed.db";
    Store::open(file).syncChapters({{5, "gap", "The gap"}});

    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // Commit, then vanish without closing: no checkpoint, the -wal stays.
        try {
            Store store = Store::open(file);
            store.setMasteryItemDone(5, "bandwidth-bound", true);
            store.logEvent("before.crash", "", "");
            _exit(0);
        } catch (...) {
            _exit(1);
        }
    }
    int status = -1;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);

    const auto sidecars = progress_test::sidecarFiles(file);
    CHECK(std::find(sidecars.begin(), sidecars.end(), "crashed.db-wal") != sidecars.end());

    Store store = Store::open(file);
    CHECK(store.masteryItemsDone(5) == std::set<std::string>{"bandwidth-bound"});
    CHECK(store.eventSummary().countByKind.at("before.crash") == 1);
    CHECK(quickCheck(file) == "ok");
}
