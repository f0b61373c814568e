#pragma once

// Where start-up time goes: with TPU_COURSE_TRACE_STARTUP set, each phase
// of start-up prints its time since main() began to stderr (the process's
// own start, loading the libraries, is before that and not counted).
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>

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

} // namespace startuptrace
