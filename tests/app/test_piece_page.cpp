// A piece's page is kept while it is among the last few opened, so a
// learner who leaves it and comes back finds it as it was; an older one is
// let go, so a long session does not keep every page it ever opened.
#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"

#include <chapters/chapterinfo.h>

#include <QCoreApplication>
#include <QJSValue>
#include <QPointer>
#include <QQuickItem>
#include <functional>

namespace {

// The page object the piece page holds for `id`; null when it holds none.
QObject *keptPage(ShellFixture &shell, const char *id)
{
    QObject *piecePage = shell.find("piecePage");
    if (!piecePage)
        return nullptr;
    const QJSValue pages = piecePage->property("pages").value<QJSValue>();
    return pages.property(QString::fromLatin1(id)).toQObject();
}

void letDeletionsRun()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
}

} // namespace

TEST_CASE("the last four pieces opened keep their pages, an older one is let go", "[pieces][qml]")
{
    ShellFixture shell;
    for (const char *id : {"EX01", "EX02", "EX03", "EX07"})
        REQUIRE(shell.navigate(QString::fromLatin1(id)));
    QPointer<QObject> first = keptPage(shell, "EX01");
    REQUIRE(first);

    // Back to the first: the same page, now the one opened last.
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    REQUIRE(shell.navigate(QStringLiteral("EX01")));
    CHECK(keptPage(shell, "EX01") == first.data());

    // A fifth piece lets go of the one opened longest ago (EX02), not EX01.
    QPointer<QObject> second = keptPage(shell, "EX02");
    REQUIRE(second);
    REQUIRE(shell.navigate(QStringLiteral("EX12")));
    letDeletionsRun();
    CHECK(second.isNull());
    CHECK(keptPage(shell, "EX02") == nullptr);
    CHECK(keptPage(shell, "EX01") == first.data());

    // Opened again, it is made afresh and shown.
    REQUIRE(shell.navigate(QStringLiteral("EX02")));
    QObject *again = keptPage(shell, "EX02");
    REQUIRE(again != nullptr);
    CHECK(ShellFixture::isShown(again));
    CHECK_FALSE(ShellFixture::isShown(first.data()));
}

TEST_CASE("a piece looked up by id carries its catalog entry, and an unknown id gives nothing", "[pieces]")
{
    ShellFixture shell;
    const QVariantList all = shell.course().pieces();
    REQUIRE(all.size() > 30);
    for (const QVariant &v : all) {
        const QVariantMap entry = v.toMap();
        const QVariantMap one = shell.course().piece(entry.value(QStringLiteral("id")).toString());
        INFO(entry.value(QStringLiteral("id")).toString().toStdString());
        CHECK_FALSE(one.contains(QStringLiteral("progress")));
        for (auto it = one.cbegin(); it != one.cend(); ++it)
            CHECK(entry.value(it.key()) == it.value());
        CHECK(one.size() == entry.size() - 1);
    }
    CHECK(shell.course().piece(QStringLiteral("EX12")).value(QStringLiteral("kind")).toString() ==
          QStringLiteral("instrument"));
    CHECK(shell.course().piece(QStringLiteral("EX99")).isEmpty());
    CHECK(shell.course().piece(QString()).isEmpty());
}

TEST_CASE("a piece page offers one chip choice: the page's or the piece's own", "[pieces][qml]")
{
    ShellFixture shell;
    // The buttons that choose a chip, wherever they are: each names one.
    const auto chipButtons = [&shell] {
        int n = 0;
        std::function<void(QQuickItem *)> walk = [&](QQuickItem *item) {
            if (!ShellFixture::isShown(item))
                return;
            if (item->property("text").toString() == QStringLiteral("v5p") &&
                item->metaObject()->indexOfSignal("clicked()") >= 0)
                ++n;
            for (QQuickItem *child : item->childItems())
                walk(child);
        };
        walk(shell.window()->contentItem());
        return n;
    };
    for (const course::ChapterInfo &c : shell.catalog().chapters())
        for (const auto &piece : c.pieces) {
            if (!piece.hasPage || piece.kind == QLatin1String("lab"))
                continue;
            INFO(piece.id.toStdString());
            REQUIRE(shell.navigate(piece.id));
            shell.waitUntilBuilt();
            CHECK(chipButtons() <= 1);
        }
}
