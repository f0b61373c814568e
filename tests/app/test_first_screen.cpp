// The stack's first screen and what it is set with. Start-up readies the
// font engines of the first screen while the shell's QML is read
// (warmFonts): the list must be the one the screen's texts use, or each
// missing font is matched again as its first text is made, and each extra
// one is time spent for nothing. Also: the live card holds its height, the
// key at the page's foot matches the honesty card, and the chips page sets
// its source tags whole.
#include "qtwait.h"
#include "shellfixture.h"
#include "shellload.h"

#include <catch2/catch.hpp>

#include <QQuickItem>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

// What makes a font engine of its own: the family, size, weight, slant and
// style strategy (letter spacing is applied after, to the same engine).
QString engineKey(const QFont &font)
{
    return QStringLiteral("%1 %2px w%3%4 s%5")
        .arg(font.family())
        .arg(font.pixelSize())
        .arg(font.weight())
        .arg(font.italic() ? QStringLiteral(" italic") : QString())
        .arg(int(font.styleStrategy()), 0, 16);
}

void collectShownTexts(QQuickItem *item, const QRectF &screen, QSet<QString> &keys)
{
    if (!item->isVisible() || item->opacity() <= 0)
        return;
    if (item->inherits("QQuickText")) {
        const QRectF area = item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
        if (area.intersects(screen) && !item->property("text").toString().isEmpty())
            keys.insert(engineKey(item->property("font").value<QFont>()));
    }
    for (QQuickItem *child : item->childItems())
        collectShownTexts(child, screen, keys);
}

} // namespace

TEST_CASE("start-up readies exactly the fonts of the stack's first screen", "[startup][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(window->size() == QSize(1440, 900));
    // At the course's own size, and at the size it opens at on a 1280x800 screen.
    for (const QSize size : {QSize(1440, 900), openingWindowSize(QSize(1280, 800))}) {
        window->resize(size);
        WAIT_COMPARE(window->contentItem()->size(), QSizeF(size));
        QTest::qWait(50); // the type follows the scale an event later (Theme.typeZoom)
        QSet<QString> shown;
        collectShownTexts(window->contentItem(), QRectF(QPointF(0, 0), window->size()), shown);
        REQUIRE(shown.size() > 3);
        QSet<QString> readied;
        for (const QFont &font : firstScreenFonts(size))
            readied.insert(engineKey(font));

        INFO("at " << size.width() << "x" << size.height());
        INFO("shown: " << QStringList(shown.values()).join(QStringLiteral(", ")).toStdString());
        INFO("readied: " << QStringList(readied.values()).join(QStringLiteral(", ")).toStdString());
        CHECK(shown - readied == QSet<QString>());
        CHECK(readied - shown == QSet<QString>());
    }
}

TEST_CASE("the window opens at the course's size, or smaller where the screen is", "[startup]")
{
    CHECK(openingWindowSize(QSize(1920, 1052)) == QSize(1440, 900));
    CHECK(openingWindowSize(QSize(2560, 1440)) == QSize(1440, 900));
    // A 1440x900 screen with a 32 px panel: room is left for the frame.
    CHECK(openingWindowSize(QSize(1440, 868)) == QSize(1368, 825));
    CHECK(openingWindowSize(QSize(1280, 800)) == QSize(1216, 760));
    // Never below the window's minimum.
    CHECK(openingWindowSize(QSize(800, 600)) == QSize(1024, 640));
}

// The window's content item takes its size only when the window system
// first resizes it; a page filling it would make its first screen at width
// 0 (every wrapping text broken at each word) and lay all of it out again a
// moment later. The stack takes the window's own width and height instead.
TEST_CASE("the stack's first screen is made at the window's width, once", "[startup][qml]")
{
    ShellFixture shell({}, false);
    QQuickWindow *window = shell.window();
    auto *stack = qobject_cast<QQuickItem *>(shell.find("stackPage"));
    REQUIRE(stack != nullptr);
    CHECK(stack->width() == window->width());
    CHECK(stack->height() == window->height());
    // Nothing below the window's bottom is made for the first frame: at
    // this size the header fills it, and the first layer waits.
    CHECK(shell.find("layer_1") == nullptr);
    // The header's introduction, laid out at that width: four lines, not a word a line.
    auto *intro = qobject_cast<QQuickItem *>(shell.find("stackIntro"));
    REQUIRE(intro != nullptr);
    CHECK(intro->property("lineCount").toInt() == 4);

    int resized = 0;
    QObject::connect(stack, &QQuickItem::widthChanged, stack, [&resized] { ++resized; });
    shell.show();
    CHECK(resized == 0);
}

