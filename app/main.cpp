#include "commandline.h"
#include "course.h"
#include "coursedata.h"
#include "drawingchoice.h"
#include "imagefilewrite.h"
#include "labs/importer.h"
#include "labs/labcatalog.h"
#include "profilesession.h"
#include "readersize.h"
#include "readertheme.h"
#include "readingplaces.h"
#include "report/reportsettings.h"
#include "report/reportwriter.h"
#include "screenshot.h"
#include "shellload.h"
#include "startuptrace.h"

#include <QtQml/qqmldebug.h> // with QT_QML_DEBUG, lets the QML profiler attach
#include <QtQml/qqmlextensionplugin.h>
#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QQmlApplicationEngine>
#include <QScopeGuard>
#include <QScreen>
#include <QStandardPaths>

#include <cstdio>
#include <optional>

Q_IMPORT_QML_PLUGIN(TpuCourse_UiPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ShellPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ProfilePlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ReadingPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_StorePlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_AboutPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_SimPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_BackendPlugin)

namespace {

constexpr int kCourseChapters = 15;

int fail(int code, const QString &sentence)
{
    std::fprintf(stderr, "tpu-course: %s\n", qPrintable(sentence));
    return code;
}

// In the build tree the chapter plugins sit beside the app; installed,
// under lib/, at the same place relative to it whatever the prefix.
QString chapterFolder()
{
    const QDir bin(QCoreApplication::applicationDirPath());
    if (bin.exists(QStringLiteral("chapters")))
        return bin.filePath(QStringLiteral("chapters"));
    return QDir::cleanPath(bin.filePath(QStringLiteral(TPU_COURSE_PLUGINS_FROM_BIN)));
}

QString defaultDatabasePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(dir).filePath(QStringLiteral("progress.sqlite"));
}

} // namespace

