#pragma once

// The report tests' store and tools: a fixed store of every shipped example
// and four runs of the learner's own, the app run to export a report, and
// poppler's and python3-jsonschema's readings of what it wrote.
#include "support.h"

#include <catch2/catch.hpp>

#include <progress/store.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace reportfixture {

inline const QString kLearner = QStringLiteral("Ada Lovelace");
inline const QString kExamples = QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/labs/examples");
inline const QString kSchema = QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/report.schema.json");

inline QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readFile(path)).object();
}

inline void writeJson(const QString &path, const QJsonObject &o)
{
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(o).toJson());
}

inline void importRun(const QString &db, const QString &file)
{
    const RunResult r = runApp({"--db", db, "--import-run", file});
    INFO(file.toStdString() << ": " << r.err.toStdString());
    REQUIRE(r.exitCode == 0);
}

// A shipped example made into a run of the learner's own: the example mark
// removed and, when given, its timing samples replaced.
inline QString ownRun(const QTemporaryDir &dir, const QString &example, const QJsonArray &samples = {})
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
inline QString fixedStore(const QTemporaryDir &dir)
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

inline RunResult exportReport(const QString &db, const QString &out, const QStringList &more = {})
{
    const RunResult r = runApp(QStringList{"--db", db, "--export-report", out, "--learner", kLearner} + more);
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    return r;
}

inline QString tool(const char *name)
{
    const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
    INFO(name << " comes with poppler-utils, one of the project's packages");
    REQUIRE_FALSE(path.isEmpty());
    return path;
}

inline int pageCount(const QString &pdf)
{
    const RunResult info = runProgram(tool("pdfinfo"), {pdf});
    const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(QString::fromUtf8(info.out));
    REQUIRE(m.hasMatch());
    return m.captured(1).toInt();
}

inline QString pageText(const QString &pdf, int page, bool layout = false)
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
inline QString schemaComplaint(const QString &json)
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

inline const QJsonObject *chapterNumbered(const QJsonArray &chapters, int number, QJsonObject &holder)
{
    for (const auto &v : chapters)
        if (v.toObject().value("number").toInt() == number)
            return &(holder = v.toObject());
    return nullptr;
}

} // namespace reportfixture
