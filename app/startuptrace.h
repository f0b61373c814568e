#pragma once

// Where start-up time goes: with TPU_COURSE_TRACE_STARTUP set, each phase
// of start-up prints its time since main() began to stderr (the process's
// own start, loading the libraries, is before that and not counted).
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace startuptrace {

inline QElapsedTimer &clock()
{
    static QElapsedTimer timer;
    return timer;
}

inline bool on()
{
    static const bool tracing = std::getenv("TPU_COURSE_TRACE_STARTUP") != nullptr;
    return tracing;
}

void mark(const char *phase);

// Also marks the process's end, once main has returned and its locals are
// gone, so the time spent closing down is seen too.
inline void begin()
{
    clock().start();
    if (on())
        std::atexit([] { mark("exiting"); });
}

inline void mark(const char *phase)
{
    if (on() && clock().isValid())
        std::fprintf(stderr, "start-up %7.1f ms  %s\n", clock().nsecsElapsed() / 1e6, phase);
}

// For bench_startup: with TPU_COURSE_FRAME_STAMPS naming a file, appends
// "<what> <CLOCK_MONOTONIC in ns>" to it. The bench spawned the process on
// the same clock, so it reads how long the process took to reach `what`
// from its very start (libraries loaded included), and nothing after it
// (saving the picture, closing down) is counted.
inline void stamp(const char *what)
{
    const char *path = std::getenv("TPU_COURSE_FRAME_STAMPS");
    if (!path || !*path)
        return;
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (std::FILE *f = std::fopen(path, "a")) {
        std::fprintf(f, "%s %lld\n", what, static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec);
        std::fclose(f);
    }
}

// For bench_startup --window: with TPU_COURSE_FRAME_ON_DISPLAY set, the
// pictures a bench asks for (--first-frame, --screenshot) are made in a
// window on the display, with the platform and renderer Qt picks there,
// as a learner's window is, rather than offscreen in software.
inline bool onDisplay()
{
    const char *set = std::getenv("TPU_COURSE_FRAME_ON_DISPLAY");
    return set && *set;
}

} // namespace startuptrace
