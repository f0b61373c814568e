#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

class LabCatalog;

// A run record as a lab script wrote it (assets/run-record.schema.json),
// read and checked. Only records that pass every check exist as values.
struct RunRecord
{
    QString lab;
    QString kind; // measured | verified-off-chip
    QString platform;
    QString deviceKind;
    QString chip;
    int deviceCount = 1;
    QString jaxVersion;
    QString jaxlibVersion;
    QString dtype;
    QMap<QString, qint64> shapes;
    QString timingMethod;
    int warmup = 0;
    QList<double> samples; // empty for verified-off-chip
    QString baselineName;  // empty when the lab has no baseline
    QList<double> baselineSamples;
    QString reference;
    double maxAbsError = 0;
    double maxRelError = 0;
    double tolAbs = 0;
    double tolRel = 0;
    bool correct = false;
    QDateTime date; // UTC
    QString host;
    QString scriptName;
    QString scriptSha256;
    QJsonObject extra;
    bool example = false; // shipped as an example: never counts

    QByteArray canonicalJson; // compact, for storing and hashing
    QString sha256;           // of canonicalJson: the record's identity

    bool measured() const { return kind == QLatin1String("measured"); }
    QString shapesText() const; // "m=4096 k=4096 n=4096"
};

double median(QList<double> values);

struct RecordCheck
{
    std::optional<RunRecord> record;
    QStringList problems; // each one sentence; empty when record is set
};

// Reads and checks a record against the schema, the shipped labs and the
// simulator's chips. `now` bounds the record's date (no future runs).
// A record kept from an earlier build may come from an earlier script:
// `requireShippedScript` false checks everything but that.
RecordCheck checkRunRecord(const QByteArray &bytes, const LabCatalog &labs, const QDateTime &now,
                           bool requireShippedScript = true);

// What a record measured, hashed: its lab, its timing and baseline samples
// and its worst errors. A shipped example keeps this fingerprint whatever
// else is edited (its "example" flag deleted, its host or date changed).
QString exampleFingerprint(const QJsonObject &record);

// The chip id a JAX device kind names, or empty when the simulator has none.
QString chipForDeviceKind(const QString &deviceKind);
