// Resuming: the heading a learner reads to is kept per chapter and as the
// last place of all; the stack's path button continues there, and the
// chapter opens again where it was left.
#include <catch2/catch.hpp>

#include "lastfolders.h"
#include "qtwait.h"
#include "readersize.h"
#include "readingplaces.h"
#include "shellfixture.h"

#include <QDir>
#include <QFile>
#include <QQmlComponent>
#include <QQmlEngine>
#include <QQuickItem>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

QString shownText(ShellFixture &shell, const char *name)
{
    QObject *item = shell.findShown(name);
    return item ? item->property("text").toString() : QStringLiteral("(not shown)");
}

// Scrolls the chapter as a reader does (the wheel, a key) to `y`.
void readTo(QObject *page, double y)
{
    QMetaObject::invokeMethod(page, "readerMoved");
    page->setProperty("contentY", y);
}

// A chapter (`place`) opened and read down (readTo) until the heading of
// `anchor` stands `top` px below the window's top: its page and the heading.
struct ReadPlace
{
    QObject *page = nullptr;
    QQuickItem *heading = nullptr;
};
ReadPlace openAndReadTo(ShellFixture &shell, const char *place, const char *anchor, double top)
{
    REQUIRE(shell.navigate(QString::fromLatin1(place)));
    shell.waitUntilBuilt();
    QObject *page = shell.findShown("chapterPage");
    REQUIRE(page != nullptr);
    auto *heading = qobject_cast<QQuickItem *>(shell.find((std::string("heading:") + anchor).c_str()));
    REQUIRE(heading != nullptr);
    readTo(page, page->property("contentY").toDouble() + heading->mapToScene(QPointF(0, 0)).y() - top);
    WAIT_VERIFY(std::abs(heading->mapToScene(QPointF(0, 0)).y() - top) < 2);
    return {page, heading};
}

// Waits until the page's text is set again: it is set a slice at a time,
// and is settled once the page's height has held for half a second.
void waitSettled(QObject *page)
{
    double height = -1;
    for (int held = 0; held < 5;) {
        QTest::qWait(100);
        const double now = page->property("contentHeight").toDouble();
        held = now == height ? held + 1 : 0;
        height = now;
    }
}

} // namespace

TEST_CASE("the stack continues where the learner left off reading, and so does the chapter", "[reading][qml]")
{
    ShellFixture shell;
    WAIT_VERIFY(shownText(shell, "startButton").startsWith(QStringLiteral("start the path → chapter 1")));

    REQUIRE(shell.navigate(QStringLiteral("ch06")));
    shell.waitUntilBuilt();
    QObject *page = shell.findShown("chapterPage");
    REQUIRE(page != nullptr);
    // Opened from the stack the first time: at the top.
    CHECK(page->property("contentY").toDouble() == 0);
    readTo(page, 0.5 * page->property("contentHeight").toDouble());
    WAIT_VERIFY(!page->property("currentAnchor").toString().isEmpty());
    const QString anchor = page->property("currentAnchor").toString();
    ReadingPlaces *places = ReadingPlaces::instance();
    WAIT_COMPARE(places->lastChapter(), 6);
    CHECK(places->lastAnchor() == anchor);
    CHECK(places->placeIn(6) == anchor);
    CHECK(QString::fromStdString(shell.store().setting("reading.chapter.6")) == anchor);
    const QString title = places->lastTitle();
    CHECK_FALSE(title.isEmpty());

    // The path button names the chapter and the heading.
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    WAIT_VERIFY(shownText(shell, "startButton").startsWith(QStringLiteral("continue → chapter 6 at “")));
    CHECK(shownText(shell, "startButton").contains(title));

    // Back in the chapter, it opens at that heading, not at the top.
    REQUIRE(shell.navigate(QStringLiteral("ch06")));
    shell.waitUntilBuilt();
    WAIT_VERIFY(page->property("contentY").toDouble() > 0);
    WAIT_COMPARE(page->property("currentAnchor").toString(), anchor);

    // Opening the chapter at a named place still goes there, and a reveal
    // the page makes itself is not taken for reading.
    REQUIRE(shell.navigate(QStringLiteral("ch06#sources")));
    shell.waitUntilBuilt();
    WAIT_COMPARE(page->property("currentAnchor").toString(), QStringLiteral("sources"));
    QTest::qWait(300);
    CHECK(places->placeIn(6) == anchor);
    // Stayed on, that heading is being read: it is kept (after 3 s).
    WAIT_COMPARE(places->placeIn(6), QStringLiteral("sources"));
    CHECK(places->lastChapter() == 6);

    // A heading glanced at in passing, the page left before 3 s, is not.
    REQUIRE(shell.navigate(QStringLiteral("ch06#the-grid-is-a-loop-nest")));
    shell.waitUntilBuilt();
    WAIT_COMPARE(page->property("currentAnchor").toString(), QStringLiteral("the-grid-is-a-loop-nest"));
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    QTest::qWait(3500);
    CHECK(places->placeIn(6) == QStringLiteral("sources"));
}

