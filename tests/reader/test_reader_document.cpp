#include <catch2/catch.hpp>

#include "chapterfiles.h"

#include <QTextBoundaryFinder>

#include <chapters/chapterdocument.h>
#include <chapters/codecolours.h>
#include <chapters/exhibit.h>
#include <chapters/livenumbers.h>

#include <tpusim/chips.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTextDocument>

#include <cctype>

using course::DocBlock;

using namespace chapterfiles;

namespace {

QString chapterMarkdown(const QString &folder)
{
    const QString dir = kChapters + QLatin1Char('/') + folder + QLatin1Char('/');
    return readText(dir + QStringLiteral("intro.md")) + QStringLiteral("\n\n") +
           readText(dir + QStringLiteral("text.md"));
}

QString plain(const QString &html)
{
    QTextDocument doc;
    doc.setHtml(html);
    // A value's non-breaking space and word joiner read as a plain space and nothing.
    return doc.toRawText()
        .replace(QChar(0x00a0), QLatin1Char(' '))
        .remove(QChar(0x2060))
        .replace(QChar(0x2029), QLatin1Char('\n'));
}

} // namespace

TEST_CASE("Markdown becomes typed blocks: headings, prose, lists, quotes, code, tables, pieces", "[reader]")
{
    const QString md = QStringLiteral(
        "### The MXU, a *systolic* array\n\n"
        "A chip peaks at {{chip fact=peak_bf16 : value}}; literal \\{{braces}} stay, `{{code}}` too.\n\n"
        "- first item\n- second, with **bold**\n\n"
        "> A note worth keeping.\n\n"
        "```python\nx = jnp.dot(a, b)  # a_b {{not filled}}\n```\n\n"
        "| M | cycles |\n|---|---:|\n| 8 | {{mxu m=8 k=128 n=128 array=128 : cycles}} |\n| 128 | 510 |\n\n"
        "::: piece EX09 preset=race\n\n"
        "### The MXU, a systolic array\n");
    const course::ChapterDocument doc = course::parseChapter(md);
    CHECK(doc.problems.isEmpty());
    REQUIRE(doc.blocks.size() == 8);

    CHECK(doc.blocks[0].kind == DocBlock::Kind::Heading);
    CHECK(doc.blocks[0].level == 3);
    CHECK(doc.blocks[0].title == QStringLiteral("The MXU, a systolic array"));
    CHECK(doc.blocks[0].anchor == QStringLiteral("the-mxu-a-systolic-array"));
    CHECK(doc.blocks[7].anchor == QStringLiteral("the-mxu-a-systolic-array-2")); // anchors stay unique

    const DocBlock &prose = doc.blocks[1];
    CHECK(prose.kind == DocBlock::Kind::Paragraph);
    CHECK(prose.placeholders == QStringList{QStringLiteral("chip fact=peak_bf16 : value")});
    const auto filled = course::fillBlock(prose, QStringLiteral("v5e"), {});
    CHECK(filled.values == 1);
    CHECK(filled.html[0].contains(QStringLiteral("197&nbsp;TFLOP/&#8288;s"))); // one unbreakable run
    CHECK(plain(filled.html[0]).contains(QStringLiteral("197 TFLOP/s")));
    CHECK(plain(filled.html[0]).contains(QStringLiteral("literal {{braces}} stay, {{code}} too")));

    CHECK(doc.blocks[2].kind == DocBlock::Kind::List);
    CHECK(doc.blocks[2].texts.size() == 2);
    CHECK(doc.blocks[2].texts[1].contains(QStringLiteral("<b>bold</b>")));
    CHECK(doc.blocks[3].kind == DocBlock::Kind::Quote);

    const DocBlock &code = doc.blocks[4];
    CHECK(code.kind == DocBlock::Kind::Code);
    CHECK(code.language == QStringLiteral("python"));
    CHECK(code.code == QStringLiteral("x = jnp.dot(a, b)  # a_b {{not filled}}\n")); // exactly as written

    const DocBlock &table = doc.blocks[5];
    CHECK(table.kind == DocBlock::Kind::Table);
    CHECK(table.columns == 2);
    CHECK(table.texts.size() == 6);
    CHECK(table.align[1] == Qt::AlignRight);
    const auto cells = course::fillBlock(table, QStringLiteral("v5e"), {});
    CHECK(cells.numericColumns == QList<bool>{true, true});
    CHECK(plain(cells.html[3]) == QStringLiteral("390"));

    CHECK(doc.blocks[6].kind == DocBlock::Kind::Piece);
    CHECK(doc.blocks[6].pieceId == QStringLiteral("EX09"));
    CHECK(doc.blocks[6].pieceArgs.value(QStringLiteral("preset")) == QStringLiteral("race"));
}

