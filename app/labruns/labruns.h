#pragma once
// The labs as the shell sees them (TpuCourse.Backend's LabRuns): each
// chapter's labs with their runs and gate attempts, a record imported and
// judged, the G0 predictions, and the bench rows and HLO instructions
// measured on the learner's own chip. The checks themselves live in
// progress/labs; Course makes this and hands it to QML.
#include <QtQml/qqmlregistration.h>
#include <QMap>
#include <QObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <vector>

#include <progress/runs.h>
#include "labs/labcatalog.h"
#include "labs/profiledops.h"

class QJSEngine;
class QQmlEngine;
namespace progress {
class Store;
}

class LabRuns : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    // The folder of lab scripts on this machine, which a learner copies to
    // a TPU VM: installed with the app, or the source tree's assets/labs
    // when it runs from its build folder; empty when neither is there.
    Q_PROPERTY(QString labsFolder READ labsFolder CONSTANT)

public:
    LabRuns(progress::Store &store, QObject *parent = nullptr);
    // The app's LabRuns, which Course made: what QML's LabRuns stands for.
    static LabRuns *create(QQmlEngine *, QJSEngine *);

    QString labsFolder() const;
    // The labs a chapter owns, each with its records and gate attempts.
    Q_INVOKABLE QVariantList labsOfChapter(int chapter) const;
    // Imports a run record file (a path or a file: URL); the result says
    // what happened: {stored, summary, problems: [], reasons: [], passed}.
    // Reads and checks the record off the GUI thread, then stores and
    // judges it here; runImported(tag, result) says what became of it.
    Q_INVOKABLE void importRun(const QString &pathOrUrl, const QString &tag);
    // Every attempt at a gate, oldest first: [{id, passed, judgedAt, reasons, record}]
    Q_INVOKABLE QVariantList gateAttempts(const QString &gate) const;
    // G0: the learner's latest prediction per bench row, {row: {seconds, enteredAt}}.
    Q_INVOKABLE QVariantMap predictions(const QString &gate) const;
    Q_INVOKABLE bool enterPrediction(const QString &gate, const QString &row, double seconds);
    // The measured bench rows of a chip, from the learner's own (non-example)
    // L05 runs: {rowId: {medianS, date, record}}, newest run winning.
    Q_INVOKABLE QVariantMap measuredBench(const QString &chip) const;
    // The device time of HLO instruction `instruction` of program `program`
    // in the newest imported profile that ran it (a learner's --xla_dump_to
    // dump names both as the profile does): {meanS, occurrences, device,
    // deviceType, chip, file, date, details}; empty when no profile has it.
    Q_INVOKABLE QVariantMap measuredInstruction(const QString &program, const QString &instruction) const;
    // Whether an imported profile ran program `program` at all.
    Q_INVOKABLE bool profiledProgram(const QString &program) const;

    // gate -> locked | attempted | passed, from the store's attempts (Course's chapters read it).
    QMap<QString, QString> gateStates() const;

signals:
    // result: {stored, summary, problems, judged, passed, gate, reasons}
    void runImported(const QString &tag, const QVariantMap &result);
    // A record or a prediction was kept: the course's progress changed.
    void progressMade();
    // One sentence for the problem banner.
    void problem(const QString &message);

private:
    // The gate attempts, a pass counted only with its evidence (labs/evidence.h).
    std::vector<progress::GateAttempt> countedAttempts() const;

    progress::Store &m_store;
    LabCatalog m_labs;
    mutable ProfiledOps m_profiledOps{m_store};
};
