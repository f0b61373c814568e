#pragma once

#include <QtQml/qqmlregistration.h>
#include "pipelinemodel.h"

#include <QColor>
#include <QPointer>
#include <QQuickPaintedItem>

// The schedule drawn as one picture: per TensorCore three lanes (copies in,
// the MXU, copies out) over a span of the call, each pixel column one
// bucket of time, its lane filled by the share of the bucket each activity
// takes (so 262,144 steps draw as fast as 8). Zoomed in far enough, steps
// are separated by a hairline. The wheel zooms around the pointer, a drag
// pans; pointing at a lane names the step under it (`hovered`).
class PipelineTimeline : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(PipelineModel *model READ model WRITE setModel NOTIFY modelChanged)
    Q_PROPERTY(double viewStart READ viewStart NOTIFY viewChanged)
    Q_PROPERTY(double viewEnd READ viewEnd NOTIFY viewChanged)
    Q_PROPERTY(int cores READ cores NOTIFY viewChanged)
    Q_PROPERTY(int pickedStep MEMBER m_picked NOTIFY pickedChanged) // outlined; -1: none
    Q_PROPERTY(int hoveredStep READ hoveredStep NOTIFY hoveredChanged)
    Q_PROPERTY(double hoveredX READ hoveredX NOTIFY hoveredChanged)
    Q_PROPERTY(qreal laneHeight MEMBER m_lane NOTIFY look)
    Q_PROPERTY(qreal coreGap MEMBER m_coreGap NOTIFY look)
    Q_PROPERTY(QColor computeColor MEMBER m_compute NOTIFY look)
    Q_PROPERTY(QColor overheadColor MEMBER m_overhead NOTIFY look)
    Q_PROPERTY(QColor exposedColor MEMBER m_exposed NOTIFY look)
    Q_PROPERTY(QColor dmaInColor MEMBER m_dmaIn NOTIFY look)
    Q_PROPERTY(QColor dmaOutColor MEMBER m_dmaOut NOTIFY look)
    Q_PROPERTY(QColor fixedColor MEMBER m_fixed NOTIFY look) // launch, prologue and epilogue
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

    struct Buckets
    {
        const PipelineModel::Computed *run = nullptr;
        double t0 = 0, t1 = 0;
        int width = 0;
        std::vector<std::vector<tpusim::ScheduleBucket>> lanes;
    };
    Buckets m_buckets;
    QFutureWatcher<Buckets> m_job;
};
