#pragma once

#include <set>
#include <string>

#include <QMap>
#include <QString>

namespace course {
struct ChapterInfo;
struct MasteryItem;
} // namespace course

// How far a learner is in one chapter, from its metadata and the mastery
// items the store holds as done. One rule for the stack, the chapter page
// and the report.
struct ChapterProgress
{
    int itemsDone = 0;
    int itemsTotal = 0;
    double partialItems = 0; // the share reached of items not done yet, goal by goal
    QString gateState;       // stages only: locked, attempted or passed
    bool done = false;

    double fraction() const { return itemsTotal > 0 ? (itemsDone + partialItems) / itemsTotal : 0.0; }
};

// gateStates maps a gate (G0..G5) to locked, attempted or passed; a gate it
// does not name is locked. goalsReached holds "item/goal" keys: an item not
// done yet counts the share of its goals reached.
ChapterProgress chapterProgress(const course::ChapterInfo &info, const std::set<std::string> &itemsDone,
                                const QMap<QString, QString> &gateStates,
                                const std::set<std::string> &goalsReached = {});

// How the store names a goal of an item: "item/goal".
std::string goalKey(const QString &itemId, const QString &goalId);

// How far one mastery item is: 1 when done, else the share of its goals reached.
double itemProgress(const course::MasteryItem &item, const std::set<std::string> &itemsDone,
                    const std::set<std::string> &goalsReached);
