#pragma once

#include <QColor>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QQuickPaintedItem>
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
    Q_PROPERTY(QString chip MEMBER m_chip NOTIFY inputsChanged)
    Q_PROPERTY(double m MEMBER m_m NOTIFY inputsChanged)
    Q_PROPERTY(double k MEMBER m_k NOTIFY inputsChanged)
    Q_PROPERTY(double n MEMBER m_n NOTIFY inputsChanged)
    Q_PROPERTY(double bm MEMBER m_bm NOTIFY inputsChanged)
    Q_PROPERTY(double bk MEMBER m_bk NOTIFY inputsChanged)
    Q_PROPERTY(double bn MEMBER m_bn NOTIFY inputsChanged)
    Q_PROPERTY(QString order MEMBER m_order NOTIFY inputsChanged)  // "mnk", "kmn", ...
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
    static void registerType();

    QVariantMap run() const { return m_run; }
    bool busy() const { return m_watcher.isRunning(); }
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
    struct Computed {
        tpusim::Kernel kernel;
        tpusim::PipelineResult result;
        QString problem;
        QString inputs;
        // The whole call in `overviewBuckets` buckets per core, made with the run.
        std::vector<std::vector<tpusim::ScheduleBucket>> overview;
    };
    static constexpr int overviewBuckets = 2048;
    std::shared_ptr<const Computed> computed() const { return m_computed; }

signals:
    void inputsChanged();
    void runChanged();
    void busyChanged();

private:
    void recompute();
    void publish(std::shared_ptr<const Computed> c);

    QString m_chip = QStringLiteral("v5e");
    double m_m = 4096, m_k = 4096, m_n = 4096;
    double m_bm = 512, m_bk = 1024, m_bn = 1024;
    QString m_order = QStringLiteral("mnk");

    QVariantMap m_run;
    QString m_shownInputs;
    std::shared_ptr<const Computed> m_computed;
    bool m_again = false;
    QFutureWatcher<std::shared_ptr<const Computed>> m_watcher;
};

// The schedule drawn as one picture: per TensorCore three lanes (copies in,
// the MXU, copies out) over a span of the call, each pixel column one
// bucket of time, its lane filled by the share of the bucket each activity
// takes (so 262,144 steps draw as fast as 8). Zoomed in far enough, steps
// are separated by a hairline. The wheel zooms around the pointer, a drag
// pans; pointing at a lane names the step under it (`hovered`).
class PipelineTimeline : public QQuickPaintedItem
{
    Q_OBJECT
    Q_PROPERTY(PipelineModel *model READ model WRITE setModel NOTIFY modelChanged)
    Q_PROPERTY(double viewStart READ viewStart NOTIFY viewChanged)
    Q_PROPERTY(double viewEnd READ viewEnd NOTIFY viewChanged)
    Q_PROPERTY(int cores READ cores NOTIFY viewChanged)
    Q_PROPERTY(int pickedStep MEMBER m_picked NOTIFY pickedChanged)  // outlined; -1: none
    Q_PROPERTY(int hoveredStep READ hoveredStep NOTIFY hoveredChanged)
    Q_PROPERTY(double hoveredX READ hoveredX NOTIFY hoveredChanged)
    Q_PROPERTY(qreal laneHeight MEMBER m_lane NOTIFY look)
    Q_PROPERTY(qreal coreGap MEMBER m_coreGap NOTIFY look)
    Q_PROPERTY(QColor computeColor MEMBER m_compute NOTIFY look)
    Q_PROPERTY(QColor overheadColor MEMBER m_overhead NOTIFY look)
    Q_PROPERTY(QColor exposedColor MEMBER m_exposed NOTIFY look)
    Q_PROPERTY(QColor dmaInColor MEMBER m_dmaIn NOTIFY look)
    Q_PROPERTY(QColor dmaOutColor MEMBER m_dmaOut NOTIFY look)
    Q_PROPERTY(QColor fixedColor MEMBER m_fixed NOTIFY look)     // launch, prologue and epilogue
    Q_PROPERTY(QColor laneColor MEMBER m_laneBg NOTIFY look)
    Q_PROPERTY(QColor lineColor MEMBER m_line NOTIFY look)
    Q_PROPERTY(QColor pickColor MEMBER m_pick NOTIFY look)
    Q_PROPERTY(qreal pickWidth MEMBER m_pickWidth NOTIFY look)

public:
    explicit PipelineTimeline(QQuickItem *parent = nullptr);
    ~PipelineTimeline() override;
    PipelineModel *model() const { return m_model; }
    void setModel(PipelineModel *model);
    double viewStart() const { return m_t0; }
    double viewEnd() const { return m_t1; }
    int cores() const;
    int hoveredStep() const { return m_hovered; }
    double hoveredX() const { return m_hoveredX; }
    void paint(QPainter *painter) override;

    // The whole call in view.
    Q_INVOKABLE void showAll();
    // Steps [first, first + count) of core 0 in view.
    Q_INVOKABLE void showSteps(int first, int count);
    // Zooms by `factor` (> 1: in) around the fraction `fx` of the width.
    Q_INVOKABLE void zoomAt(double fx, double factor);
    // Pans by a fraction of the span (negative: earlier).
    Q_INVOKABLE void pan(double fraction);
    // The x of a time, in item coordinates.
    Q_INVOKABLE double xOf(double t) const;

signals:
    void modelChanged();
    void viewChanged();
    void pickedChanged();
    void hoveredChanged();
    void look();

protected:
    void hoverMoveEvent(QHoverEvent *event) override;
    void hoverLeaveEvent(QHoverEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    void setView(double t0, double t1);
    void runChanged();
    int coreAtY(qreal y) const;
    void hoverAt(QPointF p);
    // Buckets of the span in view, per core: the overview's when the whole
    // call is in view, made here when few steps are in view, else from a
    // job off the GUI thread (the stale picture stays until it lands).
    const std::vector<std::vector<tpusim::ScheduleBucket>> *bucketsFor(int width);

    QPointer<PipelineModel> m_model;
    std::shared_ptr<const PipelineModel::Computed> m_run;
    double m_t0 = 0, m_t1 = 0;
    int m_picked = -1, m_hovered = -1;
    double m_hoveredX = 0;
    qreal m_lane = 18, m_coreGap = 8;
    QColor m_compute, m_overhead, m_exposed, m_dmaIn, m_dmaOut, m_fixed, m_laneBg, m_line, m_pick;
    qreal m_pickWidth = 2;
    bool m_dragging = false;
    qreal m_dragX = 0;
    double m_dragT0 = 0, m_dragT1 = 0;

    struct Buckets {
        const PipelineModel::Computed *run = nullptr;
        double t0 = 0, t1 = 0;
        int width = 0;
        std::vector<std::vector<tpusim::ScheduleBucket>> lanes;
    };
    Buckets m_buckets;
    bool m_jobAgain = false;
    QFutureWatcher<Buckets> m_job;
};
