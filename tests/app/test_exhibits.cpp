// The museum exhibits: each one's folder (artifact, notes, charts) reads
// without problems, every note is pinned to a part its artifact has, every
// figure resolves on every chip, and every exhibit opens in the shell and in
// its chapter's text on every chip.
#include <catch2/catch.hpp>

#include "shellfixture.h"

#include <chapters/chapterdocument.h>
#include <chapters/exhibit.h>
#include <chapters/livenumbers.h>

#include <tpusim/chips.h>
#include <tpusim/fusion.h>
#include <tpusim/ir.h>

#include <QDir>
#include <QFile>
#include <QJSEngine>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QQuickItem>
#include <QSet>
#include <QtTest/QTest>

#include <algorithm>
#include <cmath>

namespace {

const QString kChapters = QStringLiteral(TPU_COURSE_SOURCE_DIR "/chapters");

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct Folder
{
    QString chapter; // "08-chip"
    QString id;      // "M1"
    QString path;
};

QList<Folder> exhibitFolders()
{
    QList<Folder> out;
    for (const QString &chapter : QDir(kChapters).entryList({QStringLiteral("[0-9][0-9]-*")}, QDir::Dirs, QDir::Name)) {
        const QString dir = kChapters + QLatin1Char('/') + chapter + QStringLiteral("/exhibits");
        for (const QString &id : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            out << Folder{chapter, id, dir + QLatin1Char('/') + id + QLatin1Char('/')};
    }
    return out;
}

course::Exhibit load(const Folder &f)
{
    return course::parseExhibit(QString::fromUtf8(readFile(f.path + QStringLiteral("artifact.md"))),
                                readFile(f.path + QStringLiteral("annotations.json")),
                                readFile(f.path + QStringLiteral("figures.json")));
}

QStringList chipIds()
{
    QStringList ids;
    for (const tpusim::Chip &c : tpusim::all_chips())
        ids << QString::fromStdString(c.id);
    return ids;
}

} // namespace

TEST_CASE("an exhibit's notes are pinned to parts and marks its artifact has", "[exhibit]")
{
    const QString artifact = QStringLiteral(
        "Before any heading.\n\n### The table\n\n| a | b |\n|---|---|\n| peak | 1 |\n\n"
        "### Code\n\n```python\nw = W[k, n]\n```\n");
    const QByteArray notes = R"({"title": "T", "links": ["EX06"], "notes": [
        {"anchor": "the-table", "mark": "peak", "text": "On {{chip fact=peak_bf16 chip=v5e : value}}."},
        {"anchor": "code", "mark": "w = W[k, n]", "text": "Held."},
        {"anchor": "no-such-part", "text": "Lost."},
        {"anchor": "code", "mark": "not in the code", "text": "Lost too."},
        {"anchor": "code", "text": "Two\n\nparagraphs."}]})";
    const QByteArray figures = R"({"charts": [{"title": "ridge", "figure": "ridge dtype=bf16 : value"},
                                             {"title": "pinned", "figure": "ridge dtype=bf16 chip=v5e : value"},
                                             {"title": "steps", "kind": "timeline", "anchor": "code",
                                              "figure": "collective_matmul m=64 k=64 n=64 : time"},
                                             {"title": "lost", "kind": "timeline", "anchor": "nowhere",
                                              "figure": "collective_matmul m=64 k=64 n=64 : time"},
                                             {"title": "not a timeline", "kind": "timeline", "anchor": "code",
                                              "figure": "ridge dtype=bf16 : value"}]})";
    const course::Exhibit ex = course::parseExhibit(artifact, notes, figures);
    REQUIRE(ex.parts.size() == 3);
    CHECK(ex.parts.at(0).anchor.isEmpty());
    CHECK(ex.parts.at(1).anchor == QStringLiteral("the-table"));
    CHECK(ex.parts.at(1).notes == QList<int>{0});
    CHECK(ex.parts.at(2).notes == QList<int>{1});
    REQUIRE(ex.pins.size() == 2);
    // Where each mark first stands: the table (block 2), the code (block 4).
    CHECK(ex.pins.at(0).markedBlock == 2);
    CHECK(ex.pins.at(1).markedBlock == 4);
    CHECK(ex.notes.blocks.size() == 2);
    REQUIRE(ex.charts.size() == 2);
    CHECK(ex.charts.at(1).kind == QStringLiteral("timeline"));
    CHECK(ex.charts.at(1).anchor == QStringLiteral("code"));
    CHECK(ex.links == QStringList{QStringLiteral("EX06")});
    // The lost anchor, the missing mark, the note of two paragraphs, the chart
    // pinned to a chip, the timeline set nowhere and the one of another kind.
    CHECK(ex.problems.size() == 6);
    CHECK(ex.problems.join(QLatin1Char(' ')).contains(QStringLiteral("no-such-part")));
}

