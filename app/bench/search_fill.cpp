// The palette's text search. Opening the palette reads every chapter's
// sections for it, a chapter a go while the window is idle: how long that
// takes and the longest the event loop stood still meanwhile. Then, chip
// by chip, a search finds words in the text at once and starts filling
// every section's live figures (the simulator run for each), a go at a time
// while the window is idle, so that a figure typed ("16 MiB") is found once
// filled: the search's own time, the whole filling, and the longest the
// event loop stood still during it, against the 4 ms a go aims at (a
// quarter of a 60 Hz frame). The event loop's stand-stills are a 1 ms
// timer's longest gap.
//   bench_search_fill   (other arguments, meant for the simulator's
//                        benchmarks, are ignored)
#include "benchshell.h"
#include "reader/reader.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    BenchShell shell("bench_search_fill");
    if (!shell.window())
        return 1;
    // The stack page finishes being made first: its frames are not the search's.
    BenchShell::runUntil([] { return false; }, 2000);
    Reader *reader = shell.course().reader();

    // Each tick of the timer that comes late was held up by a go.
    QElapsedTimer sinceTick;
    double longest = 0;
    QTimer tick;
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        longest = std::max(longest, sinceTick.nsecsElapsed() / 1e6);
        sinceTick.start();
    });
    const auto watch = [&] {
        longest = 0;
        sinceTick.start();
        tick.start();
    };

    std::printf("bench_search_fill: the palette's text search\n");
    QElapsedTimer clock;
    clock.start();
    watch();
    reader->readAheadForSearch();
    if (!BenchShell::runUntil([reader] { return reader->readForSearch(); }, 60000)) {
        std::fprintf(stderr, "bench_search_fill: the chapters' sections were not read within 60 s\n");
        return 1;
    }
    tick.stop();
    std::printf("read ahead as the palette opens, a chapter a go: %.1f ms, the event loop still at most %.1f ms\n",
                clock.nsecsElapsed() / 1e6, longest);

    std::printf("%-6s %16s %14s %18s\n", "chip", "first search ms", "filling ms", "longest still ms");
    for (const char *chip : {"v5e", "v4", "v5p", "v6e", "v7"}) {
        const QString id = QString::fromLatin1(chip);
        bool filled = false;
        const auto done =
            QObject::connect(reader, &Reader::textFilledFor, [&](const QString &c) { filled |= c == id; });
        clock.start();
        reader->searchText(QStringLiteral("tiling"), id);
        const double first = clock.nsecsElapsed() / 1e6;
        watch();
        BenchShell::runUntil([&filled] { return filled; }, 60000);
        const double filling = clock.nsecsElapsed() / 1e6 - first;
        tick.stop();
        QObject::disconnect(done);
        if (!filled) {
            std::fprintf(stderr, "bench_search_fill: the figures for %s were not filled within 60 s\n", chip);
            return 1;
        }
        std::printf("%-6s %16.1f %14.1f %18.1f\n", chip, first, filling, longest);
    }
    std::printf("a go of the filling aims at 4 ms; it stops at the first section that ends past that\n");
    return 0;
}
