#include <catch2/catch.hpp>

#include "support.h"

#include <report/progressreport.h>
#include <report/reportwriter.h>

#include <progress/database.h>
#include <progress/store.h>

#include <tpusim/chips.h>
#include <tpusim/layer_sharding.h>

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

const QString kLearner = QStringLiteral("Ada Lovelace");
const QString kExamples = QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/labs/examples");
const QString kSchema = QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/report.schema.json");

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readFile(path)).object();
}

void writeJson(const QString &path, const QJsonObject &o)
{
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(o).toJson());
}

void importRun(const QString &db, const QString &file)
{
    const RunResult r = runApp({"--db", db, "--import-run", file});
    INFO(file.toStdString() << ": " << r.err.toStdString());
    REQUIRE(r.exitCode == 0);
}

// A shipped example made into a run of the learner's own: the example mark
// removed and, when given, its timing samples replaced.
QString ownRun(const QTemporaryDir &dir, const QString &example, const QJsonArray &samples = {})
{
    QJsonObject run = readJson(kExamples + QLatin1Char('/') + example);
    QJsonObject extra = run.value("extra").toObject();
    extra.remove("example");
    run["extra"] = extra;
    // Its own figures, a little off the example's: a shipped example is
    // known by what it measured, whatever flag is removed from it.
    for (const char *block : {"timing", "baseline"}) {
        if (!run[block].isObject())
            continue;
        QJsonObject b = run[block].toObject();
        QJsonArray own;
        int i = 0;
        for (const QJsonValue &s :
             (samples.isEmpty() || QLatin1String(block) != QLatin1String("timing")) ? b["samples"].toArray() : samples)
            own.append(s.toDouble() * (1.0 + 0.003 * ++i));
        b["samples"] = own;
        run[block] = b;
    }
    const QString path = dir.filePath(QStringLiteral("own-%1-%2").arg(samples.size()).arg(example));
    writeJson(path, run);
    return path;
}

// The fixed store: all thirty-four shipped examples, four runs of the learner's
// own (the bench rows, a passing and a failing tiled matmul, streaming
// attention), chapter 01's mastery work all done, chapter 02's partly, chapter 03 opened.
QString fixedStore(const QTemporaryDir &dir)
{
    const QString db = dir.filePath(QStringLiteral("fixed.sqlite"));
    for (const QString &name : QDir(kExamples).entryList({"*.json"}, QDir::Files, QDir::Name))
        importRun(db, kExamples + QLatin1Char('/') + name);
    importRun(db, ownRun(dir, QStringLiteral("L05.json")));
    importRun(db, ownRun(dir, QStringLiteral("L07.json")));
    importRun(db, ownRun(dir, QStringLiteral("L07.json"), QJsonArray{9.0e-4, 9.2e-4}));
    importRun(db, ownRun(dir, QStringLiteral("L09.json")));
    auto store = progress::Store::open(db.toStdString());
    for (const char *item : {"ch01-lab-repo", "ch01-flops-by-hand", "ch01-intensity", "ch01-first-ratio"})
        store.setMasteryItemDone(1, item, true);
    store.setMasteryItemDone(2, "ch02-read-jaxpr", true);
    store.noteChapterOpened(3);
    return db;
}

RunResult exportReport(const QString &db, const QString &out, const QStringList &more = {})
{
    const RunResult r = runApp(QStringList{"--db", db, "--export-report", out, "--learner", kLearner} + more);
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    return r;
}

QString tool(const char *name)
{
    const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
    INFO(name << " comes with poppler-utils, one of the project's packages");
    REQUIRE_FALSE(path.isEmpty());
    return path;
}

int pageCount(const QString &pdf)
{
    const RunResult info = runProgram(tool("pdfinfo"), {pdf});
    const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(QString::fromUtf8(info.out));
    REQUIRE(m.hasMatch());
    return m.captured(1).toInt();
}

