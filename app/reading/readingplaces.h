#pragma once
// Where the learner left off. The chapter page tells it the heading the
// reader is at whenever the reader moves past one; it keeps, in the
// progress store's settings, that heading per chapter and the last place
// of all, so a relaunch offers "continue" there and a chapter opens again
// where it was left.
#include <QtQml/qqmlregistration.h>
#include <processsingleton.h>
#include <QObject>
#include <QString>

namespace progress {
class Store;
}

class ReadingPlaces : public QObject, public ProcessSingleton<ReadingPlaces>
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Reading)
    QML_SINGLETON
    // The chapter read last (0 when none yet), the heading in it and its title.
    Q_PROPERTY(int lastChapter READ lastChapter NOTIFY changed)
    Q_PROPERTY(QString lastAnchor READ lastAnchor NOTIFY changed)
    Q_PROPERTY(QString lastTitle READ lastTitle NOTIFY changed)

public:
    // The store the places (and the marks, ReadingMarks) live in; set once by
    // the shell before QML asks.
    static void provide(progress::Store *store);

    int lastChapter() const { return m_lastChapter; }
    QString lastAnchor() const { return m_lastAnchor; }
    QString lastTitle() const { return m_lastTitle; }

    // The heading chapter `chapter` was left at; empty when never read.
    Q_INVOKABLE QString placeIn(int chapter) const;
    // The reader is at heading `anchor` (titled `title`) of `chapter`.
    Q_INVOKABLE void keep(int chapter, const QString &anchor, const QString &title);
    // Reads the last place again from the store (a store opened afresh).
    Q_INVOKABLE void reload();

signals:
    void changed();

private:
    friend class ProcessSingleton<ReadingPlaces>;
    ReadingPlaces();
    int m_lastChapter = 0;
    QString m_lastAnchor;
    QString m_lastTitle;
};
