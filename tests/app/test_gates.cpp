// Gates judged on imported runs: a record that names its profile, G0's
// bench rows each on its own program's device time, and crafted records.
#include "labrecords.h"

#include "labs/gates.h"

#include <progress/runs.h>
#include <progress/store.h>
#include <tpuprofile/read.h>

using namespace labrecords;

TEST_CASE("a record that names its profile is judged on the device's own time", "[import][gates][profile]")
{
    QTemporaryDir dir;
    auto store = progress::Store::open(dir.filePath("p.sqlite").toStdString());
    const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    // The lab ran on a TPU VM and wrote its trace to /home/learner/prof
    // there; the learner copied the folder back beside the record.
    QDir(dir.path()).mkpath(QStringLiteral("prof/plugins/profile/2025_03_11_19_41_39"));
    REQUIRE(
        QFile::copy(QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/profiles/xprof_tpu_inference_2.xplane.pb"),
                    dir.filePath(QStringLiteral("prof/plugins/profile/2025_03_11_19_41_39/t1v.xplane.pb"))));
    QJsonObject run = ownRun("L07.json");
    run["deviceKind"] = "TPU v6 lite";
    run["chip"] = "v6e";
    QJsonObject extra = run["extra"].toObject();
    // The profile's programs stand in for a kernel and its baseline: jit_f
    // runs 100 times, jit__psum 3.
    extra["profile"] = QJsonObject{{"dir", "/home/learner/prof"},
                                   {"timedModule", "jit_f"},
                                   {"baselineModule", "jit__psum"},
                                   {"modules", QJsonObject{{"Pallas kernel", "jit_f"}, {"XLA baseline", "jit__psum"}}}};
    run["extra"] = extra;
    const ImportOutcome judged = importRunRecord(writeTemp(dir, "run-L07.json", bytes(run)), store, labs);
    REQUIRE(judged.stored);
    REQUIRE(judged.verdict.judged);
    const QString first = judged.verdict.reasons.value(0);
    INFO(first.toStdString());
    CHECK(first.startsWith(QStringLiteral("Judged on device time from the profile in")));
    CHECK(first.contains(QStringLiteral("100 runs of jit_f and 3 of jit__psum on /device:TPU:0 (TPU v6 Lite)")));
    // The ratio is of the device's times: jit_f's median run over jit__psum's.
    const tpuprofile::Profile profile = tpuprofile::read_profile(dir.filePath(QStringLiteral("prof")).toStdString());
    QList<double> f, psum;
    for (const auto &m : profile.devices[0].modules) {
        if (m.name == "jit_f")
            f << static_cast<double>(m.duration_ps) * 1e-12;
        if (m.name == "jit__psum")
            psum << static_cast<double>(m.duration_ps) * 1e-12;
    }
    REQUIRE(f.size() == 100);
    REQUIRE(psum.size() == 3);
    const QString ratio = QString::number(median(f) / median(psum), 'f', 3);
    CHECK(
        judged.verdict.reasons.join(' ').contains(QStringLiteral(": ") + ratio + QStringLiteral("x (the gate needs")));

    // The folder not at hand: the verdict says so, and rests on the host's timing.
    QJsonObject elsewhere = run;
    extra["profile"] = QJsonObject{{"dir", "/home/learner/missing"}, {"timedModule", "jit_f"}};
    elsewhere["extra"] = extra;
    elsewhere["date"] = "2026-11-30T10:00:00Z";
    const ImportOutcome host = importRunRecord(writeTemp(dir, "run-L07-b.json", bytes(elsewhere)), store, labs);
    REQUIRE(host.verdict.judged);
    CHECK(host.verdict.reasons.value(0).contains(QStringLiteral("not here nor beside the record")));
    CHECK(host.verdict.reasons.value(0).endsWith(QStringLiteral("Judged on the host's timing, dispatch included.")));

    // A profile of another chip is not evidence for this record.
    QJsonObject other = ownRun("L07.json");
    QJsonObject otherExtra = other["extra"].toObject();
    otherExtra["profile"] = QJsonObject{{"dir", dir.filePath(QStringLiteral("prof"))}, {"timedModule", "jit_f"}};
    other["extra"] = otherExtra;
    const ImportOutcome mismatch = importRunRecord(writeTemp(dir, "run-L07-c.json", bytes(other)), store, labs);
    REQUIRE(mismatch.verdict.judged);
    CHECK(
        mismatch.verdict.reasons.value(0).contains(QStringLiteral("was taken on a TPU v6 Lite, not the record's v5e")));
}