TEST_CASE("a published figure is typed with its source and shown as published", "[exhibit]")
{
    const course::live::Value v =
        course::live::resolve(course::live::parse("published value=92 unit=TOP/s source=[TPU-ISCA17] : value"), "v5e");
    CHECK(v.isFact);
    CHECK(v.text == "92 TOP/s");
    CHECK(v.source == "[TPU-ISCA17]");
    CHECK(v.number == 92);
    CHECK(v.details.rfind("published", 0) == 0);
    CHECK_THROWS_AS(course::live::resolve(course::live::parse("published value=many source=[X] : value"), "v5e"),
                    course::live::PlaceholderError);
    const course::live::Value ridge =
        course::live::resolve(course::live::parse("ridge dtype=bf16 : bytes_per_flop"), "v5e");
    CHECK(ridge.number == Approx(1.0 / tpusim::ridge_point(tpusim::chip("v5e"), tpusim::DType::bf16)));
    // A figure no source publishes has no number to chart.
    const course::live::Value fp8 =
        course::live::resolve(course::live::parse("chip fact=peak_fp8 chip=v4 : value"), "v5e");
    CHECK(fp8.text == "not published");
    CHECK(std::isnan(fp8.number));
}

TEST_CASE("every exhibit reads cleanly and every figure in it resolves on every chip", "[exhibit]")
{
    const QList<Folder> folders = exhibitFolders();
    REQUIRE(folders.size() >= 2);
    for (const Folder &f : folders) {
        INFO(f.chapter.toStdString() << " " << f.id.toStdString());
        const course::Exhibit ex = load(f);
        for (const QString &p : ex.problems)
            UNSCOPED_INFO(p.toStdString());
        CHECK(ex.problems.isEmpty());
        CHECK(!ex.title.isEmpty());
        CHECK(!ex.lead.isEmpty());
        // Every note of the file is pinned (a lost anchor is dropped, and a problem).
        const QJsonArray notes = QJsonDocument::fromJson(readFile(f.path + QStringLiteral("annotations.json")))
                                     .object()
                                     .value(QStringLiteral("notes"))
                                     .toArray();
        CHECK(notes.size() >= 4);
        CHECK(ex.pins.size() == notes.size());
        for (const course::ExhibitNote &pin : ex.pins) {
            const auto part = std::find_if(ex.parts.cbegin(), ex.parts.cend(),
                                           [&](const course::ExhibitPart &p) { return p.anchor == pin.anchor; });
            CHECK(part != ex.parts.cend());
        }
        // The piece that shows it, registered in its chapter's metadata and build.
        CHECK(QFile::exists(kChapters + QLatin1Char('/') + f.chapter + QStringLiteral("/pieces/") + f.id +
                            QStringLiteral(".qml")));
        const QJsonObject meta = QJsonDocument::fromJson(readFile(kChapters + QLatin1Char('/') + f.chapter +
                                                                  QStringLiteral("/chapter.json")))
                                     .object();
        bool listed = false;
        for (const QJsonValue &v : meta.value(QStringLiteral("pieces")).toArray())
            listed = listed || (v.toObject().value(QStringLiteral("id")).toString() == f.id &&
                                v.toObject().value(QStringLiteral("kind")).toString() == QStringLiteral("exhibit"));
        CHECK(listed);
        const QString cmake =
            QString::fromUtf8(readFile(kChapters + QLatin1Char('/') + f.chapter + QStringLiteral("/CMakeLists.txt")));
        CHECK(cmake.contains(QStringLiteral("exhibits/%1/artifact.md").arg(f.id)));
        CHECK(cmake.contains(QStringLiteral("pieces/%1.qml").arg(f.id)));

        // An exhibit that quotes a dump quotes it exactly: every line of its
        // hlo blocks is a line of a dump in its folder.
        QStringList dumpLines;
        for (const QString &name : QDir(f.path).entryList({QStringLiteral("*.hlo")}, QDir::Files))
            dumpLines << QString::fromUtf8(readFile(f.path + name)).split(QLatin1Char('\n'));
        if (!dumpLines.isEmpty())
            for (const course::DocBlock &block : ex.artifact.blocks)
                if (block.kind == course::DocBlock::Kind::Code && block.language == QLatin1String("hlo"))
                    for (const QString &line : block.code.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                        INFO(line.left(80).toStdString());
                        CHECK(dumpLines.contains(line));
                    }

        int values = 0;
        for (const QString &chip : chipIds()) {
            INFO(chip.toStdString());
            for (const course::ChapterDocument *doc : {&ex.artifact, &ex.notes})
                for (const course::DocBlock &block : doc->blocks) {
                    const course::FilledBlock filled = course::fillBlock(block, chip, {});
                    for (const QString &p : filled.problems)
                        UNSCOPED_INFO(p.toStdString());
                    CHECK(filled.problems.isEmpty());
                    CHECK(filled.refusals == 0);
                    values += filled.values;
                }
            for (const course::ExhibitChart &chart : ex.charts) {
                if (chart.kind == QLatin1String("kernels")) {
                    // The dump in the folder, costed as the viewer costs it.
                    const QByteArray dump = readFile(f.path + chart.figure);
                    REQUIRE(!dump.isEmpty());
                    const tpusim::fusion::HloCost cost = tpusim::fusion::cost_hlo_kernels(
                        tpusim::ir::parse_hlo(dump.toStdString()), tpusim::chip(chip.toStdString()));
                    CHECK(cost.kernels.size() > 0);
                    CHECK(cost.time_s > 0);
                    continue;
                }
                CHECK_NOTHROW(
                    course::live::resolve(course::live::parse(chart.figure.toStdString()), chip.toStdString()));
                if (chart.kind != QLatin1String("timeline"))
                    continue;
                // Every figure the timeline draws, as a number.
                const QString base = chart.figure.left(chart.figure.indexOf(QLatin1Char(':')) + 1);
                for (const char *field :
                     {"step_compute", "step_transfer", "time", "compute_only", "gather_then_matmul", "exposed"}) {
                    const course::live::Value v = course::live::resolve(
                        course::live::parse((base + QLatin1String(field)).toStdString()), chip.toStdString());
                    CHECK(std::isfinite(v.number));
                    CHECK(v.number >= 0);
                }
            }
        }
        CHECK(values + ex.charts.size() > 0);
    }
}

