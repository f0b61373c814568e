#pragma once

#include "runrecord.h"

#include <progress/runs.h>

#include <QMap>
#include <QString>
#include <QStringList>

#include <vector>

// A gate's verdict on one measured run: passed or not, and why, in sentences
// the learner and the report can read. Judged only from measured records.
struct GateVerdict
{
    QString gate;
    bool judged = false; // false: this record cannot be judged by a gate (and no attempt is kept)
    bool passed = false;
    QStringList reasons;
};

// The gate a lab's run is judged by (G0..G5), or empty.
QString gateForLab(const QString &lab);

// Judges `record` for its lab's gate. G0 reads the learner's predictions,
// time-stamped when entered; only those entered before the measurement count.
GateVerdict judgeGate(const RunRecord &record, const std::vector<progress::Prediction> &predictions);

// Each gate's state from its attempts: passed once any attempt passed,
// attempted when there are attempts but none passed; absent means locked.
QMap<QString, QString> gateStatesFrom(const std::vector<progress::GateAttempt> &attempts);

// The three bench rows G0 asks for, with the shapes the record must carry.
QStringList g0Rows();
