#include <catch2/catch.hpp>

#include "course.h"
#include "palette/fuzzymatch.h"
#include "palette/palettemodel.h"

#include <chapters/chaptercatalog.h>
#include <progress/store.h>

#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTemporaryDir>
#include <QTest>
#include <QtQml/qqmlextensionplugin.h>

Q_IMPORT_QML_PLUGIN(TpuCourse_UiPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ShellPlugin)

TEST_CASE("fuzzy scores: order matters, runs and word starts win", "[palette]")
{
    CHECK(fuzzyScore(QStringLiteral("xla"), QStringLiteral("XLA")) > 0);
    CHECK(fuzzyScore(QStringLiteral("alx"), QStringLiteral("XLA")) == -1);
    CHECK(fuzzyScore(QStringLiteral(""), QStringLiteral("anything")) == 0);
    CHECK(fuzzyScore(QStringLiteral("toolong"), QStringLiteral("short")) == -1);
    // A run at word starts beats letters scattered through a longer text.
    CHECK(fuzzyScore(QStringLiteral("ir"), QStringLiteral("the IR x-ray"))
          > fuzzyScore(QStringLiteral("ir"), QStringLiteral("the primitive list")));
    CHECK(fuzzyScore(QStringLiteral("sa"), QStringLiteral("systolic array"))
          > fuzzyScore(QStringLiteral("sa"), QStringLiteral("streaming attention span")) - 40);
    CHECK(fuzzyScore(QStringLiteral("roof"), QStringLiteral("the roofline playground"))
          > fuzzyScore(QStringLiteral("roof"), QStringLiteral("ragged or other formats")));
    // Spaces in the query are ignored.
    CHECK(fuzzyScore(QStringLiteral("ir x"), QStringLiteral("the IR x-ray")) > 0);
}

TEST_CASE("the palette ranks the best match first", "[palette]")
{
    PaletteModel model;
    model.setEntries({
        {QStringLiteral("ch02"), QStringLiteral("chapter"), QStringLiteral("jaxpr"), QStringLiteral("the traced program"), {}},
        {QStringLiteral("EX05"), QStringLiteral("instrument"), QStringLiteral("the IR x-ray"), QStringLiteral("EX·05"), {}},
        {QStringLiteral("ch12"), QStringLiteral("stage"), QStringLiteral("The IR stack"), QStringLiteral("stage 2"), {}},
        {QStringLiteral("bench"), QStringLiteral("page"), QStringLiteral("The bench"), {}, {}},
    });
    CHECK(model.rowCount() == 4);
    model.setQuery(QStringLiteral("ir stack"));
    REQUIRE(model.rowCount() >= 1);
    CHECK(model.placeAt(0) == QStringLiteral("ch12"));
    model.setQuery(QStringLiteral("EX05"));
    CHECK(model.placeAt(0) == QStringLiteral("EX05"));
    model.setQuery(QStringLiteral("bnch"));
    CHECK(model.placeAt(0) == QStringLiteral("bench"));
    model.setQuery(QStringLiteral("zzzz"));
    CHECK(model.rowCount() == 0);
    CHECK(model.placeAt(0).isEmpty());
}

namespace {

QObject *findByName(QQuickWindow *window, const char *name)
{
    return window->findChild<QObject *>(QString::fromLatin1(name));
}

void typeText(QQuickWindow *window, const QString &text)
{
    for (const QChar c : text)
        QTest::keyClick(window, c.toLatin1());
}

} // namespace

TEST_CASE("Ctrl+K, a few letters and Enter open a chapter; Escape returns to the stack", "[palette][qml]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto store = progress::Store::open(dir.filePath(QStringLiteral("p.sqlite")).toStdString());
    course::ChapterCatalog catalog;
    catalog.scan(QStringLiteral(TPU_COURSE_CHAPTER_DIR), 15);
    REQUIRE(catalog.chapters().size() == 15);
    std::vector<progress::ChapterRow> rows;
    for (const auto &c : catalog.chapters())
        rows.push_back({c.number, c.slug.toStdString(), c.title.toStdString()});
    store.syncChapters(rows);

    Course course(catalog, store);
    course.exposeToQml();
    QQmlApplicationEngine engine;
    REQUIRE(loadShell(engine));
    auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
    REQUIRE(window != nullptr);
    window->show();
    REQUIRE(QTest::qWaitForWindowExposed(window));
    CHECK(window->property("page").toString() == QStringLiteral("stack"));

    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    QTest::qWait(50);
    auto *field = findByName(window, "paletteField");
    REQUIRE(field != nullptr);
    QTRY_VERIFY(field->property("activeFocus").toBool());

    typeText(window, QStringLiteral("ir stack"));
    QTRY_COMPARE(course.palette()->query(), QStringLiteral("ir stack"));
    REQUIRE(course.palette()->rowCount() > 0);
    CHECK(course.palette()->placeAt(0) == QStringLiteral("ch12"));

    QTest::keyClick(window, Qt::Key_Return);
    QTRY_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    auto *title = findByName(window, "chapterTitle");
    REQUIRE(title != nullptr);
    CHECK(title->property("text").toString() == QStringLiteral("The IR stack"));
    CHECK(catalog.isLoaded(12));
    CHECK_FALSE(catalog.isLoaded(3)); // only the opened chapter's library is loaded

    // Arrow keys pick another match.
    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    QTest::qWait(50);
    typeText(window, QStringLiteral("bench"));
    QTRY_COMPARE(course.palette()->query(), QStringLiteral("bench"));
    const QString second = course.palette()->placeAt(1);
    QTest::keyClick(window, Qt::Key_Down);
    QTest::keyClick(window, Qt::Key_Escape); // closes the palette, stays on the chapter
    QTRY_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));

    QTest::keyClick(window, Qt::Key_Escape);
    QTRY_COMPARE(window->property("page").toString(), QStringLiteral("stack"));
    (void)second;
}
