#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "readersize.h"
#include "readertheme.h"
#include "shellfixture.h"
#include "support.h"

#include <progress/store.h>

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>

using namespace piece_input;

namespace {

// The first paragraph of the chapter on screen, and the pointer over it.
QQuickItem *pointAtFirstParagraph(ShellFixture &shell)
{
    QQuickItem *text = item(shell, "readerParagraph");
    QTest::mouseMove(shell.window(), at(text, 0.5, 0.3));
    QTest::mouseMove(shell.window(), at(text, 0.52, 0.3));
    return text;
}

// Chapter 1 opened and a note begun on its first paragraph: the field.
QQuickItem *beginNote(ShellFixture &shell)
{
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    shell.waitUntilBuilt();
    pointAtFirstParagraph(shell);
    WAIT_VERIFY(shownItem(shell, "markNote") != nullptr);
    click(shell, "markNote");
    WAIT_VERIFY(shownItem(shell, "markNoteEditor") != nullptr);
    return shownItem(shell, "markNoteEditor");
}

} // namespace

TEST_CASE("a paragraph bookmarked and given a note, kept in the store and listed in the margin", "[reading][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    shell.waitUntilBuilt();
    CHECK(shell.store().readingMarks(1).empty());

    // Pointing at a paragraph shows its gutter; the star bookmarks it.
    pointAtFirstParagraph(shell);
    WAIT_VERIFY(shownItem(shell, "markBookmark") != nullptr);
    // It keeps to the gap between the margin's contents and the column.
    QQuickItem *gutter = shownItem(shell, "markGutter");
    QQuickItem *margin = shownItem(shell, "readerMargin");
    REQUIRE(gutter != nullptr);
    REQUIRE(margin != nullptr);
    CHECK(gutter->mapToScene(QPointF(0, 0)).x() >= margin->mapToScene(QPointF(margin->width(), 0)).x());
    CHECK(gutter->mapToScene(QPointF(gutter->width(), 0)).x() <= item(shell, "readerParagraph")->mapToScene({}).x());
    click(shell, "markBookmark");
    WAIT_COMPARE(shell.store().readingMarks(1).size(), std::size_t(1));
    const progress::Store::ReadingMark mark = shell.store().readingMarks(1).front();
    CHECK(mark.bookmarked);
    CHECK(mark.block.find('/') != std::string::npos);
    CHECK_FALSE(mark.excerpt.empty());
    WAIT_VERIFY(shownItem(shell, "readerMark") != nullptr); // listed in the margin
    CHECK(shown(shell, "readerMark").rfind("★ ", 0) == 0);

    // A note, written in place and kept with Ctrl+Enter.
    pointAtFirstParagraph(shell);
    WAIT_VERIFY(shownItem(shell, "markNote") != nullptr);
    click(shell, "markNote");
    WAIT_VERIFY(shownItem(shell, "markNoteEditor") != nullptr);
    shell.typeText(QStringLiteral("check the ridge on v6e"));
    QTest::keyClick(window, Qt::Key_Return, Qt::ControlModifier);
    WAIT_VERIFY(shell.store().readingMarks(1).front().note == "check the ridge on v6e");
    CHECK(shell.store().readingMarks(1).front().bookmarked); // the bookmark stays
    WAIT_VERIFY(shownItem(shell, "markNoteText") != nullptr);
    CHECK(shown(shell, "markNoteText") == "check the ridge on v6e");

    // Escape while editing puts the note back and stays on the page.
    click(shell, "markNoteText");
    WAIT_VERIFY(shownItem(shell, "markNoteEditor") != nullptr);
    shell.typeText(QStringLiteral(" and v7"));
    QTest::keyClick(window, Qt::Key_Escape);
    WAIT_VERIFY(shownItem(shell, "markNoteEditor") == nullptr);
    CHECK(window->property("page").toString() == QStringLiteral("chapter"));
    CHECK(shell.store().readingMarks(1).front().note == "check the ridge on v6e");

    // The bookmark taken off and the note emptied: nothing is left in the store.
    pointAtFirstParagraph(shell);
    click(shell, "markBookmark");
    WAIT_VERIFY(!shell.store().readingMarks(1).front().bookmarked);
    click(shell, "markNoteText");
    WAIT_VERIFY(shownItem(shell, "markNoteEditor") != nullptr);
    QTest::keyClick(window, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(window, Qt::Key_Delete);
    QTest::keyClick(window, Qt::Key_Return, Qt::ControlModifier);
    WAIT_VERIFY(shell.store().readingMarks(1).empty());
}

TEST_CASE("a note being written reads on the page in either theme", "[reading][theme][qml]")
{
    ShellFixture shell;
    ReaderTheme *theme = ReaderTheme::instance();
    for (const bool dark : {false, true}) {
        INFO((dark ? "dark" : "light"));
        theme->showForThisRun(dark);
        QQuickItem *editor = beginNote(shell);
        auto *ground = editor->property("background").value<QQuickItem *>();
        REQUIRE(ground != nullptr);
        const QColor field = ground->property("color").value<QColor>();
        const QColor ink = editor->property("color").value<QColor>();
        const QColor placeholder = editor->property("placeholderTextColor").value<QColor>();
        INFO(ink.name().toStdString() << " and " << placeholder.name().toStdString() << " on "
                                      << field.name().toStdString());
        CHECK(contrastRatio(ink, field) >= 4.5);
        CHECK(contrastRatio(placeholder, field) >= 4.5);
        QTest::keyClick(shell.window(), Qt::Key_Escape);
        WAIT_VERIFY(shownItem(shell, "markNoteEditor") == nullptr);
    }
    theme->reload();
}

TEST_CASE("a note grows and shrinks with the chapter's text", "[reading][qml]")
{
    ShellFixture shell;
    ReaderSize *size = ReaderSize::instance();
    size->reset();
    QQuickItem *editor = beginNote(shell);
    const auto pixels = [](QObject *text) { return text->property("font").value<QFont>().pixelSize(); };
    const int editing = pixels(editor);
    shell.typeText(QStringLiteral("the ridge moves with the chip"));
    QTest::keyClick(shell.window(), Qt::Key_Return, Qt::ControlModifier);
    WAIT_VERIFY(shownItem(shell, "markNoteText") != nullptr);
    const int normal = pixels(shownItem(shell, "markNoteText"));
    CHECK(normal == editing);
    const int prose = pixels(item(shell, "readerParagraph"));
    QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    QTest::keyClick(shell.window(), Qt::Key_Equal, Qt::ControlModifier);
    WAIT_VERIFY(pixels(item(shell, "readerParagraph")) > prose);
    // In step with the prose: 1.3 times as large, as it is.
    CHECK(pixels(shownItem(shell, "markNoteText")) == Approx(normal * 1.3).margin(1));
    size->reset();
}