QString pageText(const QString &pdf, int page, bool layout = false)
{
    QStringList args{"-f", QString::number(page), "-l", QString::number(page)};
    if (layout)
        args << "-layout";
    const RunResult r = runProgram(tool("pdftotext"), args + QStringList{pdf, "-"});
    REQUIRE(r.exitCode == 0);
    return QString::fromUtf8(r.out);
}

// Validates a JSON file against the report's schema with python3-jsonschema
// (one of the project's packages); returns the validator's complaint, or
// an empty string when the file is valid.
QString schemaComplaint(const QString &json)
{
    QString python = QStringLiteral("/usr/bin/python3");
    if (!QFileInfo(python).isExecutable())
        python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    REQUIRE_FALSE(python.isEmpty());
    const char *script =
        "import json, sys, jsonschema\n"
        "schema = json.load(open(sys.argv[1], encoding='utf-8'))\n"
        "jsonschema.Draft202012Validator.check_schema(schema)\n"
        "jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2], encoding='utf-8')))\n";
    const RunResult r = runProgram(python, {"-c", QString::fromLatin1(script), kSchema, json});
    return r.exitCode == 0 ? QString() : QString::fromUtf8(r.err).trimmed().section(QLatin1Char('\n'), -1);
}

const QJsonObject *chapterNumbered(const QJsonArray &chapters, int number, QJsonObject &holder)
{
    for (const auto &v : chapters)
        if (v.toObject().value("number").toInt() == number)
            return &(holder = v.toObject());
    return nullptr;
}

} // namespace

TEST_CASE("the JSON report follows its schema, and the schema catches a wrong one", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString out = dir.filePath(QStringLiteral("report.json"));
    exportReport(db, out);
    CHECK(schemaComplaint(out).isEmpty());

    QJsonObject root = readJson(out);
    QJsonArray chapters = root["chapters"].toArray();
    QJsonObject first = chapters[0].toObject();
    first["state"] = QStringLiteral("finished");
    chapters[0] = first;
    root["chapters"] = chapters;
    const QString broken = dir.filePath(QStringLiteral("broken.json"));
    writeJson(broken, root);
    CHECK(schemaComplaint(broken).contains(QStringLiteral("finished")));
}

TEST_CASE("the JSON report holds chapters true to the store, every attempt and every run", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString out = dir.filePath(QStringLiteral("report.json"));
    exportReport(db, out);
    const QJsonObject root = readJson(out);
    CHECK(root["learner"].toString() == kLearner);
    const QJsonArray chapters = root["chapters"].toArray();
    REQUIRE(chapters.size() == 15);
    QJsonObject c;
    REQUIRE(chapterNumbered(chapters, 1, c));
    CHECK(c["state"].toString() == QStringLiteral("done")); // every mastery item checked off
    REQUIRE(chapterNumbered(chapters, 2, c));
    CHECK(c["state"].toString() == QStringLiteral("in progress"));
    REQUIRE(chapterNumbered(chapters, 3, c));
    CHECK(c["state"].toString() == QStringLiteral("in progress")); // opened, nothing checked off
    REQUIRE(chapterNumbered(chapters, 5, c));
    CHECK(c["state"].toString() == QStringLiteral("not started"));
    REQUIRE(chapterNumbered(chapters, 11, c));
    CHECK(c["stage"].toObject()["state"].toString() == QStringLiteral("passed"));
    CHECK(c["state"].toString() == QStringLiteral("done"));

    const QJsonObject summary = root["summary"].toObject();
    CHECK(summary["exampleRuns"].toInt() == 34);
    CHECK(summary["ownMeasuredRuns"].toInt() == 4);
    CHECK(summary["gatesPassed"].toInt() >= 1);

    int failed = 0;
    for (const auto &a : root["gateAttempts"].toArray())
        failed += a.toObject()["passed"].toBool() ? 0 : 1;
    CHECK(failed >= 2); // the slow matmul and the bench rows without predictions
    const QJsonArray runs = root["runs"].toArray();
    REQUIRE(runs.size() == 38);
    for (const auto &v : runs) {
        const QJsonObject run = v.toObject();
        CHECK(run["counts"].toBool() == !run["example"].toBool());
        if (run["example"].toBool())
            CHECK(run["predictions"].toArray().isEmpty()); // examples never count, nor are they charted
    }
    const QJsonArray roofs = root["rooflines"].toArray();
    REQUIRE(roofs.size() == 1);
    CHECK(roofs[0].toObject()["chip"].toString() == QStringLiteral("v5e"));
    // Three bench rows, two matmuls and streaming attention.
    CHECK(roofs[0].toObject()["measuredPoints"].toArray().size() == 6);
}

