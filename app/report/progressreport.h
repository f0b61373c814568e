#pragma once

#include "reportchart.h"

#include <QDateTime>
#include <QStringList>
#include <QList>
#include <QString>

namespace course { class ChapterCatalog; }
namespace progress { class Store; }

// Everything the progress report says, gathered once and written in any of
// three formats, so the PDF, the HTML and the JSON can never disagree.
struct ProgressReport
{
    struct Item { QString id; QString text; bool done = false; };
    struct Chapter
    {
        int number = 0;
        QString title;
        QString layerName;
        bool isStage = false;
        int stageNumber = -1;
        QString gate;
        QString gateRule;
        QString gateState;
        int itemsDone = 0;
        int itemsTotal = 0;
        bool done = false;
        QList<Item> items;
    };
    struct Attempt { qint64 id = 0; QString gate; bool passed = false; QDateTime judged; qint64 record = 0; QStringList reasons; };
    struct Run
    {
        qint64 id = 0;
        QString lab, kind, chip, deviceKind, dtype, shapes, date;
        double medianS = 0;          // 0 without timing
        double baselineMedianS = 0;  // 0 without a baseline
        bool correct = false;
        bool example = false;
    };
    struct EventKind { QString kind; qint64 count = 0; };
    struct Event { QDateTime when; QString kind; QString subject; QString detail; };

    QString appVersion;
    QDateTime generated;
    QString database;
    QList<Chapter> chapters;
    int chaptersDone = 0;
    int gatesPassed = 0;
    int gateCount = 0;
    qint64 eventCount = 0;
    QDateTime firstEvent;
    QDateTime lastEvent;
    QList<EventKind> eventKinds;
    QList<Event> recentEvents; // newest first
    QList<Attempt> attempts;   // every gate attempt, oldest first
    QList<Run> runs;           // every imported run record, oldest first
    RooflineChart chart;       // the learner's measured points on their chip's roofs
};

ProgressReport buildProgressReport(const course::ChapterCatalog &catalog, const progress::Store &store);

QByteArray progressReportJson(const ProgressReport &report);
// imageSource: where the HTML finds the roofline chart (a data: URL for a
// file on its own, a resource name for the PDF).
QString progressReportHtml(const ProgressReport &report, const QString &imageSource);

// Writes the report in the format its suffix names (.pdf, .html, .json),
// through a temporary file, so a failed export leaves nothing half-written.
bool writeProgressReport(const ProgressReport &report, const QString &path, QString *error);
