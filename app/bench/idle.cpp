// What the app costs while nothing happens: on the stack (its live card
// the one thing allowed to move), a chapter at rest and EX·05 holding the
// largest dump of the corpus, each page left to settle and then watched
// for a few seconds: the frames it drew and the share of a core the
// process used. A still page draws no frame; the stack stays under 5 % of
// a core with its card running.
//   bench_idle [SECONDS]   (default 5; other arguments are ignored)
#include "benchshell.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QUrl>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

double processCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct Idle
{
    int frames = 0;
    double coreShare = 0; // CPU time over wall time
};

Idle watch(QQuickWindow *window, int ms)
{
    Idle out;
    const auto counting = QObject::connect(window, &QQuickWindow::afterRendering, [&] { ++out.frames; });
    const double cpu = processCpuMs();
    QElapsedTimer wall;
    wall.start();
    BenchShell::runUntil([] { return false; }, ms);
    out.coreShare = (processCpuMs() - cpu) / (wall.nsecsElapsed() / 1e6);
    QObject::disconnect(counting);
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int seconds = 5;
    if (argc > 1 && std::atoi(argv[1]) > 0)
        seconds = std::atoi(argv[1]);

    BenchShell shell("bench_idle");
    QQuickWindow *window = shell.window();
    if (!window)
        return 1;
    window->requestActivate();
    BenchShell::runUntil([window] { return window->isActive(); }, 2000);
    // The card steps only in an active window on a real screen (offscreen
    // renders stay still for screenshots): run under xvfb-run to see it.
    QObject *cardArea = window->findChild<QObject *>(QStringLiteral("liveAttentionCard"));
    const bool cardRuns =
        cardArea && cardArea->parent() && cardArea->parent()->property("animate").toBool() && window->isActive();
    std::printf("bench_idle: %d s a page after 3 s to settle, on %s; the stack's live card %s\n", seconds,
                qPrintable(QGuiApplication::platformName()),
                cardRuns ? "runs" : "rests (offscreen or inactive: run under xvfb-run to watch it step)");
    std::printf("%-28s %8s %12s  %s\n", "page", "frames", "CPU (core)", "goal");
    int failed = 0;
    const auto report = [&](const char *page, const Idle &idle, bool moving) {
        const bool ok = moving ? idle.coreShare < 0.05 : idle.frames == 0;
        failed += ok ? 0 : 1;
        std::printf("%-28s %8d %11.1f%%  %s%s\n", page, idle.frames, idle.coreShare * 100,
                    moving ? "under 5 % of a core" : "no frame", ok ? "" : "  MISSED");
    };
    const int ms = seconds * 1000;

    shell.navigate(QStringLiteral("stack"));
    BenchShell::runUntil([] { return false; }, 3000);
    report("stack (live card)", watch(window, ms), true);

    shell.navigate(QStringLiteral("ch11"));
    BenchShell::runUntil([] { return false; }, 3000);
    report("chapter 11", watch(window, ms), false);

    shell.navigate(QStringLiteral("EX05"));
    BenchShell::runUntil([] { return false; }, 1000);
    const QUrl dump = QUrl::fromLocalFile(
        QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/ir-corpus/xla_llama31_70b_bf16_16x8.hlo"));
    QMetaObject::invokeMethod(window, "openFiles", Q_ARG(QVariant, QVariant(QVariantList{dump})));
    BenchShell::runUntil([] { return false; }, 8000); // read and costed off the GUI thread, then settled
    report("EX05, Llama 3.1 70B dump", watch(window, ms), false);
    return failed == 0 ? 0 : 1;
}
