#include <catch2/catch.hpp>

#include "drawingchoice.h"
#include "palette/fuzzymatch.h"
#include "palette/palettemodel.h"
#include "pieceinput.h"
#include "qtwait.h"
#include "reader/reader.h"
#include "shellfixture.h"

#include <chapters/chaptersearch.h>
#include <chapters/livenumbers.h>
#include <tpusim/published.h>

#include <QClipboard>
#include <QFont>
#include <QGuiApplication>
#include <QQuickItem>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <functional>

namespace {

// Ctrl+K and `words` typed into the palette's field, as a learner does.
void searchFor(ShellFixture &shell, const QString &words)
{
    QTest::keyClick(shell.window(), Qt::Key_K, Qt::ControlModifier);
    QObject *field = shell.find("paletteField");
    REQUIRE(field != nullptr);
    WAIT_VERIFY(field->property("activeFocus").toBool());
    shell.typeText(words);
}

// The places the hits open, best first.
QStringList anchorsOf(const QList<course::TextHit> &hits)
{
    QStringList out;
    for (const course::TextHit &h : hits)
        out << h.anchor;
    return out;
}

// Prose that holds none of the searched words, `times` sentences of it, to
// give a section a length.
QString fillerText(int times)
{
    return QStringLiteral(" The kernel streams its blocks through VMEM while the MXU works.").repeated(times);
}

// The first row of the palette's list for which `is` holds; -1 when none does.
int firstRow(const PaletteModel *palette, const std::function<bool(int row)> &is)
{
    for (int i = 0; i < palette->rowCount(); ++i)
        if (is(i))
            return i;
    return -1;
}

// Moves the palette's pick down to `row` with the arrow key and opens it.
void openRow(QQuickWindow *window, int row)
{
    for (int i = row; i > 0; --i)
        QTest::keyClick(window, Qt::Key_Down);
    QTest::keyClick(window, Qt::Key_Return);
}

} // namespace

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

TEST_CASE("a text hit's snippet reads the live numbers as the page does, on the chip chosen", "[palette][qml]")
{
    ShellFixture shell;
    PaletteModel *palette = shell.course().palette();
    const auto snippet = [palette] {
        return palette->data(palette->index(0), PaletteModel::SubtitleRole).toString().replace(QChar(0xA0), u' ');
    };
    const auto figure = [](const char *fact, const char *chip) {
        return QString::fromStdString(
            course::live::resolve(course::live::parse(std::string("chip fact=") + fact + " : value"), chip).text);
    };
    for (const char *chip : {"v5e", "v7"}) {
        INFO(chip);
        shell.course().setChip(QString::fromLatin1(chip));
        searchFor(shell, QStringLiteral("physical VMEM per TensorCore"));
        WAIT_COMPARE(palette->placeAt(0), QStringLiteral("ch06#worked-example-3-a-tiled-matmul-and-its-vmem-budget"));
        // "the simulator's scoped limit is 16 MiB out of 128 MiB of physical VMEM", not "is … out of …".
        INFO(snippet().toStdString());
        CHECK(snippet().contains(QStringLiteral("limit is %1 out of %2 of physical VMEM")
                                     .arg(figure("scoped_vmem_default", chip), figure("vmem_per_core", chip))));
        QTest::keyClick(shell.window(), Qt::Key_Escape);
    }
    CHECK(figure("vmem_per_core", "v5e") != figure("vmem_per_core", "v7"));
}

TEST_CASE("a section's figures are searched once its filled text is known", "[palette]")
{
    const QList<course::TextSection> sections{
        {1, QStringLiteral("limits"), QStringLiteral("Limits"), QStringLiteral("the scoped limit is … of VMEM"), 0, 0},
        {2, QStringLiteral("other"), QStringLiteral("Other"), QStringLiteral("16 rows of MiB-sized words"), 0, 0}};
    const QString filled = QStringLiteral("the scoped limit is 16\u00A0MiB of VMEM");
    // Unfilled, the figure is a "…": only the section that types the words is found.
    CHECK(anchorsOf(course::searchSections(sections, QStringLiteral("16 MiB limit"))).isEmpty());
    CHECK(anchorsOf(course::searchSections(sections, QStringLiteral("16 MiB"))) ==
          QStringList{QStringLiteral("other")});
    // Known filled, the figure's words are found, its no-break space read as a space.
    const auto known = [&filled](int at) { return at == 0 ? &filled : nullptr; };
    const auto hits = course::searchSections(
        sections, QStringLiteral("16 MiB limit"), 12, [&filled](int) { return filled; }, known);
    REQUIRE(anchorsOf(hits) == QStringList{QStringLiteral("limits")});
    CHECK(hits.first().snippet.contains(QStringLiteral("16\u00A0MiB")));
}

