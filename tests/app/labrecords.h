#pragma once

// Lab run records for the import and gate tests: the shipped examples, a
// learner's own run made from one, and the checks and files around them.
#include "labs/importer.h"
#include "labs/labcatalog.h"
#include "labs/runrecord.h"
#include "support.h"

#include <catch2/catch.hpp>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace labrecords {

inline const QString kLabs = QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/labs");

inline QJsonObject example(const QString &name)
{
    return QJsonDocument::fromJson(readFile(QDir(kLabs).filePath(QStringLiteral("examples/") + name))).object();
}

// An example made into a learner's own measured run: same script, not marked.
// Timing samples a little slower than the example's: what a learner's own
// run measures, never the shipped example's exact figures.
inline QJsonObject ownSamples(QJsonObject o, const char *block)
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
inline QJsonObject ownRun(const QString &name)
{
    QJsonObject o = ownSamples(ownSamples(example(name), "timing"), "baseline");
    QJsonObject extra = o.value("extra").toObject();
    extra.remove("example");
    o.insert("extra", extra);
    o.insert("host", "t1v-n-learner");
    return o;
}

inline QByteArray bytes(const QJsonObject &o)
{
    return QJsonDocument(o).toJson();
}

inline RecordCheck check(const QJsonObject &o)
{
    static const LabCatalog labs = LabCatalog::fromFolder(kLabs);
    return checkRunRecord(bytes(o), labs, QDateTime::currentDateTimeUtc());
}

inline QString writeTemp(const QTemporaryDir &dir, const QString &name, const QByteArray &data)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(data);
    return path;
}

} // namespace labrecords
