#include <catch2/catch.hpp>

#include "imagefilewrite.h"
#include "support.h"

#include <progress/store.h>

#include <QColor>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>

namespace {

// How many distinct colours, and how far the image is from one flat fill.
struct ImageStats
{
    int colours = 0;
    double nonDominantShare = 0;
};

ImageStats stats(const QImage &image)
{
    QHash<QRgb, int> counts;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            ++counts[image.pixel(x, y)];
    int total = 0;
    int dominant = 0;
    for (int c : counts) {
        total += c;
        dominant = std::max(dominant, c);
    }
    return {static_cast<int>(counts.size()), total ? 1.0 - double(dominant) / total : 0.0};
}

} // namespace

TEST_CASE("screenshot mode writes a non-blank image of the requested size", "[screenshot][binary]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));

    struct Case
    {
        QString place;
        QSize size;
    };
    const QList<Case> cases{
        {QStringLiteral("stack"), QSize(1440, 900)},    {QStringLiteral("ch03"), QSize(1280, 800)},
        {QStringLiteral("workshop"), QSize(1440, 900)}, {QStringLiteral("palette"), QSize(1440, 900)},
        {QStringLiteral("bench"), QSize(1440, 900)},    {QStringLiteral("chips"), QSize(2560, 1440)},
    };
    for (const auto &c : cases) {
        INFO(c.place.toStdString());
        const QString out = dir.filePath(c.place + QStringLiteral(".png"));
        QStringList args{"--db", db, "--screenshot", out, "--open", c.place};
        if (c.size != QSize(1440, 900))
            args << "--size" << QStringLiteral("%1x%2").arg(c.size.width()).arg(c.size.height());
        const RunResult r = runApp(args);
        INFO(r.err.toStdString());
        REQUIRE(r.exitCode == 0);
        QImage image(out);
        REQUIRE_FALSE(image.isNull());
        CHECK(image.size() == c.size);
        const ImageStats s = stats(image);
        CHECK(s.colours > 50); // text, bands and badges, not a flat fill
        CHECK(s.nonDominantShare > 0.02);
    }
}

TEST_CASE("the first frame already shows the whole first screen", "[screenshot][binary]")
{
    // What start-up is timed by (--first-frame) must be a finished first
    // screen, not a half-made one: it matches the stack page saved once
    // every part of it is made, but for the scrollbar, whose handle
    // shrinks as the lower layers arrive.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    // At 1280x2000 the hatched gap between XLA and Pallas is on the first screen.
    for (const QSize size : {QSize(1440, 900), QSize(1920, 1080), QSize(1280, 2000)}) {
        const QString sizeArg = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        INFO(sizeArg.toStdString());
        const QString first = dir.filePath(QStringLiteral("first.png"));
        const QString whole = dir.filePath(QStringLiteral("whole.png"));
        const RunResult a = runApp({"--db", db, "--first-frame", first, "--size", sizeArg});
        INFO(a.err.toStdString());
        REQUIRE(a.exitCode == 0);
        const RunResult b = runApp({"--db", db, "--screenshot", whole, "--size", sizeArg});
        REQUIRE(b.exitCode == 0);
        const QImage x(first), y(whole);
        REQUIRE(x.size() == size);
        REQUIRE(y.size() == size);
        const int scrollbar = 24;
        int differing = 0;
        for (int row = 0; row < size.height(); ++row)
            for (int col = 0; col < size.width() - scrollbar; ++col)
                differing += x.pixel(col, row) != y.pixel(col, row);
        CHECK(differing == 0);
        CHECK(stats(x).colours > 50);
    }
}

TEST_CASE("--first-frame refuses --open and a name that is not a PNG", "[screenshot][binary]")
{
    QTemporaryDir dir;
    const RunResult withOpen =
        runApp({"--db", dir.filePath("p.sqlite"), "--first-frame", dir.filePath("x.png"), "--open", "ch03"});
    CHECK(withOpen.exitCode == 2);
    CHECK(withOpen.err.contains("--open"));
    const RunResult notPng = runApp({"--db", dir.filePath("p.sqlite"), "--first-frame", dir.filePath("x.jpg")});
    CHECK(notPng.exitCode == 2);
    CHECK(notPng.err.contains("x.jpg"));
    CHECK_FALSE(QFile::exists(dir.filePath("x.png")));
}

