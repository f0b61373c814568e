#pragma once

#include "runrecord.h"

#include <QList>
#include <QMap>
#include <QString>

// A measured record's timing from the device itself: a lab run with
// --profile DIR names, in extra.profile, the folder of the trace it wrote
// and the XLA programs (modules) of its timed function and of its baseline.
// Each run of a module on the XLA Modules line is one sample of device time,
// with no host dispatch in it.
struct DeviceTiming
{
    bool used = false;                // the samples below replace the record's host timing
    QList<double> samples;            // seconds, one per run of the timed program
    QList<double> baselineSamples;    // seconds, one per run of the baseline's program
    QList<double> computeOnlySamples; // L11: the compute-only program's runs, when the record has them
    // G0 (L05): each bench row's runs, by row, from the program the record
    // names for it; every row has them when `used`.
    QMap<QString, QList<double>> rowSamples;
    QString note; // which timing the verdict rests on, and why, in a sentence
};

// `recordPath` locates a profile folder given by a path from another
// machine (the TPU VM): the folder of that name beside the record is tried.
DeviceTiming deviceTimingFor(const RunRecord &record, const QString &recordPath);
