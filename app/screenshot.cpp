#include "screenshot.h"
#include "imagefilewrite.h"
#include "layout/layoutreport.h"
#include "startuptrace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QSaveFile>
#include <QVariant>

#include <atomic>
#include <cstdio>
#include <memory>
#include <utility>

namespace {

// Lets the scene settle: the page built (the window's isBusy() false), then
// a few rendered frames, so layouts, bindings that follow the theme's scale
// a pass later, and canvases have all run before the grab. Readiness, not a
// fixed pause: a page that is ready early is captured early.
void settle(QQuickWindow *window)
{
    const auto busy = [window] {
        QVariant b;
        return QMetaObject::invokeMethod(window, "isBusy", Q_RETURN_ARG(QVariant, b)) && b.toBool();
    };
    // The first frame that shows the page whole is what a learner waits
    // for, and it is stamped where it is swapped. With a render thread that
    // is not this thread, and a queued stamp would wait while this thread
    // polishes the next frame. So this thread says, as each frame's
    // animations are done (before its polish and sync), whether the page is
    // still building; the render thread takes the word at that frame's sync
    // and stamps at its swap. Without a render thread all three run here,
    // in the same order.
    // Shared, not on this stack: a frame under way on the render thread
    // may still reach its handlers as they are disconnected.
    struct Word
    {
        std::atomic<bool> whole = false;
        bool wholeSynced = false; // the render thread's own
        bool stamped = false;     // likewise
    };
    const auto word = std::make_shared<Word>();
    const auto onAnimated = QObject::connect(
        window, &QQuickWindow::afterAnimating, window, [word, busy] { word->whole = !busy(); }, Qt::DirectConnection);
    const auto onSync = QObject::connect(
        window, &QQuickWindow::beforeSynchronizing, window, [word] { word->wholeSynced = word->whole; },
        Qt::DirectConnection);
    const auto onSwap = QObject::connect(
        window, &QQuickWindow::frameSwapped, window,
        [word] {
            if (word->wholeSynced && !word->stamped) {
                startuptrace::stamp("page-ready");
                word->stamped = true;
            }
        },
        Qt::DirectConnection);
    int frames = 0;
    const auto counting = QObject::connect(window, &QQuickWindow::frameSwapped, window, [&frames] { ++frames; });
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 10000) {
        if (busy())
            frames = 0;
        else if (frames >= 4)
            break;
        window->update();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    for (const auto &connection : {onAnimated, onSync, onSwap, counting})
        QObject::disconnect(connection);
}

} // namespace

namespace {

// The shell's window; null, with one line printed, when there is none.
QQuickWindow *shellWindow(QQmlApplicationEngine &engine)
{
    auto *window =
        engine.rootObjects().isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
    if (!window)
        std::fprintf(stderr, "tpu-course: the window could not be created, so there is nothing to save.\n");
    return window;
}

// Grabs the window as rendered and starts writing it to out's path: 0, or 1
// with one line printed.
int grabInto(QQuickWindow *window, QSize size, ImageFileWrite &out)
{
    QImage image = window->grabWindow();
    startuptrace::mark("grabbed");
    if (image.isNull() || image.size() != size) {
        std::fprintf(stderr, "tpu-course: the window rendered no image.\n");
        return 1;
    }
    out.start(std::move(image));
    return 0;
}

// Shows the window at `size` with PLACE open and rendered; null (with the
// exit code set and one line printed) when it cannot.
QQuickWindow *showPlace(QQmlApplicationEngine &engine, const QString &place, QSize size, int *exitCode)
{
    QQuickWindow *window = shellWindow(engine);
    if (!window) {
        *exitCode = 1;
        return nullptr;
    }
    window->resize(size);
    window->show();
    QVariant ok;
    QMetaObject::invokeMethod(window, "navigate", Q_RETURN_ARG(QVariant, ok), Q_ARG(QVariant, place));
    if (!ok.toBool()) {
        std::fprintf(stderr, "tpu-course: cannot open \"%s\": no such place in this course.\n", qPrintable(place));
        *exitCode = 2;
        return nullptr;
    }
    settle(window);
    startuptrace::mark("place open and settled");
    return window;
}

} // namespace

int saveScreenshot(QQmlApplicationEngine &engine, const QString &place, QSize size, ImageFileWrite &out)
{
    int exitCode = 0;
    QQuickWindow *window = showPlace(engine, place, size, &exitCode);
    if (!window)
        return exitCode;
    return grabInto(window, size, out);
}

int saveFirstFrame(QQmlApplicationEngine &engine, QSize size, ImageFileWrite &out)
{
    QQuickWindow *window = shellWindow(engine);
    if (!window)
        return 1;
    // Connected before the event loop runs, so the frame caught is the first.
    // Stamped where the frame is swapped: with a render thread, the queued
    // call below may wait while this thread syncs the next frame.
    QObject::connect(
        window, &QQuickWindow::frameSwapped, window, [] { startuptrace::stamp("first-frame"); },
        static_cast<Qt::ConnectionType>(Qt::DirectConnection | Qt::SingleShotConnection));
    QObject::connect(
        window, &QQuickWindow::frameSwapped, window,
        [window, size, &out] {
            startuptrace::mark("first frame swapped");
            QCoreApplication::exit(grabInto(window, size, out));
        },
        Qt::SingleShotConnection);
    window->resize(size);
    window->show();
    return QCoreApplication::exec();
}

int saveLayoutReport(QQmlApplicationEngine &engine, const QString &place, QSize size, const QString &path)
{
    int exitCode = 0;
    QQuickWindow *window = showPlace(engine, place, size, &exitCode);
    if (!window)
        return exitCode;
    const QByteArray json = layoutReportJson(collectLayout(window), size).toJson(QJsonDocument::Indented);
    // Written whole or not at all.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        std::fprintf(stderr, "tpu-course: cannot write %s.\n", qPrintable(path));
        return 1;
    }
    return 0;
}