TEST_CASE("screenshot of an unknown place fails with exit 2", "[screenshot][binary]")
{
    QTemporaryDir dir;
    const RunResult r =
        runApp({"--db", dir.filePath("p.sqlite"), "--screenshot", dir.filePath("x.png"), "--open", "ch99"});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("ch99"));
    // A piece id of the right shape that the course does not have: the catalog says no.
    const RunResult piece =
        runApp({"--db", dir.filePath("p.sqlite"), "--screenshot", dir.filePath("x.png"), "--open", "EX99"});
    CHECK(piece.exitCode == 2);
    CHECK(piece.err.contains("cannot open \"EX99\": no such place in this course"));
    CHECK_FALSE(QFile::exists(dir.filePath("x.png")));
}

TEST_CASE("a chapter opened at a heading it does not have fails with exit 2 and nothing written",
          "[screenshot][binary]")
{
    QTemporaryDir dir;
    const QString out = dir.filePath("x.png");
    const RunResult r =
        runApp({"--db", dir.filePath("p.sqlite"), "--screenshot", out, "--open", "ch11#no-such-heading"});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("ch11#no-such-heading"));
    CHECK_FALSE(QFile::exists(out));
}

TEST_CASE("a screenshot that cannot be written says where and why, and leaves nothing behind", "[screenshot][binary]")
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("no-such-folder/x.png"));
    const RunResult r = runApp({"--db", dir.filePath("p.sqlite"), "--first-frame", out});
    CHECK(r.exitCode == 1);
    CHECK(r.err.contains("cannot write"));
    CHECK(r.err.contains("no-such-folder"));
    CHECK(r.err.trimmed().count('\n') == 0);
    CHECK_FALSE(QFile::exists(out));
}

TEST_CASE("a PNG is written whole or not at all", "[screenshot]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("picture.png"));
    QImage picture(64, 48, QImage::Format_RGB32);
    picture.fill(QColor(0x20, 0x40, 0x60));

    SECTION("written on its own thread, and read back the same")
    {
        ImageFileWrite write(path);
        write.start(picture);
        CHECK(write.wait().isEmpty());
        const QImage back(path);
        REQUIRE(back.size() == picture.size());
        CHECK(back.pixel(10, 10) == picture.pixel(10, 10));
    }
    SECTION("a failed write leaves the file that was there")
    {
        REQUIRE(writePng(picture, path).isEmpty());
        const QByteArray before = [&] {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        const QString problem = writePng(QImage(), path); // nothing to write
        CHECK(problem.startsWith(QStringLiteral("cannot write")));
        QFile after(path);
        REQUIRE(after.open(QIODevice::ReadOnly));
        CHECK(after.readAll() == before);
        CHECK(QDir(dir.path()).entryList(QDir::Files) == QStringList{QStringLiteral("picture.png")});
    }
    SECTION("nothing started, nothing to wait for")
    {
        ImageFileWrite idle(path);
        CHECK(idle.wait().isEmpty());
        CHECK_FALSE(QFile::exists(path));
    }
}

TEST_CASE("a picture of a page records nothing in the progress file", "[screenshot][binary]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    const auto history = [&db] {
        const progress::Store store = progress::Store::open(db.toStdString());
        return std::make_pair(store.events().size(), store.setting("reading.last.chapter"));
    };
    REQUIRE(runApp({"--db", db, "--export-progress", dir.filePath(QStringLiteral("copy.sqlite"))}).exitCode == 0);
    const auto before = history();

    // A chapter, at a piece in its text, pictured and reported on.
    REQUIRE(
        runApp({"--db", db, "--screenshot", dir.filePath(QStringLiteral("a.png")), "--open", "ch11#ex09"}).exitCode ==
        0);
    REQUIRE(
        runApp({"--db", db, "--layout-report", dir.filePath(QStringLiteral("a.json")), "--open", "ch03"}).exitCode ==
        0);
    REQUIRE(runApp({"--db", db, "--first-frame", dir.filePath(QStringLiteral("b.png"))}).exitCode == 0);

    CHECK(history() == before);
    const progress::Store store = progress::Store::open(db.toStdString());
    for (const progress::ChapterState &chapter : store.chapterStates()) {
        INFO(chapter.number);
        CHECK_FALSE(chapter.firstOpenedMs.has_value());
    }
}
