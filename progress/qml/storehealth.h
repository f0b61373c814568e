#pragma once
// What the window says about the progress store beyond its contents: the
// last thing it failed at (a lock another program holds, a full disk, a
// table someone removed), and whether its history verifies. A failure
// never ends the app; it is said here in one sentence and the action that
// met it did nothing.
#include <QtQml/qqmlregistration.h>
#include <processsingleton.h>
#include <QObject>
#include <QString>

namespace progress {
class StoreError;
}

class StoreHealth : public QObject, public ProcessSingleton<StoreHealth>
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    // The last failure's sentence; empty while every call has succeeded.
    Q_PROPERTY(QString problem READ problem NOTIFY changed)
    // Empty when the store's history verifies; else what does not.
    Q_PROPERTY(QString history READ history NOTIFY changed)

public:
    QString problem() const { return m_problem; }
    QString history() const { return m_history; }

    // A store call failed: kept as the sentence the window shows.
    void report(const progress::StoreError &error);
    // What verifying the history found ("" when it verifies).
    void setHistory(const QString &finding);
    // The banner's "dismiss": the failure has been read.
    Q_INVOKABLE void dismiss();

signals:
    void changed();

private:
    friend class ProcessSingleton<StoreHealth>;
    StoreHealth() = default;
    QString m_problem;
    QString m_history;
};
