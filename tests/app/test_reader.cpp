// The chapter reader as a learner uses it: prose at a readable measure,
// contents that follow the scroll, numbers that say what they are, inputs
// dragged in place, code copied as written, pieces live in the text, and
// one chip that re-fills the page without rebuilding it.
#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <catch2/catch.hpp>

#include <QClipboard>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QQuickItem>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>

#include <cmath>
#include <optional>

namespace {

void settle()
{
    QTest::qWait(400);
}
// Opens a place and waits for its page to be built.
bool open(ShellFixture &shell, const char *place)
{
    if (!shell.navigate(QString::fromLatin1(place)))
        return false;
    shell.waitUntilBuilt();
    QTest::qWait(200);
    return true;
}

QString plainText(QObject *text)
{
    QTextDocument doc;
    doc.setHtml(text->property("text").toString());
    return doc.toPlainText();
}

QList<QQuickItem *> shownItems(ShellFixture &shell, const char *name)
{
    QList<QQuickItem *> out;
    for (QObject *o : shell.findAll(name))
        if (ShellFixture::isShown(o))
            out << qobject_cast<QQuickItem *>(o);
    return out;
}

// The reader's text item whose HTML contains `needle`.
QQuickItem *textContaining(ShellFixture &shell, const QString &needle)
{
    QList<QQuickItem *> queue{shell.window()->contentItem()};
    while (!queue.isEmpty()) {
        QQuickItem *item = queue.takeFirst();
        if (!item->isVisible())
            continue;
        if (item->inherits("QQuickText") && item->property("text").toString().contains(needle))
            return item;
        queue << item->childItems();
    }
    return nullptr;
}

// Where in `text` (its coordinates) a link starting with `prefix` is.
std::optional<QPointF> linkPoint(QQuickItem *text, const QString &prefix)
{
    for (qreal y = 4; y < text->height(); y += 6)
        for (qreal x = 2; x < text->width(); x += 4) {
            QString link;
            QMetaObject::invokeMethod(text, "linkAt", Q_RETURN_ARG(QString, link), Q_ARG(qreal, x), Q_ARG(qreal, y));
            if (link.startsWith(prefix))
                return QPointF(x + 2, y);
        }
    return std::nullopt;
}

// Scrolls the chapter page so `item` is in the middle of the window.
void bringIntoView(ShellFixture &shell, QQuickItem *item)
{
    QObject *page = shell.find("chapterPage");
    auto *flick = qobject_cast<QQuickItem *>(page);
    auto *content = flick->property("contentItem").value<QQuickItem *>();
    const qreal y = item->mapToItem(content, QPointF(0, 0)).y() - shell.window()->height() / 3.0;
    const qreal maxY = page->property("maximumY").toReal();
    page->setProperty("contentY", std::clamp(y, 0.0, maxY));
    QTest::qWait(100);
}

} // namespace

TEST_CASE("a chapter's prose is set at 60 to 75 characters a line at every common size", "[reader][qml]")
{
    ShellFixture shell;
    for (const QSize size : {QSize(1280, 800), QSize(1440, 900), QSize(1920, 1080)}) {
        shell.window()->resize(size);
        REQUIRE(open(shell, "ch08"));
        int measured = 0;
        for (QQuickItem *p : shownItems(shell, "readerParagraph")) {
            // Every line of reading text is set to one height, in pixels.
            const qreal pitch = p->property("lineHeight").toReal();
            REQUIRE(pitch > p->property("font").value<QFont>().pixelSize());
            const int lines = qRound(p->property("contentHeight").toReal() / pitch);
            if (lines < 6)
                continue; // the last line of a short paragraph skews its average
            const qreal perLine = plainText(p).size() / (lines - 0.5);
            INFO(size.width() << "x" << size.height() << ": " << perLine << " characters a line over " << lines
                              << " lines");
            CHECK(perLine >= 60);
            CHECK(perLine <= 75);
            ++measured;
        }
        CHECK(measured >= 3);
    }
}

