#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

// What the command line asked for. Parsed before the application object
// exists, so screenshot mode can choose the offscreen platform.
struct AppOptions
{
    bool help = false;
    bool version = false;
    QString dbPath;           // empty: the user's data folder
    QString screenshotPath;   // non-empty: render offscreen, save, exit
    QString layoutReportPath; // non-empty: render offscreen, write the layout report, exit
    QString firstFramePath;   // non-empty: save the window's first frame, as first shown, and exit
    QString openPlace = QStringLiteral("stack");
    QSize size{1440, 900};
    QString theme;            // with a render: "light" or "dark" for this run only; empty: the kept one
    QString reportPath;       // non-empty: export the progress report and exit
    QString paper;            // with --export-report: "a4" or "letter"; empty: by locale
    QString learner;          // with --export-report: the name on the report; empty: the remembered one
    QString importPath;       // non-empty: import a run record and exit
    QString progressCopyPath; // non-empty: write a copy of the progress file and exit
    QString profilePath;      // non-empty: read a profile (and, alone, store it and exit)
    QString chapterDir;       // empty: ./chapters beside the executable
};

struct ParsedCommandLine
{
    std::optional<AppOptions> options;
    QString error; // one line naming the bad flag or value
};

ParsedCommandLine parseCommandLine(const QStringList &arguments);
QString commandLineHelp();

// Places --open accepts besides chapters (ch01..ch15) and workshop piece ids.
bool isKnownPlaceSyntax(const QString &place);
