#pragma once
// The whole shell in process for the benchmarks, as the app builds it: a
// fresh progress file, the chapters beside the binary, the window shown
// offscreen at 1440x900, and the helpers they share to drive it.
#include "course.h"

#include <chapters/chaptercatalog.h>
#include <progress/store.h>

#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QTemporaryDir>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class BenchShell
{
public:
    // Null window (and a line on stderr) when the shell cannot be loaded.
    explicit BenchShell(const char *benchName);
    QQuickWindow *window() const { return m_window; }
    Course &course() { return *m_course; }
    course::ChapterCatalog &catalog() { return m_catalog; }
    QQmlApplicationEngine &engine() { return *m_engine; }
    bool navigate(const QString &place) const;
    // Milliseconds from `action` to the next frame the window swaps; -1 when
    // the action fails or no frame comes within 10 s. With `busyMs`, also
    // the CPU time this thread spent in that span: a slow frame with little
    // of it was waiting (for a timer, or for a core), not working.
    double toNextFrame(const std::function<bool()> &action, double *busyMs = nullptr) const;
    // Runs an event loop, as the app's exec() does, until `done` holds
    // (looked at every 5 ms) or `timeoutMs` pass; whether it holds. Waiting
    // with bare processEvents() calls instead would keep the objects a page
    // let go of until the next frame measured, and time their deletion there.
    static bool runUntil(const std::function<bool()> &done, int timeoutMs);

private:
    QTemporaryDir m_dir;
    std::optional<progress::Store> m_store;
    course::ChapterCatalog m_catalog;
    std::unique_ptr<Course> m_course;
    std::unique_ptr<QQmlApplicationEngine> m_engine;
    QQuickWindow *m_window = nullptr;
};

// CPU time the host took from this virtual machine so far (the "steal"
// column of /proc/stat, all cores), in ms; 0 where the kernel does not
// count it. Frames that wait while the host runs something else are the
// machine's, not the app's.
double hostStolenMs();

double median(std::vector<double> v);
// The p-th percentile (0-100) by nearest rank.
double percentile(std::vector<double> v, double p);