TEST_CASE("an image alone in its paragraph is a figure the chapter ships; anywhere else it is refused", "[reader]")
{
    const auto doc = course::parseChapter(
        QStringLiteral("![The roofline of v5e](figures/roofline.svg \"Attainable FLOP/s against intensity\")\n\n"
                       "![plain](figures/plain.png)\n\n"
                       "A sentence with ![an inline image](figures/x.png) in it.\n\n"
                       "![remote](https://example.com/x.png)\n"));
    REQUIRE(doc.blocks.size() >= 2);
    CHECK(doc.blocks[0].kind == DocBlock::Kind::Figure);
    CHECK(doc.blocks[0].figureSource == QStringLiteral("figures/roofline.svg"));
    CHECK(doc.blocks[0].caption == QStringLiteral("Attainable FLOP/s against intensity"));
    CHECK(doc.blocks[1].kind == DocBlock::Kind::Figure);
    CHECK(doc.blocks[1].caption == QStringLiteral("plain")); // no title: the alt text
    REQUIRE(doc.problems.size() == 2);
    CHECK(doc.problems[0].contains(QStringLiteral("inside a sentence")));
    CHECK(doc.problems[1].contains(QStringLiteral("ship with the course")));
    for (const DocBlock &b : doc.blocks)
        for (const QString &t : b.texts)
            CHECK_FALSE(t.contains(QStringLiteral("figure:"))); // no stand-in text in prose
}

TEST_CASE("a directive the reader does not know, or a malformed input, is reported in one sentence", "[reader]")
{
    const auto doc = course::parseChapter(QStringLiteral(
        "::: figure roofline\n\n::: piece EX01 preset\n\nDrag {{input n=4096 from=8192 to=16}} rows.\n"));
    REQUIRE(doc.problems.size() == 3);
    CHECK(doc.problems[0].contains(QStringLiteral("not a directive")));
    CHECK(doc.problems[1].contains(QStringLiteral("\"preset\" is not key=value")));
    CHECK(doc.problems[2].startsWith(QStringLiteral("line 5:")));
    CHECK(doc.problems[2].contains(QStringLiteral("from <= value <= to")));
}

TEST_CASE("a link of the text takes the ground's accent, not rich text's fixed blue", "[reader]")
{
    const course::ChapterDocument doc = course::parseChapter(QStringLiteral(
        "See [the docs](https://docs.jax.dev/en/latest/pallas/) and {{chip fact=peak_bf16 : value}}.\n"));
    REQUIRE(doc.blocks.size() == 1);
    course::LiveTextStyle style;
    style.input = QColor(QStringLiteral("#a5b4fc")); // the dark theme's accent
    const auto filled = course::fillBlock(doc.blocks[0], QStringLiteral("v5e"), {}, style);
    CHECK(filled.html[0].contains(
        QStringLiteral("<a href=\"https://docs.jax.dev/en/latest/pallas/\" style=\"color:#a5b4fc;\">")));
    // The live number's own link keeps its provenance colour.
    CHECK(filled.html[0].contains(QStringLiteral("<a href=\"value:0\" style=\"color:")));
    CHECK_FALSE(filled.html[0].contains(QStringLiteral("value:0\" style=\"color:#a5b4fc")));
}

