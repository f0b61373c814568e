#include <catch2/catch.hpp>

#include <chapters/livetext.h>

#include <tpusim/chips.h>
#include <tpusim/ir.h>

#include <QDir>
#include <QFile>

namespace {

const QString kChapters = QStringLiteral(TPU_COURSE_SOURCE_DIR "/chapters");

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QStringList chapterFolders()
{
    return QDir(kChapters).entryList({QStringLiteral("[0-9][0-9]-*")}, QDir::Dirs, QDir::Name);
}

} // namespace

TEST_CASE("a live number renders as the simulator's value, with what it is", "[text]")
{
    const auto t = course::renderLiveText(
        QStringLiteral("A cube takes {{matmul m=4096 k=4096 n=4096 dtype=bf16 : time}} and is "
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
    const auto v6e = course::renderLiveText(QStringLiteral("{{chip fact=hbm_bandwidth : value}}"), QStringLiteral("v6e"));
    CHECK(v6e.html.contains(QStringLiteral("1.64 TB/s")));
}

TEST_CASE("a malformed or unknown placeholder is reported with its line, never dropped", "[text]")
{
    const auto t = course::renderLiveText(QStringLiteral("fine\n{{matmul m=8 k=8 : time}}\n{{warp n=1 : value}}\n{{matmul m=8 k=8 n=8 : speed}}\n{{matmul m=8 k=8 n=8 time}}"),
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
    const auto v5e = course::renderLiveText(md, QStringLiteral("v5e"));
    CHECK(v5e.problems.isEmpty());
    CHECK(v5e.refusals == 1);
    CHECK(v5e.html.contains(QStringLiteral("not on v5e")));
    CHECK(v5e.details.first().contains(QStringLiteral("VMEM")));
    const auto v6e = course::renderLiveText(md, QStringLiteral("v6e"));
    CHECK(v6e.refusals == 0);
    CHECK(v6e.values == 1);
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
                const auto t = course::renderLiveText(md, QString::fromStdString(chip.id));
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
            for (const auto &block : course::fencedBlocks(md)) {
                if (block.language != QLatin1String("jaxpr") && block.language != QLatin1String("stablehlo") &&
                    block.language != QLatin1String("hlo"))
                    continue;
                ++blocks;
                INFO(folder.toStdString() << "/" << file << " line " << block.line << " (" << block.language.toStdString() << ")");
                try {
                    const auto module = tpusim::ir::parse(block.code.toStdString(), tpusim::ir::parse_format(block.language.toStdString()));
                    CHECK_FALSE(module.computations.empty());
                } catch (const std::exception &e) {
                    FAIL_CHECK(e.what());
                }
            }
        }
    }
    CHECK(blocks >= 15);
}
