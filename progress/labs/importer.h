#pragma once

#include "devicetiming.h"
#include "gates.h"
#include "runrecord.h"

#include <optional>

#include <QString>
#include <QStringList>

class LabCatalog;
namespace progress {
class Store;
}

// The result of importing one run record file.
struct ImportOutcome
{
    bool stored = false;         // in the store now (new, or found there already)
    bool alreadyPresent = false; // the same record was imported before
    QString lab;
    QString summary;      // one line for the learner
    QStringList problems; // why a file was refused; nothing is stored then
    GateVerdict verdict;  // judged only for a new measured gate run
};

// A record read and checked, not yet stored: what prepareImport gives.
struct PreparedImport
{
    std::optional<RunRecord> record; // set when every check passed
    QStringList problems;            // else why the file was refused
    QString absolutePath;
    DeviceTiming device; // the device's own timing, when its profile is at hand
};

// Reads and checks a record file and finds its profile: file work only,
// safe on any thread. Refuses what is not a regular file, or over 32 MiB.
PreparedImport prepareImport(const QString &path, const LabCatalog &labs);
// Judges and stores what prepareImport read, on the store's thread.
ImportOutcome storePreparedImport(const PreparedImport &prepared, progress::Store &store);

// Reads, checks and stores a run record, and when it is a new measured run
// of a gate's lab, judges the gate and keeps the attempt, pass or fail.
// A file that fails any check is refused whole: nothing is written.
ImportOutcome importRunRecord(const QString &path, progress::Store &store, const LabCatalog &labs);