TEST_CASE("a gate passed by SQL does not count, and the report says the history does not verify", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString before = dir.filePath(QStringLiteral("before.json"));
    exportReport(db, before);
    const QJsonObject honest = readJson(before)["summary"].toObject();
    CHECK(honest["historyVerifies"].toBool());
    {
        // The slow L07 run given a G1 pass by hand, and the L09 run a G5 pass.
        const auto c = progress::db::Connection::open(db.toStdString(), progress::db::Access::ReadWriteCreate);
        c.execute(
            "INSERT INTO gate_attempts (gate, run_record, judged_at_ms, passed, reasons) "
            "SELECT 'G1', id, 0, 1, 'passed' FROM run_records WHERE lab = 'L07' AND example = 0 "
            "ORDER BY id DESC LIMIT 1");
        c.execute(
            "INSERT INTO gate_attempts (gate, run_record, judged_at_ms, passed, reasons) "
            "SELECT 'G5', id, 0, 1, 'passed' FROM run_records WHERE lab = 'L09' AND example = 0 LIMIT 1");
    }
    const QString after = dir.filePath(QStringLiteral("after.json"));
    exportReport(db, after);
    const QJsonObject root = readJson(after);
    const QJsonObject summary = root["summary"].toObject();
    CHECK_FALSE(summary["historyVerifies"].toBool());
    CHECK(summary["historyFinding"].toString() == QStringLiteral("2 gate attempts added outside the app"));
    // The counts are what the evidence supports: the forged passes add nothing.
    CHECK(summary["gatesPassed"].toInt() == honest["gatesPassed"].toInt());
    int notCounted = 0;
    for (const QJsonValue &a : root["gateAttempts"].toArray())
        for (const QJsonValue &reason : a.toObject()["reasons"].toArray())
            notCounted += reason.toString().startsWith(QStringLiteral("Not counted: ")) ? 1 : 0;
    CHECK(notCounted == 2);
}

TEST_CASE("the PDF report: a summary page, then the detail, each page numbered", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    exportReport(db, pdf, {"--page-size", "a4"});
    const int pages = pageCount(pdf);
    CHECK(pages >= 3);
    CHECK(pages <= 6);
    for (int page = 1; page <= pages; ++page)
        CHECK(pageText(pdf, page).contains(QStringLiteral("page %1 of %2").arg(page).arg(pages)));

    const QString summary = pageText(pdf, 1).simplified();
    CHECK(summary.contains(kLearner));
    CHECK(summary.contains(QStringLiteral("Learn to make TPUs fast")));
    // The fixed store's activity is all from today (or yesterday and today, run across midnight).
    CHECK((summary.contains(QStringLiteral("activity on")) || summary.contains(QStringLiteral("activity from"))));
    for (const char *stage :
         {"The machine", "Pallas fundamentals", "The IR stack", "The priesthood kernels", "Distributed Pallas"})
        CHECK(summary.contains(QString::fromUtf8(stage)));
    CHECK(summary.contains(QStringLiteral("Predicted against measured")));
    CHECK(summary.contains(QStringLiteral("v5e · your measured runs")));
    CHECK_FALSE(summary.contains(QStringLiteral("Every gate attempt")));

    const QString second = pageText(pdf, 2).simplified();
    CHECK(second.contains(QStringLiteral("Every gate attempt")));
    CHECK(second.contains(QStringLiteral("tpu-course · progress report · ") + kLearner)); // the running header
    CHECK(second.contains(QStringLiteral("not passed")));

    QString all;
    for (int page = 1; page <= pages; ++page)
        all += pageText(pdf, page).simplified() + QLatin1Char(' ');
    CHECK(all.contains(QStringLiteral("Chapters and their mastery work")));
    // The two lines of an example's cell; the text layer may read the chip's first line between them.
    CHECK(all.contains(QRegularExpression(QStringLiteral("example (\\S+ )?never counts"))));
    CHECK(all.contains(QStringLiteral("verified off-chip")));
    CHECK(all.contains(QStringLiteral("Capstone: shipped upstream")));
}

