// The command palette (Ctrl+K): its fuzzy match over places, its keys, and
// the text search as a learner types it: phrases, marks, words put right.
#include <catch2/catch.hpp>

#include "palette/fuzzymatch.h"
#include "palette/palettemodel.h"
#include "palettesteps.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <QQuickItem>
#include <QTest>

#include <algorithm>

TEST_CASE("fuzzy scores: order matters, runs and word starts win", "[palette]")
{
    CHECK(fuzzyScore(QStringLiteral("xla"), QStringLiteral("XLA")) > 0);
    CHECK(fuzzyScore(QStringLiteral("alx"), QStringLiteral("XLA")) == -1);
    CHECK(fuzzyScore(QStringLiteral(""), QStringLiteral("anything")) == 0);
    CHECK(fuzzyScore(QStringLiteral("toolong"), QStringLiteral("short")) == -1);
    // A run at word starts beats letters scattered through a longer text.
    CHECK(fuzzyScore(QStringLiteral("ir"), QStringLiteral("the IR x-ray")) >
          fuzzyScore(QStringLiteral("ir"), QStringLiteral("the primitive list")));
    CHECK(fuzzyScore(QStringLiteral("sa"), QStringLiteral("systolic array")) >
          fuzzyScore(QStringLiteral("sa"), QStringLiteral("streaming attention span")) - 40);
    CHECK(fuzzyScore(QStringLiteral("roof"), QStringLiteral("the roofline playground")) >
          fuzzyScore(QStringLiteral("roof"), QStringLiteral("ragged or other formats")));
    // Spaces in the query are ignored.
    CHECK(fuzzyScore(QStringLiteral("ir x"), QStringLiteral("the IR x-ray")) > 0);
}

