// Pages scroll as a reader expects: keys, a steady wheel, a jump to a lab
// that lands on its card, and a tick that leaves the page where it was.
#include "qtwait.h"
#include "shellfixture.h"

#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QQuickItem>
#include <QTest>
#include <QWheelEvent>

namespace {

qreal scrollOf(QObject *page)
{
    return page->property("contentY").toReal();
}

// Longer than the glide of a scroll (Theme.scrollDuration).
void settle()
{
    QTest::qWait(400);
}

// One notch of a mouse wheel (no pixel delta), at the window's centre.
void wheelNotch(QQuickWindow *window, int notches)
{
    const QPointF at(window->width() / 2.0, window->height() / 2.0);
    QWheelEvent event(at, window->mapToGlobal(at.toPoint()), QPoint(), QPoint(0, -120 * notches), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(window, &event);
}

// The stack page with everything on it made: the layers below the first
// screen are made just after the first frame.
QObject *builtStack(ShellFixture &shell)
{
    QObject *stack = shell.find("stackPage");
    REQUIRE(stack != nullptr);
    WAIT_VERIFY(stack->property("restMade").toBool());
    settle();
    return stack;
}

// The chapter's block at the middle of the window: what the reader is
// reading there.
QQuickItem *blockAtMiddle(ShellFixture &shell)
{
    auto *reader = qobject_cast<QQuickItem *>(shell.find("chapterReader"));
    const qreal middle = shell.window()->height() / 2.0;
    for (QQuickItem *block : reader ? reader->childItems() : QList<QQuickItem *>{}) {
        const QRectF box = block->mapRectToScene(QRectF(0, 0, block->width(), block->height()));
        if (box.top() <= middle && box.bottom() > middle)
            return block;
    }
    return nullptr;
}

qreal sceneTop(QQuickItem *item)
{
    return item->mapToScene(QPointF(0, 0)).y();
}

} // namespace

TEST_CASE("the stack scrolls with Home, End, Page Down and Page Up", "[scrolling][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    QObject *stack = builtStack(shell);
    WAIT_VERIFY(stack->property("activeFocus").toBool() || qobject_cast<QQuickItem *>(stack)->hasActiveFocus());
    const qreal maximum = stack->property("maximumY").toReal();
    REQUIRE(maximum > window->height());

    QTest::keyClick(window, Qt::Key_End);
    settle();
    CHECK(scrollOf(stack) == Approx(maximum));
    QTest::keyClick(window, Qt::Key_Home);
    settle();
    CHECK(scrollOf(stack) == Approx(0));
    QTest::keyClick(window, Qt::Key_PageDown);
    settle();
    const qreal page = scrollOf(stack);
    CHECK(page > window->height() * 0.7);
    CHECK(page < window->height());
    QTest::keyClick(window, Qt::Key_Down);
    settle();
    CHECK(scrollOf(stack) > page);
    QTest::keyClick(window, Qt::Key_PageUp);
    settle();
    CHECK(scrollOf(stack) < page);
}

TEST_CASE("a wheel notch moves the stack one steady step, however quick the notches", "[scrolling][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    QObject *stack = builtStack(shell);
    wheelNotch(window, 1);
    settle();
    const qreal one = scrollOf(stack);
    CHECK(one > 40);
    CHECK(one < window->height() / 4.0);
    for (int i = 0; i < 5; ++i)
        wheelNotch(window, 1); // five quick notches, no pause
    settle();
    CHECK(scrollOf(stack) == Approx(6 * one).margin(2));
}

TEST_CASE("a lab from the palette opens its chapter at its card", "[scrolling][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("L07")));
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    auto *card = qobject_cast<QQuickItem *>(shell.findShown("labCard_L07"));
    REQUIRE(card != nullptr);
    QObject *chapter = shell.find("chapterPage");
    shell.waitUntilBuilt(); // the text above the card arrives a batch a frame
    WAIT_VERIFY(scrollOf(chapter) > 0);
    settle();
    const QRectF onScreen = card->mapRectToScene(QRectF(0, 0, card->width(), card->height()));
    INFO("card at y " << onScreen.top() << " in a window " << window->height() << " high");
    CHECK(onScreen.top() >= 0);
    CHECK(onScreen.top() < window->height() / 2.0);
}

TEST_CASE("ticking a mastery box leaves the chapter page where it was", "[scrolling][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    QObject *chapter = shell.find("chapterPage");
    shell.waitUntilBuilt();
    settle();
    auto *box = qobject_cast<QQuickItem *>(shell.findShown("mastery_ch01-flops-by-hand"));
    REQUIRE(box != nullptr);
    // Scroll so the box sits 200 px below the window's top, or as near as the page goes.
    auto *content = chapter->property("contentItem").value<QQuickItem *>();
    chapter->setProperty(
        "contentY", std::min(box->mapToItem(content, QPointF(0, 0)).y() - 200, chapter->property("maximumY").toReal()));
    settle();
    const qreal before = scrollOf(chapter);
    // The heading's figure says what it counts: the mastery work, which
    // reading the text does not move.
    auto *progress = qobject_cast<QQuickItem *>(shell.findShown("chapterProgress"));
    REQUIRE(progress != nullptr);
    const auto said = [progress] {
        for (QQuickItem *child : progress->childItems())
            if (child->inherits("QQuickText"))
                return child->property("text").toString();
        return QString();
    };
    CHECK(said() == QStringLiteral("0% of the mastery work"));
    const QPointF centre = box->mapToScene(QPointF(box->height() / 2, box->height() / 2));
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
    WAIT_VERIFY(box->property("checked").toBool());
    settle();
    CHECK(scrollOf(chapter) == Approx(before));
    CHECK(shell.store().masteryItemsDone(1).size() == 1);
    const auto items = shell.catalog().chapter(1)->mastery.size();
    WAIT_COMPARE(said(), QStringLiteral("%1% of the mastery work").arg(qRound(100.0 / double(items))));
}

TEST_CASE("a chapter leads on to the next and back to the one before", "[scrolling][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("ch11")));
    // The way on is at the page's end, filled a frame after its top.
    shell.waitUntilBuilt();
    auto *next = qobject_cast<QQuickItem *>(shell.findShown("nextChapter"));
    REQUIRE(next != nullptr);
    CHECK(next->property("text").toString().contains(QStringLiteral("ch 12")));
    QMetaObject::invokeMethod(next, "clicked");
    WAIT_COMPARE(shell.findShown("chapterTitle")->property("text").toString(), shell.catalog().chapter(12)->title);
    auto *previous = qobject_cast<QQuickItem *>(shell.findShown("previousChapterShort"));
    REQUIRE(previous != nullptr);
    QMetaObject::invokeMethod(previous, "clicked");
    WAIT_COMPARE(shell.findShown("chapterTitle")->property("text").toString(), shell.catalog().chapter(11)->title);
    // The first chapter has no way back, the last no way on.
    REQUIRE(shell.navigate(QStringLiteral("ch01")));
    WAIT_VERIFY(shell.findShown("previousChapter") == nullptr);
    REQUIRE(shell.navigate(QStringLiteral("ch15")));
    WAIT_VERIFY(shell.findShown("nextChapter") == nullptr);
}

TEST_CASE("--open workshop lands on the workshop, though it is made after the first frame", "[scrolling][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("workshop")));
    shell.waitUntilBuilt();
    settle();
    QObject *stack = shell.find("stackPage");
    // The workshop lies below the header and nine layers: windows down, and
    // the page still goes on below it.
    CHECK(scrollOf(stack) > 2 * shell.window()->height());
    CHECK(scrollOf(stack) < stack->property("maximumY").toReal());
}

TEST_CASE("the stack's scrollbar follows a dragged thumb and pages on a pressed track", "[scrolling][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    QObject *stack = builtStack(shell);
    QQuickItem *bar = nullptr;
    for (auto *item : qobject_cast<QQuickItem *>(stack)->childItems())
        if (item->objectName() == QStringLiteral("pageScrollBar"))
            bar = item;
    REQUIRE(bar != nullptr);
    REQUIRE(bar->isVisible());
    // At the window's right edge, over the page, not in its moving content.
    const QRectF onScreen = bar->mapRectToScene(QRectF(0, 0, bar->width(), bar->height()));
    CHECK(onScreen.right() == Approx(window->width()));
    CHECK(onScreen.height() == Approx(window->height()));
    const qreal maximum = stack->property("maximumY").toReal();
    const int x = int(onScreen.center().x());

    // Pressing the track below the thumb moves about a window's height down.
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, QPoint(x, window->height() - 20));
    settle();
    const qreal paged = scrollOf(stack);
    CHECK(paged > window->height() * 0.7);
    CHECK(paged <= window->height());

