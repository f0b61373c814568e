// The light and the dark theme: Ctrl+Shift+D (or the palette) switches the
// open chapter in place, its text set again in the theme's colours, and the
// choice is kept in the store for the next launch.
#include <catch2/catch.hpp>

#include "qtwait.h"
#include "readertheme.h"
#include "shellfixture.h"

#include <QQuickItem>
#include <QTest>

namespace {

// The open chapter's blocks, in order (ReaderBlock loaders).
QList<QQuickItem *> chapterBlocks(ShellFixture &shell)
{
    auto *reader = qobject_cast<QQuickItem *>(shell.findShown("chapterReader"));
    QList<QQuickItem *> blocks;
    if (!reader)
        return blocks;
    for (QQuickItem *child : reader->childItems())
        if (child->property("block").isValid())
            blocks.append(child);
    return blocks;
}

QString htmlOf(QQuickItem *block)
{
    return block->property("block").toMap().value(QStringLiteral("html")).toStringList().join(QString());
}

// The first paragraph whose text holds `text` (a live number's colour).
QQuickItem *paragraphHolding(const QList<QQuickItem *> &blocks, const QString &text)
{
    for (QQuickItem *b : blocks)
        if (b->property("kind").toString() == QLatin1String("paragraph") && htmlOf(b).contains(text))
            return b;
    return nullptr;
}

// Pixels of the page's ground in the window's middle third.
int groundPixels(ShellFixture &shell, const QColor &ground)
{
    const QImage image = shell.window()->grabWindow();
    return pixelsNear(image, ground, QRect(0, image.height() / 3, image.width(), image.height() / 3));
}

} // namespace

TEST_CASE("the theme switches the open chapter in place and is kept", "[reading][theme][qml]")
{
    ShellFixture shell;
    ReaderTheme *theme = ReaderTheme::instance();
    theme->setDark(false);
    REQUIRE(shell.navigate(QStringLiteral("ch06#worked-example-3-a-tiled-matmul-and-its-vmem-budget")));
    shell.waitUntilBuilt();

    const QList<QQuickItem *> blocks = chapterBlocks(shell);
    REQUIRE(blocks.size() > 20);
    // Light: a predicted number in amber darkened for paper, on paper.
    QQuickItem *paragraph = paragraphHolding(blocks, QStringLiteral("#8a5b00"));
    REQUIRE(paragraph != nullptr);
    CHECK(groundPixels(shell, QColor("#f6f2ea")) > 10000);

    QTest::keyClick(shell.window(), Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
    WAIT_VERIFY(theme->dark());
    CHECK(shell.store().setting("reading.theme") == "dark");
    // The same block, filled again: the predicted amber of the dark cards,
    // and the page's ground dark where paper was.
    WAIT_VERIFY(htmlOf(paragraph).contains(QStringLiteral("#f0b429")));
    CHECK_FALSE(htmlOf(paragraph).contains(QStringLiteral("#8a5b00")));
    CHECK(chapterBlocks(shell) == blocks);
    WAIT_VERIFY(groundPixels(shell, QColor("#262a32")) > 10000);
    CHECK(groundPixels(shell, QColor("#f6f2ea")) == 0);
    shell.shot("theme-dark-ch06");

    // A relaunch reads it; anything but "dark" kept there reads as light.
    theme->reload();
    CHECK(theme->dark());
    shell.store().setSetting("reading.theme", "sepia");
    theme->reload();
    CHECK_FALSE(theme->dark());
    WAIT_VERIFY(htmlOf(paragraph).contains(QStringLiteral("#8a5b00")));

    // The palette's entry switches it too, the page staying where it is.
    REQUIRE(shell.navigate(QStringLiteral("theme")));
    WAIT_VERIFY(theme->dark());
    CHECK(shell.findShown("chapterReader") != nullptr);
    theme->setDark(false);
}

TEST_CASE("a theme shown for one run leaves the kept one alone", "[reading][theme]")
{
    ShellFixture shell;
    ReaderTheme *theme = ReaderTheme::instance();
    theme->setDark(true);
    theme->setDark(false);
    REQUIRE(shell.store().setting("reading.theme") == "light");
    theme->showForThisRun(true);
    CHECK(theme->dark());
    CHECK(shell.store().setting("reading.theme") == "light");
    theme->reload();
    CHECK_FALSE(theme->dark());
}
