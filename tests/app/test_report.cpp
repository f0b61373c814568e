#include <catch2/catch.hpp>

#include "support.h"

#include <progress/store.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

// A progress file with two items done and one chapter opened, made by the app
// itself first (so its chapters are synced), then written through the store.
QString preparedDatabase(const QTemporaryDir &dir)
{
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    const RunResult first = runApp({"--db", db, "--export-report", dir.filePath(QStringLiteral("first.json"))});
    REQUIRE(first.exitCode == 0);
    auto store = progress::Store::open(db.toStdString());
    store.setMasteryItemDone(1, "ch01-flops-by-hand", true);
    store.setMasteryItemDone(2, "ch02-read-jaxpr", true);
    store.noteChapterOpened(3);
    return db;
}

} // namespace

TEST_CASE("the JSON report lists every chapter and stage with its progress", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = preparedDatabase(dir);
    const QString out = dir.filePath(QStringLiteral("report.json"));
    const RunResult r = runApp({"--db", db, "--export-report", out});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QJsonObject root = QJsonDocument::fromJson(readFile(out)).object();
    REQUIRE(root.value("report").toString() == QStringLiteral("tpu-course progress"));
    const QJsonArray chapters = root.value("chapters").toArray();
    REQUIRE(chapters.size() == 15);
    CHECK(root.value("gateCount").toInt() == 6);
    CHECK(root.value("gatesPassed").toInt() == 0);
    int stages = 0;
    int itemsDone = 0;
    for (const auto &v : chapters) {
        const QJsonObject c = v.toObject();
        stages += c.value("kind").toString() == QStringLiteral("stage") ? 1 : 0;
        itemsDone += c.value("itemsDone").toInt();
        if (c.value("number").toInt() == 10)
            CHECK(c.value("stage").toObject().value("gate").toString() == QStringLiteral("G0"));
    }
    CHECK(stages == 6);
    CHECK(itemsDone == 2);
    const QJsonObject events = root.value("events").toObject();
    CHECK(events.value("count").toInt() >= 3);
    bool sawOpened = false;
    for (const auto &k : events.value("byKind").toArray())
        sawOpened |= k.toObject().value("kind").toString() == QStringLiteral("chapter.opened");
    CHECK(sawOpened);
}

TEST_CASE("the HTML report names chapters, gates and the work done", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = preparedDatabase(dir);
    const QString out = dir.filePath(QStringLiteral("report.html"));
    REQUIRE(runApp({"--db", db, "--export-report", out}).exitCode == 0);
    const QString html = QString::fromUtf8(readFile(out));
    CHECK(html.contains(QStringLiteral("<b class=\"mono\">0/6</b> gates passed")));
    CHECK(html.contains(QStringLiteral("The priesthood kernels")));
    CHECK(html.contains(QStringLiteral("G5")));
    CHECK(html.contains(QStringLiteral("ch 01 · JAX / PyTorch")));
}

TEST_CASE("the PDF report carries its text, checked with pdftotext", "[report][binary]")
{
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    REQUIRE_FALSE(pdftotext.isEmpty()); // poppler-utils is one of the project's packages
    QTemporaryDir dir;
    const QString db = preparedDatabase(dir);
    const QString out = dir.filePath(QStringLiteral("report.pdf"));
    const RunResult r = runApp({"--db", db, "--export-report", out});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    CHECK(readFile(out).startsWith("%PDF-"));
    // Reading order, whitespace folded: a title that wraps in its cell still reads whole.
    const RunResult text = runProgram(pdftotext, {out, "-"});
    REQUIRE(text.exitCode == 0);
    const QString t = QString::fromUtf8(text.out).simplified();
    CHECK(t.contains(QStringLiteral("progress report")));
    CHECK(t.contains(QStringLiteral("0/6")));
    CHECK(t.contains(QStringLiteral("Distributed Pallas")));
    CHECK(t.contains(QStringLiteral("Capstone: shipped upstream")));
    for (const char *gate : {"G0", "G1", "G2", "G3", "G4", "G5"})
        CHECK(t.contains(QString::fromLatin1(gate)));
}

TEST_CASE("a report that cannot be written says so and leaves nothing behind", "[report][binary]")
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("no/such/folder/report.pdf"));
    const RunResult r = runApp({"--db", dir.filePath(QStringLiteral("p.sqlite")), "--export-report", out});
    CHECK(r.exitCode == 1);
    CHECK(r.err.contains("the report was not written"));
}

TEST_CASE("the report lists every gate attempt, failures included, every run and the roofline", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    // A learner's own failing G1 run: the shipped example, unmarked, made slow.
    QJsonObject run = QJsonDocument::fromJson(readFile(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/labs/examples/L07.json"))).object();
    QJsonObject extra = run.value("extra").toObject();
    extra.remove("example");
    run["extra"] = extra;
    QJsonObject timing = run["timing"].toObject();
    timing["samples"] = QJsonArray{9.0e-4, 9.2e-4};
    run["timing"] = timing;
    const QString path = dir.filePath(QStringLiteral("slow.json"));
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(run).toJson());
    }
    const RunResult imported = runApp({"--db", db, "--import-run", path});
    INFO(imported.err.toStdString());
    REQUIRE(imported.exitCode == 0);
    CHECK(imported.out.contains("Gate G1: not passed; the attempt is kept."));

    const QString json = dir.filePath(QStringLiteral("r.json"));
    REQUIRE(runApp({"--db", db, "--export-report", json}).exitCode == 0);
    const QJsonObject root = QJsonDocument::fromJson(readFile(json)).object();
    const QJsonArray attempts = root.value("gateAttempts").toArray();
    REQUIRE(attempts.size() == 1);
    CHECK(attempts[0].toObject().value("gate").toString() == QStringLiteral("G1"));
    CHECK_FALSE(attempts[0].toObject().value("passed").toBool());
    CHECK(root.value("runs").toArray().size() == 1);
    CHECK(root.value("roofline").toObject().value("measuredPoints").toArray().size() == 1);

    const QString html = dir.filePath(QStringLiteral("r.html"));
    REQUIRE(runApp({"--db", db, "--export-report", html}).exitCode == 0);
    const QString page = QString::fromUtf8(readFile(html));
    CHECK(page.contains(QStringLiteral("G1 · not passed")));
    CHECK(page.contains(QStringLiteral("data:image/png;base64,")));

    const QString pdf = dir.filePath(QStringLiteral("r.pdf"));
    REQUIRE(runApp({"--db", db, "--export-report", pdf}).exitCode == 0);
    const RunResult text = runProgram(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), {pdf, "-"});
    const QString t = QString::fromUtf8(text.out).simplified();
    CHECK(t.contains(QStringLiteral("Every gate attempt")));
    CHECK(t.contains(QStringLiteral("G1 · not passed")));
    CHECK(t.contains(QStringLiteral("Your runs on the roofline")));
}