    // The thumb, taken and dragged to the track's end, takes the page to its end.
    QTest::keyClick(window, Qt::Key_Home);
    settle();
    const QPoint thumb(x, 8);
    QTest::mousePress(window, Qt::LeftButton, Qt::NoModifier, thumb);
    for (int y = 8; y <= window->height(); y += 60)
        QTest::mouseMove(window, QPoint(x, y));
    QTest::mouseMove(window, QPoint(x, window->height() - 1));
    CHECK(scrollOf(stack) == Approx(maximum).margin(1));
    // Dragged halfway back, the page follows at once: no glide.
    QTest::mouseMove(window, QPoint(x, window->height() / 2));
    const qreal halfway = scrollOf(stack);
    CHECK(halfway > maximum * 0.3);
    CHECK(halfway < maximum * 0.7);
    QTest::mouseRelease(window, Qt::LeftButton, Qt::NoModifier, QPoint(x, window->height() / 2));
    settle();
    CHECK(scrollOf(stack) == Approx(halfway));
}

TEST_CASE("a reader who scrolls away from a revealed lab card is not pulled back to it", "[scrolling][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("L07")));
    QObject *chapter = shell.find("chapterPage");
    // Every block made (the page's height final), pieces maybe still loading.
    WAIT_VERIFY(chapter->property("readyBlocks").toInt() > 0 &&
                chapter->property("readyBlocks") == chapter->property("doc").toMap().value("count"));
    WAIT_VERIFY(scrollOf(chapter) > 0);
    const qreal revealed = scrollOf(chapter);
    for (int i = 0; i < 4; ++i)
        wheelNotch(window, -1); // back up the page, towards the text
    settle();
    const qreal read = scrollOf(chapter);
    REQUIRE(read < revealed - 100);
    QQuickItem *reading = blockAtMiddle(shell);
    REQUIRE(reading);
    const qreal readAt = sceneTop(reading);
    // Longer than the reveal keeps trying while the page builds. Pieces
    // above may be made meanwhile (ahead of the view, or loading still),
    // moving the view by what they grow: the words being read stay put.
    QTest::qWait(2500);
    shell.waitUntilBuilt();
    CHECK(sceneTop(reading) == Approx(readAt).margin(1));
}