int main(int argc, char *argv[])
{
    startuptrace::begin();
    startuptrace::stamp("main");
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const ParsedCommandLine parsed = parseCommandLine(arguments);
    if (!parsed.options)
        return fail(2, parsed.error);
    const AppOptions &opt = *parsed.options;
    if (opt.help) {
        std::fputs(qPrintable(commandLineHelp()), stdout);
        return 0;
    }
    if (opt.version) {
        std::printf("tpu-course %s\n", TPU_COURSE_VERSION);
        return 0;
    }
    // A profile alone is imported and the app exits; with a picture to make, it is shown.
    const bool profileOnly =
        !opt.profilePath.isEmpty() && opt.screenshotPath.isEmpty() && opt.layoutReportPath.isEmpty();
    const bool headless = !opt.screenshotPath.isEmpty() || !opt.layoutReportPath.isEmpty() ||
                          !opt.reportPath.isEmpty() || !opt.importPath.isEmpty() || !opt.firstFramePath.isEmpty() ||
                          !opt.progressCopyPath.isEmpty() || profileOnly;
    if (headless && !startuptrace::onDisplay()) {
        // Renders identically on machines with and without a GPU or display.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        qputenv("QT_QUICK_BACKEND", "software");
    }

    // QApplication, not QGuiApplication: Qt Charts draws through Graphics View.
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tpu-course"));
    QApplication::setOrganizationName(QStringLiteral("tpu-course"));
    QApplication::setApplicationVersion(QStringLiteral(TPU_COURSE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral(TPU_COURSE_DESKTOP_ID));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/org.tpucourse.TpuCourse.svg")));
    startuptrace::mark("application");
    // Before any window: in software where OpenGL would run on the processor.
    drawing::applyForThisDisplay();

    // A window is to be shown: its QML is read on the engine's loader
    // thread, the store and the chapters on one of their own, while this
    // thread readies the fonts, answering the reading between steps
    // (answerReading).
    const bool windowed =
        opt.importPath.isEmpty() && opt.reportPath.isEmpty() && opt.progressCopyPath.isEmpty() && !profileOnly;
    CourseData data(opt.dbPath.isEmpty() ? defaultDatabasePath() : opt.dbPath,
                    opt.chapterDir.isEmpty() ? chapterFolder() : opt.chapterDir, kCourseChapters);
    std::optional<QQmlApplicationEngine> engine;
    std::optional<ShellLoad> shell;
    // Headless, the size asked for; on the screen, the course's size where it fits.
    const QScreen *screen = QGuiApplication::primaryScreen();
    const QSize windowSize = headless || !screen ? opt.size : openingWindowSize(screen->availableSize());
    if (windowed) {
        data.startReading();
        engine.emplace();
        shell.emplace(*engine);
        startuptrace::mark("shell's QML being read");
        shell->warmFonts(windowSize);
        startuptrace::mark("fonts ready");
    }
    if (const QString problem = data.wait(); !problem.isEmpty())
        return fail(1, problem);
    progress::Store &store = data.store();
    course::ChapterCatalog &catalog = data.catalog();
    const auto answerReading = [&shell] {
        if (shell)
            shell->answerReading();
    };

    if (!opt.progressCopyPath.isEmpty()) {
        try {
            store.copyTo(opt.progressCopyPath.toStdString());
        } catch (const progress::StoreError &e) {
            return fail(1, QString::fromUtf8(e.what()));
        }
        std::printf("Wrote a copy of %s to %s (%lld bytes).\n", store.file().string().c_str(),
                    qPrintable(opt.progressCopyPath), static_cast<long long>(QFileInfo(opt.progressCopyPath).size()));
        return 0;
    }

    if (!opt.importPath.isEmpty()) {
        ImportOutcome result;
        try {
            result = importRunRecord(opt.importPath, store, LabCatalog::fromResources());
        } catch (const progress::StoreError &e) {
            return fail(1, QStringLiteral("%1 was not imported: %2").arg(opt.importPath, QString::fromUtf8(e.what())));
        }
        if (!result.stored) {
            std::fprintf(stderr, "tpu-course: %s was not imported: %s\n", qPrintable(opt.importPath),
                         qPrintable(result.problems.join(QLatin1Char(' '))));
            return 2;
        }
        std::printf("%s\n", qPrintable(result.summary));
        for (const QString &reason : result.verdict.reasons)
            std::printf("  %s\n", qPrintable(reason));
        return 0;
    }

    ProfileSession::provide(&store);
    ReadingPlaces::provide(&store);
    ReaderSize::provide(&store);
    ReaderTheme::provide(&store);
    if (!opt.theme.isEmpty())
        ReaderTheme::instance()->showForThisRun(opt.theme == QLatin1String("dark"));
    if (!opt.profilePath.isEmpty()) {
        ProfileSession *profile = ProfileSession::instance();
        if (const QString problem = profile->openNow(opt.profilePath); !problem.isEmpty()) {
            std::fprintf(stderr, "tpu-course: %s was not imported: %s\n", qPrintable(opt.profilePath),
                         qPrintable(problem));
            return 2;
        }
        if (profileOnly) {
            std::printf("%s\n%s\n", qPrintable(profile->summary().value(QStringLiteral("finding")).toString()),
                        qPrintable(profile->stored()));
            return 0;
        }
    }

    // A picture of a page shows the learner's progress and records none
    // (no chapter counts as opened, no place as read to); a profile it was
    // asked to import is kept above.
    if (!opt.screenshotPath.isEmpty() || !opt.layoutReportPath.isEmpty() || !opt.firstFramePath.isEmpty())
        store.refuseWrites();

    if (!opt.reportPath.isEmpty()) {
        QString error;
        const QString learner = opt.learner.isEmpty() ? reportsettings::learnerName() : opt.learner;
        const ReportFile file{opt.reportPath, paperNamed(opt.paper).value_or(paperForLocale(QLocale::system())), false};
        std::optional<ProgressReport> report;
        try {
            report = buildProgressReport(catalog, store, learner);
        } catch (const progress::StoreError &e) {
            return fail(1, QStringLiteral("the report was not written: %1").arg(QString::fromUtf8(e.what())));
        }
        if (!writeProgressReport(*report, file, &error))
            return fail(1, QStringLiteral("the report was not written: %1").arg(error));
        return 0;
    }

    Course course(catalog, store);
    course.exposeToQml();
    startuptrace::mark("course ready");
    answerReading();
    course.countFirstScreen();
    startuptrace::mark("first screen's figures ready");
    // The window goes before the course it shows.
    const auto closeWindow = [&] {
        if (!engine)
            return;
        startuptrace::mark("closing the window");
        shell.reset();
        engine.reset();
        startuptrace::mark("window closed");
    };
    const auto closeOnReturn = qScopeGuard(closeWindow);
    // Made at its size, not resized after.
    engine->setInitialProperties(
        {{QStringLiteral("width"), windowSize.width()}, {QStringLiteral("height"), windowSize.height()}});
    if (!shell->finish())
        return fail(1, QStringLiteral("the window could not be loaded."));
    startuptrace::mark("window created");

    if (!opt.firstFramePath.isEmpty() || !opt.screenshotPath.isEmpty()) {
        ImageFileWrite picture(opt.firstFramePath.isEmpty() ? opt.screenshotPath : opt.firstFramePath);
        const int shown = opt.firstFramePath.isEmpty() ? saveScreenshot(*engine, opt.openPlace, opt.size, picture)
                                                       : saveFirstFrame(*engine, opt.size, picture);
        closeWindow(); // while the picture is written
        if (const QString problem = picture.wait(); !problem.isEmpty())
            return fail(1, problem);
        startuptrace::mark("picture written");
        return shown;
    }
    if (!opt.layoutReportPath.isEmpty())
        return saveLayoutReport(*engine, opt.openPlace, opt.size, opt.layoutReportPath);
    return QApplication::exec();
}