TEST_CASE("G0 judges each bench row on its own program's device time", "[import][gates][profile]")
{
    QTemporaryDir dir;
    auto store = progress::Store::open(dir.filePath("p.sqlite").toStdString());
    const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    progress::RunLedger ledger(store);
    QDir(dir.path()).mkpath(QStringLiteral("prof/plugins/profile/run"));
    REQUIRE(
        QFile::copy(QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/profiles/xprof_tpu_inference_2.xplane.pb"),
                    dir.filePath(QStringLiteral("prof/plugins/profile/run/t1v.xplane.pb"))));
    // The profile's three programs stand in for the three rows' own.
    const tpuprofile::Profile profile = tpuprofile::read_profile(dir.filePath(QStringLiteral("prof")).toStdString());
    std::map<QString, QList<double>> runs;
    for (const auto &m : profile.devices[0].modules)
        runs[QString::fromStdString(m.name)] << static_cast<double>(m.duration_ps) * 1e-12;
    REQUIRE(runs.size() >= 3);
    const QStringList programs = [&] {
        QStringList p;
        for (const auto &[name, r] : runs)
            p << name;
        return p;
    }();
    const QStringList rowNames{QStringLiteral("elementwise_add"), QStringLiteral("matmul_nnn"),
                               QStringLiteral("matmul_skinny")};
    // Predictions at the device's medians, entered before the run.
    for (int i = 0; i < 3; ++i)
        ledger.addPrediction("G0", rowNames[i].toStdString(), median(runs[programs[i]]), "s");

    QJsonObject run = ownRun("L05.json");
    run["deviceKind"] = "TPU v6 lite";
    run["chip"] = "v6e";
    run["date"] = QDateTime::currentDateTimeUtc().addSecs(60).toString(Qt::ISODate);
    QJsonObject extra = run["extra"].toObject();
    // On the host every row took a second, dispatch and all: far from any prediction.
    QJsonArray rows;
    for (const QString &row : rowNames)
        rows.append(QJsonObject{{"row", row},
                                {"shapes", QJsonObject{{"n", 4096}}},
                                {"dtype", "bf16"},
                                {"samples", QJsonArray{1.0, 1.02, 0.99}}});
    extra["rows"] = rows;
    QJsonObject modules;
    for (int i = 0; i < 3; ++i)
        modules[rowNames[i]] = programs[i];
    extra["profile"] =
        QJsonObject{{"dir", dir.filePath(QStringLiteral("prof"))}, {"timedModule", programs[0]}, {"modules", modules}};
    run["extra"] = extra;
    const ImportOutcome judged = importRunRecord(writeTemp(dir, "run-L05.json", bytes(run)), store, labs);
    INFO(judged.problems.join(' ').toStdString());
    REQUIRE(judged.verdict.judged);
    for (const QString &reason : judged.verdict.reasons)
        UNSCOPED_INFO(reason.toStdString());
    CHECK(judged.verdict.reasons.value(0).startsWith(QStringLiteral("Judged on device time from the profile in")));
    CHECK(judged.verdict.reasons.value(0).contains(QStringLiteral("each row on its own program's runs")));
    CHECK(judged.verdict.passed);
    for (int i = 0; i < 3; ++i)
        CHECK(judged.verdict.reasons.join(' ').contains(
            QStringLiteral("%1: predicted %2 µs, measured %2 µs")
                .arg(rowNames[i], QString::number(median(runs[programs[i]]) * 1e6, 'f', 1))));

    // Two rows naming one program: the profile cannot tell them apart, so
    // every row is judged on the host, and fails against the device's predictions.
    modules[rowNames[2]] = programs[1];
    extra["profile"] =
        QJsonObject{{"dir", dir.filePath(QStringLiteral("prof"))}, {"timedModule", programs[0]}, {"modules", modules}};
    run["extra"] = extra;
    run["date"] = QDateTime::currentDateTimeUtc().addSecs(120).toString(Qt::ISODate);
    const ImportOutcome same = importRunRecord(writeTemp(dir, "run-L05-b.json", bytes(run)), store, labs);
    REQUIRE(same.verdict.judged);
    CHECK(same.verdict.reasons.value(0).contains(QStringLiteral("Two rows name the same program")));
    CHECK(same.verdict.reasons.value(0).endsWith(QStringLiteral("Judged on the host's timing, dispatch included.")));
    CHECK_FALSE(same.verdict.passed);
}

