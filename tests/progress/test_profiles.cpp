#include <catch2/catch.hpp>

#include "progress/profiles.h"
#include "progress/store.h"
#include "support.h"

using progress::ProfileImportRow;
using progress::ProfileLedger;
using progress::ProfileOpRow;
using progress::Store;

namespace {

ProfileImportRow sampleProfile(const std::string& device) {
    ProfileImportRow p;
    p.fileSha256 = std::string(64, 'e');
    p.device = device;
    p.deviceType = "TPU v6 Lite";
    p.chip = "v6e";
    p.format = "xplane.pb";
    p.sourceFile = "/home/learner/run/host.xplane.pb";
    p.capturedAt = "2025-03-11T19:41:39Z";
    p.opEvents = 1504;
    p.busyPs = 78'783'723'903'750;
    p.spanPs = 92'500'000'000'000;
    ProfileOpRow big;
    big.program = "jit_f";
    big.programId = "12190760917235803885";
    big.op = "copy-done.4";
    big.kind = "copy-done (host to HBM)";
    big.occurrences = 100;
    big.selfPs = big.totalPs = 19'444'140'796'250;
    big.flops = 0;
    big.bytesAccessed = 5'368'709'120;
    big.predictedS = 0.104;
    big.model = "host link";
    ProfileOpRow small = big;
    small.op = "copy-start.4";
    small.selfPs = small.totalPs = 591'250;
    small.predictedS.reset();
    small.model = "A start op only issues an asynchronous transfer.";
    p.ops = {small, big};
    return p;
}

}  // namespace

TEST_CASE("a profile's devices are stored once each, with their ops, and read back whole", "[profiles]") {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{1'700'000'000'000});
    ProfileLedger ledger(store);
    const auto first = ledger.addProfile(sampleProfile("/device:TPU:0"));
    CHECK_FALSE(first.alreadyPresent);
    const auto again = ledger.addProfile(sampleProfile("/device:TPU:0"));
    CHECK(again.alreadyPresent);
    CHECK(again.id == first.id);
    const auto other = ledger.addProfile(sampleProfile("/device:TPU:1"));
    CHECK_FALSE(other.alreadyPresent);
    REQUIRE(ledger.profiles().size() == 2);

    const auto back = ledger.importedProfile(first.id);
    REQUIRE(back);
    CHECK(back->device == "/device:TPU:0");
    CHECK(back->busyPs == 78'783'723'903'750);
    CHECK(back->importedAtMs > 0);
    REQUIRE(back->ops.size() == 2);
    CHECK(back->ops[0].op == "copy-done.4");  // longest first
    CHECK(back->ops[0].programId == "12190760917235803885");
    CHECK(back->ops[0].bytesAccessed == 5'368'709'120);
    CHECK(back->ops[0].predictedS == Approx(0.104));
    CHECK_FALSE(back->ops[1].predictedS);
    CHECK_FALSE(ledger.importedProfile(999));
}

TEST_CASE("profile rows cannot be changed or deleted", "[profiles]") {
    Store store = Store::openInMemory();
    ProfileLedger ledger(store);
    const auto added = ledger.addProfile(sampleProfile("/device:TPU:0"));
    const auto& c = store.connection();
    CHECK_THROWS(c.execute("UPDATE profile_ops SET self_ps = 1"));
    CHECK_THROWS(c.execute("DELETE FROM profile_imports"));
    CHECK_THROWS(c.execute("UPDATE profile_imports SET chip = 'v5e'"));
    CHECK(ledger.importedProfile(added.id)->ops.size() == 2);
}