TEST_CASE("the palette ranks the best match first", "[palette]")
{
    PaletteModel model;
    model.setEntries({
        {QStringLiteral("ch02"),
         QStringLiteral("chapter"),
         QStringLiteral("jaxpr"),
         QStringLiteral("the traced program"),
         {}},
        {QStringLiteral("EX05"),
         QStringLiteral("instrument"),
         QStringLiteral("the IR x-ray"),
         QStringLiteral("EX·05"),
         {}},
        {QStringLiteral("ch12"),
         QStringLiteral("stage"),
         QStringLiteral("The IR stack"),
         QStringLiteral("stage 2"),
         {}},
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

TEST_CASE("Ctrl+K, a few letters and Enter open a chapter; Escape returns to the stack", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    Course &course = shell.course();
    CHECK(window->property("page").toString() == QStringLiteral("stack"));

    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    auto *field = shell.find("paletteField");
    REQUIRE(field != nullptr);
    WAIT_VERIFY(field->property("activeFocus").toBool());

    shell.typeText(QStringLiteral("ir stack"));
    WAIT_COMPARE(course.palette()->query(), QStringLiteral("ir stack"));
    REQUIRE(course.palette()->rowCount() > 0);
    CHECK(course.palette()->placeAt(0) == QStringLiteral("ch12"));

    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    auto *title = shell.find("chapterTitle");
    REQUIRE(title != nullptr);
    CHECK(title->property("text").toString() == QStringLiteral("The IR stack"));
    CHECK(shell.catalog().isLoaded(12));

    // The arrow keys pick the second match; Enter goes there.
    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    WAIT_VERIFY(field->property("activeFocus").toBool());
    shell.typeText(QStringLiteral("chips"));
    WAIT_COMPARE(course.palette()->query(), QStringLiteral("chips"));
    REQUIRE(course.palette()->rowCount() >= 2);
    const QString second = course.palette()->placeAt(1);
    QTest::keyClick(window, Qt::Key_Down);
    QTest::keyClick(window, Qt::Key_Return);
    if (second.startsWith(QLatin1String("ch")))
        WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    else
        WAIT_VERIFY(window->property("page").toString() != QStringLiteral("stack"));

    // Escape closes an open palette first, then returns to the stack.
    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    WAIT_VERIFY(field->property("activeFocus").toBool());
    QTest::keyClick(window, Qt::Key_Escape);
    WAIT_VERIFY(!field->property("visible").toBool() || !field->property("activeFocus").toBool());
    CHECK(window->property("page").toString() != QStringLiteral("stack"));
    QTest::keyClick(window, Qt::Key_Escape);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("stack"));
}

TEST_CASE("the palette puts built pieces first and drops weak matches", "[palette]")
{
    PaletteModel model;
    model.setEntries({
        {QStringLiteral("EX04"), QStringLiteral("instrument"), QStringLiteral("the fusion map"), {}, {}, false},
        {QStringLiteral("EX01"), QStringLiteral("instrument"), QStringLiteral("the roofline playground"), {}, {}, true},
        {QStringLiteral("ch09"), QStringLiteral("chapter"), QStringLiteral("The mesh and its links"), {}, {}, true},
        {QStringLiteral("ch05"),
         QStringLiteral("chapter"),
         QStringLiteral("The gap"),
         QStringLiteral("merge semantics, hints"),
         {},
         true},
    });
    model.setQuery(QStringLiteral("the"));
    REQUIRE(model.rowCount() == 4);
    CHECK(model.placeAt(0) == QStringLiteral("EX01")); // built, though listed after EX04
    CHECK(model.placeAt(3) == QStringLiteral("EX04"));
    model.setQuery(QStringLiteral("mesh"));
    REQUIRE(model.rowCount() >= 1);
    CHECK(model.placeAt(0) == QStringLiteral("ch09"));
    model.setQuery(QStringLiteral("fusion"));
    CHECK(model.rowCount() == 1); // only the map: "roofline playground" is too weak
}

TEST_CASE("a few letters give a short list on the real course", "[palette][qml]")
{
    ShellFixture shell;
    PaletteModel *palette = shell.course().palette();
    palette->setQuery(QStringLiteral("mesh"));
    REQUIRE(palette->rowCount() >= 1);
    // The names that match, then the hits in the text, at most a dozen.
    QStringList places;
    for (int i = 0; i < palette->rowCount(); ++i)
        if (palette->data(palette->index(i), PaletteModel::KindRole).toString() != QStringLiteral("in the text"))
            places << palette->placeAt(i);
    CHECK(places.size() <= 4);
    CHECK(palette->rowCount() - places.size() <= 12);
    INFO(places.join(QLatin1Char(' ')).toStdString());
    CHECK((places.contains(QStringLiteral("ch09")) || places.contains(QStringLiteral("EX11"))));
}

TEST_CASE("a pointer resting over the palette does not pick a row until it moves", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    // Rest the pointer where the list will appear, then open the palette.
    QTest::mouseMove(window, QPoint(window->width() / 2, window->height() / 3));
    searchFor(shell, QStringLiteral("playg"));
    WAIT_COMPARE(shell.course().palette()->query(), QStringLiteral("playg"));
    auto *list = shell.find("paletteList");
    REQUIRE(list != nullptr);
    REQUIRE(shell.course().palette()->rowCount() >= 1);
    CHECK(shell.course().palette()->placeAt(0) == QStringLiteral("EX01"));
    QTest::qWait(100);
    CHECK(list->property("currentIndex").toInt() == 0);
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("piece"));
}

TEST_CASE("the palette searches the chapters' text and opens the section a hit is in", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    PaletteModel *palette = shell.course().palette();
    // Words no title holds: only the text has them.
    palette->setQuery(QStringLiteral("dimension_semantics"));
    REQUIRE(palette->rowCount() >= 1);
    QStringList places;
    for (int i = 0; i < palette->rowCount(); ++i) {
        CHECK(palette->data(palette->index(i), PaletteModel::KindRole).toString() == QStringLiteral("in the text"));
        CHECK(palette->data(palette->index(i), PaletteModel::SubtitleRole)
                  .toString()
                  .contains(QStringLiteral("dimension_semantics"), Qt::CaseInsensitive));
        places << palette->placeAt(i);
    }
    INFO(places.join(QLatin1Char(' ')).toStdString());
    CHECK(std::any_of(places.begin(), places.end(),
                      [](const QString &p) { return p.startsWith(QLatin1String("ch11#")); }));
    // Every word must be there, in any order; a heading's words rank it first.
    palette->setQuery(QStringLiteral("softmax online"));
    REQUIRE(palette->rowCount() >= 1);
    CHECK(palette->placeAt(0) == QStringLiteral("ch13#the-online-softmax"));
    palette->setQuery(QStringLiteral("softmax zzzzqq"));
    CHECK(palette->rowCount() == 0);
    // A word the text holds outranks titles that only hold its letters in
    // order ("psum" in "Pallas fundamentals"); those come after, if at all.
    palette->setQuery(QStringLiteral("psum"));
    REQUIRE(palette->rowCount() >= 2);
    CHECK(palette->data(palette->index(0), PaletteModel::KindRole).toString() == QStringLiteral("in the text"));
    bool strewn = false;
    for (int i = 0; i < palette->rowCount(); ++i) {
        const bool inText =
            palette->data(palette->index(i), PaletteModel::KindRole).toString() == QStringLiteral("in the text");
        INFO(i << " " << palette->placeAt(i).toStdString());
        CHECK_FALSE((inText && strewn));
        strewn = strewn || !inText;
    }

    // From the keyboard: Ctrl+K, the words, Enter: the chapter opens at that section.
    searchFor(shell, QStringLiteral("softmax online"));
    WAIT_COMPARE(palette->placeAt(0), QStringLiteral("ch13#the-online-softmax"));
    shell.shot("palette-text-hits");
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    auto *title = shell.find("chapterTitle");
    REQUIRE(title != nullptr);
    WAIT_COMPARE(title->property("text").toString(), shell.catalog().chapter(13)->title);
    shell.waitUntilBuilt();
    shell.shot("palette-text-hit-opened");
    // The words searched for are marked where they stand in the text.
    const auto markedParagraphs = [&shell] {
        int n = 0;
        for (QObject *p : shell.findAll("readerParagraph"))
            if (p->property("text").toString().contains(QStringLiteral("background-color:#bfe3ff;\">softmax</span>"),
                                                        Qt::CaseInsensitive))
                ++n;
        return n;
    };
    QObject *chapterPage = shell.find("chapterPage");
    REQUIRE(chapterPage != nullptr);
    CHECK(chapterPage->property("mark").toString() == QStringLiteral("softmax online"));
    WAIT_VERIFY(markedParagraphs() > 0);
    // Opened another way, the chapter is not marked.
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    REQUIRE(shell.navigate(QStringLiteral("ch13")));
    shell.waitUntilBuilt();
    WAIT_VERIFY(markedParagraphs() == 0);
}

TEST_CASE("a text hit opens its section at the first paragraph that holds the words", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    // Chapter 10 names the profile's program well below its section's heading.
    searchFor(shell, QStringLiteral("jit__psum"));
    WAIT_COMPARE(shell.course().palette()->placeAt(0), QStringLiteral("ch10#worked-example-5-a-real-v6e-profile"));
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    shell.waitUntilBuilt();
    shell.shot("palette-text-hit-paragraph");
    // The paragraph holding the words is in view, the words marked in it.
    const auto markedInView = [&shell, window] {
        for (QObject *p : shell.findAll("readerParagraph")) {
            auto *item = qobject_cast<QQuickItem *>(p);
            if (!item || !ShellFixture::isShown(p) ||
                !p->property("text").toString().contains(QStringLiteral("\">jit__psum</span>")))
                continue;
            const qreal top = item->mapToScene(QPointF(0, 0)).y();
            if (top >= 0 && top + item->height() <= window->height())
                return true;
        }
        return false;
    };
    WAIT_VERIFY(markedInView());
}

TEST_CASE("words just below their section's heading open with the heading whole in view", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    // Chapter 4's "Fusion, precisely": its second paragraph is the first
    // holding both words, a few lines under the heading.
    searchFor(shell, QStringLiteral("xla fusion"));
    PaletteModel *palette = shell.course().palette();
    const auto rowOf = [palette] {
        return firstRow(palette, [palette](int i) { return palette->placeAt(i) == "ch04#fusion-precisely"; });
    };
    WAIT_VERIFY(rowOf() >= 0);
    openRow(window, rowOf());
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    shell.waitUntilBuilt();
    const auto inView = [window](QObject *o) {
        auto *item = qobject_cast<QQuickItem *>(o);
        if (!item || !ShellFixture::isShown(o))
            return false;
        const qreal top = item->mapToScene(QPointF(0, 0)).y();
        return top >= 0 && top + item->height() <= window->height();
    };
    QObject *heading = shell.find("heading:fusion-precisely");
    REQUIRE(heading != nullptr);
    WAIT_VERIFY(inView(heading));
    CHECK(qobject_cast<QQuickItem *>(heading)->mapToScene(QPointF(0, 0)).y() >= 16);
    bool markedShown = false;
    for (QObject *p : shell.findAll("readerParagraph"))
        markedShown = markedShown || (p->property("text").toString().contains(QStringLiteral("\">XLA</span>")) &&
                                      p->property("text").toString().contains(QStringLiteral("builds")) && inView(p));
    CHECK(markedShown);
}

TEST_CASE("words typed together are found, shown and marked as one phrase", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    searchFor(shell, QStringLiteral("launch and bring"));
    PaletteModel *palette = shell.course().palette();
    WAIT_COMPARE(palette->placeAt(0), QStringLiteral("ch09#pricing-a-collective-on-a-ring"));
    // The snippet stands at the phrase, not at the section's first "and".
    CHECK(palette->data(palette->index(0), PaletteModel::SubtitleRole)
              .toString()
              .contains(QStringLiteral("launch and bring"), Qt::CaseInsensitive));
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    shell.waitUntilBuilt();
    // The phrase is marked as one; the "and"s of other sentences are not.
    const auto marks = [&shell](const QString &what) {
        int n = 0;
        for (QObject *p : shell.findAll("readerParagraph"))
            n += int(p->property("text").toString().count(QStringLiteral("\">") + what + QStringLiteral("</span>")));
        return n;
    };
    WAIT_VERIFY(marks(QStringLiteral("launch and bring")) == 1);
    CHECK(marks(QStringLiteral("and")) == 0);
}

TEST_CASE("a row marks the words typed in its title and snippet, its own text kept as text", "[palette][qml]")
{
    ShellFixture shell;
    searchFor(shell, QStringLiteral("megacore"));
    PaletteModel *palette = shell.course().palette();
    WAIT_VERIFY(palette->kindAt(0) == QStringLiteral("in the text"));
    // Each shown row marks the word wherever its title or snippet holds it.
    const auto marked = [](const QString &text) {
        return text.contains(QStringLiteral("\">megacore</font></b>"), Qt::CaseInsensitive);
    };
    WAIT_VERIFY(!shell.findAll("paletteRowSnippet").isEmpty());
    int snippetsMarked = 0;
    for (QObject *snippet : shell.findAll("paletteRowSnippet"))
        snippetsMarked += marked(snippet->property("text").toString()) ? 1 : 0;
    CHECK(snippetsMarked >= 3);
    bool titleMarked = false;
    for (QObject *title : shell.findAll("paletteRowTitle"))
        titleMarked = titleMarked || marked(title->property("text").toString());
    CHECK(titleMarked);
    // A snippet's own angle brackets and ampersands read as written, not as tags.
    QObject *popup = shell.find("palette");
    REQUIRE(popup != nullptr);
    QVariant out;
    REQUIRE(QMetaObject::invokeMethod(popup, "marked", Q_RETURN_ARG(QVariant, out),
                                      Q_ARG(QVariant, QStringLiteral("if i < n && <b> on a MegaCore chip")),
                                      Q_ARG(QVariant, QStringLiteral("megacore"))));
    const QString text = out.toString();
    INFO(text.toStdString());
    CHECK(text.startsWith(QStringLiteral("if i &lt; n &amp;&amp; &lt;b&gt; on a <b><font color=")));
    CHECK(text.endsWith(QStringLiteral("\">MegaCore</font></b> chip")));
}

TEST_CASE("a mistyped word is searched as the nearest word the text holds, and the rows say so", "[palette][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    searchFor(shell, QStringLiteral("online sotfmax"));
    PaletteModel *palette = shell.course().palette();
    const auto firstInText = [palette] {
        return firstRow(palette, [palette](int i) { return palette->kindAt(i) == "in the text"; });
    };
    WAIT_VERIFY(firstInText() >= 0);
    const int row = firstInText();
    const QString subtitle = palette->data(palette->index(row), PaletteModel::SubtitleRole).toString();
    INFO(subtitle.toStdString());
    CHECK(subtitle.startsWith(QStringLiteral("ch ")));
    // Said once, above the first row searched that way.
    int said = 0;
    for (QObject *note : shell.findAllShown("paletteRowSearched"))
        said += note->property("text").toString().endsWith(QStringLiteral("searched for “online softmax”"));
    CHECK(said == 1);
    CHECK(palette->marksAt(row) == QStringLiteral("online softmax"));
    // The row marks the words put right, and so does the page it opens.
    bool rowMarked = false;
    for (QObject *snippet : shell.findAll("paletteRowSnippet"))
        rowMarked = rowMarked || snippet->property("text").toString().contains(QStringLiteral("\">softmax</font></b>"),
                                                                               Qt::CaseInsensitive);
    CHECK(rowMarked);
    openRow(window, row);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("chapter"));
    shell.waitUntilBuilt();
    const auto marked = [&shell] {
        for (QObject *p : shell.findAll("readerParagraph"))
            if (p->property("text").toString().contains(QStringLiteral("\">softmax</span>"), Qt::CaseInsensitive) ||
                p->property("text").toString().contains(QStringLiteral("\">online softmax</span>"),
                                                        Qt::CaseInsensitive))
                return true;
        return false;
    };
    WAIT_VERIFY(marked());
    // A place whose title holds the words put right comes before the text.
    QTest::keyClick(window, Qt::Key_Escape);
    searchFor(shell, QStringLiteral("flash atention"));
    WAIT_VERIFY(firstInText() > 0);
    CHECK(palette->data(palette->index(0), PaletteModel::TitleRole)
              .toString()
              .startsWith(QStringLiteral("flash attention"), Qt::CaseInsensitive));
    // A query the text holds as typed is not put right.
    QTest::keyClick(window, Qt::Key_Escape);
    searchFor(shell, QStringLiteral("online softmax"));
    WAIT_VERIFY(firstInText() >= 0);
    CHECK(palette->data(palette->index(firstInText()), PaletteModel::MarksRole).toString().isEmpty());
    CHECK(shell.findAllShown("paletteRowSearched").isEmpty());
}

TEST_CASE("a search that finds nothing says so in the words typed, markup and all", "[palette][qml]")
{
    ShellFixture shell;
    searchFor(shell, QStringLiteral("<b>zqx&amp;"));
    PaletteModel *palette = shell.course().palette();
    WAIT_VERIFY(palette->rowCount() == 0);
    QObject *nothing = shell.findShown("paletteNothing");
    REQUIRE(nothing != nullptr);
    CHECK(nothing->property("text").toString() == QStringLiteral("nothing matches \"<b>zqx&amp;\""));
    CHECK(nothing->property("textFormat").toInt() == 0); // Text.PlainText: shown as typed
}