TEST_CASE("words for other chips only are dropped on the chip they name", "[reader]")
{
    const course::ChapterDocument doc = course::parseChapter(
        QStringLiteral("The floor is {{matmul m=8 k=4096 n=4096 dtype=bf16 : time}}.{{unless chip=v5e}} On a v5e it is "
                       "{{matmul m=8 k=4096 n=4096 dtype=bf16 chip=v5e : time}}.{{end}} That is all.\n\n"
                       "Broken {{unless chip=v6e}}to the end.\n"));
    REQUIRE(doc.blocks.size() == 2);
    const auto onV5e = course::fillBlock(doc.blocks[0], QStringLiteral("v5e"), {});
    const auto onV6e = course::fillBlock(doc.blocks[0], QStringLiteral("v6e"), {});
    // On v5e the comparison with v5e goes, and its number is not counted as shown.
    CHECK(plain(onV5e.html[0]) == QStringLiteral("The floor is 41.1 µs. That is all."));
    CHECK(plain(onV6e.html[0]).contains(QStringLiteral(" On a v5e it is 41.1 µs. That is all.")));
    CHECK_FALSE(plain(onV6e.html[0]).contains(QStringLiteral("unless")));
    CHECK(onV5e.problems.isEmpty());
    CHECK(onV5e.details.size() == doc.blocks[0].placeholders.size()); // a detail per slot, markers too
    // An {{unless}} left open hides to the end of its paragraph, and says so.
    const auto open = course::fillBlock(doc.blocks[1], QStringLiteral("v6e"), {});
    CHECK(plain(open.html[0]) == QStringLiteral("Broken "));
    CHECK(open.problems == QStringList{QStringLiteral("{{unless chip=...}} has no {{end}} in the same paragraph")});
    CHECK(plain(course::fillBlock(doc.blocks[1], QStringLiteral("v5e"), {}).html[0]) ==
          QStringLiteral("Broken to the end."));
}

TEST_CASE("an input drives the numbers of its paragraph, with the scrub's bounds", "[reader]")
{
    const auto doc =
        course::parseChapter(QStringLiteral("With M = {{input m=128 from=8 to=8192 log}} rows, the matmul takes "
                                            "{{matmul m=$m k=8192 n=8192 dtype=bf16 : time}} and is {{matmul m=$m "
                                            "k=8192 n=8192 dtype=bf16 : bound}}-bound.\n"));
    REQUIRE(doc.problems.isEmpty());
    REQUIRE(doc.blocks.size() == 1);
    const DocBlock &p = doc.blocks[0];
    REQUIRE(p.inputs.size() == 1);
    CHECK(p.inputs[0].name == QStringLiteral("m"));
    CHECK(p.inputs[0].logarithmic);
    const auto small = course::fillBlock(p, QStringLiteral("v5e"), {});
    const auto large = course::fillBlock(p, QStringLiteral("v5e"), {{QStringLiteral("m"), 4096}});
    CHECK(small.html[0].contains(QStringLiteral("href=\"input:m:0\"")));
    CHECK(plain(small.html[0]).contains(QStringLiteral("memory-bound")));
    CHECK(plain(large.html[0]).contains(QStringLiteral("compute-bound")));
    CHECK(plain(large.html[0]).contains(QStringLiteral("4096 rows")));
    CHECK(small.details[0].startsWith(QStringLiteral("input")));
    CHECK(small.details[1].startsWith(QStringLiteral("predicted · v5e")));
}

TEST_CASE("table cells split on the decimal point of their number, tags kept balanced", "[reader]")
{
    const auto split =
        course::splitAtDecimal(QStringLiteral("<a href=\"value:3\" style=\"color:#8a5b00;\"><b>697.7&nbsp;µs</b></a>"));
    REQUIRE(split);
    CHECK(split->first == QStringLiteral("<a href=\"value:3\" style=\"color:#8a5b00;\"><b>697</b></a>"));
    CHECK(split->second == QStringLiteral("<a href=\"value:3\" style=\"color:#8a5b00;\"><b>.7&nbsp;µs</b></a>"));
    CHECK(course::splitAtDecimal(QStringLiteral("1,024 rows"))->first == QStringLiteral("1,024"));
    CHECK(course::splitAtDecimal(QStringLiteral("~2.5×"))->second == QStringLiteral(".5×"));
    CHECK_FALSE(course::splitAtDecimal(QStringLiteral("v5e")));
    CHECK_FALSE(course::splitAtDecimal(QStringLiteral("<b>hang</b>")));
}