TEST_CASE("no table cell of the PDF breaks inside a word or a number", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    const QString json = dir.filePath(QStringLiteral("report.json"));
    exportReport(db, pdf, {"--page-size", "letter"});
    exportReport(db, json);
    QString layout;
    for (int page = 1, pages = pageCount(pdf); page <= pages; ++page)
        layout += pageText(pdf, page, true);

    // Every word a cell holds must appear whole on one line of the laid-out
    // text: a cell broken inside a word leaves only its pieces.
    QStringList words{"provenance", "predicted", "floor", "baseline", "correct", "verdict", "mastery"};
    for (const auto &v : readJson(json)["runs"].toArray()) {
        const QJsonObject run = v.toObject();
        words << run["shape"].toObject()["text"].toString().split(QLatin1Char(' '))
              << run["shape"].toObject()["axes"].toString().split(QLatin1Char(' '))
              << run["deviceKind"].toString().split(QLatin1Char(' '));
        // The run's date as the report writes it, "29 Nov 2026", kept on one line.
        const QDate date = QDateTime::fromString(run["date"].toString(), Qt::ISODate).toUTC().date();
        words << QLocale(QLocale::English, QLocale::UnitedKingdom).toString(date, QStringLiteral("d MMM yyyy"));
    }
    words.removeDuplicates();
    const QStringList lines = layout.split(QLatin1Char('\n'));
    for (const QString &word : words) {
        INFO("the word " << word.toStdString());
        const bool whole = std::any_of(lines.begin(), lines.end(), [&](const QString &line) {
            // A space in a word is a no-break space in the PDF: either matches.
            const QString pattern =
                QRegularExpression::escape(word).replace(QStringLiteral("\\ "), QStringLiteral("[\\s\\x{00a0}]"));
            return QRegularExpression(QStringLiteral("(^|\\s)%1(\\s|$)").arg(pattern)).match(line).hasMatch();
        });
        CHECK(whole);
    }
}

