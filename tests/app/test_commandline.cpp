#include <catch2/catch.hpp>

#include "commandline.h"

#include <progress/runs.h>
#include <progress/store.h>
#include "support.h"

#include <QFile>
#include <QTemporaryDir>

namespace {

ParsedCommandLine parse(QStringList args)
{
    args.prepend(QStringLiteral("tpu-course"));
    return parseCommandLine(args);
}

} // namespace

TEST_CASE("the command line takes every documented flag", "[commandline]")
{
    const auto r = parse({"--db", "/tmp/x.sqlite", "--screenshot", "out.png", "--open", "ch07", "--size", "1280x800"});
    REQUIRE(r.options.has_value());
    CHECK(r.options->dbPath == QStringLiteral("/tmp/x.sqlite"));
    CHECK(r.options->screenshotPath == QStringLiteral("out.png"));
    CHECK(r.options->openPlace == QStringLiteral("ch07"));
    CHECK(r.options->size == QSize(1280, 800));

    const auto eq = parse({"--export-report=r.json"});
    REQUIRE(eq.options.has_value());
    CHECK(eq.options->reportPath == QStringLiteral("r.json"));

    const auto piece = parse({"--screenshot", "a.png", "--open", "EX01"});
    REQUIRE(piece.options.has_value());
    CHECK(piece.options->openPlace == QStringLiteral("EX01"));
    CHECK(parse({}).options->openPlace == QStringLiteral("stack"));
    // A chapter at a heading or at a piece set into its text.
    CHECK(parse({"--screenshot", "a.png", "--open", "ch11#worked-example-3"}).options->openPlace ==
          QStringLiteral("ch11#worked-example-3"));
    CHECK(parse({"--screenshot", "a.png", "--open", "ch11#ex09"}).options.has_value());
    // Qt's QML debugging option is left for QApplication, not refused.
    const auto profiled = parse({"-qmljsdebugger=file:/tmp/x,block", "--first-frame", "f.png"});
    REQUIRE(profiled.options.has_value());
    CHECK(profiled.options->firstFramePath == QStringLiteral("f.png"));

    // A render in either theme; without --theme, the kept one.
    CHECK(parse({"--screenshot", "a.png", "--theme", "dark"}).options->theme == QStringLiteral("dark"));
    CHECK(parse({"--first-frame", "f.png", "--theme=light"}).options->theme == QStringLiteral("light"));
    CHECK(parse({"--screenshot", "a.png"}).options->theme.isEmpty());

    // Every page of the shell is a place --open takes, and the help names it.
    for (const char *place : {"stack", "workshop", "bench", "chips", "validation", "palette", "report"}) {
        INFO(place);
        const auto named = parse({"--screenshot", "a.png", "--open", place});
        REQUIRE(named.options.has_value());
        CHECK(named.options->openPlace == QString::fromLatin1(place));
        CHECK(commandLineHelp().contains(QString::fromLatin1(place)));
    }
}

TEST_CASE("a bad flag or value is named in one sentence", "[commandline]")
{
    struct Case
    {
        QStringList args;
        const char *mentions;
    };
    const QList<Case> cases{
        {{"--frobnicate"}, "--frobnicate"},
        {{"-qmljsdebugger"}, "-qmljsdebugger"},
        {{"--db"}, "--db needs a value"},
        {{"--screenshot", "out.jpg"}, "out.jpg"},
        {{"--screenshot", "a.png", "--open", "ch16"}, "ch16"},
        {{"--screenshot", "a.png", "--open", "ch11#Worked Example"}, "ch11#Worked Example"},
        {{"--screenshot", "a.png", "--size", "12x"}, "12x"},
        {{"--screenshot", "a.png", "--size", "100000x10"}, "100000x10"},
        {{"--export-report", "r.docx"}, "r.docx"},
        {{"--export-report", "r.pdf", "--page-size", "a3"}, "a3"},
        {{"--page-size", "a4"}, "go with --export-report"},
        {{"--learner", "Ada"}, "go with --export-report"},
        {{"--open", "stack"}, "go with --screenshot"},
        {{"--version=3"}, "takes no value"},
        {{"--screenshot", "a.png", "--theme", "sepia"}, "\"sepia\" is not light or dark"},
        {{"--theme", "dark"}, "Ctrl+Shift+D switches it"},
    };
    for (const auto &c : cases) {
        INFO(c.args.join(' ').toStdString());
        const auto r = parse(c.args);
        CHECK_FALSE(r.options.has_value());
        CHECK(r.error.contains(QString::fromUtf8(c.mentions)));
        CHECK_FALSE(r.error.contains(QLatin1Char('\n')));
    }
}

