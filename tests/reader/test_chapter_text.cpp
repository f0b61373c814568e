#include <catch2/catch.hpp>

#include "chapterfiles.h"

#include <chapters/chapterdocument.h>
#include <chapters/livetext.h>

#include <tpusim/chips.h>
#include <tpusim/ir.h>
#include <tpusim/provenance.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTextDocument>

using namespace chapterfiles;

namespace {

// A chapter's Markdown as the reader sets it for `chip`: every block's
// text filled and joined, what each value is, and what went wrong.
struct Rendered
{
    QString html;
    QStringList details;
    QStringList problems;
    int values = 0;
    int refusals = 0;
};

Rendered render(const QString &markdown, const QString &chip)
{
    const course::ChapterDocument doc = course::parseChapter(markdown);
    Rendered out;
    out.problems = doc.problems;
    for (const course::DocBlock &block : doc.blocks) {
        const course::FilledBlock filled = course::fillBlock(block, chip, {});
        out.html += filled.html.join(QStringLiteral("<br>")) + QStringLiteral("<br>");
        out.details += filled.details;
        out.problems += filled.problems;
        out.values += filled.values;
        out.refusals += filled.refusals;
    }
    // Values keep their spaces and slashes on one line; read them plainly here.
    out.html.replace(QLatin1String("&nbsp;"), QLatin1String(" ")).remove(QStringLiteral("&#8288;"));
    return out;
}

QList<course::DocBlock> codeBlocks(const QString &markdown)
{
    QList<course::DocBlock> code;
    for (const course::DocBlock &block : course::parseChapter(markdown).blocks)
        if (block.kind == course::DocBlock::Kind::Code)
            code << block;
    return code;
}

} // namespace

TEST_CASE("a live number renders as the simulator's value, with what it is", "[text]")
{
    const auto t = render(QStringLiteral("A cube takes {{matmul m=4096 k=4096 n=4096 dtype=bf16 : time}} and is "
                                         "{{matmul m=4096 k=4096 n=4096 dtype=bf16 : bound}}-bound; HBM reads at "
                                         "{{chip fact=hbm_bandwidth : value}}. Literal \\{{braces}} stay."),
                          QStringLiteral("v5e"));
    CHECK(t.problems.isEmpty());
    CHECK(t.values == 3);
    CHECK(t.html.contains(QStringLiteral("697.7 µs")));
    CHECK(t.html.contains(QStringLiteral(">compute<")));
    CHECK(t.html.contains(QStringLiteral("820 GB/s")));
    CHECK(t.html.contains(QStringLiteral("{{braces}}")));
    REQUIRE(t.details.size() == 3);
    CHECK(t.details[0].startsWith(QStringLiteral("predicted · v5e")));
    CHECK(t.details[2].contains(QStringLiteral("published figure")));

    // The same text on another chip gives that chip's figure.
    const auto v6e = render(QStringLiteral("{{chip fact=hbm_bandwidth : value}}"), QStringLiteral("v6e"));
    CHECK(v6e.html.contains(QStringLiteral("1.64 TB/s")));
}

TEST_CASE("a figure the simulator assumes is set apart from published ones", "[text]")
{
    // v5e's scoped VMEM default is no source's figure: assumed, in its own colour.
    const course::LiveTextStyle style;
    const auto assumed = render(QStringLiteral("{{chip fact=scoped_vmem_default : value}}"), QStringLiteral("v5e"));
    REQUIRE(assumed.details.size() == 1);
    CHECK(assumed.details[0].startsWith(QStringLiteral("assumed · ")));
    CHECK(assumed.html.contains(style.assumed.name()));
    const auto published = render(QStringLiteral("{{chip fact=hbm_bandwidth : value}}"), QStringLiteral("v5e"));
    CHECK(published.details[0].startsWith(QStringLiteral("published · ")));
    CHECK_FALSE(published.html.contains(style.assumed.name()));
    CHECK(style.assumed != style.fact);
    CHECK(style.assumed != style.predicted);
}

