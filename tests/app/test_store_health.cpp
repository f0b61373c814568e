// A store that fails under the window (a table removed by another
// program, a lock it holds) is said in one sentence at the foot of the
// page; the app goes on, and the action that met it did nothing.
#include "qtwait.h"
#include "shellfixture.h"

#include <progress/database.h>
#include <progress/runs.h>
#include <progress/store.h>
#include <storehealth.h>

#include <catch2/catch.hpp>

#include <QQuickItem>

TEST_CASE("a table removed while the app runs is said, not a crash", "[store][qml]")
{
    ShellFixture shell;
    StoreHealth::instance()->dismiss();
    CHECK(StoreHealth::instance()->problem().isEmpty());
    // Another program removes the drill reviews while the window is open.
    shell.store().connection().execute("DROP TABLE drill_reviews");

    REQUIRE(shell.navigate(QStringLiteral("D2")));
    WAIT_VERIFY(!StoreHealth::instance()->problem().isEmpty());
    CHECK(StoreHealth::instance()->problem().contains(QStringLiteral("drill_reviews")));
    auto *banner = qobject_cast<QQuickItem *>(shell.findShown("storeBanner"));
    REQUIRE(banner != nullptr);
    CHECK(banner->height() > 0);

    // The rest of the course still answers: the stack's counts, a chapter.
    CHECK(shell.course().chaptersDone() >= 0);
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    StoreHealth::instance()->dismiss();
    WAIT_VERIFY(shell.findShown("storeBanner") == nullptr);
}

TEST_CASE("a history edited behind the app's back is said on the stack", "[store][qml]")
{
    // A prediction kept by the app, then changed by hand with its guard dropped.
    ShellFixture shell([](const std::string &file) {
        {
            progress::Store store = progress::Store::open(file);
            progress::RunLedger(store).addPrediction("G0", "matmul-4096", 7.0e-4, "s");
        }
        const auto raw = progress::db::Connection::open(file, progress::db::Access::ReadWriteCreate);
        raw.execute("DROP TRIGGER predictions_no_update");
        raw.execute("UPDATE predictions SET value = 1e-3");
    });
    const QString finding =
        QStringLiteral("the guard against changing predictions was removed; 1 prediction changed since it was kept");
    CHECK(StoreHealth::instance()->history() == finding);
    WAIT_VERIFY(shell.findShown("storeBanner") != nullptr);
    auto *text = qobject_cast<QQuickItem *>(shell.findShown("storeHistory"));
    REQUIRE(text != nullptr);
    CHECK(text->property("text").toString() ==
          QStringLiteral("Your progress file's history does not verify: ") + finding);
}

TEST_CASE("a history as the app kept it shows no banner", "[store][qml]")
{
    ShellFixture shell([](const std::string &file) {
        progress::Store store = progress::Store::open(file);
        progress::RunLedger(store).addPrediction("G0", "matmul-4096", 7.0e-4, "s");
    });
    StoreHealth::instance()->dismiss();
    CHECK(StoreHealth::instance()->history().isEmpty());
    CHECK(shell.findShown("storeBanner") == nullptr);
}