TEST_CASE("the binary answers --help, --version and bad flags", "[commandline][binary]")
{
    const RunResult help = runApp({"--help"});
    CHECK(help.exitCode == 0);
    CHECK(help.out.contains("--screenshot FILE.png"));
    CHECK(help.out.contains("--export-report FILE"));
    // Wrapped at one width: no line runs past the others.
    for (const QByteArray &line : help.out.split('\n')) {
        INFO(line.toStdString());
        CHECK(line.size() <= 96);
    }

    const RunResult version = runApp({"--version"});
    CHECK(version.exitCode == 0);
    CHECK(version.out.startsWith("tpu-course " TPU_COURSE_VERSION));

    const RunResult bad = runApp({"--nope"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.trimmed().count('\n') == 0);
    CHECK(bad.err.contains("--nope"));
}

TEST_CASE("a progress file that is not a database is refused and left untouched", "[commandline][binary]")
{
    // Without a window the store is opened on the main thread; with one, on
    // a thread of its own while the window's QML is read.
    const bool windowed = GENERATE(false, true);
    INFO((windowed ? "--first-frame" : "--export-report"));
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("progress.sqlite"));
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("these are my notes, not a database\n");
    }
    const QByteArray before = readFile(path);
    const QString out = dir.filePath(windowed ? QStringLiteral("f.png") : QStringLiteral("r.json"));
    const RunResult r = runApp({"--db", path, windowed ? "--first-frame" : "--export-report", out});
    CHECK(r.exitCode == 1);
    CHECK(r.err.contains("is not a tpu-course progress database"));
    CHECK(r.err.trimmed().count('\n') == 0);
    CHECK(readFile(path) == before);
    CHECK_FALSE(QFile::exists(out));
    CHECK_FALSE(QFile::exists(path + QStringLiteral("-wal")));
}

TEST_CASE("--export-progress writes one file that holds what the -wal held", "[commandline][binary]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    // A record imported: the store now has history, some of it in its -wal
    // while a connection stays open.
    REQUIRE(runApp({"--db", db, "--import-run", QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/labs/examples/L07.json")})
                .exitCode == 0);
    const QString copy = dir.filePath(QStringLiteral("copy.sqlite"));
    {
        progress::Store open = progress::Store::open(db.toStdString());
        progress::RunLedger(open).addPrediction("G0", "matmul-4096", 7.0e-4, "s"); // in the -wal
        const RunResult r = runApp({"--db", db, "--export-progress", copy});
        CHECK(r.exitCode == 0);
        CHECK(r.out.startsWith("Wrote a copy of "));
    }
    progress::Store copied = progress::Store::open(copy.toStdString());
    CHECK(copied.historyFinding().empty());
    CHECK(progress::RunLedger(copied).runRecords().size() == 1);
    CHECK(progress::RunLedger(copied).predictions("G0").size() == 1);
    CHECK_FALSE(QFile::exists(dir.filePath(QStringLiteral(".copy.sqlite.partial"))));

    // Its folders are made, as a report's are.
    const QString nested = dir.filePath(QStringLiteral("backups/2026/p.sqlite"));
    CHECK(runApp({"--db", db, "--export-progress", nested}).exitCode == 0);
    CHECK(progress::Store::open(nested.toStdString()).historyFinding().empty());
    // Refused in one sentence: the progress file itself, a folder that cannot be made.
    for (const QString &bad : {db, db + QStringLiteral("/inside/c.sqlite")}) {
        INFO(bad.toStdString());
        const RunResult r = runApp({"--db", db, "--export-progress", bad});
        CHECK(r.exitCode == 1);
        CHECK(r.err.trimmed().count('\n') == 0);
    }
    CHECK(progress::Store::open(db.toStdString()).historyFinding().empty());
}