// Lab cards and the mastery list span the page, past the reader's column:
// their prose is held to a card's measure, not run the whole width.
TEST_CASE("lab cards and mastery items keep a readable measure, each box beside its words", "[reader][qml]")
{
    ShellFixture shell;
    shell.window()->resize(QSize(1920, 1080));
    REQUIRE(open(shell, "ch11"));
    const auto perLine = [](QQuickItem *text) {
        const int lines = text->property("lineCount").toInt();
        return lines < 3 ? 0.0 : text->property("text").toString().size() / (lines - 0.5);
    };
    // A lab's goal and what the app checks, plain text in the lab card.
    for (const QString &needle :
         {QStringLiteral("What the app checks"), QStringLiteral("Run chapter 11's tiled matmul twice")}) {
        QQuickItem *text = textContaining(shell, needle);
        REQUIRE(text);
        INFO(needle.toStdString() << ": " << perLine(text) << " characters a line");
        CHECK(perLine(text) > 50);
        CHECK(perLine(text) <= 90);
    }
    // Each mastery item's words, in its box's own text.
    int items = 0, listed = 0;
    QList<QQuickItem *> queue{shell.window()->contentItem()};
    while (!queue.isEmpty()) {
        QQuickItem *item = queue.takeFirst();
        queue << item->childItems();
        if (!item->objectName().startsWith(QLatin1String("mastery_")) || !ShellFixture::isShown(item))
            continue;
        auto *words = item->property("contentItem").value<QQuickItem *>();
        REQUIRE(words);
        CHECK(words->width() <= shell.window()->width() / 2);
        if (perLine(words) > 0) {
            INFO(words->property("text").toString().toStdString());
            CHECK(perLine(words) <= 90);
        }
        ++items;
        // An item made of goals lists them under its words: its box sits
        // beside the words, above the goals, however many there are.
        for (QQuickItem *sibling : item->parentItem()->childItems()) {
            if (sibling->objectName() != QLatin1String("masteryGoals") || !sibling->isVisible())
                continue;
            auto *indicator = item->property("indicator").value<QQuickItem *>();
            REQUIRE(indicator);
            const qreal boxBottom = indicator->mapToScene(QPointF(0, indicator->height())).y();
            CHECK(boxBottom <= sibling->mapToScene(QPointF(0, 0)).y());
            CHECK(perLine(sibling) <= 90);
            ++listed;
        }
    }
    CHECK(items >= 5);
    CHECK(listed >= 2); // EX·08's and EX·09's goals
}

// Code in a sentence is set in another face, and the joiners that keep a
// short expression whole come from a fallback font: neither may make its
// line taller than the prose's, or the paragraph's lines stand unevenly.
TEST_CASE("a paragraph holding code keeps the prose's line pitch", "[reader][qml]")
{
    ShellFixture shell;
    REQUIRE(open(shell, "ch03"));
    int checked = 0;
    for (QQuickItem *p : shownItems(shell, "readerParagraph")) {
        const QString html = p->property("text").toString();
        if (!html.contains(QStringLiteral("JetBrains Mono")) || !html.contains(QStringLiteral("&#8288;")))
            continue;
        QFont prose = p->property("font").value<QFont>();
        const qreal pitch = QFontMetricsF(prose).height() * 1.3; // Theme.readerLeading
        const qreal height = p->property("contentHeight").toReal();
        const qreal lines = std::round(height / pitch);
        INFO(plainText(p).left(60).toStdString() << ": " << height << " px for " << lines << " lines of " << pitch);
        CHECK(std::abs(height - lines * pitch) < 0.5);
        ++checked;
    }
    CHECK(checked >= 2); // chapter 3's opening paragraphs quote jax.jit(f) and func.func
}

