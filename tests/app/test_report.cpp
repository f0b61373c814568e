// The progress report's content: the JSON against its schema and the store,
// a forged gate, profiles and runs beside their predictions, and exports
// into missing folders or over an earlier report.
#include "reportfixture.h"

#include <report/progressreport.h>
#include <report/reportwriter.h>

#include <coursework/drills.h>
#include <progress/database.h>
#include <progress/store.h>

#include <tpusim/chips.h>
#include <tpusim/layer_sharding.h>

#include <algorithm>

#include <QLocale>

using namespace reportfixture;

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

    // A drill is due once its chapter is opened, as the app says: chapter 3
    // (D1) is, chapters 6, 9 and 10 (D3, D4, D2) are not, and no card has
    // been answered, so those are ahead of the path with nothing due.
    const QJsonArray drills = root["drills"].toArray();
    REQUIRE(drills.size() == 4);
    for (const auto &v : drills) {
        const QJsonObject d = v.toObject();
        INFO(d["id"].toString().toStdString());
        const int kinds = int(coursework::drills::card_kinds(d["id"].toString().toStdString()).size());
        CHECK(d["dueToday"].toInt() == (d["id"].toString() == QStringLiteral("D1") ? kinds : 0));
    }
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
    // Which build made those predictions, and when: this one, as it imported the file.
    CHECK(first["pricedBy"].toString().startsWith(QStringLiteral("tpu-course ")));
    CHECK(first["pricings"].toInt() == 1);
    CHECK(first["priced"].toString() == first["imported"].toString());
    const QString page = QString::fromUtf8(readFile(html));
    CHECK(page.contains(QStringLiteral("predicted when imported by tpu-course ")));
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
