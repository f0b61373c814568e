// A table of the text laid out in the reader: a table too wide for its
// room wraps its widest columns of words first, and a short column keeps
// its line.
#include "qtwait.h"
#include "shellfixture.h"
#include "shellload.h"

#include <catch2/catch.hpp>

#include <QQuickItem>
#include <QTest>
#include <QTextDocument>

namespace {

QString plain(QObject *cell)
{
    QTextDocument doc;
    doc.setHtml(cell->property("text").toString());
    return doc.toPlainText().trimmed();
}

} // namespace

TEST_CASE("a table too wide wraps its widest columns first, a short one keeps its line", "[reader][qml]")
{
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        INFO(size.width() << "x" << size.height());
        ShellFixture shell;
        shell.window()->resize(size);
        // Chapter 6's "legal or not" table: short shapes beside long reasons.
        REQUIRE(shell.navigate(QStringLiteral("ch06#worked-example-4-legal-or-not")));
        shell.waitUntilBuilt();
        QQuickItem *shape = nullptr, *reason = nullptr;
        WAIT_VERIFY([&] {
            shape = reason = nullptr;
            for (QObject *c : shell.findAll("readerTableCell")) {
                const QString words = plain(c);
                if (words == QStringLiteral("(4096, 4096) bf16"))
                    shape = qobject_cast<QQuickItem *>(c);
                if (words.startsWith(QStringLiteral("rank 1: not 4096")))
                    reason = qobject_cast<QQuickItem *>(c);
            }
            return shape && reason && shape->width() > 0;
        }());
        // Its widths are those of the whole table, published once every
        // cell is made: the short shape on one line, the long reason wrapped.
        // (Heights, as drawn: a rich text's lineCount can lag its width.)
        CHECK(shape->property("implicitWidth").toReal() <= shape->width() + 1);
        CHECK(reason->property("implicitWidth").toReal() > reason->width());
        WAIT_VERIFY(reason->height() > 1.5 * shape->height());
    }
}

TEST_CASE("a table whose longest words do not fit side by side breaks them inside the window", "[reader][qml]")
{
    // Chapter 9's PartitionSpec table: HLO shardings such as
    // "{devices=[16,1,16]<=[256]" are single words wider, with the other
    // columns', than the page at the size a 1280x800 screen opens.
    ShellFixture shell;
    // That window's width and type scale (0.86, set by the width), tall
    // enough that the table, 1,500 px under its section's heading, is drawn.
    const QSize opening = openingWindowSize(QSize(1280, 800));
    shell.window()->resize(opening.width(), 2600);
    REQUIRE(shell.navigate(QStringLiteral("ch09#from-a-mesh-and-a-partitionspec-to-the-collectives-xla-inserts")));
    shell.waitUntilBuilt();
    // Code is set with joiners that keep "<=" from becoming one glyph.
    const auto words = [](QObject *cell) { return plain(cell).remove(QChar(0x200c)).remove(QChar(0x2060)); };
    QQuickItem *sharding = nullptr, *replicated = nullptr;
    WAIT_VERIFY([&] {
        sharding = replicated = nullptr;
        for (QObject *c : shell.findAll("readerTableCell")) {
            if (words(c).startsWith(QStringLiteral("{devices=[16,1,16]<=[256]")))
                sharding = qobject_cast<QQuickItem *>(c);
            if (words(c) == QStringLiteral("{replicated}"))
                replicated = qobject_cast<QQuickItem *>(c);
        }
        return sharding && replicated && sharding->width() > 0;
    }());
    const QRectF drawn = sharding->mapRectToScene(QRectF(0, 0, sharding->width(), sharding->height()));
    CHECK(drawn.right() <= shell.window()->width());
    // The word is broken where it must be, not run past the cell. (Heights,
    // as drawn: a rich text's lineCount can lag its width.)
    CHECK(sharding->property("implicitWidth").toReal() > sharding->width());
    WAIT_VERIFY(sharding->height() > 1.5 * replicated->height());
}

TEST_CASE("changing chapters while their tables are made brings nothing down", "[reader][qml]")
{
    ShellFixture shell;
    // One chapter page shows each chapter in turn: another chapter's blocks
    // are made as the last one's go, some of them still being made, their
    // tables' widths not yet published. Chapter 9 holds the course's
    // largest tables, chapter 6 a wrapping one, chapters 1 and 12 tables of
    // counts and ops.
    const QStringList chapters{QStringLiteral("ch12"), QStringLiteral("ch09"), QStringLiteral("ch06"),
                               QStringLiteral("ch01")};
    for (int round = 0; round < 16; ++round) {
        INFO("round " << round);
        REQUIRE(shell.navigate(chapters.at(round % chapters.size())));
        // Left at once, after a frame or two, or once some tables are made.
        if (round % 3 == 1)
            QTest::qWait(30);
        if (round % 3 == 2)
            WAIT_VERIFY(!shell.findAll("readerTableCell").isEmpty());
    }
    REQUIRE(shell.navigate(QStringLiteral("ch09")));
    shell.waitUntilBuilt();
    CHECK(shell.find("chapterTitle")->property("text").toString() == shell.catalog().chapter(9)->title);
}