// A chapter opened and read where it opens, never scrolled: its first
// section is the one being read, kept once stayed on, and the chapter
// opens again at its top.
TEST_CASE("a chapter read at its top is kept, and opens again at its top", "[reading][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("ch03")));
    shell.waitUntilBuilt();
    QObject *page = shell.findShown("chapterPage");
    REQUIRE(page != nullptr);
    CHECK(page->property("contentY").toDouble() == 0);
    WAIT_COMPARE(page->property("currentAnchor").toString(), QStringLiteral("one-ir-under-every-framework"));
    ReadingPlaces *places = ReadingPlaces::instance();
    WAIT_COMPARE(places->placeIn(3), QStringLiteral("one-ir-under-every-framework")); // after 3 s

    REQUIRE(shell.navigate(QStringLiteral("stack")));
    WAIT_VERIFY(shownText(shell, "startButton").startsWith(QStringLiteral("continue → chapter 3 at “")));
    REQUIRE(shell.navigate(QStringLiteral("ch02")));
    shell.waitUntilBuilt();
    REQUIRE(shell.navigate(QStringLiteral("ch03")));
    shell.waitUntilBuilt();
    QTest::qWait(300);
    CHECK(page->property("contentY").toDouble() == 0);
}

TEST_CASE("a place kept by an earlier session is offered after a relaunch", "[reading][qml]")
{
    ShellFixture shell;
    // What an earlier session left in the store.
    shell.store().setSetting("reading.chapter.11", "the-grid-is-a-loop-nest");
    shell.store().setSetting("reading.last.chapter", "11");
    shell.store().setSetting("reading.last.anchor", "the-grid-is-a-loop-nest");
    shell.store().setSetting("reading.last.title", "The grid is a loop nest");
    ReadingPlaces::instance()->reload();
    WAIT_VERIFY(shownText(shell, "startButton").startsWith(QStringLiteral("continue → chapter 11 at “")));
    CHECK(shownText(shell, "startButton").contains(QStringLiteral("The grid is a loop nest")));
}

TEST_CASE("the chapters' text grows and shrinks a step at a time, and keeps its size", "[reading][qml]")
{
    ShellFixture shell;
    ReaderSize *size = ReaderSize::instance();
    size->reset();
    REQUIRE(shell.navigate(QStringLiteral("ch06")));
    // The theme's reader size, read in the shell's own engine.
    QQmlComponent probe(qmlEngine(shell.window()));
    probe.setData("import QtQuick\nimport TpuCourse.Ui\nQtObject { property int size: Theme.readerSize }", QUrl());
    std::unique_ptr<QObject> theme(probe.create());
    REQUIRE(theme);
    const auto readerSize = [&theme] { return theme->property("size").toInt(); };
    const int normal = readerSize();
    REQUIRE(normal > 0);

    // Ctrl+= twice: two steps up, the prose and its size kept in the store.
    QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    WAIT_VERIFY(size->scale() == Approx(1.3));
    WAIT_VERIFY(readerSize() > normal);
    CHECK(shell.store().setting("reading.textScale").rfind("1.3", 0) == 0);
    // As far as it goes, and no further.
    for (int i = 0; i < 5; ++i)
        QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    WAIT_VERIFY(size->scale() == Approx(ReaderSize::steps().back()));
    CHECK_FALSE(size->canGrow());

    // A relaunch reads the size kept; a value edited by hand is not taken.
    size->reload();
    CHECK(size->scale() == Approx(ReaderSize::steps().back()));
    shell.store().setSetting("reading.textScale", "7");
    size->reload();
    CHECK(size->scale() == Approx(1.0));

    // Ctrl+- a step down, Ctrl+0 back to the default.
    QTest::keyClick(shell.window(), Qt::Key_Minus, Qt::ControlModifier);
    WAIT_VERIFY(size->scale() == Approx(0.85));
    WAIT_VERIFY(readerSize() < normal);
    QTest::keyClick(shell.window(), Qt::Key_0, Qt::ControlModifier);
    WAIT_VERIFY(size->scale() == Approx(1.0));
    WAIT_VERIFY(readerSize() == normal);
}

