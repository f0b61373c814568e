#pragma once
// What no real run can report. A local app cannot stop someone who edits
// its files, but it can refuse a record that is physically impossible or
// contradicts itself: faster than the chip's roofline allows (beyond the
// simulator's published error for that kind of work), a baseline far
// slower than XLA's floor, timer samples with no spread at all, a
// correctness verdict its own errors contradict, a run dated before the
// labs existed. Each refusal names the rule and the figures.
#include "runrecord.h"

#include <QDateTime>
#include <QStringList>

// The day the lab scripts first shipped; no record of them is older.
QDateTime labsFirstShipped();

// The largest output magnitude any lab's check compares: their inputs are
// standard normals (L01 scales one by 1/sqrt(k)), so no output comes near.
inline constexpr double kLargestLabOutput = 1e4;

// One sentence per rule the record breaks; empty when it is plausible.
QStringList implausibilities(const RunRecord &record);
