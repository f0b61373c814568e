// The history's hash chain: what the store kept verifies, and each way of
// rewriting it behind the app's back (an edit with the trigger dropped, a
// row inserted or deleted by hand) is named when the store opens.
#include <catch2/catch.hpp>

#include "chain.h"
#include "progress/database.h"
#include "progress/drills.h"
#include "progress/runs.h"
#include "progress/store.h"
#include "support.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

using progress::RunLedger;
using progress::RunRecordRow;
using progress::Store;
using progress_test::sampleRecord;
using progress_test::ScratchDir;

namespace {

// A store with a run record and its failed gate attempt, a prediction and a
// chapter opened, closed.
void keepSomeHistory(const std::filesystem::path& file) {
    Store store = Store::open(file);
    store.syncChapters({{1, "jax", "JAX"}});
    store.noteChapterOpened(1);
    RunLedger ledger(store);
    ledger.addPrediction("G1", "matmul", 7.4e-4, "s");
    ledger.addRunRecord(sampleRecord("aa"),
                        progress::NewAttempt{"G1", false, {"1.04x XLA, over 1.1x? no: not correct"}});
    CHECK(store.verifyHistory().empty());
}

void raw(const std::filesystem::path& file, const std::string& sql) {
    const auto c = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
    c.execute(sql);
}

}  // namespace

TEST_CASE("what the store kept verifies, opened again and again", "[history]") {
    ScratchDir dir;
    const auto file = dir / "p.sqlite";
    keepSomeHistory(file);
    CHECK(Store::open(file).historyFinding().empty());
    {
        Store store = Store::open(file);
        RunLedger(store).addRunRecord(sampleRecord("bb"));
    }
    CHECK(Store::open(file).historyFinding().empty());
    const auto c = progress::db::Connection::open(file, progress::db::Access::ReadOnly);
    // Every history row is in the chain: 1 prediction, 2 records, 1 attempt, and the events.
    CHECK(c.queryInt64("SELECT count(*) FROM history_chain") ==
          c.queryInt64("SELECT (SELECT count(*) FROM event_log) + (SELECT count(*) FROM run_records) + "
                       "(SELECT count(*) FROM predictions) + (SELECT count(*) FROM gate_attempts)"));
}

TEST_CASE("an edit with the trigger dropped, a row inserted or deleted by hand: each is named", "[history]") {
    ScratchDir dir;
    const auto file = dir / "p.sqlite";
    keepSomeHistory(file);

    SECTION("a record's JSON edited in the file") {
        raw(file, "DROP TRIGGER run_records_no_update");
        raw(file, R"(UPDATE run_records SET record_json = '{"timing":{"samples":[1e-9]}}')");
        const std::string finding = Store::open(file).historyFinding();
        CHECK(finding ==
              "the guard against changing run records was removed; 1 run record changed since it was "
              "kept");
    }
    SECTION("a passing gate attempt inserted by SQL") {
        raw(file,
            "INSERT INTO gate_attempts (gate, run_record, judged_at_ms, passed, reasons) "
            "VALUES ('G1', 1, 0, 1, 'passed')");
        CHECK(Store::open(file).historyFinding() == "1 gate attempt added outside the app");
    }
    SECTION("a prediction deleted") {
        raw(file, "DROP TRIGGER predictions_no_delete");
        raw(file, "DELETE FROM predictions");
        CHECK(Store::open(file).historyFinding().find("1 prediction deleted") != std::string::npos);
    }
    SECTION("the chain's own hashes edited") {
        raw(file, "DROP TRIGGER history_chain_no_update");
        raw(file, "UPDATE history_chain SET chain_sha256 = printf('%064d', 0) WHERE id = 2");
        CHECK(Store::open(file).historyFinding().find("its chain of hashes was rewritten") != std::string::npos);
    }
}