TEST_CASE("gate verdicts on crafted records", "[gates]")
{
    QTemporaryDir dir;
    auto store = progress::Store::open(dir.filePath("p.sqlite").toStdString());
    const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    progress::RunLedger ledger(store);
    auto import = [&](const QJsonObject &o, const char *name) {
        return importRunRecord(writeTemp(dir, QString::fromLatin1(name), bytes(o)), store, labs);
    };
    auto withSamples = [](QJsonObject o, const char *key, QJsonArray samples) {
        QJsonObject part = o[QLatin1String(key)].toObject();
        part["samples"] = samples;
        o[QLatin1String(key)] = part;
        return o;
    };

    SECTION("an example never attempts a gate")
    {
        const ImportOutcome r = importRunRecord(QDir(kLabs).filePath("examples/L07.json"), store, labs);
        REQUIRE(r.stored);
        CHECK_FALSE(r.verdict.judged);
        CHECK(ledger.gateAttempts().empty());
    }
    SECTION("G1 passes within 1.1x XLA and fails beyond it; both attempts are kept")
    {
        QJsonObject fast = withSamples(ownRun("L07.json"), "timing", {7.0e-4, 7.1e-4, 7.2e-4});
        fast = withSamples(fast, "baseline", {6.99e-4, 7.0e-4, 7.01e-4});
        const ImportOutcome pass = import(fast, "fast.json");
        REQUIRE(pass.verdict.judged);
        CHECK(pass.verdict.passed);

        QJsonObject slow = withSamples(ownRun("L07.json"), "timing", {9.0e-4, 9.1e-4, 9.2e-4});
        slow = withSamples(slow, "baseline", {6.99e-4, 7.0e-4, 7.01e-4});
        const ImportOutcome fail = import(slow, "slow.json");
        REQUIRE(fail.verdict.judged);
        CHECK_FALSE(fail.verdict.passed);
        CHECK(fail.verdict.reasons.join(' ').contains("1.300x"));
        REQUIRE(ledger.gateAttempts().size() == 2);
        CHECK(gateStatesFrom(ledger.gateAttempts()).value("G1") == "passed");
    }
    SECTION("G1 fails on correctness even when fast")
    {
        QJsonObject wrong = withSamples(ownRun("L07.json"), "timing", {7.0e-4});
        wrong = withSamples(wrong, "baseline", {7.0e-4});
        QJsonObject c = wrong["correctness"].toObject();
        c["passed"] = false;
        c["maxAbsError"] = 3.5;
        wrong["correctness"] = c;
        const ImportOutcome r = import(wrong, "wrong.json");
        REQUIRE(r.verdict.judged);
        CHECK_FALSE(r.verdict.passed);
        CHECK(r.verdict.reasons.join(' ').contains("Not correct"));
        CHECK(gateStatesFrom(ledger.gateAttempts()).value("G1") == "attempted");
    }
    SECTION("G0 counts only predictions entered before the measurement")
    {
        QJsonObject run = ownRun("L05.json");
        run["date"] = QDateTime::currentDateTimeUtc().addSecs(-3600).toString(Qt::ISODate);
        // Predictions entered now, after the run's date: none counts.
        ledger.addPrediction("G0", "matmul_nnn", 7.0e-4, "s");
        ledger.addPrediction("G0", "matmul_skinny", 4.2e-5, "s");
        ledger.addPrediction("G0", "elementwise_add", 1.25e-4, "s");
        const ImportOutcome late = import(run, "late.json");
        REQUIRE(late.verdict.judged);
        CHECK_FALSE(late.verdict.passed);
        CHECK(late.verdict.reasons.join(' ').contains("entered after the measurement"));

        // A run dated after the predictions, whose medians are near them: passes.
        QJsonObject later = run;
        later["date"] = QDateTime::currentDateTimeUtc().addSecs(60).toString(Qt::ISODate);
        QJsonObject extra = later["extra"].toObject();
        QJsonArray rows;
        for (const auto &[row, s] : std::vector<std::pair<QString, double>>{
                 {"matmul_nnn", 7.5e-4}, {"matmul_skinny", 4.6e-5}, {"elementwise_add", 1.3e-4}})
            rows.append(QJsonObject{
                {"row", row}, {"shapes", QJsonObject{{"n", 4096}}}, {"dtype", "bf16"}, {"samples", QJsonArray{s, s}}});
        extra["rows"] = rows;
        later["extra"] = extra;
        const ImportOutcome onTime = import(later, "ontime.json");
        REQUIRE(onTime.verdict.judged);
        for (const QString &reason : onTime.verdict.reasons)
            UNSCOPED_INFO(reason.toStdString());
        CHECK(onTime.verdict.passed);
        CHECK(ledger.gateAttempts().size() == 2);
    }
}