TEST_CASE("the paragraph being read stays in view when the type or the window's width changes", "[reading][qml]")
{
    ShellFixture shell;
    ReaderSize *size = ReaderSize::instance();
    size->reset();
    // Read down to a heading well into the chapter, a little way past its top.
    const auto [page, heading] = openAndReadTo(shell, "ch04", "will-the-overlap-hide-the-transfer", 40);
    const auto headingTop = [heading] { return heading->mapToScene(QPointF(0, 0)).y(); };
    const auto settled = [page] { waitSettled(page); };

    // Two steps larger: everything above grows by hundreds of pixels, the
    // heading stays where it was read.
    QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    WAIT_VERIFY(size->scale() == Approx(1.3));
    settled();
    INFO("the heading's top: " << headingTop());
    CHECK(std::abs(headingTop() - 40) < 24);
    // Back to the default, and a narrower window: the same.
    QTest::keyClick(shell.window(), Qt::Key_0, Qt::ControlModifier);
    WAIT_VERIFY(size->scale() == Approx(1.0));
    settled();
    INFO("after: " << headingTop());
    CHECK(std::abs(headingTop() - 40) < 24);
    shell.window()->resize(1024, shell.window()->height());
    settled();
    CHECK(std::abs(headingTop() - 40) < 24);
    // At the chapter's top, it stays at the top.
    readTo(page, 0);
    QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    settled();
    CHECK(page->property("contentY").toDouble() == 0);
    size->reset();
}

TEST_CASE("the paragraph being read stays in view when the chip, and so the numbers above it, change", "[reading][qml]")
{
    ShellFixture shell;
    shell.course().setChip(QStringLiteral("v5e"));
    const auto [page, heading] = openAndReadTo(shell, "ch06", "common-mistakes-and-how-to-see-them", 40);
    const auto headingTop = [heading] { return heading->mapToScene(QPointF(0, 0)).y(); };
    const double before = page->property("contentHeight").toDouble();
    for (const char *chip : {"v7", "v4", "v5e"}) {
        INFO(chip);
        shell.course().setChip(QString::fromLatin1(chip));
        waitSettled(page);
        INFO("the heading's top: " << headingTop() << ", the page " << page->property("contentHeight").toDouble()
                                   << " px against " << before);
        CHECK(std::abs(headingTop() - 40) < 24);
    }
}

TEST_CASE("each kind of file dialog opens in the folder it last took a file from", "[reading][dialogs]")
{
    ShellFixture shell;
    LastFolders *folders = LastFolders::instance();
    const QUrl home = QUrl::fromLocalFile(QDir::homePath());
    CHECK(folders->folderFor(QStringLiteral("dumps")) == home); // nothing kept yet

    QTemporaryDir dir;
    REQUIRE(QDir(dir.path()).mkpath(QStringLiteral("runs")));
    const QString record = dir.filePath(QStringLiteral("runs/run-L07.json"));
    QFile f(record);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.close();
    folders->remember(QStringLiteral("records"), QUrl::fromLocalFile(record));
    CHECK(folders->folderFor(QStringLiteral("records")) == QUrl::fromLocalFile(dir.filePath(QStringLiteral("runs"))));
    CHECK(folders->folderFor(QStringLiteral("dumps")) == home); // one kind does not move another
    // Kept in the store's settings, so a relaunch opens there too.
    CHECK(QString::fromStdString(shell.store().setting("dialogs.folder.records")) ==
          dir.filePath(QStringLiteral("runs")));

    // A folder chosen as such is kept as it is; something not on this machine is not kept.
    folders->remember(QStringLiteral("traces"), QUrl::fromLocalFile(dir.path()));
    CHECK(folders->folderFor(QStringLiteral("traces")) == QUrl::fromLocalFile(dir.path()));
    folders->remember(QStringLiteral("traces"), QUrl(QStringLiteral("https://example.org/trace.json")));
    CHECK(folders->folderFor(QStringLiteral("traces")) == QUrl::fromLocalFile(dir.path()));

    // A kept folder that has gone opens the home folder instead.
    REQUIRE(QDir(dir.filePath(QStringLiteral("runs"))).removeRecursively());
    CHECK(folders->folderFor(QStringLiteral("records")) == home);
}
