#pragma once
// The drills as the shell sees them (TpuCourse.Backend's Drills): questions
// from libtpusim's generators, answers checked there, reviews kept and
// scheduled by the progress store, and the drills due today. Course makes
// it and hands it to QML; it tells Course when progress changed.
#include <QtQml/qqmlregistration.h>
#include <QDate>
#include <QObject>
#include <QVariantList>
#include <QVariantMap>

#include <optional>
#include <utility>

class QJSEngine;
class QQmlEngine;
namespace course {
class ChapterCatalog;
}
namespace progress {
class Store;
}

class Drills : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    // Grows with every change of progress (a review, a chapter opened), so
    // a binding that asks stats() or dueToday() reads again.
    Q_PROPERTY(int revision READ revision NOTIFY changed)

public:
    Drills(const course::ChapterCatalog &catalog, progress::Store &store, QObject *parent = nullptr);
    // The app's Drills, which Course made: what QML's Drills stands for.
    static Drills *create(QQmlEngine *, QJSEngine *);

    int revision() const { return m_revision; }

    // The next question of a drill: a due card kind first, at the drill's
    // level, from a fresh seed (see simqml::drillQuestion for the fields).
    Q_INVOKABLE QVariantMap question(const QString &drill);
    // Checks the answers to a question from question(); a refused answer
    // ({refused, refusal}) is not kept; any other is graded, scheduled and
    // appended to the store: {correct, fields, steps, reviewId, grade,
    // intervalDays, relearnMinutes, due}.
    Q_INVOKABLE QVariantMap check(const QVariantMap &question, const QVariantMap &answers, int elapsedMs);
    // The learner's own grade ("again", "hard", "good", "easy") for the
    // review check() just kept (its reviewId): the kind rescheduled as if
    // graded so. {grade, intervalDays, relearnMinutes, due}, or {refused,
    // refusal} with one sentence and nothing changed.
    Q_INVOKABLE QVariantMap regrade(const QString &reviewId, const QString &grade);
    // {reviews, correct, accuracy, retention, level, maxLevel, due, dueKinds,
    //  perDay: [{day, reviews}] (14 days), mostPerDay}
    Q_INVOKABLE QVariantMap stats(const QString &drill) const;
    // The built drills with card kinds due today, once their chapter is
    // opened or they were reviewed: [{id, name, due}].
    Q_INVOKABLE QVariantList dueToday() const;

    // Progress changed elsewhere: what was counted is counted again.
    void progressChanged();

signals:
    void changed();
    // A review was kept: the course's progress changed.
    void reviewed();
    // One sentence for the problem banner.
    void problem(const QString &message);

private:
    const course::ChapterCatalog &m_catalog;
    progress::Store &m_store;
    int m_revision = 0;
    // The drills due, for the day they were counted on: read by the stack's
    // first screen, and counted again only when progress or the day changes.
    mutable std::optional<std::pair<QDate, QVariantList>> m_dueCache;
};
