#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QSet>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <coursework/tracer.h>

// libtpusim's tracer for QML (type TpuCourse.Sim/TracerModel): a program, its
// sizes and static choices, and the step in; the trace out (the Python lines,
// each step's frame and note, the jaxpr so far, the equations the step
// appended, JAX's error when the trace fails), and jit's cache as the learner
// has filled it: each new key of shapes and static arguments is a retrace.
class TracerModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QVariantList programs READ programs CONSTANT)
    Q_PROPERTY(QString program READ program WRITE setProgram NOTIFY traceChanged)
    Q_PROPERTY(QVariantMap sizes READ sizes NOTIFY traceChanged)
    Q_PROPERTY(QVariantMap choices READ choices NOTIFY traceChanged)
    Q_PROPERTY(int step READ step WRITE setStep NOTIFY stepChanged)
    // {problem} for bad input; else {lines, stepCount, error, errorLine, cacheKey,
    //  jaxpr (finished or partial), primitives: count}
    Q_PROPERTY(QVariantMap trace READ trace NOTIFY traceChanged)
    // {line, note, frame: [{name, traced, aval, value}], jaxpr (so far),
    //  added: [equation text], inner, innerLabel, last, failed}
    Q_PROPERTY(QVariantMap current READ current NOTIFY stepChanged)
    Q_PROPERTY(int traceCount READ traceCount NOTIFY traceChanged) // distinct keys seen: jit's traces
    Q_PROPERTY(bool cacheHit READ cacheHit NOTIFY traceChanged)    // the last change found its key cached

public:
    explicit TracerModel(QObject *parent = nullptr);

    QVariantList programs() const;
    QString program() const { return m_program; }
    void setProgram(const QString &id);
    QVariantMap sizes() const;
    QVariantMap choices() const;
    int step() const { return m_step; }
    void setStep(int s);
    QVariantMap trace() const { return m_traceMap; }
    QVariantMap current() const;
    int traceCount() const { return static_cast<int>(m_keys.size()); }
    bool cacheHit() const { return m_hit; }

    Q_INVOKABLE void setSize(const QString &knob, double value);
    Q_INVOKABLE void setChoice(const QString &knob, const QString &value);
    Q_INVOKABLE void reset(); // the program's default shapes and choices

signals:
    void traceChanged();
    void stepChanged();

private:
    void retrace();

    QString m_program = QStringLiteral("mlp");
    coursework::tracer::Settings m_settings;
    coursework::tracer::Trace m_trace;
    QVariantMap m_traceMap;
    int m_step = 0;
    QSet<QString> m_keys;
    QString m_lastKey;
    bool m_hit = false;
};