TEST_CASE("a table aligns a column on its decimal point only when it holds numbers in one unit", "[reader]")
{
    const QString md = QStringLiteral(
        "| figure | v5e | time | VMEM |\n|---|---|---|---|\n"
        "| peak | 197 TFLOP/s | 1.5 ms | 2 × 256 × 1000 × 4 B ≈ 2 MB |\n"
        "| HBM | 16 GiB | 350.0 µs | — |\n"
        "| links | 4 | 12 ms | 2 KiB |\n");
    const course::ChapterDocument doc = course::parseChapter(md);
    REQUIRE(doc.blocks.size() == 1);
    const auto cells = course::fillBlock(doc.blocks[0], QStringLiteral("v5e"), {});
    // Unrelated quantities, an arithmetic in words: not aligned. Times in
    // two units are not like numbers either.
    CHECK(cells.numericColumns == QList<bool>{false, false, false, false});

    const QString same = QStringLiteral("| op | time |\n|---|---|\n| a | 1.5 ms |\n| b | 12 ms |\n| c | — |\n");
    const auto aligned = course::fillBlock(course::parseChapter(same).blocks[0], QStringLiteral("v5e"), {});
    CHECK(aligned.numericColumns == QList<bool>{false, true});
    // The half after the point keeps its space: "12 ms", not "12ms".
    CHECK(plain(aligned.leftParts[5] + aligned.rightParts[5]) == QStringLiteral("12 ms"));
    CHECK(course::splitAtDecimal(QStringLiteral("1 MiB"))->second == QStringLiteral("&nbsp;MiB"));
}

TEST_CASE("inline code does not break at its spaces", "[reader]")
{
    const course::ChapterDocument doc = course::parseChapter(QStringLiteral("Call `pl.cdiv(1000, 256)` once.\n"));
    const auto filled = course::fillBlock(doc.blocks[0], QStringLiteral("v5e"), {});
    CHECK(filled.html[0].contains(QStringLiteral("pl.&#8288;cdiv(1000,&nbsp;256)")));
    CHECK(plain(filled.html[0]) == QStringLiteral("Call pl.cdiv(1000, 256) once."));
}

TEST_CASE("inline code is drawn as typed: no ligature joins its operators", "[reader]")
{
    const course::ChapterDocument doc =
        course::parseChapter(QStringLiteral("Read `'bhqd,bhkd->bhqk'`, `a != b`, `x <= y` and `p && q`.\n"));
    const auto filled = course::fillBlock(doc.blocks[0], QStringLiteral("v5e"), {});
    const QString html = filled.html[0];
    // A zero-width non-joiner between each pair of operator characters (and
    // a word joiner after each operator).
    CHECK(html.contains(QStringLiteral("bhkd-&#8288;&#8204;&gt;&#8288;bhqk")));
    CHECK(html.contains(QStringLiteral("a&nbsp;!&#8288;&#8204;=&#8288;&nbsp;b")));
    CHECK(html.contains(QStringLiteral("x&nbsp;&lt;&#8288;&#8204;=&#8288;&nbsp;y")));
    CHECK(html.contains(QStringLiteral("p&nbsp;&amp;&#8288;&#8204;&amp;&#8288;&nbsp;q")));
    // What a reader sees, the joiners aside, is the code as written.
    CHECK(plain(html).remove(QChar(0x200C)).remove(QChar(0x2060)) ==
          QStringLiteral("Read 'bhqd,bhkd->bhqk', a != b, x <= y and p && q."));
}

TEST_CASE("a line never breaks inside inline code, at its operators either", "[reader]")
{
    const course::ChapterDocument doc =
        course::parseChapter(QStringLiteral("The ratio `peak FLOP/s / bandwidth` and `x-y` and `a.b/c` close it.\n"));
    const auto filled = course::fillBlock(doc.blocks[0], QStringLiteral("v5e"), {});
    // The text as laid out: its no-break spaces and word joiners kept.
    QTextDocument laidOut;
    laidOut.setHtml(filled.html[0]);
    const QString text = laidOut.toRawText();
    // Where Qt's line breaking (UAX #14) may end a line: never inside the code.
    QTextBoundaryFinder lines(QTextBoundaryFinder::Line, text);
    // Each span from the space before it to the space after it.
    for (const auto &[first, last] : {std::pair{QStringLiteral(" peak"), QStringLiteral("bandwidth ")},
                                      std::pair{QStringLiteral(" x"), QStringLiteral("y ")},
                                      std::pair{QStringLiteral(" a."), QStringLiteral("c ")}}) {
        const qsizetype from = text.indexOf(first) + 1;
        const qsizetype to = text.indexOf(last, from) + last.size() - 1;
        REQUIRE(from > 0);
        REQUIRE(to > from);
        INFO(text.mid(from, to - from).toStdString());
        for (qsizetype i = from + 1; i < to; ++i) {
            lines.setPosition(i);
            CHECK_FALSE(lines.isAtBoundary());
        }
    }
}

