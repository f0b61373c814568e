#include <catch2/catch.hpp>

#include "labs/gates.h"
#include "labs/importer.h"
#include "labs/labcatalog.h"
#include "labs/runrecord.h"
#include "support.h"

#include <progress/runs.h>
#include <progress/store.h>
#include <tpuprofile/read.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <functional>

#include <sys/stat.h>

namespace {

const QString kLabs = QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/labs");

QJsonObject example(const QString &name)
{
    return QJsonDocument::fromJson(readFile(QDir(kLabs).filePath(QStringLiteral("examples/") + name))).object();
}

// An example made into a learner's own measured run: same script, not marked.
// Timing samples a little slower than the example's: what a learner's own
// run measures, never the shipped example's exact figures.
QJsonObject ownSamples(QJsonObject o, const char *block)
{
    if (!o.value(block).isObject())
        return o;
    QJsonObject b = o.value(block).toObject();
    QJsonArray samples;
    int i = 0;
    for (const QJsonValue &s : b.value("samples").toArray())
        samples.append(s.toDouble() * (1.0 + 0.003 * ++i));
    b["samples"] = samples;
    o[block] = b;
    return o;
}

// A run of the learner's own, made from a shipped example.
QJsonObject ownRun(const QString &name)
{
    QJsonObject o = ownSamples(ownSamples(example(name), "timing"), "baseline");
    QJsonObject extra = o.value("extra").toObject();
    extra.remove("example");
    o.insert("extra", extra);
    o.insert("host", "t1v-n-learner");
    return o;
}

QByteArray bytes(const QJsonObject &o)
{
    return QJsonDocument(o).toJson();
}

RecordCheck check(const QJsonObject &o)
{
    static const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    return checkRunRecord(bytes(o), labs, QDateTime::currentDateTimeUtc());
}

QString writeTemp(const QTemporaryDir &dir, const QString &name, const QByteArray &data)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(data);
    return path;
}

} // namespace

TEST_CASE("every shipped example record is accepted", "[import]")
{
    const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    REQUIRE(labs.problem().isEmpty());
    REQUIRE(labs.labs().size() == 21);
    const QStringList files = QDir(kLabs + QStringLiteral("/examples")).entryList({"*.json"}, QDir::Files);
    REQUIRE(files.size() >= 16);
    for (const QString &f : files) {
        INFO(f.toStdString());
        const RecordCheck c = check(example(f));
        for (const QString &p : c.problems)
            UNSCOPED_INFO(p.toStdString());
        CHECK(c.record.has_value());
        CHECK(c.record->example);
    }
}

