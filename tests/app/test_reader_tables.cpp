// A table of the text laid out in the reader: a table too wide for its
// room wraps its widest columns of words first, and a short column keeps
// its line.
#include "qtwait.h"
#include "shellfixture.h"

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
