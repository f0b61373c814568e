#include "commandline.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace {

const char *const helpText = R"(Usage: tpu-course [options]

A desktop course that teaches you to make TPUs fast, one layer of the stack at a time.
With no options it opens the window.

Options:
  --db PATH                  Keep progress in PATH instead of the user's data folder.
  --screenshot FILE.png      Render a page offscreen, save it as a PNG and exit.
  --layout-report FILE.json  Render a page offscreen and write every visible text and control
                             as JSON (its rectangle, whether it is cut off, whether it can
                             be scrolled into view), then exit.
  --first-frame FILE.png     Save the window's very first frame offscreen, as a learner first
                             sees it (the stack, its lower layers not yet made), and exit:
                             what start-up is timed by.
  --open PLACE               With --screenshot or --layout-report: the page to render. PLACE
                             is stack (the default), ch01 ... ch15 (ch11#a-heading or
                             ch11#ex09 to open at a heading or a piece in the text), workshop,
                             bench, chips, validation, profile, labs, palette, report, about,
                             or a workshop piece id such as EX01.
  --size WxH                 With --screenshot, --layout-report or --first-frame: the
                             window size (default 1440x900).
  --theme light|dark         With --screenshot, --layout-report or --first-frame: render in
                             this theme (default: the one kept in the progress file); the
                             kept one is not changed.
  --export-report FILE       Write the progress report as .pdf, .html or .json and exit.
  --page-size a4|letter      With --export-report: the PDF's paper (default: the locale's).
  --learner NAME             With --export-report: the name on the report (default: the
                             name last used, else this account's name).
  --export-progress FILE     Write a copy of the progress file as one SQLite file (what is still
                             in its write-ahead log included), to keep or move, and exit.
  --import-run FILE          Import a lab's run record (JSON): check it, store it, judge its
                             gate when it is a measured gate run, and exit.
  --import-profile PATH      Read a jax.profiler profile (an .xplane.pb, a trace JSON, or the
                             folder jax.profiler.trace wrote), keep its devices' op tables as
                             measured runs, print what took the time, and exit. With
                             --screenshot or --layout-report, render the profile page with it.
  --chapters DIR             Load chapter plugins from DIR instead of the app's own.
  --version                  Print the version and exit.
  --help                     Print this help and exit.
)";

// Flags that take a value, and the ones that don't.
const QStringList valueFlags{"--db",
                             "--screenshot",
                             "--layout-report",
                             "--first-frame",
                             "--open",
                             "--size",
                             "--export-report",
                             "--page-size",
                             "--learner",
                             "--import-run",
                             "--import-profile",
                             "--chapters",
                             "--export-progress",
                             "--theme"};
const QStringList switchFlags{"--help", "-h", "--version"};

} // namespace

QString commandLineHelp()
{
    return QString::fromUtf8(helpText);
}

bool isKnownPlaceSyntax(const QString &place)
{
    static const QStringList named{"stack",   "workshop", "bench",  "chips", "validation",
                                   "profile", "palette",  "report", "about", "labs"};
    static const QRegularExpression chapter(QStringLiteral("^ch(0[1-9]|1[0-5])(#[a-z0-9-]+)?$"));
    // A piece id's shape only: which pieces exist is the catalog's to say, so
    // a new piece needs no change here; the window refuses an id it lacks.
    static const QRegularExpression piece(QStringLiteral("^(EX[0-9]{2}|L[0-9]{2}|[DM][0-9])$"));
    return named.contains(place) || chapter.match(place).hasMatch() || piece.match(place).hasMatch();
}