TEST_CASE("a catalogue of bad records, each refused for the right reason", "[import]")
{
    struct Bad
    {
        const char *name;
        std::function<void(QJsonObject &)> spoil;
        const char *reason;
    };
    const QList<Bad> cases{
        {"another schema", [](QJsonObject &o) { o["schema"] = "something/else"; }, "not a tpu-course run record"},
        {"newer version", [](QJsonObject &o) { o["schemaVersion"] = 2; }, "newer lab script"},
        {"missing field", [](QJsonObject &o) { o.remove("dtype"); }, "no \"dtype\""},
        {"unknown field", [](QJsonObject &o) { o["colour"] = "red"; }, "unknown field \"colour\""},
        {"unknown lab", [](QJsonObject &o) { o["lab"] = "L99"; }, "not one of this course's labs"},
        {"measured on a CPU", [](QJsonObject &o) { o["platform"] = "cpu"; }, "must come from a TPU"},
        {"unknown chip", [](QJsonObject &o) { o["chip"] = "v9"; }, "not one the simulator knows"},
        {"device kind and chip disagree", [](QJsonObject &o) { o["deviceKind"] = "TPU v4"; }, "is not a v5e"},
        {"no samples",
         [](QJsonObject &o) {
             QJsonObject t = o["timing"].toObject();
             t["samples"] = QJsonArray();
             o["timing"] = t;
         },
         "at least one sample"},
        {"negative sample",
         [](QJsonObject &o) {
             QJsonObject t = o["timing"].toObject();
             t["samples"] = QJsonArray{0.001, -1.0};
             o["timing"] = t;
         },
         "not a positive number"},
        {"measured without timing", [](QJsonObject &o) { o["timing"] = QJsonValue::Null; }, "must carry its timing"},
        {"future date", [](QJsonObject &o) { o["date"] = "2099-01-01T00:00:00Z"; }, "in the future"},
        {"local time", [](QJsonObject &o) { o["date"] = "2026-11-20T10:00:00+01:00"; }, "in UTC"},
        {"edited script",
         [](QJsonObject &o) {
             QJsonObject s = o["script"].toObject();
             s["sha256"] = QString(64, QLatin1Char('a'));
             o["script"] = s;
         },
         "SHA-256 differs"},
        {"another lab's script",
         [](QJsonObject &o) {
             QJsonObject s = o["script"].toObject();
             s["name"] = "l01_repo.py";
             o["script"] = s;
         },
         "is run by"},
        {"zero shape",
         [](QJsonObject &o) {
             QJsonObject s = o["shapes"].toObject();
             s["m"] = 0;
             o["shapes"] = s;
         },
         "whole number of at least 1"},
        {"bad dtype", [](QJsonObject &o) { o["dtype"] = "bf17"; }, "\"bf17\""},
        {"negative error",
         [](QJsonObject &o) {
             QJsonObject c = o["correctness"].toObject();
             c["maxAbsError"] = -1;
             o["correctness"] = c;
         },
         "maxAbsError"},
        // What a hostile tester typed into a record.
        {"a sample of 1e308 s",
         [](QJsonObject &o) {
             QJsonObject t = o["timing"].toObject();
             t["samples"] = QJsonArray{1e308, 1e308};
             o["timing"] = t;
         },
         "up to 3600"},
        {"2^32 + 4 devices", [](QJsonObject &o) { o["deviceCount"] = 4294967300.0; },
         "\"deviceCount\" must be a whole number from 1 to 4096"},
        {"4.7 devices", [](QJsonObject &o) { o["deviceCount"] = 4.7; }, "\"deviceCount\" must be a whole number"},
        {"1e20 warm-up calls",
         [](QJsonObject &o) {
             QJsonObject t = o["timing"].toObject();
             t["warmup"] = 1e20;
             o["timing"] = t;
         },
         "\"warmup\" must be a whole number"},
        {"dated 1970", [](QJsonObject &o) { o["date"] = "1970-01-01T00:00:00Z"; }, "before the labs first shipped"},
        {"4096^3 in 1 ns",
         [](QJsonObject &o) {
             QJsonObject t = o["timing"].toObject();
             t["samples"] = QJsonArray{1e-9};
             o["timing"] = t;
         },
         "Impossible timing: the median 1.00 ns for matmul 4096×4096×4096 is below what a v5e can do; its roofline "
         "floor is 697.7 µs"},
        {"every sample identical",
         [](QJsonObject &o) {
             QJsonObject t = o["timing"].toObject();
             t["samples"] = QJsonArray{8e-4, 8e-4, 8e-4, 8e-4};
             o["timing"] = t;
         },
         "all 4 timing samples are exactly"},
        {"passed with an error of 1e9",
         [](QJsonObject &o) {
             QJsonObject c = o["correctness"].toObject();
             c["maxAbsError"] = 1e9;
             c["passed"] = true;
             o["correctness"] = c;
         },
         "contradicts itself"},
        {"failed within tolerance",
         [](QJsonObject &o) {
             QJsonObject c = o["correctness"].toObject();
             c["maxAbsError"] = 0.001;
             c["passed"] = false;
             o["correctness"] = c;
         },
         "contradicts itself"},
        {"XLA's baseline 1000x slower",
         [](QJsonObject &o) {
             QJsonObject b = o["baseline"].toObject();
             QJsonArray s;
             for (const QJsonValue &x : b["samples"].toArray())
                 s.append(x.toDouble() * 1000);
             b["samples"] = s;
             o["baseline"] = b;
         },
         "Implausible baseline"},
    };
    for (const Bad &b : cases) {
        INFO(b.name);
        QJsonObject o = ownRun(QStringLiteral("L07.json"));
        b.spoil(o);
        const RecordCheck c = check(o);
        CHECK_FALSE(c.record.has_value());
        CHECK(c.problems.join(' ').contains(QString::fromUtf8(b.reason)));
    }

    SECTION("an off-chip verification that claims a time")
    {
        QJsonObject o = example(QStringLiteral("L07-interpret.json"));
        o["timing"] = QJsonObject{{"method", "wall clock"}, {"warmup", 1}, {"samples", QJsonArray{0.001}}};
        CHECK(check(o).problems.join(' ').contains("makes no timing claims"));
    }
    SECTION("L05's bench rows with samples that are not times")
    {
        QJsonObject o = ownRun(QStringLiteral("L05.json"));
        QJsonObject extra = o["extra"].toObject();
        QJsonArray rows = extra["rows"].toArray();
        QJsonObject row = rows[0].toObject();
        row["samples"] = QJsonArray{-5, "fast", -1e9};
        rows[0] = row;
        extra["rows"] = rows;
        o["extra"] = extra;
        CHECK(check(o).problems.join(' ').contains(
            "The bench row \"matmul_nnn\" has a sample that is not a positive number"));
    }
    SECTION("a bench row faster than its floor")
    {
        QJsonObject o = ownRun(QStringLiteral("L05.json"));
        QJsonObject extra = o["extra"].toObject();
        QJsonArray rows = extra["rows"].toArray();
        QJsonObject row = rows[0].toObject();
        row["samples"] = QJsonArray{1e-6, 1.1e-6};
        rows[0] = row;
        extra["rows"] = rows;
        o["extra"] = extra;
        CHECK(check(o).problems.join(' ').contains("Impossible timing"));
    }
    SECTION("a shipped example stays an example with its flag deleted and its host changed")
    {
        QJsonObject o = example(QStringLiteral("L07.json"));
        QJsonObject extra = o["extra"].toObject();
        extra.remove("example");
        o["extra"] = extra;
        o["host"] = "t1v-n-learner";
        const RecordCheck c = check(o);
        REQUIRE(c.record.has_value());
        CHECK(c.record->example);
    }
    SECTION("text that is not JSON")
    {
        static const LabCatalog labs = LabCatalog::fromFolder(kLabs);
        const RecordCheck c = checkRunRecord("{\"schema\": ", labs, QDateTime::currentDateTimeUtc());
        REQUIRE(c.problems.size() == 1);
        CHECK(c.problems.first().contains("not valid JSON"));
    }
}

