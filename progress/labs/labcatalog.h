#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// The labs as shipped with this build: their descriptions
// (assets/labs/labs.json) and their scripts, against whose SHA-256 an
// imported record's script hash is checked.
struct LabInfo
{
    QString id; // L07
    int chapter = 0;
    QString name;
    QString script;     // l07_tiled_matmul.py
    QString scriptPath; // where this build keeps it
    QString goal;
    QStringList commands;
    QString gate; // G1, or empty
    QString checks;

    // Hashed when a record is checked, not when the catalog is read: the
    // catalog is read at every start-up, a record rarely.
    QString scriptSha256() const;
};

class LabCatalog
{
public:
    // Reads the catalog from this build's resources.
    static LabCatalog fromResources();
    // Reads a catalog from a folder laid out like assets/labs (for tests).
    static LabCatalog fromFolder(const QString &dir);

    const QList<LabInfo> &labs() const { return m_labs; }
    const LabInfo *lab(const QString &id) const;
    const LabInfo *labForGate(const QString &gate) const;
    QString problem() const { return m_problem; } // empty when the catalog read cleanly
    // What importing any record checks, before what its lab's own adds.
    QString checksOnEveryRecord() const { return m_everyRecord; }
    // The example records shipped beside the scripts (examples/*.json), by
    // what they measured (exampleFingerprint), read when a record is checked.
    QStringList exampleFingerprints() const;

private:
    static LabCatalog read(const QString &jsonPath, const QString &scriptDir);
    QList<LabInfo> m_labs;
    QString m_dir;
    QString m_problem;
    QString m_everyRecord;
};
