#pragma once

#include "latestrun.h"

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantMap>

#include <memory>
#include <vector>

#include <tpusim/pipeline.h>
#include <tpusim/pipeline_schedule.h>

// libtpusim's pipeline model for QML (type TpuCourse.Sim/PipelineModel): a
// chip, a bf16 matmul M x K x N, its blocks bm x bk x bn and the grid order
// in; the model's time and its parts, and the per-step schedule, out. Every
// recompute runs off the GUI thread (a 262,144-step grid takes tens of
// milliseconds); `busy` says one is running, and the figures of the last
// finished run stay on show meanwhile.
class PipelineModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString chip MEMBER m_chip NOTIFY inputsChanged)
    Q_PROPERTY(double m MEMBER m_m NOTIFY inputsChanged)
    Q_PROPERTY(double k MEMBER m_k NOTIFY inputsChanged)
    Q_PROPERTY(double n MEMBER m_n NOTIFY inputsChanged)
    Q_PROPERTY(double bm MEMBER m_bm NOTIFY inputsChanged)
    Q_PROPERTY(double bk MEMBER m_bk NOTIFY inputsChanged)
    Q_PROPERTY(double bn MEMBER m_bn NOTIFY inputsChanged)
    Q_PROPERTY(QString order MEMBER m_order NOTIFY inputsChanged) // "mnk", "kmn", ...
    // {problem: sentence} when libtpusim refuses the inputs; else {timeS,
    //  timeText, steps, stepsText, cores, coreSteps: [..], grid: "(8, 4, 4)",
    //  vmemText, vmemLimitText, hbmText, utilizationText, floorText,
    //  computeText, overheadText, exposedText, prologueText, epilogueText,
    //  launchText, stepFloorText, verdict, revisits, provenance}
    Q_PROPERTY(QVariantMap run READ run NOTIFY runChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // The inputs the figures on show belong to ("M=.. bm=.. order mnk · v5e").
    Q_PROPERTY(QString shownInputs READ shownInputs NOTIFY runChanged)

public:
    explicit PipelineModel(QObject *parent = nullptr);
    ~PipelineModel() override;

    QVariantMap run() const { return m_run; }
    bool busy() const { return m_latest.busy(); }
    QString shownInputs() const { return m_shownInputs; }

    // One step of the schedule (an index into it): {index, step, core, grid,
    // startText, computeText, dmaInText, dmaOutText, copiesIn, copiesOut,
    // overheadText, exposedText, text (the hover card's lines)}; {} when none.
    Q_INVOKABLE QVariantMap stepDetail(int index) const;
    // The step of `core` running at t seconds after the call starts.
    Q_INVOKABLE int stepAt(int core, double t) const;
    // The first and one-past-last schedule index of a core's steps, and its
    // time span: {begin, end, startS, stepsStartS, stepsEndS, endS}.
    Q_INVOKABLE QVariantMap coreSpan(int core) const;
    // Writes the schedule as a Chrome trace (JSON trace event format) to a
    // path or file URL, whole or not at all. "" on success, else one sentence.
    Q_INVOKABLE QString exportTrace(const QString &pathOrUrl) const;
    // The most steps a trace holds per core; a longer run exports its first steps.
    static constexpr std::size_t traceStepCap = 65536;

    // For the timeline: the last finished run, shared with the paint thread.
    struct Computed
    {
        tpusim::Kernel kernel;
        tpusim::PipelineResult result;
        QString problem;
        QString inputs;
        // The whole call in `overviewBuckets` buckets per core, made with the run.
        std::vector<std::vector<tpusim::ScheduleBucket>> overview;
        // The cards of the figures with working of their own, made with the run.
        QString timeDetails, hbmDetails, vmemDetails;
    };
    static constexpr int overviewBuckets = 2048;
    std::shared_ptr<const Computed> computed() const { return m_computed; }

signals:
    void inputsChanged();
    void runChanged();
    void busyChanged();

private:
    void publish(std::shared_ptr<const Computed> c);

    QString m_chip = QStringLiteral("v5e");
    double m_m = 4096, m_k = 4096, m_n = 4096;
    double m_bm = 512, m_bk = 1024, m_bn = 1024;
    QString m_order = QStringLiteral("mnk");

    QVariantMap m_run;
    QString m_shownInputs;
    std::shared_ptr<const Computed> m_computed;
    // Every run off the GUI thread; the last finished one stays on show.
    simqml::LatestRun<std::shared_ptr<const Computed>> m_latest;
};