TEST_CASE("every exhibit opens on every chip, on its page and in its chapter's text", "[exhibit][shell]")
{
    ShellFixture shell;
    QStringList ids;
    for (const Folder &f : exhibitFolders())
        ids << f.id;
    for (const QString &id : ids) {
        INFO(id.toStdString());
        REQUIRE(shell.navigate(id));
        shell.waitUntilBuilt();
        for (const QString &chip : chipIds()) {
            shell.course().setChip(chip);
            QTest::qWait(20);
            QObject *scroller = shell.findShown("exhibitScroller");
            REQUIRE(scroller);
            CHECK(scroller->property("contentHeight").toReal() > 400);
            // Its notes are drawn, each with words in it.
            int notes = 0;
            for (QObject *n : shell.findAll("exhibitNote"))
                if (ShellFixture::isShown(n)) {
                    CHECK(!n->property("text").toString().isEmpty());
                    ++notes;
                }
            CHECK(notes >= 4);
        }
        shell.shot(qPrintable(QStringLiteral("exhibit-") + id));
    }
    shell.course().setChip(QStringLiteral("v5e"));
    // Inline: the chapter opened at the piece shows it at full height, not scrolling on its own.
    for (const QString &id : ids) {
        const int chapter = shell.course().chapterOfPiece(id);
        REQUIRE(chapter > 0);
        REQUIRE(shell.navigate(QStringLiteral("ch%1#%2").arg(chapter, 2, 10, QLatin1Char('0')).arg(id.toLower())));
        shell.waitUntilBuilt();
        QTest::qWait(50);
        bool inlineShown = false;
        for (QObject *s : shell.findAll("exhibitScroller"))
            if (ShellFixture::isShown(s) && !s->property("interactive").toBool())
                inlineShown = true;
        CHECK(inlineShown);
    }
}

