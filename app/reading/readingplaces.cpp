#include "readingplaces.h"
#include "lastfolders.h"
#include "readingmarks.h"

#include <progress/store.h>
#include <storeguard.h>

namespace {

progress::Store *g_store = nullptr;

std::string chapterKey(int chapter)
{
    return "reading.chapter." + std::to_string(chapter);
}

} // namespace

ReadingPlaces::ReadingPlaces()
{
    reload();
}

void ReadingPlaces::provide(progress::Store *store)
{
    g_store = store;
    instance()->reload();
    ReadingMarks::provide(store); // the marks and the dialogs' folders live in the same store
    LastFolders::provide(store);
}

QString ReadingPlaces::placeIn(int chapter) const
{
    return storeGuarded([&]() -> QString {
        if (!g_store || chapter <= 0)
            return {};
        return QString::fromStdString(g_store->setting(chapterKey(chapter)));
    });
}

void ReadingPlaces::keep(int chapter, const QString &anchor, const QString &title)
{
    storeGuarded([&]() -> void {
        // An empty anchor is the top of the chapter, above its first heading.
        if (!g_store || g_store->writesRefused() || chapter <= 0)
            return;
        if (chapter == m_lastChapter && anchor == m_lastAnchor)
            return; // scrolling within the same heading writes nothing
        g_store->setSetting(chapterKey(chapter), anchor.toStdString());
        g_store->setSetting("reading.last.chapter", std::to_string(chapter));
        g_store->setSetting("reading.last.anchor", anchor.toStdString());
        g_store->setSetting("reading.last.title", title.toStdString());
        m_lastChapter = chapter;
        m_lastAnchor = anchor;
        m_lastTitle = title;
        emit changed();
    });
}

void ReadingPlaces::reload()
{
    storeGuarded([&]() -> void {
        int chapter = 0;
        QString anchor, title;
        if (g_store) {
            chapter = QString::fromStdString(g_store->setting("reading.last.chapter")).toInt();
            anchor = QString::fromStdString(g_store->setting("reading.last.anchor"));
            title = QString::fromStdString(g_store->setting("reading.last.title"));
        }
        if (chapter < 0)
            chapter = 0;
        if (chapter == m_lastChapter && anchor == m_lastAnchor && title == m_lastTitle)
            return;
        m_lastChapter = chapter;
        m_lastAnchor = anchor;
        m_lastTitle = title;
        emit changed();
    });
}