TEST_CASE("a malformed or unknown placeholder is reported with its line, never dropped", "[text]")
{
    const auto t = render(QStringLiteral("fine\n{{matmul m=8 k=8 : time}}\n{{warp n=1 : value}}\n{{matmul m=8 k=8 n=8 "
                                         ": speed}}\n{{matmul m=8 k=8 n=8 time}}"),
                          QStringLiteral("v5e"));
    REQUIRE(t.problems.size() == 4);
    CHECK(t.problems[0].startsWith(QStringLiteral("line 2:")));
    CHECK(t.problems[0].contains(QStringLiteral("\"n=\"")));
    CHECK(t.problems[1].contains(QStringLiteral("not a kind")));
    CHECK(t.problems[2].contains(QStringLiteral("no field \"speed\"")));
    CHECK(t.problems[3].contains(QStringLiteral(": FIELD")));
    CHECK(t.values == 0);
}

TEST_CASE("a sound question the model refuses on a chip is shown as such, not hidden", "[text]")
{
    // 8 x 4096 x 1024 bf16 weight blocks, double-buffered, overflow v5e's
    // 16 MiB scoped VMEM but fit v6e's 32 MiB.
    const QString md = QStringLiteral("{{pipeline m=8 k=4096 n=4096 bm=8 bk=4096 bn=1024 dtype=bf16 : time}}");
    const auto v5e = render(md, QStringLiteral("v5e"));
    CHECK(v5e.problems.isEmpty());
    CHECK(v5e.refusals == 1);
    CHECK(v5e.html.contains(QStringLiteral("not on v5e")));
    CHECK(v5e.details.first().contains(QStringLiteral("VMEM")));
    const auto v6e = render(md, QStringLiteral("v6e"));
    CHECK(v6e.refusals == 0);
    CHECK(v6e.values == 1);
}

// A figure's card starts with its own arithmetic: the pipeline's time, VMEM
// and HBM traffic each with theirs, where all three once showed the model's
// assumptions alone.
TEST_CASE("a pipeline figure's card shows its own working first", "[text]")
{
    const QString md = QStringLiteral(
        "{{pipeline m=4096 k=4096 n=4096 bm=512 bk=1024 bn=1024 dtype=bf16 : vmem}} "
        "{{pipeline m=4096 k=4096 n=4096 bm=512 bk=1024 bn=1024 dtype=bf16 : time}} "
        "{{pipeline m=4096 k=4096 n=4096 bm=512 bk=1024 bn=1024 dtype=bf16 : hbm_bytes}}");
    const auto t = render(md, QStringLiteral("v5e"));
    REQUIRE(t.details.size() == 3);
    const QStringList vmem = t.details[0].split(QLatin1Char('\n'));
    CHECK(vmem[1] == QStringLiteral("x block (512, 1024) bf16: 2 × 1 MiB = 2 MiB"));
    CHECK(vmem[5].startsWith(QStringLiteral("in all: ")));
    CHECK(t.details[1].split(QLatin1Char('\n'))[1].endsWith(QStringLiteral("launch, the call's fixed cost")));
    CHECK(t.details[2].split(QLatin1Char('\n'))[2].endsWith(QStringLiteral("through HBM")));
    for (const QString &card : t.details)
        CHECK(card.indexOf(QStringLiteral("\nmodel:")) > card.indexOf(QLatin1Char('\n')));

    // A roofline's figures: the division a learner does by hand, first.
    const auto m = render(QStringLiteral("{{matmul m=4096 k=4096 n=4096 dtype=bf16 : time}}"), QStringLiteral("v5e"));
    REQUIRE(m.details.size() == 1);
    CHECK(m.details[0].split(QLatin1Char('\n'))[1] == QStringLiteral("137 GFLOP ÷ 197 TFLOP/s = 697.7 µs"));

    // A collective's: the closed form's terms, then the simulation.
    const auto c = render(QStringLiteral("{{collective op=all-gather mesh=4 axis=0 bytes=33554432 : time}}"),
                          QStringLiteral("v5e"));
    REQUIRE(c.details.size() == 1);
    CHECK(c.details[0].split(QLatin1Char('\n'))[1].startsWith(QStringLiteral("closed form: the larger of")));
    CHECK(c.details[0].split(QLatin1Char('\n'))[2] == QStringLiteral("hop by hop: 48 chunk hops, 560.2 µs"));
}

