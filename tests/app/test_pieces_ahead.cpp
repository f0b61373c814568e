// While the reader rests on a chapter's text, its pieces are made ahead of
// the view, nearest first; a view that keeps moving makes none ahead, so a
// scroll never shares its frames with them.
#include "qtwait.h"
#include "shellfixture.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QQuickItem>
#include <QTest>

namespace {

// The block of the piece `id` in the open chapter's text.
QQuickItem *pieceBlock(ShellFixture &shell, const QString &id)
{
    auto *reader = qobject_cast<QQuickItem *>(shell.find("chapterReader"));
    if (!reader)
        return nullptr;
    for (QQuickItem *child : reader->childItems())
        if (child->property("kind").toString() == QLatin1String("piece") &&
            child->property("block").toMap().value(QStringLiteral("pieceId")).toString() == id)
            return child;
    return nullptr;
}

bool made(QQuickItem *block)
{
    auto *piece = block ? block->property("item").value<QQuickItem *>() : nullptr;
    return piece && piece->property("made").toBool();
}

} // namespace

TEST_CASE("a chapter makes its far pieces while the reader rests, and none while the view moves", "[reader][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("ch11")));
    shell.waitUntilBuilt();
    QQuickItem *far = pieceBlock(shell, QStringLiteral("EX09"));
    REQUIRE(far);
    auto *page = shell.find("chapterPage");
    REQUIRE(page);
    // Well below the first screen: not made for the view.
    REQUIRE(far->y() > 3 * shell.window()->height());
    CHECK_FALSE(made(far));

    // A view that moves every tenth of a second, for a second and a half:
    // nothing is made ahead.
    QElapsedTimer moving;
    moving.start();
    for (int step = 1; moving.elapsed() < 1500; ++step) {
        page->setProperty("contentY", 2.0 * (step % 2));
        QTest::qWait(100);
    }
    CHECK_FALSE(made(far));

    // At rest, it is made, and the view stays where the reader left it.
    const double top = page->property("contentY").toDouble();
    WAIT_VERIFY(made(far));
    CHECK(page->property("contentY").toDouble() == top);
    CHECK(far->property("item").value<QQuickItem *>()->property("built").toBool());
}