TEST_CASE("a section about a word outranks one that mentions it in passing", "[palette]")
{
    const QString filler = fillerText(6);
    const QList<course::TextSection> sections{
        {4, QStringLiteral("fusion"), QStringLiteral("What fusion cannot do"),
         QStringLiteral("Tiling attention into blocks is an algorithm XLA was not given.") + filler, 0, 0},
        {7, QStringLiteral("layouts"), QStringLiteral("HBM layouts"),
         QStringLiteral("The default tiling is 8 rows; a short array is tiled more tightly, and the tiling shows "
                        "in the layout XLA prints.") +
             filler,
         0, 0},
        {7, QStringLiteral("tiling"), QStringLiteral("Tiling and its cost"), QStringLiteral("What a tile costs."), 0,
         0},
        {9, QStringLiteral("rings"), QStringLiteral("Rings"), QStringLiteral("A ring all-gather.") + filler, 0, 0}};
    // The heading first, then the section that uses the word three times,
    // then the one that uses it once; the section without it not at all.
    CHECK(anchorsOf(course::searchSections(sections, QStringLiteral("tiling"))) ==
          QStringList{QStringLiteral("tiling"), QStringLiteral("layouts"), QStringLiteral("fusion")});
    // A rarer word weighs more: "XLA" is in two sections, "layout" in one.
    CHECK(anchorsOf(course::searchSections(sections, QStringLiteral("tiling XLA"))).first() ==
          QStringLiteral("layouts"));
}

TEST_CASE("opening the palette reads the chapters for its text search before a word is typed", "[palette][qml]")
{
    ShellFixture shell;
    Reader *reader = shell.course().reader();
    QTest::qWait(300);
    CHECK_FALSE(reader->readForSearch()); // nothing reads them while no one searches
    QTest::keyClick(shell.window(), Qt::Key_K, Qt::ControlModifier);
    WAIT_VERIFY(reader->readForSearch());
    CHECK(shell.course().palette()->query().isEmpty());
    // What is read ahead is what a search would have read: a word of a
    // heading in the text finds it.
    shell.typeText(QStringLiteral("dimension_semantics"));
    PaletteModel *palette = shell.course().palette();
    bool inText = false;
    for (int i = 0; i < palette->rowCount(); ++i)
        inText = inText || palette->kindAt(i) == QStringLiteral("in the text");
    CHECK(inText);
}

TEST_CASE("a chapter's list of sources ranks below the prose that uses the same words", "[palette]")
{
    const QString filler = fillerText(8);
    QList<course::TextSection> sections{
        {7, QStringLiteral("layouts"), QStringLiteral("HBM layouts"),
         QStringLiteral("The default tiling is 8 rows; a short array is tiled more tightly, and the tiling shows "
                        "in the layout; a tiling XLA picks.") +
             filler,
         0, 0},
        {7, QStringLiteral("sources"), QStringLiteral("Sources"),
         QStringLiteral("Memory layouts and tiling, XLA documentation. Tiling in Mosaic, JAX source."), 0, 0},
        {9, QStringLiteral("rings"), QStringLiteral("Rings"), QStringLiteral("A ring all-gather.") + filler, 0, 0}};
    const auto first = [&sections] {
        return course::searchSections(sections, QStringLiteral("tiling")).first().anchor;
    };
    // Ranked as any section, the short list would come first.
    CHECK(first() == QStringLiteral("sources"));
    sections[1].sources = true;
    CHECK(first() == QStringLiteral("layouts"));
    // A word only the list holds still finds it.
    const auto hits = course::searchSections(sections, QStringLiteral("Mosaic"));
    REQUIRE(hits.size() == 1);
    CHECK(hits.first().anchor == QStringLiteral("sources"));
}