TEST_CASE("every placeholder in every chapter resolves on every chip", "[text][course]")
{
    const QStringList folders = chapterFolders();
    REQUIRE(folders.size() == 15);
    int placeholders = 0;
    for (const QString &folder : folders) {
        for (const char *file : {"intro.md", "text.md"}) {
            const QString md = readText(kChapters + QLatin1Char('/') + folder + QLatin1Char('/') + QLatin1String(file));
            if (md.isEmpty())
                continue;
            for (const auto &chip : tpusim::all_chips()) {
                INFO(folder.toStdString() << "/" << file << " on " << chip.id);
                const auto t = render(md, QString::fromStdString(chip.id));
                for (const QString &p : t.problems)
                    UNSCOPED_INFO(p.toStdString());
                CHECK(t.problems.isEmpty());
                if (chip.id == "v5e")
                    placeholders += t.values;
            }
        }
    }
    CHECK(placeholders > 300);
}

TEST_CASE("every jaxpr, StableHLO and HLO block in the chapters parses", "[text][course]")
{
    int blocks = 0;
    for (const QString &folder : chapterFolders()) {
        for (const char *file : {"intro.md", "text.md"}) {
            const QString md = readText(kChapters + QLatin1Char('/') + folder + QLatin1Char('/') + QLatin1String(file));
            for (const auto &block : codeBlocks(md)) {
                if (block.language != QLatin1String("jaxpr") && block.language != QLatin1String("stablehlo") &&
                    block.language != QLatin1String("hlo"))
                    continue;
                ++blocks;
                INFO(folder.toStdString()
                     << "/" << file << ": " << block.code.section(QLatin1Char('\n'), 0, 0).toStdString() << " ("
                     << block.language.toStdString() << ")");
                try {
                    const auto module = tpusim::ir::parse(block.code.toStdString(),
                                                          tpusim::ir::parse_format(block.language.toStdString()));
                    CHECK_FALSE(module.computations.empty());
                } catch (const std::exception &e) {
                    FAIL_CHECK(e.what());
                }
            }
        }
    }
    CHECK(blocks >= 15);
}

namespace {

QString chapterText(const char *folder)
{
    return readText(kChapters + QLatin1Char('/') + QLatin1String(folder) + QStringLiteral("/text.md"));
}

// The value one placeholder renders as: the text of its link in the page.
QString rendered(const QString &placeholder, const char *chip)
{
    const auto t = render(placeholder, QLatin1String(chip));
    INFO(placeholder.toStdString() << " on " << chip);
    REQUIRE(t.problems.isEmpty());
    REQUIRE(t.values == 1);
    const auto m = QRegularExpression(QStringLiteral("<a href=\"value:0\"[^>]*><b>([^<]*)</b></a>")).match(t.html);
    REQUIRE(m.hasMatch());
    return m.captured(1);
}

QString firstPlaceholder(const QString &text, const QString &pattern)
{
    const auto m = QRegularExpression(pattern).match(text);
    return m.hasMatch() ? m.captured(0) : QString();
}

} // namespace

// Chapter 13's naive program asks its first contraction for f32 scores; the
// table's "score matrix held in HBM" must be that tensor's size, as the
// StableHLO block types it, not the size of bf16 scores.
TEST_CASE("chapter 13: the score matrix is counted in the dtype the naive program writes", "[text][course]")
{
    const QString text = chapterText("13-priesthood-kernels");
    QString scoresType;
    for (const auto &block : codeBlocks(text))
        if (block.language == QLatin1String("stablehlo") && scoresType.isEmpty()) {
            const auto m =
                QRegularExpression(QStringLiteral("%0 = stablehlo\\.dot_general[^\\n]*-> tensor<([0-9x]+)x(f32|bf16)>"))
                    .match(block.code);
            if (m.hasMatch())
                scoresType = m.captured(1) + QLatin1Char(':') + m.captured(2);
        }
    REQUIRE_FALSE(scoresType.isEmpty());
    const QStringList parts = scoresType.split(QLatin1Char(':'));
    double elements = 1;
    for (const QString &d : parts[0].split(QLatin1Char('x')))
        elements *= d.toDouble();
    const double width = parts[1] == QLatin1String("f32") ? 4 : 2;

    const QString placeholder = firstPlaceholder(text, QStringLiteral("\\{\\{attention [^}]*: score_bytes\\}\\}"));
    REQUIRE_FALSE(placeholder.isEmpty());
    // The table's shape is the block's: 2 x 16 heads of 4096 x 4096 scores.
    CHECK(placeholder.contains(QStringLiteral("seq=4096")));
    CHECK(elements == 32.0 * 4096 * 4096);
    CHECK(rendered(placeholder, "v5e") == QString::fromStdString(tpusim::format_bytes(elements * width)));
    CHECK(width == 4);
}

