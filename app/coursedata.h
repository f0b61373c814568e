#pragma once

#include <chapters/chaptercatalog.h>
#include <progress/store.h>

#include <QString>

#include <atomic>
#include <optional>
#include <thread>

// What the course reads before its window can be made: the progress store
// (opened, its chapter rows synced) and the chapters' metadata. Neither
// touches Qt's GUI, so with a window to show they are read on a thread of
// their own while the main thread readies the fonts and answers the QML
// reading; on two cores the three finish sooner together than in turn.
class CourseData
{
public:
    CourseData(QString dbPath, QString chapterDir, int expectedChapters);
    ~CourseData();
    CourseData(const CourseData &) = delete;
    CourseData &operator=(const CourseData &) = delete;

    // Reads on another thread; wait() ends it.
    void startReading();
    // Reads now, on this thread, unless startReading() did; then waits for
    // it, processing this thread's events meanwhile (the QML reading calls
    // into this thread). An empty string, or the one sentence that says why
    // the course cannot start.
    QString wait();

    progress::Store &store() { return *m_store; }
    course::ChapterCatalog &catalog() { return m_catalog; }

private:
    QString read();

    const QString m_dbPath;
    const QString m_chapterDir;
    const int m_expectedChapters;
    std::optional<progress::Store> m_store;
    course::ChapterCatalog m_catalog;
    std::thread m_thread;
    std::atomic<bool> m_done{false};
    QString m_error;
};