TEST_CASE("a note's words are marked where they first stand, in text and across tags", "[exhibit]")
{
    // The reader's own script, as QML loads it, less its QML-only pragma.
    QString script =
        QString::fromUtf8(readFile(QStringLiteral(TPU_COURSE_SOURCE_DIR "/app/reader/qml/searchwords.js")));
    REQUIRE(script.startsWith(QStringLiteral(".pragma library")));
    script.remove(0, script.indexOf(QLatin1Char('\n')));
    QJSEngine js;
    const QJSValue loaded = js.evaluate(script);
    REQUIRE(!loaded.isError());
    const auto pin = [&](const QStringList &parts, const QString &text) {
        const QJSValue out = js.globalObject()
                                 .property(QStringLiteral("pin"))
                                 .call({js.toScriptValue(parts), text, QStringLiteral("["), QStringLiteral("]")});
        return out.toVariant().toStringList();
    };
    // The first place only, in the part that holds it.
    CHECK(
        pin({QStringLiteral("no mark here"), QStringLiteral("peak bf16 and peak bf16")}, QStringLiteral("peak bf16")) ==
        QStringList{QStringLiteral("no mark here"), QStringLiteral("[peak bf16] and peak bf16")});
    // Read through entities; a tag inside the words splits the mark around it.
    CHECK(pin({QStringLiteral("call <code>lax.ppermute(chunk, &quot;x&quot;, perm)</code> now")},
              QStringLiteral("ppermute(chunk, \"x\"")) ==
          QStringList{QStringLiteral("call <code>lax.[ppermute(chunk, &quot;x&quot;], perm)</code> now")});
    CHECK(pin({QStringLiteral("the <b>compute</b> time")}, QStringLiteral("compute time")) ==
          QStringList{QStringLiteral("the <b>[compute]</b>[ time]")});
    // Inline code's non-joiners (no ligatures) and word joiners are passed over.
    CHECK(pin({QStringLiteral("<code>F/n \u2265 P /\u200c/ W</code>")}, QStringLiteral("P // W")) ==
          QStringList{QStringLiteral("<code>F/n \u2265 [P /]\u200c[/ W]</code>")});
    CHECK(pin({QStringLiteral("F/&#8288;n&nbsp;&#8805;&nbsp;P")}, QStringLiteral("F/n \u2265 P")) ==
          QStringList{QStringLiteral("[F/]&#8288;[n&nbsp;&#8805;&nbsp;P]")});
    // Words that are not there leave the text as it was.
    CHECK(pin({QStringLiteral("a <i>b</i>")}, QStringLiteral("a b c")) == QStringList{QStringLiteral("a <i>b</i>")});
}

TEST_CASE("an exhibit marks the words its notes are pinned to, deeper for the note pointed at", "[exhibit][shell]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("M6")));
    shell.waitUntilBuilt();
    QTest::qWait(50);
    // M6 pins four notes to code (two in the HLO, two in the Python) and
    // three to its prose.
    QList<QQuickItem *> boxes;
    for (QObject *o : shell.findAll("codePin"))
        if (ShellFixture::isShown(o))
            boxes << qobject_cast<QQuickItem *>(o);
    REQUIRE(boxes.size() == 4);
    for (QQuickItem *box : boxes) {
        CHECK(box->width() > 40);
        CHECK(box->height() > 10);
    }
    // "ROOT %dot.3" is indented by two spaces: its box starts two advances in.
    const auto byX =
        std::minmax_element(boxes.cbegin(), boxes.cend(), [](QQuickItem *a, QQuickItem *b) { return a->x() < b->x(); });
    CHECK((*byX.first)->x() > 0);
    // Two in paragraphs ("max(T_c, T_x)", and "F/n ≥ P / W" across the
    // word joiner set after its slashes), one in a table's cell.
    int tinted = 0;
    for (QObject *p : shell.findAll("readerParagraph"))
        if (ShellFixture::isShown(p) && p->property("text").toString().contains(QStringLiteral("background-color:")))
            ++tinted;
    CHECK(tinted == 2);
    bool cell = false;
    for (QObject *c : shell.findAll("readerTableCell"))
        cell = cell || c->property("text").toString().contains(QStringLiteral("background-color:"));
    CHECK(cell);

    // Pointing at the note on `lax.ppermute(...)` thickens its words' outline alone.
    QQuickItem *note = nullptr;
    for (QObject *n : shell.findAll("exhibitNote"))
        if (ShellFixture::isShown(n) && n->property("text").toString().contains(QStringLiteral("shifts to the right")))
            note = qobject_cast<QQuickItem *>(n);
    REQUIRE(note);
    QObject *scroller = shell.findShown("exhibitScroller");
    REQUIRE(scroller);
    const QPointF top = note->mapToItem(qobject_cast<QQuickItem *>(scroller), QPointF(0, 0));
    scroller->setProperty("contentY", std::max(0.0, scroller->property("contentY").toReal() + top.y() - 200));
    QTest::qWait(50);
    QList<qreal> before;
    for (QQuickItem *box : boxes)
        before << box->property("border").value<QObject *>()->property("width").toReal();
    QTest::mouseMove(shell.window(), note->mapToScene(QPointF(note->width() / 2, note->height() / 2)).toPoint());
    QTest::qWait(50);
    int changed = 0;
    for (int i = 0; i < boxes.size(); ++i)
        if (boxes.at(i)->property("border").value<QObject *>()->property("width").toReal() != before.at(i))
            ++changed;
    CHECK(changed == 1);
}