// Chapter 8 names the batch at which v5e and v6e part ways on an
// [M, 8192] x [8192, 8192] bf16 matmul: at that batch one chip is
// compute-bound and the other memory-bound, and at half of it both are
// memory-bound.
TEST_CASE("chapter 8: the two chips part ways at the batch the text shows", "[text][course]")
{
    const QString text = chapterText("08-chip");
    const int at = text.indexOf(QStringLiteral("the two chips part ways"));
    REQUIRE(at >= 0);
    const auto m =
        QRegularExpression(QStringLiteral("a:bf16\\[([0-9]+),8192\\] b:bf16\\[8192,8192\\]")).match(text, at);
    REQUIRE(m.hasMatch());
    const QString batch = m.captured(1);
    const auto bound = [](const QString &rows, const char *chip) {
        return rendered(QStringLiteral("{{matmul m=%1 k=8192 n=8192 dtype=bf16 : bound}}").arg(rows), chip);
    };
    CHECK(bound(batch, "v5e") == QStringLiteral("compute"));
    CHECK(bound(batch, "v6e") == QStringLiteral("memory"));
    const QString half = QString::number(batch.toInt() / 2);
    CHECK(bound(half, "v5e") == QStringLiteral("memory"));
    CHECK(bound(half, "v6e") == QStringLiteral("memory"));
    // The sentence under the jaxpr asks the simulator about that same batch.
    CHECK(text.contains(QStringLiteral("{{matmul m=%1 k=8192 n=8192 dtype=bf16 chip=v5e : bound}}").arg(batch)));
}

// Chapter 14's collective matmul: n matmuls against n - 1 transfers, so on a
// chip whose step transfer is shorter than its step matmul nothing is
// exposed, and where it is longer, (n - 1)(T_x - T_c) is.
TEST_CASE("chapter 14: the collective matmul's exposure follows the schedule", "[text][course]")
{
    const QString text = chapterText("14-distributed-pallas");
    const QString ratio = QStringLiteral("{{collective_matmul m=8192 k=8192 n=32768 devices=4 dtype=bf16 : ratio}}");
    REQUIRE(text.contains(ratio));
    CHECK(rendered(ratio, "v5e") == QStringLiteral("1.00×"));
    const QString onV6e = rendered(ratio, "v6e");
    CHECK(onV6e.chopped(1).toDouble() > 1.15); // the chapter sends the reader there to watch it fail
    CHECK_FALSE(text.contains(QStringLiteral("improves with more, smaller steps")));
    CHECK_FALSE(text.contains(QStringLiteral("first step's transfer that nothing can hide")));
}

TEST_CASE("the production kernels' live numbers: a quantized matmul and a paged decode step", "[text]")
{
    // int8 weights halve a decode-sized matmul's bytes, so its time; a chip
    // with no published int8 rate says so instead of predicting.
    const double speedup =
        rendered(QStringLiteral("{{quantized_matmul m=8 k=8192 n=8192 scheme=w8a16 : speedup}}"), "v5e")
            .chopped(1)
            .toDouble();
    CHECK(speedup > 1.8);
    CHECK(speedup < 2.05);
    CHECK(rendered(QStringLiteral("{{quantized_matmul m=8 k=8192 n=8192 scheme=w8a16 : saved}}"), "v6e")
              .startsWith(QStringLiteral("49.")));
    CHECK(rendered(QStringLiteral("{{quantized_matmul m=4096 k=8192 n=8192 scheme=w8a8 : time}}"), "v7") ==
          QStringLiteral("no published int8 rate"));
    CHECK(rendered(QStringLiteral("{{quantized_matmul m=4096 k=8192 n=8192 scheme=fp8 : mxu_rate}}"), "v5e") ==
          QStringLiteral("no published fp8 rate"));
    // 20 tokens in pages of 16, one page a step, 2 KV heads of 128 in bf16:
    // 2 blocks x 16 slots x 2 heads x 128 x 2 (K and V) x 2 B.
    CHECK(rendered(QStringLiteral("{{decode context=20 heads=4 kv_heads=2 page=16 pages_per_block=1 : kv_bytes}}"),
                   "v5e") == QStringLiteral("32 KiB"));
    CHECK(rendered(QStringLiteral("{{decode context=20 heads=4 kv_heads=2 page=16 pages_per_block=1 : padding}}"),
                   "v5e") == QStringLiteral("37.5 %"));
    CHECK(rendered(QStringLiteral("{{decode context=512,4096,1000 heads=8 : steps}}"), "v5e") ==
          QString::number(8 * (4 + 32 + 8)));
    for (const char *wrong :
         {"{{decode context=512,4096 batch=3 heads=8 : time}}", "{{decode context=0 heads=8 : time}}",
          "{{quantized_matmul m=8 k=8 n=8 scheme=int4 : time}}", "{{decode context=8 : speed}}"}) {
        INFO(wrong);
        CHECK_FALSE(render(QString::fromLatin1(wrong), QStringLiteral("v5e")).problems.isEmpty());
    }
    // Well written, but refused by the model: 128-row scale blocks do not divide K = 1000.
    CHECK(render(QStringLiteral("{{quantized_matmul m=8 k=1000 n=8 scales=block : time}}"), QStringLiteral("v5e"))
              .refusals == 1);
}

