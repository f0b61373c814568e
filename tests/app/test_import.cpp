// Importing lab run records: every shipped example accepted, bad records
// refused each for its own reason, files that are not records refused
// unread, and a record stored once.
#include "labrecords.h"

#include <progress/runs.h>
#include <progress/store.h>

#include <functional>

#include <sys/stat.h>

using namespace labrecords;

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
         "Impossible timing: the median 1 ns for matmul 4096×4096×4096 is below what a v5e can do; its roofline "
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
