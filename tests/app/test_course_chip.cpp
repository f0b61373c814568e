// One chip for the whole course: chosen anywhere, it holds everywhere, and
// it is kept in the progress store's settings.
#include "qtwait.h"
#include "shellfixture.h"

#include <catch2/catch.hpp>

#include <QQuickItem>
#include <QTemporaryDir>
#include <QTest>

namespace {

void click(ShellFixture &shell, const char *name)
{
    auto *item = qobject_cast<QQuickItem *>(shell.findShown(name));
    REQUIRE(item != nullptr);
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier,
                      item->mapToScene(QPointF(item->width() / 2, item->height() / 2)).toPoint());
}

bool chosen(ShellFixture &shell, const char *name)
{
    QObject *button = shell.findShown(name);
    return button && button->property("on").toBool();
}

} // namespace

TEST_CASE("a chip chosen in one piece is the chip of every page", "[chip][qml]")
{
    ShellFixture shell;
    CHECK(shell.course().chip() == QStringLiteral("v5e"));
    REQUIRE(shell.navigate(QStringLiteral("EX01")));
    WAIT_VERIFY(shell.findShown("ex01chip_v6e") != nullptr);
    click(shell, "ex01chip_v6e");
    WAIT_COMPARE(shell.course().chip(), QStringLiteral("v6e"));
    CHECK(shell.store().setting("chip") == "v6e");

    REQUIRE(shell.navigate(QStringLiteral("EX10")));
    WAIT_VERIFY(chosen(shell, "ex10Chip_v6e"));
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    WAIT_VERIFY(chosen(shell, "chip_v6e"));
    // And back from the chapter page: the pieces follow.
    click(shell, "chip_v4");
    WAIT_COMPARE(shell.course().chip(), QStringLiteral("v4"));
    REQUIRE(shell.navigate(QStringLiteral("EX01")));
    WAIT_VERIFY(chosen(shell, "ex01chip_v4"));
}

TEST_CASE("a chip the simulator does not know, kept in the store, is said and not used", "[chip]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto store = progress::Store::open(dir.filePath(QStringLiteral("p.sqlite")).toStdString());
    store.setSetting("chip", "v99");
    course::ChapterCatalog catalog;
    catalog.scan(QStringLiteral(TPU_COURSE_CHAPTER_DIR), 15);
    Course course(catalog, store);
    CHECK(course.chip() == QStringLiteral("v5e"));
    REQUIRE(course.problems().size() == 1);
    CHECK(course.problems().constFirst().contains(QStringLiteral("v99")));
    course.setChip(QStringLiteral("not a chip"));
    CHECK(course.chip() == QStringLiteral("v5e"));
    course.setChip(QStringLiteral("v5p"));
    CHECK(store.setting("chip") == "v5p");
}

TEST_CASE("a goal reached again changes nothing and refreshes nothing", "[progress]")
{
    // A scrub passing the same mark calls reachGoal every step: only the
    // first call may write and tell every page that progress changed.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto store = progress::Store::open(dir.filePath(QStringLiteral("p.sqlite")).toStdString());
    course::ChapterCatalog catalog;
    catalog.scan(QStringLiteral(TPU_COURSE_CHAPTER_DIR), 15);
    std::vector<progress::ChapterRow> rows;
    for (const auto &c : catalog.chapters())
        rows.push_back({c.number, c.slug.toStdString(), c.title.toStdString()});
    store.syncChapters(rows);
    Course course(catalog, store);
    int refreshes = 0;
    QObject::connect(&course, &Course::progressChanged, [&refreshes] { ++refreshes; });
    CHECK(course.reachGoal(2, QStringLiteral("ch02-step-tracer"), QStringLiteral("retrace")));
    CHECK(refreshes == 1);
    const int revision = course.revision();
    for (int i = 0; i < 5; ++i)
        CHECK(course.reachGoal(2, QStringLiteral("ch02-step-tracer"), QStringLiteral("retrace")));
    CHECK(refreshes == 1);
    CHECK(course.revision() == revision);
    CHECK(store.masteryGoalsReached(2) == std::set<std::string>{"ch02-step-tracer/retrace"});
    // A goal the item does not have is still refused, reached before or not.
    CHECK_FALSE(course.reachGoal(2, QStringLiteral("ch02-step-tracer"), QStringLiteral("no-such-goal")));
}
