// Opening a chapter to its first painted frame, in process, as a learner
// does it from the stack: the fifteen chapters opened in turn, for several
// rounds. The first round pays for loading each chapter's library and
// parsing its text; later rounds rebuild the page from the parsed text.
// Prints each chapter's first-round time and the median of the others,
// against the 100 ms the reader is held to, how long the blocks below
// the first screen take to be built behind it, and the longest the event
// loop stood still while they and the pieces set into the text were made
// (held to the same 100 ms: a click then still feels answered at once).
//   bench_chapter_open [ROUNDS]   (default 5; other arguments are ignored)
#include "benchshell.h"
#include "reader/reader.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

namespace {

// Runs the event loop, as the app does, until the open chapter has nothing
// left to build: the blocks below its first screen, and the pieces and
// exhibits set into its text, made as their turn comes. Returns the
// milliseconds (from `since`) until then, sets `blocksMs` to when its last
// block was built, and `longestStallMs` to the longest the loop stood still
// meanwhile: how long a click or a scroll could have waited for an answer.
double whileMade(QQuickWindow *window, QElapsedTimer &since, double *blocksMs, double *longestStallMs)
{
    QObject *page = window->findChild<QObject *>(QStringLiteral("chapterPage"));
    // Read once: converting the page's document each tick would be work of
    // the bench's own inside the gaps it measures.
    const int blocks = page->property("doc").toMap().value(QStringLiteral("count")).toInt();
    const auto blocksBuilt = [page, blocks] { return page->property("readyBlocks").toInt() >= blocks; };
    const auto building = [page] {
        QVariant busy;
        QMetaObject::invokeMethod(page, "isBuilding", Q_RETURN_ARG(QVariant, busy));
        return busy.toBool();
    };
    QEventLoop loop;
    QTimer tick;
    tick.setInterval(1);
    QElapsedTimer gap;
    gap.start();
    *blocksMs = -1;
    *longestStallMs = 0;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        *longestStallMs = std::max(*longestStallMs, gap.nsecsElapsed() / 1e6);
        gap.restart();
        if (*blocksMs < 0 && blocksBuilt())
            *blocksMs = since.nsecsElapsed() / 1e6;
        if (!building() || since.elapsed() > 10000)
            loop.quit();
    });
    tick.start();
    loop.exec();
    return building() ? -1 : since.nsecsElapsed() / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int rounds = 5;
    if (argc > 1 && std::atoi(argv[1]) > 1)
        rounds = std::atoi(argv[1]);

    BenchShell shell("bench_chapter_open");
    QQuickWindow *window = shell.window();
    if (!window)
        return 1;
    Course &course = shell.course();
    const course::ChapterCatalog &catalog = shell.catalog();

    // The text alone: parsed (its first open), and every block filled.
    std::map<int, std::pair<double, double>> text;
    for (const auto &c : catalog.chapters()) {
        QElapsedTimer clock;
        clock.start();
        const int count = course.reader()->chapterDocument(c.number, {}).value(QStringLiteral("count")).toInt();
        const double parsed = clock.nsecsElapsed() / 1e6;
        clock.restart();
        for (int i = 0; i < count; ++i)
            course.reader()->documentBlock(c.number, i, QStringLiteral("v5e"), {});
        text[c.number] = {parsed, clock.nsecsElapsed() / 1e6};
    }

    std::map<int, double> first;
    std::map<int, std::vector<double>> builtMs;
    std::map<int, std::vector<double>> syncMs;
    std::map<int, std::vector<double>> later;
    std::map<int, std::vector<double>> settledMs;
    std::map<int, std::vector<double>> stallMs;
    for (int round = 0; round < rounds; ++round)
        for (const auto &c : catalog.chapters()) {
            shell.toNextFrame([&] { return shell.navigate(QStringLiteral("stack")); });
            QElapsedTimer since;
            since.start();
            double navigateMs = 0;
            const double ms = shell.toNextFrame([&] {
                const bool ok = shell.navigate(QStringLiteral("ch%1").arg(c.number, 2, 10, QLatin1Char('0')));
                navigateMs = since.nsecsElapsed() / 1e6;
                return ok;
            });
            double all = 0, stall = 0;
            const double settled = whileMade(window, since, &all, &stall);
            if (round > 0) {
                syncMs[c.number].push_back(navigateMs);
                builtMs[c.number].push_back(all);
                settledMs[c.number].push_back(settled);
                stallMs[c.number].push_back(stall);
            }
            if (ms < 0) {
                std::fprintf(stderr, "bench_chapter_open: chapter %d did not open or paint.\n", c.number);
                return 1;
            }
            (round == 0 ? first[c.number] = ms : (later[c.number].push_back(ms), ms));
        }

    std::printf("Opening a chapter to its first frame, 1440x900, %s (%d rounds)\n",
                qPrintable(QGuiApplication::platformName()), rounds);
    std::printf("%-8s %14s %18s %16s %16s %16s %14s %14s %14s\n", "chapter", "first open ms", "median reopen ms",
                "all blocks ms", "text parse ms", "text fill ms", "page load ms", "all made ms", "longest stall");
    double worst = 0, worstStall = 0;
    std::vector<double> all;
    for (const auto &[number, ms] : first) {
        const double m = median(later[number]);
        const double stall = median(stallMs[number]);
        std::printf("ch%02d     %14.1f %18.1f %16.1f %16.1f %16.1f %14.1f %14.1f %14.1f\n", number, ms, m,
                    median(builtMs[number]), text[number].first, text[number].second, median(syncMs[number]),
                    median(settledMs[number]), stall);
        worst = std::max(worst, m);
        worstStall = std::max(worstStall, stall);
        all.push_back(m);
    }
    std::printf("median of the chapters' reopen medians: %.1f ms; slowest chapter: %.1f ms (target 100 ms)\n",
                median(all), worst);
    std::printf(
        "longest the event loop stood still while a chapter was made behind its first frame: %.1f ms "
        "(median over rounds; target 100 ms)\n",
        worstStall);
    return 0;
}
