#pragma once
// The learner's bookmarks and notes on paragraphs of the chapters' text,
// kept in the progress store (reading_marks). A paragraph is named by the
// heading above it and its place after that heading ("the-pipeline/3"),
// so a mark stays on its paragraph while the course around it is read.
#include <QtQml/qqmlregistration.h>
#include <processsingleton.h>
#include <QHash>
#include <QObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

namespace progress {
class Store;
}

class ReadingMarks : public QObject, public ProcessSingleton<ReadingMarks>
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Marks)
    QML_SINGLETON
    // Grows with every change, so bindings that call markOf() re-run.
    Q_PROPERTY(int revision READ revision NOTIFY changed)

public:
    static void provide(progress::Store *store);

    int revision() const { return m_revision; }
    // {bookmarked, note} of one paragraph; both empty when unmarked.
    Q_INVOKABLE QVariantMap markOf(int chapter, const QString &block) const;
    // [{block, bookmarked, note, excerpt}], in the store's order.
    Q_INVOKABLE QVariantList marksOf(int chapter) const;
    Q_INVOKABLE void setBookmark(int chapter, const QString &block, bool bookmarked, const QString &excerpt);
    Q_INVOKABLE void setNote(int chapter, const QString &block, const QString &note, const QString &excerpt);

signals:
    void changed();

private:
    friend class ProcessSingleton<ReadingMarks>;
    ReadingMarks() = default;
    const QVariantList &cached(int chapter) const;
    void forget();
    int m_revision = 0;
    mutable QHash<int, QVariantList> m_cache; // per chapter, read once per change
};