TEST_CASE("a file kept before the chain is chained as it stands when it migrates", "[history]") {
    ScratchDir dir;
    const auto file = dir / "old.sqlite";
    keepSomeHistory(file);
    // Back to schema 5: the chain's table and triggers gone, the version stamped back.
    raw(file, "DROP TABLE history_chain");
    raw(file, "DROP TABLE reading_marks");        // schema 7's table, which schema 5 had not either
    raw(file, "DROP VIEW drill_reviews_graded");  // and schema 8's
    raw(file, "DROP TABLE drill_regrades");
    raw(file, "DROP TABLE profile_op_prices");  // and schema 9's
    raw(file, "DROP TABLE profile_pricings");
    raw(file, "PRAGMA user_version = 5");
    Store store = Store::open(file);
    CHECK(store.schemaVersion() == Store::kLatestSchema);
    CHECK(store.historyFinding().empty());
    CHECK(store.connection().queryInt64("SELECT count(*) FROM history_chain WHERE source = 'run_records'") == 1);
}

namespace {

// Appends history until killed: a run record judged at a gate, a
// prediction, an activity entry; one byte down `committed` after each
// commit, so the parent knows what was kept for certain.
[[noreturn]] void appendUntilKilled(const std::filesystem::path& file, int committed, int seed) {
    try {
        Store store = Store::open(file);
        RunLedger ledger(store);
        for (int i = 0;; ++i) {
            const std::string sha = std::to_string(seed) + "-" + std::to_string(i);
            ledger.addRunRecord(sampleRecord(sha), progress::NewAttempt{"G1", i % 2 == 0, {"judged"}});
            ledger.addPrediction("G1", "matmul", 7.4e-4 + i * 1e-9, "s");
            store.logEvent("kept", sha, "");
            const char one = 1;
            if (write(committed, &one, 1) != 1) _exit(2);
        }
    } catch (...) {
        _exit(1);
    }
}

}  // namespace

TEST_CASE("processes killed at any moment while appending lose no committed row and the history verifies",
          "[history]") {
    ScratchDir dir;
    const auto file = dir / "killed.sqlite";
    keepSomeHistory(file);
    std::mt19937 random(20261204);
    std::uniform_int_distribution<int> delayUs(200, 20000);
    int kills = 0;
    std::int64_t committed = 0;
    for (int round = 0; round < 40; ++round) {
        // Two writers at once, as two windows on one file would be.
        int pipes[2][2];
        pid_t children[2];
        for (int w = 0; w < 2; ++w) {
            REQUIRE(pipe(pipes[w]) == 0);
            children[w] = fork();
            REQUIRE(children[w] >= 0);
            if (children[w] == 0) {
                close(pipes[w][0]);
                appendUntilKilled(file, pipes[w][1], round * 2 + w);
            }
            close(pipes[w][1]);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(delayUs(random)));
        for (int w = 0; w < 2; ++w) {
            REQUIRE(kill(children[w], SIGKILL) == 0);
            int status = 0;
            REQUIRE(waitpid(children[w], &status, 0) == children[w]);
            CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));  // not an error exit first
            ++kills;
            char buffer[256];
            for (ssize_t n; (n = read(pipes[w][0], buffer, sizeof buffer)) > 0;) committed += n;
            close(pipes[w][0]);
        }
        Store store = Store::open(file);
        INFO("round " << round);
        REQUIRE(store.historyFinding().empty());
        const auto& c = store.connection();
        CHECK(c.queryText("PRAGMA integrity_check") == "ok");
        // The one record of keepSomeHistory, then every round's that a writer reported.
        CHECK(c.queryInt64("SELECT count(*) FROM run_records") - 1 >= committed);
        CHECK(c.queryInt64("SELECT count(*) FROM run_records") == c.queryInt64("SELECT count(*) FROM gate_attempts"));
    }
    CHECK(kills == 80);
    CHECK(committed > 0);
    WARN(kills << " writers killed mid-append; " << committed << " appends reported committed, none lost");
}

TEST_CASE("the chain's digest is SHA-256", "[history]") {
    // FIPS 180-2's examples: a chain kept by one build verifies in any other.
    CHECK(progress::chain::sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(progress::chain::sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(progress::chain::sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
