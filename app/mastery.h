#pragma once
// A piece's mastery item, found from the piece's id: the item of its
// chapter whose "piece" is that id (chapter.json). A piece asks for its
// goals and reaches them through this, never naming its chapter or item,
// so a piece moved to another chapter keeps working as it is:
//     Mastery { id: mastery; piece: "EX01" }
//     ... mastery.goals ... mastery.reach("up")
#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QVariantList>

class Course;

class Mastery : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString piece READ piece WRITE setPiece NOTIFY pieceChanged)
    // The chapter the piece belongs to and its item's id; 0 and "" when none.
    Q_PROPERTY(int chapter READ chapter NOTIFY pieceChanged)
    Q_PROPERTY(QString item READ item NOTIFY pieceChanged)
    // [{id, text, reached}], read again as progress changes.
    Q_PROPERTY(QVariantList goals READ goals NOTIFY goalsChanged)

public:
    explicit Mastery(QObject *parent = nullptr);

    QString piece() const { return m_piece; }
    void setPiece(const QString &piece);
    int chapter() const { return m_chapter; }
    QString item() const { return m_item; }
    QVariantList goals() const;

    // The goal reached (false, and the problem reported, when the item has no such goal).
    Q_INVOKABLE bool reach(const QString &goal);
    // The item marked done or not, for a piece whose item has no goals.
    Q_INVOKABLE bool setDone(bool done);

signals:
    void pieceChanged();
    void goalsChanged();

private:
    Course *m_course = nullptr;
    QString m_piece;
    int m_chapter = 0;
    QString m_item;
};