TEST_CASE("a device, a FIFO or an oversized file is refused at once, unread", "[import]")
{
    const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    CHECK(prepareImport(QStringLiteral("/dev/zero"), labs).problems.join(' ').contains("is not a regular file"));
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("record.fifo"));
    REQUIRE(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    // Opening a FIFO for reading would block until a writer came.
    CHECK(prepareImport(fifo, labs).problems.join(' ').contains("is not a regular file"));
    CHECK(prepareImport(dir.path(), labs).problems.join(' ').contains("is not a regular file"));
    QFile big(dir.filePath(QStringLiteral("big.json")));
    REQUIRE(big.open(QIODevice::WriteOnly));
    REQUIRE(big.resize(40LL * 1024 * 1024)); // sparse: no 40 MiB written
    big.close();
    CHECK(prepareImport(big.fileName(), labs).problems.join(' ').contains("too large to be a run record"));
}

TEST_CASE("importing stores once, recognises a repeat, and refuses bad files whole", "[import]")
{
    QTemporaryDir dir;
    auto store = progress::Store::open(dir.filePath("p.sqlite").toStdString());
    const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    progress::RunLedger ledger(store);

    const QString good = QDir(kLabs).filePath("examples/L06.json");
    const ImportOutcome first = importRunRecord(good, store, labs);
    REQUIRE(first.stored);
    CHECK_FALSE(first.alreadyPresent);
    const ImportOutcome again = importRunRecord(good, store, labs);
    CHECK(again.stored);
    CHECK(again.alreadyPresent);
    CHECK(ledger.runRecords().size() == 1);

    QJsonObject spoiled = ownRun("L07.json");
    spoiled["chip"] = "v9";
    const ImportOutcome bad = importRunRecord(writeTemp(dir, "bad.json", bytes(spoiled)), store, labs);
    CHECK_FALSE(bad.stored);
    CHECK(ledger.runRecords().size() == 1);
    CHECK(ledger.gateAttempts().empty());

    const ImportOutcome missing = importRunRecord(dir.filePath("nope.json"), store, labs);
    CHECK_FALSE(missing.stored);
    CHECK(missing.problems.join(' ').contains("does not exist"));
}

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