TEST_CASE("the contents follow the scroll and take the reader to a heading", "[reader][qml]")
{
    ShellFixture shell;
    REQUIRE(open(shell, "ch08#the-memory-hierarchy"));
    QObject *page = shell.find("chapterPage");
    WAIT_COMPARE(page->property("currentAnchor").toString(), QStringLiteral("the-memory-hierarchy"));
    CHECK(page->property("contentY").toReal() > shell.window()->height());

    // A click on "Sources" in the contents scrolls the text there.
    QQuickItem *contents = qobject_cast<QQuickItem *>(shell.findShown("readerContents"));
    REQUIRE(contents != nullptr);
    QQuickItem *entry = nullptr;
    QList<QQuickItem *> stack{contents};
    while (!stack.isEmpty() && !entry) {
        QQuickItem *item = stack.takeLast();
        if (item->inherits("QQuickText") && item->property("text").toString() == QStringLiteral("Sources"))
            entry = item;
        stack << item->childItems();
    }
    REQUIRE(entry != nullptr);
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier,
                      entry->mapToScene(QPointF(8, entry->height() / 2)).toPoint());
    WAIT_COMPARE(page->property("currentAnchor").toString(), QStringLiteral("sources"));

    // A heading the chapter does not have is refused, not opened at the top.
    CHECK_FALSE(shell.navigate(QStringLiteral("ch08#no-such-heading")));
}

TEST_CASE("the section the reader is in is the one at the top quarter of the view", "[reader][qml]")
{
    // With the next heading in the lower half of the view, the reader is
    // still in the section above it: that is the one the contents light
    // and the place a relaunch offers to continue at.
    ShellFixture shell;
    REQUIRE(open(shell, "ch09#worked-example-1-an-all-gather-along-one-axis-of-a-v5e-pod"));
    QObject *page = shell.find("chapterPage");
    WAIT_COMPARE(page->property("currentAnchor").toString(),
                 QStringLiteral("worked-example-1-an-all-gather-along-one-axis-of-a-v5e-pod"));
    const qreal height = page->property("height").toReal();
    page->setProperty("contentY", page->property("contentY").toReal() - height / 2);
    WAIT_COMPARE(page->property("currentAnchor").toString(), QStringLiteral("pricing-a-collective-on-a-ring"));
}

TEST_CASE("the contents keep out of a piece's way while the text scrolls past it", "[reader][qml]")
{
    // A piece runs the reading area's whole width, under the contents'
    // column: scrolled a step a frame past one, the contents sit above or
    // below it, or step aside, and never over it.
    ShellFixture shell;
    REQUIRE(open(shell, "ch11"));
    QObject *page = shell.find("chapterPage");
    auto *content = page->property("contentItem").value<QQuickItem *>();
    QQuickItem *margin = qobject_cast<QQuickItem *>(shell.find("readerMargin"));
    REQUIRE(margin != nullptr);
    CHECK(ShellFixture::isShown(margin)); // beside the prose at the top
    QQuickItem *piece = nullptr;
    for (QObject *o : shell.findAll("readerPiece"))
        if (auto *item = qobject_cast<QQuickItem *>(o); item && item->height() > 0)
            piece = piece && piece->mapToItem(content, QPointF()).y() < item->mapToItem(content, QPointF()).y() ? piece
                                                                                                                : item;
    REQUIRE(piece != nullptr);
    const auto sceneRect = [](QQuickItem *item) {
        return item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
    };
    const qreal top = piece->mapToItem(content, QPointF()).y();
    const qreal window = shell.window()->height();
    int beside = 0, aside = 0;
    for (qreal y = std::max(0.0, top - window); y < top + piece->height(); y += 40) {
        page->setProperty("contentY", std::min(y, page->property("maximumY").toReal()));
        QTest::qWait(10);
        const QRectF onScreen = sceneRect(piece).intersected(QRectF(0, 0, shell.window()->width(), window));
        if (onScreen.isEmpty())
            continue;
        if (!ShellFixture::isShown(margin)) {
            ++aside;
            continue;
        }
        INFO("contentY " << y);
        CHECK_FALSE(sceneRect(margin).intersects(onScreen));
        ++beside;
    }
    CHECK(beside > 0); // above or below the piece while it came into view
    CHECK(aside > 0);  // and out of the way while it filled the view
}

