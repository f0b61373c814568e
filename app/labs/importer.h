#pragma once

#include "gates.h"

#include <QString>
#include <QStringList>

class LabCatalog;
namespace progress { class Store; }

// The result of importing one run record file.
struct ImportOutcome
{
    bool stored = false;          // in the store now (new, or found there already)
    bool alreadyPresent = false;  // the same record was imported before
    QString lab;
    QString summary;              // one line for the learner
    QStringList problems;         // why a file was refused; nothing is stored then
    GateVerdict verdict;          // judged only for a new measured gate run
};

// Reads, checks and stores a run record, and when it is a new measured run
// of a gate's lab, judges the gate and keeps the attempt, pass or fail.
// A file that fails any check is refused whole: nothing is written.
ImportOutcome importRunRecord(const QString &path, progress::Store &store, const LabCatalog &labs);
