#pragma once

#include <chapters/chapterinfo.h>

#include <QList>
#include <QString>

#include <map>
#include <memory>

class QPluginLoader;

namespace course {

class ChapterInterface;

// The chapters found in a folder of plugins. Scanning reads each library's
// metadata without loading it; a chapter's library is loaded only when it is
// opened. A plugin that cannot be used is skipped and its problem kept, so
// the shell can say what was skipped and still start with the rest.
class ChapterCatalog
{
public:
    struct Problem
    {
        QString file;    // the library's file name, or empty for a course-wide problem
        QString message; // one sentence
    };

    ChapterCatalog();
    ~ChapterCatalog();
    ChapterCatalog(const ChapterCatalog &) = delete;
    ChapterCatalog &operator=(const ChapterCatalog &) = delete;

    // Reads every library in dir. expectedChapters > 0 also reports numbers
    // from 1 to expectedChapters that no plugin provides.
    void scan(const QString &dir, int expectedChapters = 0);

    const QList<ChapterInfo> &chapters() const { return m_chapters; } // by number
    const QList<Problem> &problems() const { return m_problems; }
    const ChapterInfo *chapter(int number) const;
    const WorkshopPiece *piece(const QString &id) const;
    // The mastery item whose "piece" is `pieceId`, in that piece's chapter; null when none.
    const MasteryItem *masteryItemOf(const QString &pieceId) const;

    // Loads the chapter's library on first use. Returns nullptr (and records
    // a problem) when the library cannot be loaded or does not implement the
    // interface.
    ChapterInterface *load(int number);
    bool isLoaded(int number) const;

private:
    void addProblem(const QString &file, const QString &message);

    QList<ChapterInfo> m_chapters;
    QList<Problem> m_problems;
    std::map<int, QString> m_paths;
    std::map<int, std::unique_ptr<QPluginLoader>> m_loaders;
};

} // namespace course
