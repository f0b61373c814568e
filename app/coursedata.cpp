#include "coursedata.h"
#include "startuptrace.h"

#include <progress/store_error.h>

#include <QAbstractEventDispatcher>
#include <QCoreApplication>

#include <utility>
#include <vector>

CourseData::CourseData(QString dbPath, QString chapterDir, int expectedChapters)
    : m_dbPath(std::move(dbPath)), m_chapterDir(std::move(chapterDir)), m_expectedChapters(expectedChapters)
{
}

CourseData::~CourseData()
{
    if (m_thread.joinable())
        m_thread.join();
}

void CourseData::startReading()
{
    QAbstractEventDispatcher *mainLoop = QAbstractEventDispatcher::instance();
    m_thread = std::thread([this, mainLoop] {
        m_error = read();
        m_done.store(true, std::memory_order_release);
        // Wakes the main thread if it sleeps in wait().
        if (mainLoop)
            mainLoop->wakeUp();
    });
}

QString CourseData::wait()
{
    if (!m_thread.joinable())
        return read();
    while (!m_done.load(std::memory_order_acquire))
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents | QEventLoop::WaitForMoreEvents);
    m_thread.join();
    return m_error;
}

QString CourseData::read()
{
    try {
        m_store.emplace(progress::Store::open(m_dbPath.toStdString()));
        startuptrace::mark("progress store opened");
        m_catalog.scan(m_chapterDir, m_expectedChapters);
        std::vector<progress::ChapterRow> rows;
        for (const auto &c : m_catalog.chapters())
            rows.push_back({c.number, c.slug.toStdString(), c.title.toStdString()});
        m_store->syncChapters(rows);
        startuptrace::mark("chapters scanned and synced");
    } catch (const progress::StoreError &e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}