TEST_CASE("the PDF's paper follows --page-size", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    const QString a4 = dir.filePath(QStringLiteral("a4.pdf"));
    const QString letter = dir.filePath(QStringLiteral("letter.pdf"));
    exportReport(db, a4, {"--page-size", "a4"});
    exportReport(db, letter, {"--page-size", "Letter"});
    CHECK(runProgram(tool("pdfinfo"), {a4}).out.contains("595 x 842 pts (A4)"));
    CHECK(runProgram(tool("pdfinfo"), {letter}).out.contains("612 x 792 pts (letter)"));
    const RunResult bad = runApp({"--db", db, "--export-report", a4, "--page-size", "a3"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("is not a4 or letter"));
}

TEST_CASE("the HTML report is one self-contained page with the PDF's content", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString out = dir.filePath(QStringLiteral("report.html"));
    const QString json = dir.filePath(QStringLiteral("report.json"));
    exportReport(db, out);
    exportReport(db, json);
    const QString html = QString::fromUtf8(readFile(out));
    CHECK_FALSE(html.contains(QStringLiteral("<script")));
    CHECK_FALSE(html.contains(QStringLiteral("<link")));
    CHECK_FALSE(QRegularExpression(QStringLiteral("(src|href)=\"(https?:|file:|/)")).match(html).hasMatch());
    // The stage path, the chapter strip, one roofline, predicted against measured.
    CHECK(html.count(QStringLiteral("<svg")) == 4);
    for (const char *text : {"Learn to make TPUs fast", "Every gate attempt", "not passed",
                             "Chapters and their mastery work", "never counts", "predicted floor"})
        CHECK(html.contains(QString::fromUtf8(text)));
    CHECK(html.contains(kLearner));
    for (const auto &v : readJson(json)["runs"].toArray())
        CHECK(html.contains(v.toObject()["shape"].toObject()["text"].toString().toHtmlEscaped()));
}

TEST_CASE("imported profiles are in the report: every device, its longest ops measured beside predicted",
          "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    const QString profile =
        QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/profiles/xprof_tpu_inference_2.xplane.pb");
    const RunResult imported = runApp({"--db", db, "--import-profile", profile});
    INFO(imported.err.toStdString());
    REQUIRE(imported.exitCode == 0);
    CHECK(imported.out.contains("Kept in your progress as measured runs: 4 devices"));
    const QString json = dir.filePath(QStringLiteral("report.json"));
    const QString html = dir.filePath(QStringLiteral("report.html"));
    exportReport(db, json);
    exportReport(db, html);
    CHECK(schemaComplaint(json).isEmpty());
    const QJsonArray profiles = readJson(json)["profiles"].toArray();
    REQUIRE(profiles.size() == 4);
    const QJsonObject first = profiles[0].toObject();
    CHECK(first["provenance"].toString() == QStringLiteral("measured"));
    CHECK(first["device"].toString() == QStringLiteral("/device:TPU:0"));
    CHECK(first["chip"].toString() == QStringLiteral("v6e"));
    CHECK(first["sha256"].toString().startsWith(QStringLiteral("e312ef8bd5a5")));
    CHECK(first["captured"].toString().startsWith(QStringLiteral("2025-03-11")));
    const QJsonArray ops = first["longestOps"].toArray();
    REQUIRE(ops.size() == 8);
    CHECK(ops[0].toObject()["op"].toString() == QStringLiteral("copy-done.4"));
    CHECK(ops[0].toObject()["occurrences"].toInt() == 100);
    CHECK(ops[0].toObject()["predictedS"].isDouble());
    const QString page = QString::fromUtf8(readFile(html));
    CHECK(page.contains(QStringLiteral("<h2>Profiles</h2>")));
    CHECK(page.contains(QStringLiteral("copy-done.4")));
    CHECK(page.contains(QStringLiteral("TPU v6 Lite (v6e)")));
    // The activity in words, the store's own upkeep left out.
    CHECK(page.contains(QStringLiteral("4 profiles imported")));
    CHECK_FALSE(page.contains(QStringLiteral("schema.migrated")));
    CHECK_FALSE(page.contains(QStringLiteral("profile.imported")));
}

TEST_CASE("a report into a missing folder is refused in one sentence, or the folder is made", "[report]")
{
    QTemporaryDir dir;
    ProgressReport empty;
    empty.learner = kLearner;
    QString error;
    const QString nested = dir.filePath(QStringLiteral("no/such/folder/report.json"));
    CHECK_FALSE(writeProgressReport(empty, {nested, QPageSize::A4, false}, &error));
    CHECK(error == QStringLiteral("the folder %1 does not exist.")
                       .arg(QDir::toNativeSeparators(QFileInfo(nested).absolutePath())));
    CHECK_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("no"))));

    error.clear();
    REQUIRE(writeProgressReport(empty, {nested, QPageSize::A4, true}, &error));
    CHECK(readJson(nested)["learner"].toString() == kLearner);

    // A folder that cannot be made: its parent is a file. Nothing is left behind.
    const QString blocker = dir.filePath(QStringLiteral("a-file"));
    writeJson(blocker, {});
    CHECK_FALSE(writeProgressReport(empty, {blocker + QStringLiteral("/report.pdf"), QPageSize::A4, true}, &error));
    CHECK(error.contains(QStringLiteral("could not be created")));
}

