// Pages the palette and the keys reach that are not the course's own
// places: the list of keys (F1), the About page, the Labs page.
#include <catch2/catch.hpp>

#include "drawingchoice.h"
#include "palettesteps.h"
#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/published.h>

#include <QClipboard>
#include <QFont>
#include <QGuiApplication>
#include <QQuickItem>
#include <QTest>

TEST_CASE("F1 or ? lists the keys; ? typed into a field stays text; Escape closes the list", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    QTest::keyClick(window, Qt::Key_F1);
    WAIT_VERIFY(shell.findShown("shortcutsTitle") != nullptr);
    const QList<QObject *> keys = shell.findAll("shortcutKey");
    QStringList named;
    for (QObject *k : keys)
        named << k->property("text").toString();
    CHECK(named.contains(QStringLiteral("Ctrl+K")));
    CHECK(named.contains(QStringLiteral("Ctrl+Q")));
    shell.shot("shortcuts-card");
    QTest::keyClick(window, Qt::Key_Escape);
    WAIT_VERIFY(shell.findShown("shortcutsTitle") == nullptr);
    CHECK(window->property("page").toString() == QStringLiteral("stack"));

    QTest::keyClick(window, Qt::Key_Question, Qt::ShiftModifier, '?');
    WAIT_VERIFY(shell.findShown("shortcutsTitle") != nullptr);
    QTest::keyClick(window, Qt::Key_Escape);
    WAIT_VERIFY(shell.findShown("shortcutsTitle") == nullptr);

    // In the palette's field, ? is a character of the query.
    searchFor(shell, QStringLiteral("why?"));
    WAIT_COMPARE(shell.find("paletteField")->property("text").toString(), QStringLiteral("why?"));
    CHECK(shell.findShown("shortcutsTitle") == nullptr);
}

TEST_CASE("the About page gives the version, the validation table and the licences", "[palette][qml]")
{
    // As the app does before its window: the page says how it is drawn.
    const drawing::Choice drawn = drawing::applyForThisDisplay();
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("about")));
    WAIT_VERIFY(shell.findShown("aboutTitle") != nullptr);
    QObject *version = shell.findShown("aboutVersion");
    REQUIRE(version != nullptr);
    CHECK(version->property("value").toString() == QStringLiteral(TPU_COURSE_VERSION));
    QObject *drawing = shell.findShown("aboutDrawing");
    REQUIRE(drawing != nullptr);
    CHECK(drawing->property("value").toString() == drawn.why);
    CHECK(drawn.why.contains(QStringLiteral("QT_QUICK_BACKEND"))); // the tests name the software renderer
    QObject *table = shell.findShown("aboutTable");
    REQUIRE(table != nullptr);
    CHECK(table->property("value").toString().startsWith(
        QStringLiteral("%1 rows: matmul ").arg(tpusim::published_rows().size())));
    QStringList licences;
    for (QObject *l : shell.findAll("aboutLicence"))
        licences << l->property("text").toString();
    CHECK(licences.size() >= 10);
    CHECK(licences.front().startsWith(QStringLiteral("tpu-course")));
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("stack"));
}

TEST_CASE("the Labs page walks a run end to end and holds every lab's card", "[palette][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("labs")));
    WAIT_VERIFY(shell.findShown("labsTitle") != nullptr);
    CHECK(shell.findAll("labsStep").size() == 6);
    int cards = 0;
    for (int lab = 1; lab <= 16; ++lab)
        cards +=
            shell.find(QStringLiteral("labCard_L%1").arg(lab, 2, 10, QLatin1Char('0')).toUtf8().constData()) ? 1 : 0;
    CHECK(cards == 16);
    // Commands are drawn as typed: ">=" stays two characters.
    bool pinned = false;
    for (QObject *c : shell.findAll("shellCommand"))
        pinned = pinned || c->property("command").toString().contains(QStringLiteral("'jax[tpu]>=0.7,<0.12'"));
    CHECK(pinned);
    CHECK_FALSE(shell.find("shellCommand")->property("font").value<QFont>().styleStrategy() == QFont::PreferDefault);
    // Each command's copy button copies it on one line, as given, without the prompt.
    QQuickItem *copy = nullptr;
    for (QObject *c : shell.findAll("shellCommand"))
        if (c->property("command").toString().startsWith(QStringLiteral("pip install")))
            copy = c->findChild<QQuickItem *>(QStringLiteral("copyCommand"));
    REQUIRE(copy != nullptr);
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier, piece_input::at(copy, 0.5));
    CHECK(QGuiApplication::clipboard()->text() == QStringLiteral("pip install -U 'jax[tpu]>=0.7,<0.12'"));
    WAIT_COMPARE(copy->property("text").toString(), QStringLiteral("copied"));
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("stack"));

    // From the keyboard alone: Tab to a copy button; Ctrl+K and Escape still
    // reach the window, as they do from any other button.
    REQUIRE(shell.navigate(QStringLiteral("labs")));
    WAIT_VERIFY(shell.findShown("labsTitle") != nullptr);
    const auto copyFocused = [&shell] {
        QQuickItem *focused = shell.window()->activeFocusItem();
        return focused && focused->objectName() == QStringLiteral("copyCommand");
    };
    for (int tab = 0; tab < 8 && !copyFocused(); ++tab)
        QTest::keyClick(shell.window(), Qt::Key_Tab);
    REQUIRE(copyFocused());
    QTest::keyClick(shell.window(), Qt::Key_K, Qt::ControlModifier);
    WAIT_VERIFY(shell.findShown("paletteField") != nullptr);
    QTest::keyClick(shell.window(), Qt::Key_Escape); // closes the palette
    WAIT_VERIFY(shell.findShown("paletteField") == nullptr);
    for (int tab = 0; tab < 8 && !copyFocused(); ++tab)
        QTest::keyClick(shell.window(), Qt::Key_Tab);
    REQUIRE(copyFocused());
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("stack"));

    // And with a command's text clicked into, to select some of it.
    REQUIRE(shell.navigate(QStringLiteral("labs")));
    WAIT_VERIFY(shell.findShown("labsTitle") != nullptr);
    auto *command = qobject_cast<QQuickItem *>(shell.findShown("shellCommand"));
    REQUIRE(command != nullptr);
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier, piece_input::at(command, 0.2, 0.5));
    QTest::keyClick(shell.window(), Qt::Key_K, Qt::ControlModifier);
    WAIT_VERIFY(shell.findShown("paletteField") != nullptr);
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_VERIFY(shell.findShown("paletteField") == nullptr);
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier, piece_input::at(command, 0.2, 0.5));
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("stack"));
}
