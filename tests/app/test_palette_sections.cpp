// The palette's text search over the chapters' sections: what it ranks
// first, how its snippets read, and the live figures it finds.
#include <catch2/catch.hpp>

#include "palette/palettemodel.h"
#include "palettesteps.h"
#include "qtwait.h"
#include "reader/reader.h"
#include "shellfixture.h"

#include <chapters/chaptersearch.h>
#include <chapters/livenumbers.h>

#include <QQuickItem>
#include <QSignalSpy>
#include <QTest>

namespace {

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

// A section of a made-up chapter: its number, heading id, heading and text.
course::TextSection section(int chapter, const char *anchor, const char *heading, const QString &text)
{
    return {chapter, QString::fromLatin1(anchor), QString::fromLatin1(heading), text, 0, 0};
}

} // namespace

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
        section(1, "limits", "Limits", QStringLiteral("the scoped limit is … of VMEM")),
        section(2, "other", "Other", QStringLiteral("16 rows of MiB-sized words"))};
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
        section(4, "fusion", "What fusion cannot do",
                QStringLiteral("Tiling attention into blocks is an algorithm XLA was not given.") + filler),
        section(
            7, "layouts", "HBM layouts",
            QStringLiteral("The default tiling is 8 rows; a short array is tiled more tightly, and the tiling shows "
                           "in the layout XLA prints.") +
                filler),
        section(7, "tiling", "Tiling and its cost", QStringLiteral("What a tile costs.")),
        section(9, "rings", "Rings", QStringLiteral("A ring all-gather.") + filler)};
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
        section(
            7, "layouts", "HBM layouts",
            QStringLiteral("The default tiling is 8 rows; a short array is tiled more tightly, and the tiling shows "
                           "in the layout; a tiling XLA picks.") +
                filler),
        section(7, "sources", "Sources",
                QStringLiteral("Memory layouts and tiling, XLA documentation. Tiling in Mosaic, JAX source.")),
        section(9, "rings", "Rings", QStringLiteral("A ring all-gather.") + filler)};
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
        section(11, "traffic", "HBM traffic",
                QStringLiteral("The formula gives about 416 MiB and roughly 315 FLOP/B.") + filler),
        // As a filled figure reads: its number and unit joined by a no-break space.
        section(7, "budget", "The budget",
                filler + QStringLiteral(" The blocks take 16") + QChar(0x00a0) + QStringLiteral("MiB of VMEM."))};
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
    const QList<course::TextSection> sections{section(
        11, "tiled", "The tiled matmul",
        QStringLiteral(
            "def kernel(x_ref, o_ref): o_ref[...] = jnp.dot(x_ref[...], w_ref[...]) } } XLA is free to choose its own "
            "tiling for that op; your kernel has to match it."))};
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