TEST_CASE("a failed export leaves the earlier report whole and no fragment beside it", "[report]")
{
    QTemporaryDir dir;
    ProgressReport empty;
    const QString path = dir.filePath(QStringLiteral("report.json"));
    REQUIRE(writeProgressReport(empty, {path, QPageSize::A4, false}, nullptr));
    const QByteArray before = readFile(path);
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner); // the folder turns read-only
    QString error;
    const bool written = writeProgressReport(empty, {path, QPageSize::A4, false}, &error);
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (written) {
        WARN("this user writes into read-only folders (root); the refusal is not observable here");
        return;
    }
    CHECK(error.startsWith(QStringLiteral("cannot write in")));
    CHECK(readFile(path) == before);
    CHECK(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden) == QStringList{QStringLiteral("report.json")});
}

TEST_CASE("the command line refuses a report into a missing folder", "[report][binary]")
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("no/such/folder/report.pdf"));
    const RunResult r = runApp({"--db", dir.filePath(QStringLiteral("p.sqlite")), "--export-report", out});
    CHECK(r.exitCode == 1);
    CHECK(r.err.contains("the report was not written: the folder"));
    CHECK(r.err.contains("does not exist."));
}

TEST_CASE("a measured L17 run is set against EX·14's prediction of each sharding's step", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("l17.sqlite"));
    importRun(db, ownRun(dir, QStringLiteral("L17.json")));
    importRun(db, kExamples + QStringLiteral("/L17.json")); // an example: never predicted
    const QString out = dir.filePath(QStringLiteral("report.json"));
    exportReport(db, out);
    const QJsonObject record = readJson(kExamples + QStringLiteral("/L17.json"));
    const QJsonObject shapes = record["shapes"].toObject();
    int own = 0;
    for (const QJsonValue &v : readJson(out)["runs"].toArray()) {
        const QJsonObject run = v.toObject();
        if (run["lab"].toString() != QStringLiteral("L17") || run["example"].toBool())
            continue;
        ++own;
        const QJsonArray predictions = run["predictions"].toArray();
        const QJsonArray strategies = record["extra"].toObject()["strategies"].toArray();
        REQUIRE(predictions.size() == strategies.size());
        for (int i = 0; i < strategies.size(); ++i) {
            const QJsonObject strategy = strategies[i].toObject();
            const QJsonObject mesh = strategy["mesh"].toObject();
            tpusim::LayerShardingSpec spec;
            spec.mesh = {mesh["data"].toInteger(), mesh["model"].toInteger()};
            spec.roles = {tpusim::AxisRole::data, tpusim::AxisRole::model};
            spec.data_mode = strategy["name"].toString().startsWith(QStringLiteral("fsdp")) ? tpusim::DataMode::fsdp
                                                                                            : tpusim::DataMode::dp;
            spec.batch = shapes["batch"].toInteger();
            spec.d_model = shapes["d_model"].toInteger();
            spec.d_ff = shapes["d_ff"].toInteger();
            const auto r = tpusim::shard_mlp_block(tpusim::chip("v5e"), spec);
            const QJsonObject p = predictions[i].toObject();
            INFO(strategy["name"].toString().toStdString());
            CHECK(p["floorS"].toDouble() == Approx(r.step_s));
            CHECK(p["label"].toString().startsWith(QString::fromStdString(r.strategy) + QStringLiteral(" step")));
            CHECK(p["provenance"].toString() == QStringLiteral("predicted"));
            // The measured side is the strategy's own median, not the record's first timing.
            QList<double> samples;
            for (const QJsonValue &x : strategy["samples"].toArray())
                samples << x.toDouble();
            std::sort(samples.begin(), samples.end());
            CHECK(p["measuredS"].toDouble() == Approx((samples[4] + samples[5]) / 2));
        }
    }
    CHECK(own == 1);
}