TEST_CASE("a profile opened again by a build that predicts differently is priced again, the first pricing kept",
          "[profiles]") {
    Store store = Store::openInMemory();
    store.setClock(progress_test::SteppingClock{1'700'000'000'000});
    ProfileLedger ledger(store);
    ProfileImportRow first = sampleProfile("/device:TPU:0");
    first.pricedBy = "tpu-course 0.1.0";
    const auto added = ledger.addProfile(first);
    const auto kept = ledger.importedProfile(added.id);
    REQUIRE(kept);
    CHECK(kept->pricedBy == "tpu-course 0.1.0");
    CHECK(kept->pricedAtMs == kept->importedAtMs);
    CHECK(kept->pricings == 1);

    // The same predictions from a later build: nothing new is kept.
    ProfileImportRow same = first;
    same.pricedBy = "tpu-course 0.2.0";
    const auto unchanged = ledger.addProfile(same);
    CHECK(unchanged.alreadyPresent);
    CHECK_FALSE(unchanged.repriced);
    CHECK(ledger.importedProfile(added.id)->pricedBy == "tpu-course 0.1.0");

    // Different ones: the ops carry them, by that build, from then on.
    ProfileImportRow later = same;
    later.ops[1].predictedS = 0.0951;  // copy-done.4
    later.ops[0].predictedS = 2.5e-7;  // copy-start.4, unpriced before
    later.ops[0].model = "async start";
    const auto again = ledger.addProfile(later);
    CHECK(again.alreadyPresent);
    CHECK(again.repriced);
    CHECK(again.id == added.id);
    const auto back = ledger.importedProfile(added.id);
    REQUIRE(back);
    CHECK(back->pricedBy == "tpu-course 0.2.0");
    CHECK(back->pricedAtMs > back->importedAtMs);
    CHECK(back->pricings == 2);
    REQUIRE(back->ops.size() == 2);
    CHECK(back->ops[0].op == "copy-done.4");
    CHECK(back->ops[0].predictedS == Approx(0.0951));
    CHECK(back->ops[0].selfPs == 19'444'140'796'250);  // the measurement is the import's own
    CHECK(back->ops[1].predictedS == Approx(2.5e-7));
    CHECK(back->ops[1].model == "async start");
    // The prediction it was imported with is still there, and the history whole.
    CHECK(store.connection().queryInt64("SELECT count(*) FROM profile_ops WHERE predicted_s = 0.104") == 1);
    CHECK(store.verifyHistory().empty());
    CHECK_THROWS(store.connection().execute("UPDATE profile_op_prices SET predicted_s = 1"));
    CHECK_THROWS(store.connection().execute("DELETE FROM profile_pricings"));
    // Priced as the newest pricing says, again: nothing new.
    CHECK_FALSE(ledger.addProfile(later).repriced);
    CHECK(ledger.importedProfile(added.id)->pricings == 2);
}

TEST_CASE("an import kept before pricings were recorded reads as priced when imported, by no named build",
          "[profiles]") {
    Store store = Store::openInMemory();
    ProfileLedger ledger(store);
    const auto added = ledger.addProfile(sampleProfile("/device:TPU:0"));
    // As a file from before: its import's own pricing row is not there,
    // nor in the chain.
    const auto& c = store.connection();
    c.execute("DROP TRIGGER profile_pricings_no_delete");
    c.execute("DELETE FROM profile_pricings");
    c.execute("DROP TRIGGER history_chain_no_delete");
    c.execute("DELETE FROM history_chain WHERE source = 'profile_pricings'");
    const auto back = ledger.importedProfile(added.id);
    REQUIRE(back);
    CHECK(back->pricedBy.empty());
    CHECK(back->pricedAtMs == back->importedAtMs);
    CHECK(back->pricings == 1);
    CHECK(back->ops[0].predictedS == Approx(0.104));
    // Priced again by a build that names itself: the second pricing.
    ProfileImportRow later = sampleProfile("/device:TPU:0");
    later.pricedBy = "tpu-course 0.2.0";
    later.ops[1].predictedS = 0.0951;
    CHECK(ledger.addProfile(later).repriced);
    const auto repriced = ledger.importedProfile(added.id);
    CHECK(repriced->pricedBy == "tpu-course 0.2.0");
    CHECK(repriced->pricings == 2);
    CHECK(repriced->ops[0].predictedS == Approx(0.0951));
}