TEST_CASE("code is coloured by language, comments and strings shadowing what they contain", "[reader]")
{
    using course::CodeToken;
    const QString py = QStringLiteral("def f(x):  # return 1\n    return \"def\" + 2\n");
    const auto spans = course::codeSpans(py, QStringLiteral("python"));
    const auto kindAt = [&](const QString &code, const QList<course::CodeSpan> &list, const QString &word,
                            int from = 0) {
        const int at = static_cast<int>(code.indexOf(word, from));
        for (const auto &s : list)
            if (s.start <= at && at < s.start + s.length)
                return s.kind;
        return CodeToken::Plain;
    };
    CHECK(kindAt(py, spans, QStringLiteral("def")) == CodeToken::Keyword);
    CHECK(kindAt(py, spans, QStringLiteral("# return")) == CodeToken::Comment);
    CHECK(kindAt(py, spans, QStringLiteral("\"def\"")) == CodeToken::String);
    CHECK(kindAt(py, spans, QStringLiteral("2")) == CodeToken::Number);

    const QString hlo = QStringLiteral(
        "ENTRY %main (p0: f32[8,128]) -> f32[8,128] {\n  ROOT %add.1 = f32[8,128]{1,0} add(%p0, %p0)\n}");
    const auto h = course::codeSpans(hlo, QStringLiteral("hlo"));
    CHECK(kindAt(hlo, h, QStringLiteral("ENTRY")) == CodeToken::Keyword);
    CHECK(kindAt(hlo, h, QStringLiteral("%add.1")) == CodeToken::Value);
    CHECK(kindAt(hlo, h, QStringLiteral("f32[8,128]{1,0}")) == CodeToken::Type);
    CHECK(kindAt(hlo, h, QStringLiteral("add(")) == CodeToken::Op);

    const QString mlir = QStringLiteral("%0 = stablehlo.dot_general %a, %b : (tensor<8x128xf32>) -> tensor<8x8xf32>");
    const auto m = course::codeSpans(mlir, QStringLiteral("stablehlo"));
    CHECK(kindAt(mlir, m, QStringLiteral("stablehlo.dot_general")) == CodeToken::Op);
    CHECK(kindAt(mlir, m, QStringLiteral("tensor<8x128xf32>")) == CodeToken::Type);

    // Styled text keeps every character and never lets the markup in.
    const course::CodePalette palette{Qt::black, Qt::blue,    Qt::green,   Qt::red,     Qt::gray,
                                      Qt::cyan,  Qt::magenta, Qt::darkRed, Qt::darkGray};
    QString styled = course::codeStyledText(QStringLiteral("a < b -> c"), QStringLiteral("python"), palette);
    CHECK(styled.contains(QStringLiteral("&lt;")));
    // "->" keeps its two characters: a zero-width non-joiner stops the font's arrow ligature.
    CHECK(plain(styled.replace(QLatin1String("<br>"), QLatin1String("\n"))) == QStringLiteral("a < b -\u200c> c"));
}

