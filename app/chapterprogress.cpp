#include "chapterprogress.h"

#include <chapters/chapterinfo.h>

ChapterProgress chapterProgress(const course::ChapterInfo &info, const std::set<std::string> &itemsDone,
                                const QMap<QString, QString> &gateStates)
{
    ChapterProgress p;
    p.itemsTotal = static_cast<int>(info.mastery.size());
    for (const auto &item : info.mastery)
        p.itemsDone += itemsDone.count(item.id.toStdString()) ? 1 : 0;
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