TEST_CASE("pointing at a live number shows what it is", "[reader][qml]")
{
    ShellFixture shell;
    REQUIRE(open(shell, "ch08"));
    QQuickItem *text = textContaining(shell, QStringLiteral("href=\"value:"));
    REQUIRE(text != nullptr);
    bringIntoView(shell, text);
    const auto point = linkPoint(text, QStringLiteral("value:"));
    REQUIRE(point);
    QTest::mouseMove(shell.window(), text->mapToScene(*point).toPoint());
    const auto openCard = [&]() -> QObject * {
        for (QObject *c : shell.findAll("readerValueCard"))
            if (c->property("visible").toBool())
                return c;
        return nullptr;
    };
    QObject *card = nullptr;
    WAIT_VERIFY((card = openCard()) != nullptr);
    const QString said = card->property("text").toString();
    INFO(said.toStdString());
    CHECK((said.startsWith(QStringLiteral("predicted")) || said.startsWith(QStringLiteral("published"))));

    // Wherever on the number the pointer is, high on its line or low, the
    // card clears the whole line: neither its descenders nor its capitals
    // are covered,
    const qreal pitch = text->property("lineHeight").toReal();
    REQUIRE(pitch > 0);
    const qreal lineTop = std::floor(point->y() / pitch) * pitch;
    const QRectF line = text->mapRectToScene(QRectF(0, lineTop, text->width(), pitch));
    auto *cardFace = card->property("background").value<QQuickItem *>();
    REQUIRE(cardFace != nullptr);
    int pointed = 0;
    for (const qreal y : {lineTop + 0.3 * pitch, lineTop + 0.85 * pitch}) {
        QString link;
        QMetaObject::invokeMethod(text, "linkAt", Q_RETURN_ARG(QString, link), Q_ARG(qreal, point->x()),
                                  Q_ARG(qreal, y));
        if (!link.startsWith(QStringLiteral("value:")))
            continue;
        QTest::mouseMove(shell.window(), text->mapToScene(QPointF(point->x(), y)).toPoint());
        QTest::qWait(250);
        REQUIRE(card->property("visible").toBool());
        const QRectF face = cardFace->mapRectToScene(QRectF(0, 0, cardFace->width(), cardFace->height()));
        INFO("pointer " << y - lineTop << " px into a " << pitch << " px line; card " << face.top() << "-"
                        << face.bottom() << ", line " << line.top() << "-" << line.bottom());
        CHECK_FALSE(face.intersects(line));
        // and stays beside it, not where an earlier position put it.
        CHECK(std::min(std::abs(face.top() - line.bottom()), std::abs(line.top() - face.bottom())) < 16);
        ++pointed;
    }
    CHECK(pointed == 2);
}

