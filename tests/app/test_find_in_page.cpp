// Ctrl+F on a chapter: the words are marked in the text, Enter brings the
// blocks that hold them into view one after another, and Escape closes the
// find without leaving the chapter.
#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"

#include <QQuickItem>
#include <QTest>

namespace {

// Chapter 1 opened and Ctrl+F pressed on it: the find's bar.
QObject *openFind(ShellFixture &shell)
{
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    shell.waitUntilBuilt();
    QTest::keyClick(shell.window(), Qt::Key_F, Qt::ControlModifier);
    QObject *find = shell.find("findInPage");
    REQUIRE(find);
    REQUIRE(find->property("visible").toBool());
    return find;
}

} // namespace

TEST_CASE("Ctrl+F finds words in a chapter and Escape closes it there", "[reading][find]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    shell.waitUntilBuilt();
    QObject *page = shell.find("chapterPage");
    REQUIRE(page);
    REQUIRE(page->property("contentY").toDouble() == 0);

    QTest::keyClick(shell.window(), Qt::Key_F, Qt::ControlModifier);
    QObject *find = shell.find("findInPage");
    REQUIRE(find);
    REQUIRE(find->property("visible").toBool());
    QObject *field = shell.find("findInPageField");
    REQUIRE(field);
    CHECK(field->property("activeFocus").toBool());

    shell.typeText(QStringLiteral("ridge point"));
    // Every word is marked where it stands, as a search's words are.
    CHECK(page->property("mark").toString() == QStringLiteral("ridge point"));
    const int blocks = find->property("hits").toList().size();
    CHECK(blocks >= 3); // chapter 1 names the ridge point in several paragraphs

    // Enter: the first block below the top, then the next, each to the top of the view.
    QTest::keyClick(shell.window(), Qt::Key_Return);
    const double first = page->property("contentY").toDouble();
    CHECK(first > 0);
    CHECK(find->property("at").toInt() == 0);
    CHECK(shell.find("findInPageCount")->property("text").toString() == QStringLiteral("1 of %1 blocks").arg(blocks));
    QTest::keyClick(shell.window(), Qt::Key_Return);
    CHECK(page->property("contentY").toDouble() > first);
    CHECK(find->property("at").toInt() == 1);
    // Shift+Enter goes back to the one before.
    QTest::keyClick(shell.window(), Qt::Key_Return, Qt::ShiftModifier);
    CHECK(page->property("contentY").toDouble() == Approx(first));

    // What is looked for is what is marked: a word of two letters beside
    // longer ones is neither, so it does not hide the blocks that show them;
    // typed alone, it is both.
    const auto retype = [&shell](const QString &text) {
        QTest::keyClick(shell.window(), Qt::Key_A, Qt::ControlModifier);
        shell.typeText(text);
    };
    retype(QStringLiteral("ridge point zq"));
    CHECK(find->property("hits").toList().size() == blocks);
    const auto marks = [&shell](const QString &what) {
        int n = 0;
        for (QObject *p : shell.findAll("readerParagraph"))
            n += int(p->property("text").toString().count(QStringLiteral("\">") + what + QStringLiteral("</span>"),
                                                          Qt::CaseInsensitive));
        return n;
    };
    retype(QStringLiteral("gb"));
    CHECK_FALSE(find->property("hits").toList().isEmpty());
    CHECK(marks(QStringLiteral("gb")) > 0);

    // Words in no block say so.
    shell.typeText(QStringLiteral("zzqx"));
    CHECK(find->property("hits").toList().isEmpty());
    CHECK(shell.find("findInPageCount")->property("text").toString() == QStringLiteral("not here"));

    // Escape closes the find, takes the marks away and stays on the chapter.
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    CHECK_FALSE(find->property("visible").toBool());
    CHECK(page->property("mark").toString().isEmpty());
    CHECK(page->property("visible").toBool());
    CHECK(ShellFixture::isShown(page));

    // Ctrl+F again finds the last words once more: counted and marked, not
    // "not here" beside words the chapter holds.
    QTest::keyClick(shell.window(), Qt::Key_F, Qt::ControlModifier);
    retype(QStringLiteral("ridge point"));
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    REQUIRE(page->property("mark").toString().isEmpty());
    QTest::keyClick(shell.window(), Qt::Key_F, Qt::ControlModifier);
    CHECK(find->property("visible").toBool());
    CHECK(field->property("selectedText").toString() == QStringLiteral("ridge point"));
    CHECK(find->property("hits").toList().size() == blocks);
    CHECK(page->property("mark").toString() == QStringLiteral("ridge point"));
    CHECK(shell.find("findInPageCount")->property("text").toString() == QStringLiteral("%1 blocks").arg(blocks));
}

TEST_CASE("The find bar covers neither the chapter's links nor the block it brings up", "[reading][find]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    shell.waitUntilBuilt();
    QTest::keyClick(shell.window(), Qt::Key_F, Qt::ControlModifier);
    auto *bar = qobject_cast<QQuickItem *>(shell.find("findInPage"));
    REQUIRE(bar);
    const QRectF barRect = bar->mapRectToScene(QRectF(0, 0, bar->width(), bar->height()));
    // The chapter's heading, with its links to the stack and the next chapter.
    auto *heading = qobject_cast<QQuickItem *>(shell.find("chapterHeading"));
    REQUIRE(heading);
    const QRectF headingRect = heading->mapRectToScene(QRectF(0, 0, heading->width(), heading->height()));
    CHECK_FALSE(barRect.intersects(headingRect));
    // The block each Enter brings up stands at the top of the view.
    shell.typeText(QStringLiteral("ridge point"));
    QTest::keyClick(shell.window(), Qt::Key_Return);
    auto *page = qobject_cast<QQuickItem *>(shell.find("chapterPage"));
    REQUIRE(page);
    CHECK(barRect.top() > page->height() / 2);
}

TEST_CASE("Ctrl+F looks for a mistyped word as the nearest word the course holds, and says so", "[reading][find]")
{
    ShellFixture shell;
    QObject *find = openFind(shell);
    QObject *page = shell.find("chapterPage");
    REQUIRE(page);
    shell.typeText(QStringLiteral("ridge poimt"));
    INFO("searched: " << find->property("searched").toString().toStdString());
    WAIT_VERIFY(find->property("hits").toList().size() >= 3);
    CHECK(find->property("searched").toString() == QStringLiteral("ridge point"));
    CHECK(page->property("mark").toString() == QStringLiteral("ridge point"));
    QObject *line = shell.find("findInPageSearched");
    REQUIRE(line);
    CHECK(ShellFixture::isShown(line));
    CHECK(line->property("text").toString() == QStringLiteral("not here as typed · found “ridge point”"));
    // Typed right, nothing is put right; a word the course holds nowhere
    // near is not here.
    QTest::keyClick(shell.window(), Qt::Key_A, Qt::ControlModifier);
    shell.typeText(QStringLiteral("ridge point"));
    CHECK(find->property("searched").toString().isEmpty());
    CHECK_FALSE(ShellFixture::isShown(line));
    QTest::keyClick(shell.window(), Qt::Key_A, Qt::ControlModifier);
    shell.typeText(QStringLiteral("zqxwvy"));
    CHECK(find->property("hits").toList().isEmpty());
    CHECK(shell.find("findInPageCount")->property("text").toString() == QStringLiteral("not here"));
    QTest::keyClick(shell.window(), Qt::Key_Escape);
}