TEST_CASE("rendered on every chip, no sentence says a unit twice or leans on a figure that is not there",
          "[text][course]")
{
    // A live value brings its unit; the words around it must not repeat it
    // ("240 FLOP/B rows", "820 GB/s GB/s"), and a refusal or an unpublished
    // figure must not be compared with anything ("not published, against").
    const QList<QRegularExpression> wrong{
        QRegularExpression(QStringLiteral("FLOP/B (FLOPs?|FLOP per|rows|FLOP/byte)\\b")),
        QRegularExpression(QStringLiteral("\\b(µs|ms|GB/s|TB/s|TFLOP/s|PFLOP/s|MiB|GiB) \\1\\b")),
        QRegularExpression(QStringLiteral("not published,? (against|than|compared)")),
        QRegularExpression(QStringLiteral("not on v\\w+,? (against|than|compared)")),
        QRegularExpression(QStringLiteral("no published (int8|fp8) rate,? (against|than|compared)")),
    };
    for (const QString &folder : chapterFolders()) {
        for (const char *file : {"intro.md", "text.md"}) {
            const QString md = readText(kChapters + QLatin1Char('/') + folder + QLatin1Char('/') + QLatin1String(file));
            if (md.isEmpty())
                continue;
            for (const auto &chip : tpusim::all_chips()) {
                QTextDocument doc;
                doc.setHtml(render(md, QString::fromStdString(chip.id)).html);
                const QString plain = doc.toPlainText();
                for (const QRegularExpression &rx : wrong) {
                    const auto m = rx.match(plain);
                    INFO(folder.toStdString()
                         << "/" << file << " on " << chip.id << ": \""
                         << plain.mid(std::max<qsizetype>(0, m.capturedStart() - 60), 120).toStdString() << "\"");
                    CHECK_FALSE(m.hasMatch());
                }
            }
        }
    }
}