TEST_CASE("sections headed Sources are marked as a chapter's list of sources", "[palette]")
{
    course::ChapterDocument doc;
    for (const char *title : {"Blocks", "Sources"}) {
        course::DocBlock heading;
        heading.kind = course::DocBlock::Kind::Heading;
        heading.title = QString::fromLatin1(title);
        heading.anchor = heading.title.toLower();
        doc.blocks.push_back(heading);
    }
    const auto sections = course::sectionsOf(6, QStringLiteral("Pallas"), doc);
    REQUIRE(sections.size() == 2);
    CHECK_FALSE(sections.at(0).sources);
    CHECK(sections.at(1).sources);
}

TEST_CASE("typed words count as a phrase only as whole words, a figure's no-break space as a space", "[palette]")
{
    const QString filler = fillerText(4);
    const QList<course::TextSection> sections{
        {11, QStringLiteral("traffic"), QStringLiteral("HBM traffic"),
         QStringLiteral("The formula gives about 416 MiB and roughly 315 FLOP/B.") + filler, 0, 0},
        // As a filled figure reads: its number and unit joined by a no-break space.
        {7, QStringLiteral("budget"), QStringLiteral("The budget"),
         filler + QStringLiteral(" The blocks take 16") + QChar(0x00a0) + QStringLiteral("MiB of VMEM."), 0, 0}};
    const auto hits = course::searchSections(sections, QStringLiteral("16 MiB"));
    REQUIRE(hits.size() == 2);
    CHECK(hits.at(0).anchor == QStringLiteral("budget"));
    INFO(hits.at(0).snippet.toStdString());
    CHECK(hits.at(0).snippet.contains(QStringLiteral("take 16")));
    // "416 MiB" holds the letters but not the phrase: its snippet is not
    // placed there as if it did.
    CHECK(hits.at(1).anchor == QStringLiteral("traffic"));
}

TEST_CASE("a snippet starts on a word, not on the tail of a code block", "[palette]")
{
    const QList<course::TextSection> sections{
        {11, QStringLiteral("tiled"), QStringLiteral("The tiled matmul"),
         QStringLiteral(
             "def kernel(x_ref, o_ref): o_ref[...] = jnp.dot(x_ref[...], w_ref[...]) } } XLA is free to choose its own "
             "tiling for that op; your kernel has to match it."),
         0, 0}};
    const auto hits = course::searchSections(sections, QStringLiteral("tiling"));
    REQUIRE(hits.size() == 1);
    INFO(hits.first().snippet.toStdString());
    CHECK(hits.first().snippet.startsWith(QStringLiteral("…XLA is free")));
}

TEST_CASE("the palette finds a live figure once the text is filled for the chip", "[palette][qml]")
{
    ShellFixture shell;
    PaletteModel *palette = shell.course().palette();
    const QString section = QStringLiteral("ch06#worked-example-3-a-tiled-matmul-and-its-vmem-budget");
    const auto found = [palette, &section] {
        return firstRow(palette, [palette, &section](int i) { return palette->placeAt(i) == section; }) >= 0;
    };
    for (const char *chip : {"v5e", "v7"}) {
        INFO(chip);
        shell.course().setChip(QString::fromLatin1(chip));
        // The HBM traffic that section's text gives as a live figure ("416 MiB"),
        // which it never types, and a word of the same sentence.
        const QString traffic = QString::fromStdString(
            course::live::resolve(
                course::live::parse("pipeline m=4096 k=4096 n=4096 bm=512 bk=1024 bn=1024 dtype=bf16 : hbm_bytes"),
                chip)
                .text);
        QSignalSpy filled(shell.course().reader(), &Reader::textFilledFor);
        palette->setQuery(QString(traffic).replace(QChar(0xA0), u' ') + QStringLiteral(" ridge"));
        // At once the figure is not known on this chip: the section is not a hit.
        CHECK_FALSE(found());
        // Found once the sections are filled for it, a little at a time,
        // with the event loop running between.
        WAIT_VERIFY(found());
        CHECK(filled.count() == 1);
        palette->setQuery(QString());
    }
}
