#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace course {

// One condition of a mastery item that its piece checks by itself.
struct MasteryGoal
{
    QString id;
    QString text;
};

struct MasteryItem
{
    QString id;
    QString text;
    QString piece; // the workshop piece it is done with; may be empty
    // When listed, the piece credits the item goal by goal, and the item is
    // done once every goal is reached; a learner cannot tick it by hand.
    QList<MasteryGoal> goals;
};

struct WorkshopPiece
{
    QString id;   // EX01, D1, M1, L01
    QString kind; // instrument, drill, exhibit, lab
    QString name;
    QString does;
    int chapter = 0;
    bool hasPage = false; // the plugin serves a page for it (labs live on the chapter's page)

    // The id as the course prints it: EX·01 for EX01; others unchanged.
    QString displayId() const;
};

struct StageInfo
{
    int number = 0;
    QString gate; // G0..G5
    QString lab;  // the lab whose measured run the gate judges
    QString rule; // the pass condition, in words
};

// One chapter as its plugin's metadata (chapter.json) describes it.
struct ChapterInfo
{
    int number = 0;
    QString slug;
    QString title;
    QString summary;
    int layer = 0; // the layer it belongs to, or is pinned at (a stage)
    QString layerName;
    QString layerLine;
    std::optional<StageInfo> stage;
    QList<MasteryItem> mastery;
    QList<WorkshopPiece> pieces;

    bool isStage() const { return stage.has_value(); }
};

// Reads and checks the "MetaData" object of a chapter plugin. On failure
// returns nothing and sets *error to one sentence naming the first problem.
std::optional<ChapterInfo> parseChapterMetadata(const QJsonObject &meta, QString *error);

} // namespace course