TEST_CASE("styled code comes in pieces of whole lines, each short enough to be laid out once", "[reader][course]")
{
    const course::CodePalette palette{Qt::black, Qt::blue,    Qt::green,   Qt::red,     Qt::gray,
                                      Qt::cyan,  Qt::magenta, Qt::darkRed, Qt::darkGray};
    // A string that runs over three lines, then enough lines to need pieces.
    QString code = QStringLiteral("s = \"\"\"one\ntwo\nthree\"\"\"\n");
    for (int i = 0; i < 200; ++i)
        code += QStringLiteral("x_%1 = max(x_%1, 0.5 * y)  # clamp\n").arg(i);
    const QString whole = course::codeStyledText(code, QStringLiteral("python"), palette);
    const QStringList pieces = course::codeStyledChunks(code, QStringLiteral("python"), palette, 2000);
    REQUIRE(pieces.size() > 2);
    // Joined again, the pieces are the whole: no line lost, split or doubled.
    CHECK(pieces.join(QLatin1String("<br>")) == whole);
    for (const QString &piece : pieces) {
        CHECK(piece.size() <= 2000);
        CHECK(piece.count(QLatin1String("<font")) == piece.count(QLatin1String("</font>")));
        CHECK_FALSE(piece.startsWith(QLatin1String("<br>")));
    }
    // The string's colour is closed at each line's end and opened again on the next.
    const QStringList firstLines = whole.split(QLatin1String("<br>")).mid(0, 3);
    for (const QString &line : firstLines)
        CHECK(line.count(QLatin1String("<font")) == line.count(QLatin1String("</font>")));
    // (A zero-width non-joiner keeps the quotes from joining into a ligature.)
    CHECK(plain(whole)
              .replace(QChar(0x2028), QLatin1Char('\n'))
              .remove(QChar(0x200c))
              .startsWith(QStringLiteral("s = \"\"\"one\ntwo\nthree\"\"\"\nx_0 = ")));
}

TEST_CASE("no text of the course is long enough for Qt Quick to lay it out again on every scroll", "[reader][course]")
{
    // Qt Quick 6.4 sets a Text over 10,000 characters line by line as it
    // comes into view (qquicktext.cpp, QQUICKTEXT_LARGETEXT_THRESHOLD): on
    // every frame of a scroll past it.
    constexpr qsizetype qtLargeText = 10000;
    const course::CodePalette palette{Qt::black, Qt::blue,    Qt::green,   Qt::red,     Qt::gray,
                                      Qt::cyan,  Qt::magenta, Qt::darkRed, Qt::darkGray};
    int codeBlocks = 0;
    for (const QString &folder : chapterFolders()) {
        const course::ChapterDocument doc = course::parseChapter(chapterMarkdown(folder));
        for (const course::DocBlock &block : doc.blocks) {
            INFO(folder.toStdString() << ": " << block.code.left(60).toStdString()
                                      << block.texts.value(0).left(60).toStdString());
            for (const QString &text : block.texts)
                CHECK(text.size() < qtLargeText / 2); // room for its live numbers' markup
            if (block.kind != course::DocBlock::Kind::Code)
                continue;
            ++codeBlocks;
            for (const QString &piece : course::codeStyledChunks(block.code, block.language, palette))
                CHECK(piece.size() <= qtLargeText);
        }
    }
    CHECK(codeBlocks > 20);
}

TEST_CASE("every chapter sets without problems, and every built piece is in its chapter's text", "[reader][course]")
{
    int pieces = 0;
    for (const QString &folder : chapterFolders()) {
        INFO(folder.toStdString());
        const course::ChapterDocument doc = course::parseChapter(chapterMarkdown(folder));
        for (const QString &p : doc.problems)
            UNSCOPED_INFO(p.toStdString());
        CHECK(doc.problems.isEmpty());
        QSet<QString> inline_;
        for (const DocBlock &b : doc.blocks)
            if (b.kind == DocBlock::Kind::Piece)
                inline_ << b.pieceId;
        const QJsonObject meta =
            QJsonDocument::fromJson(
                readText(kChapters + QLatin1Char('/') + folder + QStringLiteral("/chapter.json")).toUtf8())
                .object();
        for (const QJsonValue &v : meta.value(QStringLiteral("pieces")).toArray()) {
            const QString id = v.toObject().value(QStringLiteral("id")).toString();
            if (v.toObject().value(QStringLiteral("kind")).toString() == QStringLiteral("lab"))
                continue; // labs have their cards on the chapter page
            const bool built = QFile::exists(kChapters + QLatin1Char('/') + folder + QStringLiteral("/pieces/") + id +
                                             QStringLiteral(".qml"));
            INFO(id.toStdString() << (built ? " is built" : " is not built"));
            CHECK(inline_.contains(id) == built);
            pieces += built ? 1 : 0;
        }
    }
    CHECK(pieces >= 7);
}

