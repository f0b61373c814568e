#pragma once

#include <QtQml/qqmlregistration.h>
#include <QColor>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <cstdint>
#include <vector>

#include <tpusim/mxu.h>

#include "latestrun.h"

// libtpusim's MXU for QML (type TpuCourse.Sim/SystolicModel): a chip (its
// array size), a GEMM M x K x N and a mode in; the run's cycles and
// utilization from the closed form, SCALE-Sim's count, the frame at the
// cursor cycle (every cell's state and an 8x8 corner's values), the activity
// over the run, out. The same run is also stepped cycle by cycle off the GUI
// thread (`stepped`), to set its count against the closed form.
class SystolicModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString chip MEMBER m_chip NOTIFY inputsChanged)
    Q_PROPERTY(double m MEMBER m_m NOTIFY inputsChanged)
    Q_PROPERTY(double k MEMBER m_k NOTIFY inputsChanged)
    Q_PROPERTY(double n MEMBER m_n NOTIFY inputsChanged)
    Q_PROPERTY(QString mode MEMBER m_mode NOTIFY inputsChanged) // "overlapped" | "no-overlap"
    Q_PROPERTY(double cycle MEMBER m_cycle NOTIFY cycleChanged)
    // {problem: sentence} for sizes libtpusim refuses; else {array, cycles,
    //  cyclesText, utilization, utilizationText, macsText, folds, kTiles,
    //  nTiles, exposedLoad, firstStart, fillEnd, drainStart, fills,
    //  overlapped: {cycles, cyclesText, utilizationText}, noOverlap: {..},
    //  scaleSim: {rowFolds, colFolds, folds, perFold, cycles, cyclesText,
    //  overallText, mappingText, computeText}, formula, provenance}
    Q_PROPERTY(QVariantMap run READ run NOTIFY runChanged)
    // {cycle, phase, useful, padding, usefulText, fold, loadingFold,
    //  loadingRows, rowsEntered, resultsDone, resultsTotal, cornerSize,
    //  corner: [{state, hasWeight, w, hasRow, row, a, s}] row-major}
    Q_PROPERTY(QVariantMap frame READ frame NOTIFY frameChanged)
    // Useful cells per cycle over the run as fractions of the array, 480 buckets.
    Q_PROPERTY(QVariantList activity READ activity NOTIFY runChanged)
    // {state: "running" | "done" | "skipped" | "", cycles, cyclesText, agrees, why}
    Q_PROPERTY(QVariantMap stepped READ stepped NOTIFY steppedChanged)

public:
    explicit SystolicModel(QObject *parent = nullptr);
    ~SystolicModel() override;

    QVariantMap run() const { return m_run; }
    QVariantMap frame() const { return m_frame; }
    QVariantList activity() const { return m_activity; }
    QVariantMap stepped() const { return m_stepped; }

    // A chip's array size (rows = columns of one MXU); 0 for an unknown chip.
    Q_INVOKABLE int arrayOf(const QString &chipId) const;

    // For the heat view: the frame's cell states and the run's work per cell.
    bool valid() const { return m_valid; }
    int array() const { return m_valid ? m_timeline.array : 0; }
    const std::vector<std::uint8_t> &cells() const { return m_cells; }
    const std::vector<std::int64_t> &work() const { return m_work; }

signals:
    void inputsChanged();
    void cycleChanged();
    void runChanged();
    void frameChanged();
    void steppedChanged();

private:
    void recompute();
    void rebuildFrame();
    void startStepping();

    QString m_chip = QStringLiteral("v5e");
    double m_m = 128, m_k = 128, m_n = 128;
    QString m_mode = QStringLiteral("overlapped");
    double m_cycle = 0;

    bool m_valid = false;
    tpusim::MxuTimeline m_timeline;
    std::vector<std::uint8_t> m_cells;
    std::vector<std::int64_t> m_work;
    QVariantMap m_run, m_frame, m_stepped;
    QVariantList m_activity;

    struct StepJob
    {
        std::int64_t m = 0, k = 0, n = 0;
        int array = 0;
        tpusim::MxuMode mode{};
        std::int64_t cycles = -1;
    };
    static StepJob stepCycles(StepJob job); // on a worker thread
    StepJob wantedStep() const;             // the run the stepped count should be of
    void stepped(const StepJob &done);
    simqml::LatestRun<StepJob> m_step;
};