// An expert review's thirteen corrections, each held against the statement
// it replaced and, where a number is involved, against the simulator.
TEST_CASE("the reviewed statements stay corrected", "[text][course]")
{
    const auto intro = [](const char *folder) {
        return readText(kChapters + QLatin1Char('/') + QLatin1String(folder) + QStringLiteral("/intro.md"));
    };
    // 1. reduce_max carries out_sharding, as the real dumps print it.
    for (const char *folder : {"02-jaxpr", "05-gap"}) {
        const QString text = chapterText(folder);
        CHECK_FALSE(text.contains(QStringLiteral("reduce_max[axes=(1,)] ")));
        CHECK(text.contains(QStringLiteral("reduce_max[axes=(1,) out_sharding=None]")));
    }
    CHECK_FALSE(chapterText("02-jaxpr").contains(QStringLiteral("while `reduce_max` has no such parameter")));
    // 2. relu and relu6: custom_jvp over jit.
    CHECK(chapterText("02-jaxpr")
              .contains(QStringLiteral("one `custom_jvp_call` equation whose inner jaxpr holds a `jit` equation")));
    // 3. Mosaic's passes left for libtpu, the dialect for openxla/xla.
    CHECK_FALSE(chapterText("07-mosaic").contains(QStringLiteral("its passes have since moved into XLA")));
    CHECK(chapterText("07-mosaic").contains(QStringLiteral("moved into libtpu")));
    // 4. Halving a v5e 16-chip axis removes its wraparound: no halving.
    CHECK_FALSE(chapterText("09-ici").contains(QStringLiteral("halving the ring would nearly halve it")));
    CHECK(
        rendered(QStringLiteral("{{collective op=all-gather mesh=8x16 axis=0 bytes=262144 chip=v5e : time}}"), "v5e") ==
        rendered(QStringLiteral("{{collective op=all-gather mesh=16x16 axis=0 bytes=262144 chip=v5e : time}}"), "v5e"));
    // 5. (8192, 8) f32 blocks fill v5e's scoped default: 4 MiB each, four of them.
    CHECK(rendered(QStringLiteral("{{layout shape=8192x8 dtype=f32 : padded_bytes}}"), "v5e") ==
          QStringLiteral("4 MiB"));
    CHECK(chapterText("07-mosaic").contains(QStringLiteral("needs a larger `vmem_limit_bytes`")));
    // 6. Fusion keeps numerics; XLA's simplifier need not.
    CHECK(chapterText("04-xla").contains(QStringLiteral("`exp(A)·exp(B)` into `exp(A+B)`")));
    // 7. A contraction with a big output is memory-bound only for small K.
    CHECK_FALSE(chapterText("12-ir-stack").contains(QStringLiteral("is memory-bound whatever its FLOPs")));
    // 8. A one-row bf16 array is tiled in 2 rows in memory, a whole vreg in registers.
    CHECK_FALSE(chapterText("07-mosaic").contains(QStringLiteral("still occupies a full 16-row tile")));
    CHECK_FALSE(chapterText("06-pallas").contains(QStringLiteral("scale vector therefore takes eight rows")));
    // 9. One W in chapter 9: one way per link; W_ici both ways.
    CHECK_FALSE(intro("09-ici").contains(QStringLiteral("where W is the two-way bandwidth")));
    CHECK(intro("09-ici").contains(QStringLiteral("W_ici = 2W")));
    // 10. One G0 criterion.
    CHECK(intro("10-machine").contains(QStringLiteral("|P − M| ≤ 0.25 × M")));
    CHECK(chapterText("10-machine").contains(QStringLiteral("|P − M| ≤ 0.25 × M")));
    // 11. The capstone's f32 reference at HIGHEST precision.
    CHECK(chapterText("15-capstone").contains(QStringLiteral("precision=jax.lax.Precision.HIGHEST")));
    // 12. 'bgqd,bkd->bgqk' is multi-query attention.
    CHECK_FALSE(
        chapterText("03-stablehlo").contains(QStringLiteral("grouped-query attention score `'bgqd,bkd->bgqk'`")));
    // 13. v6e turns compute-bound near 650 rows, as chapter 10 says.
    CHECK_FALSE(chapterText("08-chip").contains(QStringLiteral("v6e needs a batch of about 1024")));
    CHECK(rendered(QStringLiteral("{{matmul m=656 k=8192 n=8192 dtype=bf16 chip=v6e : bound}}"), "v6e") ==
          QStringLiteral("compute"));
    CHECK(rendered(QStringLiteral("{{matmul m=600 k=8192 n=8192 dtype=bf16 chip=v6e : bound}}"), "v6e") ==
          QStringLiteral("memory"));
}

TEST_CASE("a source tag is not broken across lines", "[text]")
{
    const course::ChapterDocument doc =
        course::parseChapter(QStringLiteral("The collectives are the book's [SB-TRAIN] and [CL-v5e-new]."));
    REQUIRE_FALSE(doc.blocks.isEmpty());
    const course::FilledBlock filled = course::fillBlock(doc.blocks.first(), QStringLiteral("v5e"), {});
    REQUIRE(filled.html.size() == 1);
    CHECK(filled.html[0].contains(QStringLiteral("[SB-&#8288;TRAIN]")));
    CHECK(filled.html[0].contains(QStringLiteral("[CL-&#8288;v5e-&#8288;new]")));
}