// A chip's published figure typed into the prose goes stale the moment the
// learner picks another chip: it must be a live value. Quotes of sources
// (the Sources section) are exempt; code is not prose.
TEST_CASE("no chip-table figure is typed into a chapter's prose or its exhibits", "[reader][course]")
{
    QSet<QString> figures;
    const char *facts[] = {"peak_bf16",          "peak_int8",          "peak_fp8",       "hbm_bandwidth",
                           "hbm_capacity",       "vmem_per_core",      "smem_per_core",  "scoped_vmem_default",
                           "ici_link_bandwidth", "ici_chip_bandwidth", "ici_hop_latency"};
    for (const auto &chip : tpusim::all_chips())
        for (const char *fact : facts) {
            try {
                const auto v = course::live::resolve(
                    course::live::parse(std::string("chip fact=") + fact + " chip=" + chip.id + " : value"), chip.id);
                if (v.text.empty() || !std::isdigit(static_cast<unsigned char>(v.text.front())))
                    continue;
                // As the page shows it, and as a hand would type it ("16 GiB", "197 TFLOPs").
                const QString shown = QString::fromStdString(v.text);
                for (QString f : {shown, QString(shown).replace(QStringLiteral(".0 "), QStringLiteral(" "))}) {
                    figures << f;
                    figures << f.replace(QStringLiteral("FLOP/s"), QStringLiteral("FLOPs"));
                }
            } catch (const std::exception &) {
                // not published for this chip
            }
        }
    REQUIRE(figures.size() > 20);

    QStringList typed;
    auto scan = [&](const QString &folder, const course::ChapterDocument &doc) {
        bool sources = false;
        for (const DocBlock &block : doc.blocks) {
            if (block.kind == DocBlock::Kind::Heading)
                sources = block.title.startsWith(QStringLiteral("Sources"));
            if (sources || block.kind == DocBlock::Kind::Code || block.kind == DocBlock::Kind::Piece)
                continue;
            const auto filled = course::fillBlock(block, QStringLiteral("v5e"), {});
            for (QString html : filled.html) {
                html.remove(QRegularExpression(QStringLiteral("<a href=\"(value|input):[^\"]*\"[^>]*>.*?</a>")));
                const QString text = plain(html);
                for (const QString &figure : figures) {
                    // A size is a chip's only when it is said to be one: "16 MiB of
                    // VMEM", not a 16 MiB array.
                    const bool size = figure.endsWith(QLatin1String("iB"));
                    const QRegularExpression rx(
                        size ? QStringLiteral(
                                   "(?<![\\d.])%1( of)?( scoped)? (VMEM|HBM|SMEM)|(VMEM|HBM|SMEM) (of|is|has) %1")
                                   .arg(QRegularExpression::escape(figure))
                             : QStringLiteral("(?<![\\d.])") + QRegularExpression::escape(figure));
                    const auto m = rx.match(text);
                    if (m.hasMatch())
                        typed << QStringLiteral("%1: \"%2\" in \"…%3…\"")
                                     .arg(folder, figure,
                                          text.mid(std::max<qsizetype>(0, m.capturedStart() - 50), 100));
                }
            }
        }
    };
    for (const QString &folder : chapterFolders()) {
        scan(folder, course::parseChapter(chapterMarkdown(folder)));
        // Its exhibits' artifacts and notes are prose too.
        const QString exhibits = kChapters + QLatin1Char('/') + folder + QStringLiteral("/exhibits/");
        for (const QString &id : QDir(exhibits).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QString dir = exhibits + id + QLatin1Char('/');
            const course::Exhibit ex =
                course::parseExhibit(readText(dir + QStringLiteral("artifact.md")),
                                     readText(dir + QStringLiteral("annotations.json")).toUtf8(), {});
            scan(folder + QLatin1Char(' ') + id, ex.artifact);
            scan(folder + QLatin1Char(' ') + id, ex.notes);
        }
    }
    for (const QString &t : typed)
        UNSCOPED_INFO(t.toStdString());
    CHECK(typed.isEmpty());
}
