// A store that fails under the window (a table removed by another
// program, a lock it holds) is said in one sentence at the foot of the
// page; the app goes on, and the action that met it did nothing.
#include "qtwait.h"
#include "shellfixture.h"

#include <progress/database.h>
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
