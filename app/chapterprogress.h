#pragma once

#include <set>
#include <string>

#include <QMap>
#include <QString>

namespace course { struct ChapterInfo; }

// How far a learner is in one chapter, from its metadata and the mastery
// items the store holds as done. One rule for the stack, the chapter page
// and the report.
struct ChapterProgress
{
    int itemsDone = 0;
    int itemsTotal = 0;
    QString gateState; // stages only: locked, attempted or passed
    bool done = false;

    double fraction() const { return itemsTotal > 0 ? double(itemsDone) / itemsTotal : 0.0; }
};

// gateStates maps a gate (G0..G5) to locked, attempted or passed; a gate it
// does not name is locked.
ChapterProgress chapterProgress(const course::ChapterInfo &info, const std::set<std::string> &itemsDone,
                                const QMap<QString, QString> &gateStates);
