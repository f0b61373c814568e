// The profile page before a profile is open lists the files opened before,
// newest first and one entry a file, and opens one again where it still
// is. It joins a test binary that opens no profile: the profile session
// lives for the whole run, and one opened before would hide the list.
#include <catch2/catch.hpp>

#include "lastfolders.h"
#include "profilerows.h"
#include "profilesession.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <QFile>
#include <QFileInfo>
#include <QQuickItem>
#include <QTemporaryDir>
#include <QTest>

namespace {

const char *const kRealProfile = TPU_COURSE_SOURCE_DIR "/tests/simulators/profiles/xprof_tpu_inference_2.xplane.pb";

// Kept in `store` as opened before: a file since moved away, then two
// devices of the real one (with a made-up op each, not what it holds).
void keepMovedAndReal(progress::Store &store)
{
    progress::ProfileLedger ledger(store);
    ledger.addProfile(profiledDevice("v5e", "TPU v5 lite", "/nowhere/moved.xplane.pb", "",
                                     {profiledOp("jit_f", "dot.1", "matmul", 2, 1000)}, 'b'));
    for (const char *device : {"/device:TPU:0", "/device:TPU:1"}) {
        auto row =
            profiledDevice("v6e", "TPU v6 Lite", kRealProfile, "", {profiledOp("jit_f", "dot.1", "matmul", 2, 1000)});
        row.device = device;
        ledger.addProfile(row);
    }
}

} // namespace

TEST_CASE("the profile page opens again a file opened before, where it still is", "[profile][qml]")
{
    ShellFixture shell;
    ProfileSession *session = ProfileSession::instance();
    REQUIRE(session->state() == QStringLiteral("empty"));
    const std::string real = kRealProfile;
    keepMovedAndReal(shell.store());
    REQUIRE(shell.navigate(QStringLiteral("profile")));
    shell.waitUntilBuilt();

    QObject *before = shell.findShown("profilesBefore");
    REQUIRE(before);
    const QVariantList files = before->property("files").toList();
    REQUIRE(files.size() == 2);
    const QVariantMap newest = files.at(0).toMap();
    CHECK(newest.value("name").toString() == QStringLiteral("xprof_tpu_inference_2.xplane.pb"));
    CHECK(newest.value("devices").toInt() == 2);
    CHECK(newest.value("exists").toBool());
    CHECK(!files.at(1).toMap().value("exists").toBool());
    // Only the file still there can be opened again.
    const QList<QObject *> buttons = shell.findAllShown("profileOpenAgain");
    REQUIRE(buttons.size() == 1);
    QMetaObject::invokeMethod(buttons.first(), "clicked");
    WAIT_COMPARE(session->state(), QStringLiteral("ready"));
    CHECK(session->filePath().toStdString() == real);
    CHECK(session->devices().size() == 4);
    // The file dialog opens next where that profile was.
    CHECK(LastFolders::instance()->folderFor(QStringLiteral("profiles")) ==
          QUrl::fromLocalFile(QFileInfo(QString::fromStdString(real)).absolutePath()));

    // The same file read from elsewhere is listed where it was read last,
    // and first.
    QTemporaryDir elsewhere;
    const QString copy = elsewhere.filePath(QStringLiteral("copied.xplane.pb"));
    REQUIRE(QFile::copy(QString::fromStdString(real), copy));
    REQUIRE(session->openNow(copy).isEmpty());
    const QVariantList again = session->openedBefore(6);
    // The two files made for the test, and the real one under its own
    // fingerprint, read twice but listed once.
    REQUIRE(again.size() == 3);
    CHECK(again.at(0).toMap().value("path").toString() == copy);
    CHECK(again.at(0).toMap().value("devices").toInt() == session->devices().size());
    for (int i = 1; i < again.size(); ++i)
        CHECK(again.at(i).toMap().value("path").toString() != copy);
}

TEST_CASE("a kept profile opened by a build that predicts differently is priced again", "[profile][qml]")
{
    const QString real = QString::fromUtf8(kRealProfile);
    ProfileSession *session = ProfileSession::instance();
    // What this build keeps of the file: each device's ops and predictions.
    std::vector<progress::ProfileImportRow> now;
    {
        ShellFixture shell({}, false);
        REQUIRE(session->openNow(real).isEmpty());
        progress::ProfileLedger ledger(shell.store());
        for (const auto &row : ledger.profiles())
            now.push_back(*ledger.importedProfile(row.id));
    }
    REQUIRE(now.size() == 4);

    // A store where an earlier build kept the same file, predicting twice the time.
    ShellFixture shell({}, false);
    progress::ProfileLedger ledger(shell.store());
    std::size_t priced = 0;
    for (progress::ProfileImportRow row : now) {
        row.pricedBy = "tpu-course 0.0.9";
        for (auto &op : row.ops)
            if (op.predictedS) {
                *op.predictedS *= 2;
                ++priced;
            }
        ledger.addProfile(row);
    }
    REQUIRE(priced > 0);
    const auto before = session->storedProfiles();
    REQUIRE(before.size() == 4);
    CHECK(before.first().toMap().value("priced").toString().startsWith(QStringLiteral("predicted when imported, ")));
    CHECK(before.first().toMap().value("priced").toString().endsWith(QStringLiteral(" by tpu-course 0.0.9")));

    REQUIRE(session->openNow(real).isEmpty());
    CHECK(session->stored().contains(QStringLiteral("This build predicts its ops differently")));
    const auto after = session->storedProfiles();
    REQUIRE(after.size() == 4);
    for (const QVariant &device : after) {
        const QString when = device.toMap().value("priced").toString();
        INFO(when.toStdString());
        CHECK(when.startsWith(QStringLiteral("predicted again ")));
        CHECK(when.endsWith(QStringLiteral(", priced 2 times")));
    }
    // Read back, each op carries this build's prediction again.
    for (const auto &kept : now) {
        const auto profiles = ledger.profiles();
        const auto match =
            std::find_if(profiles.begin(), profiles.end(), [&kept](const auto &r) { return r.device == kept.device; });
        REQUIRE(match != profiles.end());
        const auto back = ledger.importedProfile(match->id);
        REQUIRE(back);
        REQUIRE(back->ops.size() == kept.ops.size());
        for (std::size_t i = 0; i < kept.ops.size(); ++i) {
            INFO(kept.ops[i].op);
            CHECK(back->ops[i].predictedS.has_value() == kept.ops[i].predictedS.has_value());
            if (kept.ops[i].predictedS)
                CHECK(*back->ops[i].predictedS == Approx(*kept.ops[i].predictedS));
        }
    }
}

TEST_CASE("the validation page opens a kept profile again on the profile page", "[profile][qml]")
{
    ShellFixture shell;
    ProfileSession *session = ProfileSession::instance();
    const std::string real = kRealProfile;
    keepMovedAndReal(shell.store());
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    shell.waitUntilBuilt();
    // One button a file still where it was, on its newest device.
    const QList<QObject *> buttons = shell.findAllShown("validationOpenAgain");
    REQUIRE(buttons.size() == 1);
    QMetaObject::invokeMethod(buttons.first(), "clicked");
    CHECK(shell.window()->property("page").toString() == QStringLiteral("profile"));
    WAIT_COMPARE(session->state(), QStringLiteral("ready"));
    CHECK(session->filePath().toStdString() == real);
}