// A place opened before the window system has sized the window (--open with
// --screenshot or --layout-report) is made in a content item of the
// window's size, not of 0 x 0: Qt 6.4's layouts did not all lay out again
// once it grew, and EX-08's badges stood over the figures they mark.
TEST_CASE("a place opened before the window is shown is laid out as it would be after", "[startup][qml]")
{
    ShellFixture shell({}, false);
    CHECK(shell.window()->contentItem()->size() == QSizeF(shell.window()->size()));
    REQUIRE(shell.navigate(QStringLiteral("EX08")));
    shell.show();
    shell.waitUntilBuilt();
    QTest::qWait(200);
    auto *value = qobject_cast<QQuickItem *>(shell.findShown("ex08Time"));
    REQUIRE(value != nullptr);
    REQUIRE(value->property("text").toString().endsWith(QStringLiteral("s"))); // a time, not the placeholder
    const QList<QQuickItem *> row = value->parentItem()->childItems();
    const auto at = row.indexOf(value);
    REQUIRE(at + 1 < row.size());
    QQuickItem *badge = row.at(at + 1); // the figure's provenance
    INFO("value " << value->x() << " + " << value->width() << ", badge at " << badge->x());
    CHECK(badge->x() >= value->x() + value->implicitWidth());
}

TEST_CASE("the live card in the stack's header keeps its height as it loops", "[startup][qml]")
{
    // Its loop changes the words under the blocks every 1.8 s; a card that
    // grew and shrank with them would move the honesty card under it.
    for (const QSize size : {QSize(1280, 800), QSize(1440, 900), QSize(1920, 1080)}) {
        ShellFixture shell;
        shell.window()->resize(size);
        auto *area = qobject_cast<QQuickItem *>(shell.find("liveAttentionCard"));
        REQUIRE(area != nullptr);
        QQuickItem *card = area->parentItem();
        REQUIRE(card != nullptr);
        const int blocks = card->property("blocks").toInt();
        REQUIRE(blocks > 1);
        QTest::qWait(50);
        QSet<qreal> heights;
        QSet<int> lineCounts;
        for (int step = 0; step <= blocks; ++step) {
            card->setProperty("step", step);
            QTest::qWait(20);
            heights.insert(card->height());
            lineCounts.insert(shell.find("liveStepText")->property("lineCount").toInt());
        }
        INFO(size.width() << "x" << size.height());
        CHECK(lineCounts.size() > 1); // the steps' words do wrap differently
        CHECK(heights.size() == 1);
    }
}

namespace {

// The kinds of the provenance badges under `item` (a badge alone has both
// a kind and a figurePointed).
QSet<QString> badgeKinds(QQuickItem *item)
{
    QSet<QString> kinds;
    if (item->property("figurePointed").isValid() && item->property("kind").isValid())
        kinds.insert(item->property("kind").toString());
    for (QQuickItem *child : item->childItems()) {
        kinds.unite(badgeKinds(child));
    }
    return kinds;
}

} // namespace

TEST_CASE("the key at the stack's foot names every kind the honesty card names", "[layout][qml]")
{
    ShellFixture shell;
    auto *card = qobject_cast<QQuickItem *>(shell.find("honestyRule"));
    REQUIRE(card != nullptr);
    const QSet<QString> named = badgeKinds(card);
    CHECK(named.size() == 5);
    // The foot is made after the first screen, a few items at a time.
    const auto keyed = [&shell] {
        auto *key = qobject_cast<QQuickItem *>(shell.find("provenanceKey"));
        return key ? badgeKinds(key) : QSet<QString>();
    };
    const auto listed = [](const QSet<QString> &kinds) {
        QStringList sorted = kinds.values();
        sorted.sort();
        return sorted.join(QLatin1Char(' ')).toStdString();
    };
    WAIT_VERIFY(keyed().contains(named));
    INFO("card: " << listed(named) << "; key: " << listed(keyed()));
    CHECK(keyed().contains(named));
    // And a failed gate attempt, which the card's rule speaks of.
    CHECK(keyed().contains(QStringLiteral("failed")));
}

TEST_CASE("the chips page breaks its source tags between tags, never inside one", "[layout][qml]")
{
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        INFO(size.width() << "x" << size.height());
        ShellFixture shell;
        shell.window()->resize(size);
        REQUIRE(shell.navigate(QStringLiteral("chips")));
        QList<QObject *> tags;
        WAIT_VERIFY((tags = shell.findAll("chipFactTag")).size() > 100);
        // Each tag is set whole on one line, however narrow its cell.
        const QRegularExpression oneTag(QStringLiteral("^\\[[^\\]\\s]+\\]$"));
        for (QObject *tag : tags) {
            const QString text = tag->property("text").toString();
            INFO(text.toStdString());
            CHECK(oneTag.match(text).hasMatch());
            CHECK(tag->property("lineCount").toInt() == 1);
        }
    }
}