TEST_CASE("dragging an input re-fills the numbers of its paragraph; the arrows step it", "[reader][qml]")
{
    ShellFixture shell;
    shell.course().setChip(QStringLiteral("v5e"));
    REQUIRE(open(shell, "ch10#worked-example-4-sliding-across-the-ridge"));
    QQuickItem *text = textContaining(shell, QStringLiteral("href=\"input:m:"));
    REQUIRE(text != nullptr);
    bringIntoView(shell, text);
    CHECK(plainText(text).contains(QStringLiteral("memory-bound"))); // M = 128 on v5e
    const auto point = linkPoint(text, QStringLiteral("input:m:"));
    REQUIRE(point);
    const QPoint start = text->mapToScene(*point).toPoint();
    QObject *card = shell.find("readerValueCard");
    REQUIRE(card != nullptr);
    QTest::mousePress(shell.window(), Qt::LeftButton, Qt::NoModifier, start);
    for (int dx = 10; dx <= 200; dx += 10) {
        QTest::mouseMove(shell.window(), start + QPoint(dx, 0));
        // No card over the paragraph while its figures change under the drag.
        if (dx % 50 == 0) {
            QTest::qWait(200);
            CHECK_FALSE(card->property("shown").toBool());
        }
    }
    QTest::mouseRelease(shell.window(), Qt::LeftButton, Qt::NoModifier, start + QPoint(200, 0));
    // 200 px at 40 px a doubling: 128 -> 4096 rows, past v5e's ridge.
    WAIT_VERIFY(plainText(text).contains(QStringLiteral("compute-bound")));
    CHECK(plainText(text).contains(QStringLiteral("4096")));

    // From the keyboard: focus the paragraph, each Down halves M.
    text->forceActiveFocus();
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(shell.window(), Qt::Key_Down);
    WAIT_VERIFY(plainText(text).contains(QStringLiteral("M = 512")));
    CHECK(plainText(text).contains(QStringLiteral("compute-bound"))); // intensity 455 against v5e's 240

    // The chip in the margin re-fills the same paragraph, its input kept.
    shell.course().setChip(QStringLiteral("v6e"));
    WAIT_VERIFY(plainText(text).contains(QStringLiteral("memory-bound"))); // against v6e's 561
    CHECK(plainText(text).contains(QStringLiteral("M = 512")));

    // Delete puts back the value the text was written with.
    QTest::keyClick(shell.window(), Qt::Key_Delete);
    WAIT_VERIFY(plainText(text).contains(QStringLiteral("M = 128")));
}

TEST_CASE("a code block copies its code exactly as written", "[reader][qml]")
{
    ShellFixture shell;
    REQUIRE(open(shell, "ch08#worked-example-1-stepping-a-tile-through-the-array"));
    // The copy button of the block holding mxu_tile_cycles.
    QQuickItem *copy = nullptr;
    for (QObject *o : shell.findAll("copyCode"))
        for (QQuickItem *up = qobject_cast<QQuickItem *>(o); up && !copy; up = up->parentItem())
            if (up->property("code").toString().startsWith(QStringLiteral("def mxu_tile_cycles")))
                copy = qobject_cast<QQuickItem *>(o);
    REQUIRE(copy != nullptr);
    bringIntoView(shell, copy);
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier, piece_input::at(copy, 0.5));
    const QString copied = QGuiApplication::clipboard()->text();
    CHECK(copied.startsWith(QStringLiteral("def mxu_tile_cycles(m, array=128):\n")));
    CHECK(copied.contains(QStringLiteral("    return cycles, m / cycles")));
    WAIT_COMPARE(copy->property("text").toString(), QStringLiteral("copied"));
}

TEST_CASE("a lab's long command breaks before an option and still runs when copied", "[reader][qml]")
{
    ShellFixture shell;
    shell.window()->resize(1280, 800);
    REQUIRE(open(shell, "L11"));
    const QList<QQuickItem *> commands = shownItems(shell, "shellCommand");
    REQUIRE(commands.size() >= 2);
    int broken = 0;
    for (QQuickItem *command : commands) {
        const QString shown = command->property("text").toString();
        const int columns = command->property("columns").toInt();
        const QStringList lines = shown.split(QLatin1Char('\n'));
        INFO(shown.toStdString());
        for (qsizetype i = 0; i < lines.size(); ++i) {
            CHECK(lines[i].size() <= columns);
            if (i + 1 < lines.size())
                CHECK(lines[i].endsWith(QStringLiteral(" \\")));
            if (i > 0)
                CHECK(lines[i].startsWith(QStringLiteral("    --")));
        }
        broken += lines.size() > 1;
        // A shell reads " \" and a newline as a space: the lines rejoined
        // are the command as the lab gives it.
        QString rejoined = shown;
        rejoined.replace(QStringLiteral(" \\\n    "), QStringLiteral(" "));
        CHECK(rejoined == QStringLiteral("$ ") + command->property("command").toString());
    }
    CHECK(broken >= 1);
}

