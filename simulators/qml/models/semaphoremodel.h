#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <tpusim/semaphores.h>

// libtpusim's semaphore model for QML (type TpuCourse.Sim/SemaphoreModel):
// a program text in, its statements, events, spans and verdict out, plus
// the edits the learner makes (drop, swap with next, reset). Thin: every
// answer is libtpusim's, converted to lists and maps.
class SemaphoreModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    // The unedited program: set the text, or a resource path to read it from.
    Q_PROPERTY(QString source READ source WRITE setSource NOTIFY sourceChanged)
    Q_PROPERTY(QString resource READ resource WRITE setResource NOTIFY sourceChanged)
    Q_PROPERTY(QString chip READ chip WRITE setChip NOTIFY chipChanged)
    // The program's opening comment, as paragraphs: what it does, or how it breaks.
    Q_PROPERTY(QString about READ about NOTIFY sourceChanged)
    // [{index, line, depth, text, block}] of the edited program.
    Q_PROPERTY(QVariantList statements READ statements NOTIFY runChanged)
    // The run: {status, devices, endS, end, summary, events: [{timeS, time,
    //  device, kind, text, line}], deadlock: [{device, line, statement,
    //  semaphore, value, needed, waitsFor, reason}], cycle, races: [{text,
    //  device, line, kind, buffer, timeS}], nonzero: [{text, device,
    //  semaphore, value}], spans: [{device, track,
    //  name, category, startS, endS, line}], provenance}; {error} on bad input.
    Q_PROPERTY(QVariantMap run READ run NOTIFY runChanged)
    Q_PROPERTY(QStringList edits READ edits NOTIFY runChanged)

public:
    using QObject::QObject;

    QString source() const { return m_source; }
    void setSource(const QString &text);
    QString resource() const { return m_resource; }
    void setResource(const QString &path);
    QString chip() const { return m_chip; }
    QString about() const;
    void setChip(const QString &id);
    QVariantList statements() const { return m_statements; }
    QVariantMap run() const { return m_run; }
    QStringList edits() const { return m_edits; }

    // The state after events [0, eventIndex]: {timeS, time, semaphoreNames,
    //  bufferNames, devices: [{device, status, line, statement, semaphores,
    //  buffers}]}.
    Q_INVOKABLE QVariantMap stateAt(int eventIndex) const;
    // Edits; each re-runs the model. They return "" or the reason they could not.
    Q_INVOKABLE QString drop(int statementIndex);
    Q_INVOKABLE QString swapWithNext(int statementIndex);
    Q_INVOKABLE void reset();

signals:
    void sourceChanged();
    void chipChanged();
    void runChanged();

private:
    void parseSource();
    void rerun();

    QString m_source;
    QString m_resource;
    QString m_chip = QStringLiteral("v5e");
    bool m_parsed = false;
    tpusim::SemProgram m_original;
    tpusim::SemProgram m_program;
    QVariantList m_statements;
    QVariantMap m_run;
    QStringList m_edits;
    std::vector<tpusim::SemState> m_states; // after each event of the run, for scrubbing
};
