#include "chapterprogress.h"

#include <chapters/chapterinfo.h>

std::string goalKey(const QString &itemId, const QString &goalId)
{
    return (itemId + QLatin1Char('/') + goalId).toStdString();
}

double itemProgress(const course::MasteryItem &item, const std::set<std::string> &itemsDone,
                    const std::set<std::string> &goalsReached)
{
    if (itemsDone.count(item.id.toStdString()))
        return 1.0;
    if (item.goals.isEmpty())
        return 0.0;
    int reached = 0;
    for (const auto &goal : item.goals)
        reached += goalsReached.count(goalKey(item.id, goal.id)) ? 1 : 0;
    return double(reached) / item.goals.size();
}

ChapterProgress chapterProgress(const course::ChapterInfo &info, const std::set<std::string> &itemsDone,
                                const QMap<QString, QString> &gateStates, const std::set<std::string> &goalsReached)
{
    ChapterProgress p;
    p.itemsTotal = static_cast<int>(info.mastery.size());
    for (const auto &item : info.mastery) {
        const double share = itemProgress(item, itemsDone, goalsReached);
        if (share >= 1.0)
            ++p.itemsDone;
        else
            p.partialItems += share;
    }
    if (info.isStage()) {
        // A gate is judged from measured runs only; a stage is done only
        // when its gate has passed.
        p.gateState = gateStates.value(info.stage->gate, QStringLiteral("locked"));
        p.done = p.gateState == QLatin1String("passed");
    } else {
        p.done = p.itemsTotal > 0 && p.itemsDone == p.itemsTotal;
    }
    return p;
}