TEST_CASE("a piece made a little each frame in the text lays its choices out as on its own page", "[reader][qml]")
{
    // EX04 in chapter 4: its program choices in one row, then the button
    // beside them, none on top of another.
    ShellFixture shell;
    REQUIRE(open(shell, "ch04#how-to-look")); // just below the piece
    QList<QQuickItem *> row;
    for (const char *name :
         {"ex04Program_mlp", "ex04Program_softmax", "ex04Program_attention", "ex04Program_layernorm", "ex04Open"}) {
        QQuickItem *item = nullptr;
        WAIT_VERIFY((item = qobject_cast<QQuickItem *>(shell.findShown(name))) != nullptr);
        row << item;
    }
    for (qsizetype i = 1; i < row.size(); ++i) {
        const QRectF before = row[i - 1]->mapRectToScene(QRectF(0, 0, row[i - 1]->width(), row[i - 1]->height()));
        const QRectF here = row[i]->mapRectToScene(QRectF(0, 0, row[i]->width(), row[i]->height()));
        INFO(row[i]->objectName().toStdString());
        CHECK(here.left() >= before.right());
        CHECK(here.center().y() == Approx(before.center().y()).margin(1));
    }
}

TEST_CASE("a piece lives in its chapter's text, keeps its state across a chip change, and opens its page",
          "[reader][qml]")
{
    ShellFixture shell;
    shell.course().setChip(QStringLiteral("v5e"));
    REQUIRE(open(shell, "ch11#worked-example-3-a-schedule-that-is-wrong-but-compiles"));
    // The text sets EX·09 with its race preset: K is parallel.
    QQuickItem *map = nullptr;
    WAIT_VERIFY((map = piece_input::shownItem(shell, "ex09Preset_race")) != nullptr);
    bringIntoView(shell, map);
    QObject *sandbox = shell.find("ex09Model");
    REQUIRE(sandbox != nullptr);
    CHECK(sandbox->property("semantics").toStringList().last() == QStringLiteral("parallel"));

    shell.course().setChip(QStringLiteral("v6e"));
    settle();
    CHECK(shell.findAll("ex09Model") == QList<QObject *>{sandbox}); // the same piece, not a new one
    CHECK(sandbox->property("semantics").toStringList().last() == QStringLiteral("parallel"));

    QQuickItem *open = piece_input::shownItem(shell, "openFullPage");
    REQUIRE(open != nullptr);
    bringIntoView(shell, open);
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier, piece_input::at(open, 0.5));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));
}

TEST_CASE("chapters opened one after another, as fast as a learner clicks, each open whole", "[reader][qml]")
{
    // Every chapter's page replaces the last one's blocks, mastery boxes
    // and rows. Opened one frame after the last (straight from it, or by
    // way of the stack), none of the old ones may be left in the page's
    // layouts: Qt 6.4's layouts rearranged deleted rows and crashed here.
    ShellFixture shell;
    const auto nextFrame = [&shell] {
        QSignalSpy frame(shell.window(), &QQuickWindow::frameSwapped);
        shell.window()->update();
        return frame.wait(5000);
    };
    for (int round = 0; round < 2; ++round) {
        for (int n = 1; n <= 15; ++n) {
            INFO("round " << round << ", chapter " << n);
            if (round == 1) {
                REQUIRE(shell.navigate(QStringLiteral("stack")));
                REQUIRE(nextFrame());
            }
            REQUIRE(shell.navigate(QStringLiteral("ch%1").arg(n, 2, 10, QLatin1Char('0'))));
            REQUIRE(nextFrame());
            shell.waitUntilBuilt();
            QObject *page = shell.find("chapterPage");
            REQUIRE(page != nullptr);
            CHECK(page->property("page").toMap().value(QStringLiteral("number")).toInt() == n);
            CHECK(page->property("readyBlocks").toInt() ==
                  page->property("doc").toMap().value(QStringLiteral("count")).toInt());
        }
    }
}