ParsedCommandLine parseCommandLine(const QStringList &arguments)
{
    AppOptions o;
    bool sawOpen = false;
    bool sawSize = false;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        QString flag = arguments.at(i);
        // Qt's own: QApplication takes it (a build with TPU_COURSE_QML_PROFILING
        // answers the QML profiler through it).
        if (flag.startsWith(QLatin1String("-qmljsdebugger=")))
            continue;
        QString value;
        bool hasInlineValue = false;
        if (flag.startsWith(QLatin1String("--")) && flag.contains(QLatin1Char('='))) {
            value = flag.section(QLatin1Char('='), 1);
            flag = flag.section(QLatin1Char('='), 0, 0);
            hasInlineValue = true;
        }
        if (switchFlags.contains(flag)) {
            if (hasInlineValue)
                return {std::nullopt, QStringLiteral("%1 takes no value.").arg(flag)};
            if (flag == QLatin1String("--version"))
                o.version = true;
            else
                o.help = true;
            continue;
        }
        if (!valueFlags.contains(flag))
            return {std::nullopt, QStringLiteral("unknown option \"%1\" (see --help).").arg(arguments.at(i))};
        if (!hasInlineValue) {
            if (i + 1 >= arguments.size())
                return {std::nullopt, QStringLiteral("%1 needs a value.").arg(flag)};
            value = arguments.at(++i);
        }
        if (value.isEmpty())
            return {std::nullopt, QStringLiteral("%1 needs a value.").arg(flag)};

        if (flag == QLatin1String("--db")) {
            o.dbPath = value;
        } else if (flag == QLatin1String("--chapters")) {
            o.chapterDir = value;
        } else if (flag == QLatin1String("--screenshot")) {
            if (!value.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
                return {std::nullopt,
                        QStringLiteral("--screenshot writes a PNG: \"%1\" does not end in .png.").arg(value)};
            o.screenshotPath = value;
        } else if (flag == QLatin1String("--layout-report")) {
            if (!value.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
                return {std::nullopt,
                        QStringLiteral("--layout-report writes JSON: \"%1\" does not end in .json.").arg(value)};
            o.layoutReportPath = value;
        } else if (flag == QLatin1String("--first-frame")) {
            if (!value.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
                return {std::nullopt,
                        QStringLiteral("--first-frame writes a PNG: \"%1\" does not end in .png.").arg(value)};
            o.firstFramePath = value;
        } else if (flag == QLatin1String("--open")) {
            if (!isKnownPlaceSyntax(value))
                return {std::nullopt,
                        QStringLiteral(
                            "--open: \"%1\" is not a place (stack, ch01..ch15 or ch11#a-heading, workshop, bench, "
                            "chips, validation, profile, labs, palette, report, about, or a piece id such as EX01).")
                            .arg(value)};
            o.openPlace = value;
            sawOpen = true;
        } else if (flag == QLatin1String("--size")) {
            static const QRegularExpression rx(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
            const auto m = rx.match(value);
            const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
            const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
            if (w < 320 || h < 240 || w > 8192 || h > 16384)
                return {
                    std::nullopt,
                    QStringLiteral("--size: \"%1\" is not WIDTHxHEIGHT between 320x240 and 8192x16384.").arg(value)};
            o.size = QSize(w, h);
            sawSize = true;
        } else if (flag == QLatin1String("--import-run")) {
            o.importPath = value;
        } else if (flag == QLatin1String("--import-profile")) {
            o.profilePath = value;
        } else if (flag == QLatin1String("--export-report")) {
            const QString suffix = QFileInfo(value).suffix().toLower();
            if (suffix != QLatin1String("pdf") && suffix != QLatin1String("html") && suffix != QLatin1String("json"))
                return {std::nullopt,
                        QStringLiteral("--export-report: \"%1\" must end in .pdf, .html or .json.").arg(value)};
            o.reportPath = value;
        } else if (flag == QLatin1String("--page-size")) {
            if (value.compare(QLatin1String("a4"), Qt::CaseInsensitive) != 0 &&
                value.compare(QLatin1String("letter"), Qt::CaseInsensitive) != 0)
                return {std::nullopt, QStringLiteral("--page-size: \"%1\" is not a4 or letter.").arg(value)};
            o.paper = value.toLower();
        } else if (flag == QLatin1String("--learner")) {
            o.learner = value;
        } else if (flag == QLatin1String("--export-progress")) {
            o.progressCopyPath = value;
        } else if (flag == QLatin1String("--theme")) {
            if (value != QLatin1String("light") && value != QLatin1String("dark"))
                return {std::nullopt, QStringLiteral("--theme: \"%1\" is not light or dark.").arg(value)};
            o.theme = value;
        }
    }
    if ((!o.paper.isEmpty() || !o.learner.isEmpty()) && o.reportPath.isEmpty())
        return {std::nullopt, QStringLiteral("--page-size and --learner go with --export-report.")};
    if (!o.theme.isEmpty() && o.screenshotPath.isEmpty() && o.layoutReportPath.isEmpty() && o.firstFramePath.isEmpty())
        return {std::nullopt, QStringLiteral("--theme goes with --screenshot, --layout-report or --first-frame; in the "
                                             "window, Ctrl+Shift+D switches it.")};
    if (sawOpen && !o.firstFramePath.isEmpty())
        return {std::nullopt,
                QStringLiteral("--first-frame always shows the stack, the page the window opens on: drop --open.")};
    if ((sawOpen || sawSize) && o.screenshotPath.isEmpty() && o.layoutReportPath.isEmpty() &&
        o.firstFramePath.isEmpty())
        return {std::nullopt,
                QStringLiteral(
                    "--open and --size go with --screenshot or --layout-report (--size also with --first-frame).")};
    const int actions = int(!o.screenshotPath.isEmpty()) + int(!o.layoutReportPath.isEmpty()) +
                        int(!o.reportPath.isEmpty()) + int(!o.importPath.isEmpty()) + int(!o.firstFramePath.isEmpty()) +
                        int(!o.progressCopyPath.isEmpty());
    if (actions > 1)
        return {std::nullopt, QStringLiteral("--screenshot, --layout-report, --first-frame, --export-report, "
                                             "--export-progress and --import-run cannot be used together.")};
    if (!o.profilePath.isEmpty() && (!o.reportPath.isEmpty() || !o.importPath.isEmpty() ||
                                     !o.firstFramePath.isEmpty() || !o.progressCopyPath.isEmpty()))
        return {std::nullopt, QStringLiteral("--import-profile goes alone, or with --screenshot or --layout-report.")};
    // A profile rendered opens on its page unless another is asked for.
    if (!o.profilePath.isEmpty() && !sawOpen)
        o.openPlace = QStringLiteral("profile");
    return {o, {}};
}
