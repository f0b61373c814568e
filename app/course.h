#pragma once

#include <QtQml/qqmlregistration.h>
#include <QJSEngine>
#include <QObject>
#include <QStringList>
#include <QUrl>
#include <QVariantList>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <progress/runs.h>
#include "labs/labcatalog.h"
#include "labs/profiledops.h"
#include "palette/palettemodel.h"

#include <QDate>
#include <QHash>
#include <QMap>

class Drills;
class Reader;
class ReportExport;
class LabRuns;
class QQmlEngine;
namespace course {
class ChapterCatalog;
struct ChapterInfo;
} // namespace course
namespace progress {
class Store;
}
// The course as the shell's QML sees it: the chapters and pieces from the
// plugins' metadata, the learner's progress from the store, and the actions
// that change it. Every list here is small (15 chapters, 35 pieces), so QML
// gets plain lists and a changed signal rather than item models.
class Course : public QObject
{
    Q_OBJECT
    // TpuCourse.Backend/Course: the one Course the app made (exposeToQml).
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(QVariantList chapters READ chapters NOTIFY progressChanged)
    Q_PROPERTY(QVariantList pieces READ pieces NOTIFY progressChanged)
    Q_PROPERTY(int chapterCount READ chapterCount CONSTANT)
    Q_PROPERTY(int chaptersDone READ chaptersDone NOTIFY progressChanged)
    Q_PROPERTY(int gateCount READ gateCount CONSTANT)
    Q_PROPERTY(int gatesPassed READ gatesPassed NOTIFY progressChanged)
    Q_PROPERTY(bool started READ started NOTIFY progressChanged)
    Q_PROPERTY(int nextChapter READ nextChapter NOTIFY progressChanged)
    Q_PROPERTY(QStringList problems READ problems NOTIFY problemsChanged)
    Q_PROPERTY(PaletteModel *palette READ palette CONSTANT)
    // Grows with every change to progress, so a binding that calls an
    // invokable can name it to re-run when progress changes.
    Q_PROPERTY(int revision READ revision NOTIFY progressChanged)
    // The one chip the whole course's numbers are for, kept in the store's
    // settings: choosing it anywhere chooses it everywhere.
    Q_PROPERTY(QString chip READ chip WRITE setChip NOTIFY chipChanged)

public:
    Course(course::ChapterCatalog &catalog, progress::Store &store, QObject *parent = nullptr);
    ~Course() override;

    // Makes this object the QML singleton TpuCourse.Backend/Course: the
    // engine asks create() for it the first time QML names it.
    void exposeToQml();
    static Course *create(QQmlEngine *, QJSEngine *);
    // The create() of a singleton Course makes (Drills, Reader, LabRuns,
    // ReportExport): the app's one, owned by Course, never by an engine.
    template <auto Member>
    static auto *madeByCourse()
    {
        Course *course = create(nullptr, nullptr);
        auto *made = course ? (course->*Member)() : nullptr;
        if (made)
            QJSEngine::setObjectOwnership(made, QJSEngine::CppOwnership);
        return made;
    }
    // Counts now what the stack's first screen reads (the chapters, the
    // pieces, the drills due), so making that screen finds them counted.
    void countFirstScreen() const;

    QVariantList chapters() const;
    QVariantList pieces() const;
    int chapterCount() const;
    int chaptersDone() const;
    int gateCount() const;
    int gatesPassed() const;
    bool started() const;
    int nextChapter() const;
    QStringList problems() const;
    PaletteModel *palette() const { return m_palette; }
    int revision() const { return m_revision; }

    // The whole page of one chapter: metadata, progress, its items with their
    // state, and its introduction (this loads the chapter's library).
    Q_INVOKABLE QVariantMap chapterPage(int number);
    Q_INVOKABLE bool setItemDone(int chapter, const QString &itemId, bool done);
    // A mastery item's goals, each {id, text, reached}, as the store holds them.
    Q_INVOKABLE QVariantList goalsOf(int chapter, const QString &itemId) const;
    // A piece reports a goal reached; the item is done when all its goals are.
    Q_INVOKABLE bool reachGoal(int chapter, const QString &itemId, const QString &goalId);
    // The reader (reader/reader.h): what QML's Reader stands for.
    Reader *reader() const { return m_reader; }
    // Puts text on the clipboard (a code block's copy button).
    Q_INVOKABLE void copyText(const QString &text) const;
    // The QML page of a piece, or an empty URL when its chapter has none.
    Q_INVOKABLE QUrl pieceUrl(const QString &pieceId);
    Q_INVOKABLE int chapterOfPiece(const QString &pieceId) const;
    // The chapter of a piece and its mastery item (the one whose "piece" it
    // is); {0, ""} when there is none. Read by Mastery.
    std::pair<int, QString> masteryItemOfPiece(const QString &pieceId) const;
    // One piece as the catalog describes it ({id, displayId, kind, name,
    // does, chapter, hasPage}), empty when there is none. These never change
    // while the course runs, so a binding on it is not re-evaluated by
    // progress, as one on `pieces` (which carries each piece's progress) is.
    Q_INVOKABLE QVariantMap piece(const QString &pieceId) const;
    // The labs, their runs, gates and predictions (labruns/labruns.h):
    // what QML's LabRuns stands for.
    LabRuns *labRuns() const { return m_labRuns; }

    // The report's export (report/reportexport.h): what QML's ReportExport stands for.
    ReportExport *reportExport() const { return m_reportExport; }

    // The drills (drills/drills.h): what QML's Drills singleton stands for.
    Drills *drills() const { return m_drills; }

    QString chip() const { return m_chip; }
    void setChip(const QString &chip);

signals:
    void chipChanged();
    void progressChanged();
    void problemsChanged();

private:
    friend class Mastery; // reports a piece with no mastery item
    QVariantMap chapterSummary(const course::ChapterInfo &info, const std::set<std::string> &done,
                               const QMap<QString, QString> &gates, const std::set<std::string> &goals) const;
    void reportProblem(const QString &message);
    // Progress changed: the caches go, the revision moves, then progressChanged.
    void noteProgress();
    void buildPalette();
    void loadChip();
    // gate -> locked | attempted | passed, from the store's attempts.
    QMap<QString, QString> gateStates() const;

    course::ChapterCatalog &m_catalog;
    progress::Store &m_store;
    PaletteModel *m_palette;
    QStringList m_runtimeProblems;
    int m_revision = 0;
    // QML reads these lists in many bindings; they change only with
    // progress, so each is built once per change rather than per read.
    mutable std::optional<QVariantList> m_chaptersCache;
    mutable std::optional<QVariantList> m_piecesCache;
    Drills *m_drills;
    Reader *m_reader;
    ReportExport *m_reportExport;
    LabRuns *m_labRuns;
    QString m_chip;
};
