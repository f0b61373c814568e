// A chapter draws its text near the view only (NearView): far blocks are
// hidden with their places kept, shown as the view nears them, never when
// they hold anything to Tab to, and all drawn for a layout report.
#include "layout/layoutreport.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <catch2/catch.hpp>

#include <QQuickItem>
#include <QTest>

namespace {

struct Block
{
    QQuickItem *loader;
    QQuickItem *item; // what the block drew; null until made
};

// The chapter's blocks, in order down the text.
QList<Block> blocksOf(ShellFixture &shell)
{
    QList<Block> out;
    auto *reader = qobject_cast<QQuickItem *>(shell.find("chapterReader"));
    if (!reader)
        return out;
    for (QQuickItem *child : reader->childItems())
        if (child->property("far").isValid())
            out << Block{child, child->property("item").value<QQuickItem *>()};
    return out;
}

qreal viewTopInReader(ShellFixture &shell)
{
    auto *page = qobject_cast<QQuickItem *>(shell.find("chapterPage"));
    auto *reader = qobject_cast<QQuickItem *>(shell.find("chapterReader"));
    auto *content = page->property("contentItem").value<QQuickItem *>();
    return page->property("contentY").toReal() - reader->mapToItem(content, QPointF(0, 0)).y();
}

} // namespace

TEST_CASE("a chapter draws its text near the view, keeps every place, and is read whole for a layout report",
          "[reader][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("ch11")));
    shell.waitUntilBuilt();
    QTest::qWait(200);
    const qreal viewHeight = shell.window()->height();

    QList<Block> blocks = blocksOf(shell);
    REQUIRE(blocks.size() > 40);
    // From the top: what is within a screen of the view is drawn, the rest
    // of the plain text (nothing in it to Tab to) is not, its height kept.
    qreal top = viewTopInReader(shell);
    int hidden = 0;
    for (const Block &b : blocks) {
        REQUIRE(b.item != nullptr);
        const bool nearView =
            b.loader->y() <= top + 2 * viewHeight && b.loader->y() + b.loader->height() >= top - viewHeight;
        const bool focusable = b.loader->property("focusable").toBool();
        INFO("block at y " << b.loader->y());
        CHECK(b.loader->height() > 0);
        if (nearView || focusable)
            CHECK(b.item->isVisible());
        else if (b.loader->y() > top + 3 * viewHeight)
            CHECK_FALSE(b.item->isVisible());
        hidden += !b.item->isVisible();
    }
    CHECK(hidden > blocks.size() / 2);

    // Every heading of the chapter is read by a layout report, the far
    // ones too, and the page is drawn near its view again after it.
    QStringList headings;
    int farHeadings = 0;
    for (const Block &b : blocks)
        if (b.loader->property("kind").toString() == QLatin1String("heading")) {
            headings << b.loader->property("block").toMap().value(QStringLiteral("title")).toString();
            farHeadings += !b.item->isVisible();
        }
    CHECK(farHeadings > 0);
    QStringList read;
    for (const LayoutItem &i : collectLayout(shell.window()))
        read << i.text;
    for (const QString &heading : headings) {
        INFO(heading.toStdString());
        CHECK(read.contains(heading));
    }
    int hiddenAfter = 0;
    for (const Block &b : blocks)
        hiddenAfter += !b.item->isVisible();
    CHECK(hiddenAfter == hidden);

    // With assistive technology attached, every block is drawn, for it to
    // read; and near the view only once it has gone.
    shell.window()->setProperty("assistiveTechnology", true);
    for (const Block &b : blocks)
        CHECK(b.item->isVisible());
    shell.window()->setProperty("assistiveTechnology", false);
    int hiddenAgain = 0;
    for (const Block &b : blocks)
        hiddenAgain += !b.item->isVisible();
    CHECK(hiddenAgain == hidden);

    // Scrolled to the end, the last blocks are drawn and the first hidden.
    auto *page = shell.find("chapterPage");
    page->setProperty("contentY", page->property("maximumY"));
    QTest::qWait(100);
    top = viewTopInReader(shell);
    for (const Block &b : blocks) {
        INFO("block at y " << b.loader->y() << " with the view at " << top);
        if (b.loader->y() + b.loader->height() >= top && b.loader->y() <= top + viewHeight)
            CHECK(b.item->isVisible());
    }
    const Block &first = blocks.constFirst();
    CHECK((first.item->isVisible() == first.loader->property("focusable").toBool()));
}

// Below its first screen a chapter's blocks are made a slice at a time,
// with the event loop free between (a table or a long list is tens of
// milliseconds to make); on the way to a heading further down they are
// made at once, since the reader waits for the jump and not for a scroll.
TEST_CASE("a chapter's later blocks are made in slices, at once on the way to a heading", "[reader][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("ch09")));
    QObject *page = shell.find("chapterPage");
    REQUIRE(page);
    const int eager = page->property("eagerBlocks").toInt();
    CHECK(page->property("blocksInSlices").toBool());
    shell.waitUntilBuilt();
    QList<Block> blocks = blocksOf(shell);
    REQUIRE(blocks.size() > eager + 20);
    for (int i = 0; i < blocks.size(); ++i) {
        INFO("block " << i);
        CHECK(blocks[i].loader->property("asynchronous").toBool() == (i >= eager));
        CHECK(blocks[i].item != nullptr); // every one made in the end
    }

    REQUIRE(shell.navigate(QStringLiteral("stack")));
    REQUIRE(shell.navigate(QStringLiteral("ch09#sources")));
    CHECK_FALSE(page->property("blocksInSlices").toBool());
    WAIT_VERIFY(page->property("shownBlocks").toInt() > eager);
    for (const Block &b : blocksOf(shell))
        CHECK_FALSE(b.loader->property("asynchronous").toBool());
    shell.waitUntilBuilt();
    // Once there, what is made later is made in slices again.
    WAIT_VERIFY(page->property("blocksInSlices").toBool());
}
