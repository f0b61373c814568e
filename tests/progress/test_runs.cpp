#include <catch2/catch.hpp>

#include "progress/runs.h"
#include "progress/store.h"
#include "progress/store_error.h"
#include "support.h"

using progress::RunLedger;
using progress::RunRecordRow;
using progress::Store;
using progress::StoreError;
using progress_test::sampleRecord;

TEST_CASE("run records are added once, read back whole, and recognised when imported again", "[runs]") {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{1'700'000'000'000});
    RunLedger ledger(store);

    const auto first = ledger.addRunRecord(sampleRecord("aa"));
    CHECK_FALSE(first.alreadyPresent);
    const auto again = ledger.addRunRecord(sampleRecord("aa"));
    CHECK(again.alreadyPresent);
    CHECK(again.id == first.id);
    RunRecordRow noTiming = sampleRecord("bb");
    noTiming.kind = "verified-off-chip";
    noTiming.medianS.reset();
    noTiming.baselineMedianS.reset();
    ledger.addRunRecord(noTiming);

    const auto rows = ledger.runRecords();
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].lab == "L07");
    CHECK(rows[0].medianS == Approx(7.5e-4));
    CHECK(rows[0].importedAtMs >= 1'700'000'000'000);
    CHECK_FALSE(rows[1].medianS.has_value());
    CHECK(rows[1].kind == "verified-off-chip");
    CHECK(store.eventSummary().countByKind.at("run.imported") == 2);
}

TEST_CASE("a record of another kind is refused by the schema", "[runs]") {
    Store store = Store::openInMemory();
    RunLedger ledger(store);
    RunRecordRow wrong = sampleRecord("cc");
    wrong.kind = "predicted";  // predictions are never run records
    CHECK_THROWS_AS(ledger.addRunRecord(wrong), StoreError);
    CHECK(ledger.runRecords().empty());
}

TEST_CASE("gate attempts keep their verdict and reasons, and need a record", "[runs]") {
    Store store = Store::openInMemory();
    RunLedger ledger(store);
    const auto rec = ledger.addRunRecord(sampleRecord("dd"));
    ledger.addGateAttempt("G1", rec.id, false, {"Slower than 1.1x XLA: 1.32x.", "Correct within tolerance."});
    ledger.addGateAttempt("G1", rec.id, true, {"Within 1.1x XLA: 1.04x."});
    const auto attempts = ledger.gateAttempts();
    REQUIRE(attempts.size() == 2);
    CHECK_FALSE(attempts[0].passed);
    REQUIRE(attempts[0].reasons.size() == 2);
    CHECK(attempts[0].reasons[1] == "Correct within tolerance.");
    CHECK(attempts[1].passed);
    CHECK_THROWS_AS(ledger.addGateAttempt("G1", 999, true, {"no such record"}), StoreError);
}

TEST_CASE("records, predictions and attempts cannot be changed or deleted, even in raw SQL", "[runs]") {
    Store store = Store::openInMemory();
    RunLedger ledger(store);
    const auto rec = ledger.addRunRecord(sampleRecord("ee"));
    ledger.addPrediction("G0", "matmul_nnn", 7.0e-4, "s");
    ledger.addGateAttempt("G0", rec.id, false, {"Prediction off by 40%."});
    const auto& c = store.connection();
    for (const char* sql : {
             "UPDATE run_records SET median_s = 1e-9",
             "DELETE FROM run_records",
             "INSERT OR REPLACE INTO run_records SELECT * FROM run_records",
             "UPDATE predictions SET value = 1",
             "DELETE FROM predictions",
             "UPDATE gate_attempts SET passed = 1",
             "DELETE FROM gate_attempts",
             "INSERT OR REPLACE INTO gate_attempts SELECT * FROM gate_attempts",
         }) {
        INFO(sql);
        CHECK_THROWS_AS(c.execute(sql), StoreError);
    }
    CHECK(ledger.gateAttempts().size() == 1);
    CHECK_FALSE(ledger.gateAttempts()[0].passed);
    CHECK(ledger.runRecords()[0].medianS == Approx(7.5e-4));
    CHECK(ledger.predictions("G0").size() == 1);
}

TEST_CASE("predictions are time-stamped in order and never overwritten", "[runs]") {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{100});
    RunLedger ledger(store);
    ledger.addPrediction("G0", "matmul_nnn", 7.0e-4, "s");
    ledger.addPrediction("G0", "matmul_nnn", 7.2e-4, "s");
    ledger.addPrediction("G1", "other", 1.0, "s");
    const auto g0 = ledger.predictions("G0");
    REQUIRE(g0.size() == 2);
    CHECK(g0[0].enteredAtMs < g0[1].enteredAtMs);
    CHECK(g0[1].value == Approx(7.2e-4));
}

TEST_CASE("a record and its gate attempt are kept together, and a repeat adds neither", "[runs]") {
    Store store = Store::openInMemory();
    RunLedger ledger(store);
    const progress::NewAttempt verdict{"G1", false, {"Slower than 1.1x XLA."}};
    const auto first = ledger.addRunRecord(sampleRecord("ff"), verdict);
    REQUIRE_FALSE(first.alreadyPresent);
    REQUIRE(ledger.gateAttempts().size() == 1);
    CHECK(ledger.gateAttempts()[0].runRecord == first.id);
    const auto again = ledger.addRunRecord(sampleRecord("ff"), verdict);
    CHECK(again.alreadyPresent);
    CHECK(ledger.gateAttempts().size() == 1);
    CHECK(ledger.runRecords().size() == 1);
}
