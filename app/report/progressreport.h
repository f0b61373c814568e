#pragma once

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace course {
class ChapterCatalog;
}
namespace progress {
class Store;
}

// Everything the progress report says, gathered once and written in any of
// three formats, so the PDF, the HTML and the JSON can never disagree.
struct ProgressReport
{
    // A chapter's state as the store has it: never opened and nothing done,
    // opened or partly done, or done (a stage is done when its gate passed).
    enum class ChapterState { NotStarted, InProgress, Done };

    struct Item
    {
        QString id;
        QString text;
        bool done = false;
    };
    struct Chapter
    {
        int number = 0;
        QString title;
        QString layerName;
        bool isStage = false;
        int stageNumber = -1;
        QString gate;
        QString gateRule;
        QString gateState; // stages only: locked, attempted or passed
        int itemsDone = 0;
        int itemsTotal = 0;
        ChapterState state = ChapterState::NotStarted;
        QDateTime firstOpened; // invalid when never opened
        QList<Item> items;
    };
    struct Attempt
    {
        qint64 id = 0;
        QString gate;
        QString stageTitle;
        bool passed = false;
        QDateTime judged;
        qint64 record = 0;
        bool deviceTimed = false; // judged on a profile's device time, not the host's timer
        QStringList reasons;
    };
    // The simulator's floor for a run's shape on its chip, where the cost
    // model knows what the lab computes.
    struct Prediction
    {
        QString label;     // what was costed: "matmul 4096×4096×4096"
        double floorS = 0; // predicted time
        double flops = 0;
        double bytes = 0;
        double measuredS = 0; // the run's (or its bench row's) median
        QString bound;        // what sets the floor: MXU, VPU, HBM, or ICI (a sharded step's exposed transfers)
    };
    struct Run
    {
        qint64 id = 0;
        QString lab, kind, chip, deviceKind, dtype;
        int deviceCount = 1;
        QMap<QString, qint64> shapes;
        QString shapeText; // compact: "4096×4096×4096"
        QString shapeAxes; // what the numbers are: "m×k×n"
        QDateTime date;
        double medianS = 0;         // 0 without timing
        double baselineMedianS = 0; // 0 without a baseline
        QString baselineName;
        bool correct = false;
        bool example = false;
        QList<Prediction> predictions; // measured runs of your own only
    };
    // One chip's roofline with the measured runs of your own on it.
    struct Roofline
    {
        QString chip;
        double peakFlops = 0; // predicted roof (bf16 MXU)
        double bandwidth = 0; // HBM B/s
        struct Point
        {
            QString label;
            double intensity = 0;
            double flopsPerS = 0;
        };
        QList<Point> points;
    };
    // One device of an imported profile: what the device measured, with its
    // longest ops beside their predictions.
    struct Profile
    {
        qint64 id = 0;
        QString device, deviceType, chip, format, sourceFile, sha256;
        QDateTime captured; // invalid when the profile does not say
        QDateTime imported;
        // The build whose predictions the ops carry ("" for an import kept
        // before pricings were recorded), when it made them, and how many
        // times the ops were priced (the import's own pricing included).
        QString pricedBy;
        QDateTime priced;
        int pricings = 1;
        qint64 opEvents = 0;
        double busyS = 0, spanS = 0;
        int opCount = 0;
        struct Op
        {
            QString op, kind, program;
            qint64 occurrences = 0;
            double selfS = 0; // all occurrences
            double perCallS = 0;
            double predictedS = -1; // per occurrence; -1 when not predicted
            QString model;
        };
        QList<Op> top; // the longest few, longest first
    };
    struct EventKind
    {
        QString kind;
        qint64 count = 0;
    };
    // A drill's reviews: how many, how many right, retention on the second
    // and later reviews of a card kind, its level, the kinds due today and
    // the reviews of each of the last 14 days (oldest first).
    struct Drill
    {
        QString id;
        QString name;
        int chapter = 0;
        int reviews = 0;
        int correct = 0;
        double accuracy = 0;
        bool hasRetention = false;
        double retention = 0;
        int level = 1;
        int due = 0;
        QList<int> perDay;
    };

    QString appVersion;
    QDateTime generated;
    QString learner;
    QString database;
    QList<Chapter> chapters;
    int chaptersDone = 0;
    int chaptersStarted = 0; // in progress or done
    int itemsDone = 0;
    int itemsTotal = 0;
    int gatesPassed = 0; // passes whose evidence holds (labs/evidence.h)
    int gateCount = 0;
    QString historyFinding; // "" when the store's history verifies, else what does not
    qint64 eventCount = 0;
    QDateTime firstActivity; // the date range of the learner's own doings
    QDateTime lastActivity;
    QList<EventKind> eventKinds;
    QList<Attempt> attempts;   // every gate attempt, oldest first
    QList<Run> runs;           // every imported run record, oldest first
    QList<Roofline> rooflines; // one per chip with measured runs of your own
    QList<Drill> drills;       // every drill the simulator generates questions for
    QList<Profile> profiles;   // every imported profile's devices, oldest first
    int ownMeasuredRuns = 0;
    int ownVerifiedRuns = 0;
    int exampleRuns = 0;
};

QString chapterStateName(ProgressReport::ChapterState state); // "not started", "in progress", "done"

ProgressReport buildProgressReport(const course::ChapterCatalog &catalog, const progress::Store &store,
                                   const QString &learner);

QByteArray progressReportJson(const ProgressReport &report);
