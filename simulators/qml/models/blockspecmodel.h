#pragma once

#include <QtQml/qqmlregistration.h>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QVariantMap>

#include <memory>
#include <variant>

#include <tpusim/blockspec_sandbox.h>

#include "latestrun.h"

struct SandboxRun;
struct SandboxReportMaps;

// libtpusim's BlockSpec sandbox for QML (type TpuCourse.Sim/BlockSpecModel):
// a matmul schedule in (sizes, blocks, grid, semantics, index-map texts),
// its legality, coverage, VMEM and predicted time out, recomputed whenever
// an input changes (once per event-loop turn, so a preset that sets many
// inputs is judged only as a whole). verify() runs the schedule numerically
// off the GUI thread; any change of input clears its answer.
class BlockSpecModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString chip MEMBER m_chip NOTIFY inputsChanged)
    Q_PROPERTY(QString dtype MEMBER m_dtype NOTIFY inputsChanged)
    Q_PROPERTY(int m MEMBER m_m NOTIFY inputsChanged)
    Q_PROPERTY(int k MEMBER m_k NOTIFY inputsChanged)
    Q_PROPERTY(int n MEMBER m_n NOTIFY inputsChanged)
    Q_PROPERTY(int bm MEMBER m_bm NOTIFY inputsChanged)
    Q_PROPERTY(int bk MEMBER m_bk NOTIFY inputsChanged)
    Q_PROPERTY(int bn MEMBER m_bn NOTIFY inputsChanged)
    // With followBlocks the grid walks every block once in `order` ("ijk",
    // "jik", ...); otherwise `grid` is used as it is.
    Q_PROPERTY(bool followBlocks MEMBER m_followBlocks NOTIFY inputsChanged)
    Q_PROPERTY(QString order MEMBER m_order NOTIFY inputsChanged)
    Q_PROPERTY(QVariantList grid MEMBER m_grid NOTIFY inputsChanged)
    Q_PROPERTY(QStringList semantics MEMBER m_semantics NOTIFY inputsChanged) // "parallel" | "arbitrary"
    Q_PROPERTY(QString xMap MEMBER m_xMap NOTIFY inputsChanged)
    Q_PROPERTY(QString yMap MEMBER m_yMap NOTIFY inputsChanged)
    Q_PROPERTY(QString outMap MEMBER m_outMap NOTIFY inputsChanged)
    Q_PROPERTY(int reductionAxis MEMBER m_reductionAxis NOTIFY inputsChanged)
    Q_PROPERTY(int window MEMBER m_window NOTIFY inputsChanged) // coverage cells drawn per axis

    // The grid in use: [g0, g1, g2].
    Q_PROPERTY(QVariantList gridUsed READ gridUsed NOTIFY reportChanged)
    // [{name, array, block, legal, reason, notes: [..], mapError, mapText}] for x, y, out.
    Q_PROPERTY(QVariantList operands READ operands NOTIFY reportChanged)
    // {ok, blocks, blocksWritten, writes, race, nonConsecutive, problems, rows,
    //  cols, shownRows, shownCols, capped}; {error}.
    Q_PROPERTY(QVariantMap coverage READ coverage NOTIFY reportChanged)
    // The shown blocks, row by row: [{row, col, writes, firstStep, lastStep,
    // first, last, race, scattered, missing}]. For C++ (CoverageView) and
    // tests: a script reads one with coverageCell(), since a read of the
    // whole list converts every cell for the script engine, on every report.
    Q_PROPERTY(QVariantList coverageCells READ coverageCells NOTIFY reportChanged)
    // {used, usedText, limit, limitText, fraction, fits, provenance}
    Q_PROPERTY(QVariantMap vmem READ vmem NOTIFY reportChanged)
    // {timeS, time, utilization, utilizationText, hbmBytes, hbm, floorS, floor,
    //  steps, cores, provenance}; {error} when there is no prediction.
    Q_PROPERTY(QVariantMap prediction READ prediction NOTIFY reportChanged)
    Q_PROPERTY(bool sound READ sound NOTIFY reportChanged)
    Q_PROPERTY(bool broken READ broken NOTIFY reportChanged)
    Q_PROPERTY(QString error READ error NOTIFY reportChanged)
    // {} before verify(); {running: true}; then {passed, reason, maxAbsError,
    //  tolerance, mismatches, elements, steps, shrunk, ran, provenance} or {error}.
    Q_PROPERTY(QVariantMap verification READ verification NOTIFY verificationChanged)
    Q_PROPERTY(bool verifying READ verifying NOTIFY verificationChanged)
    // True while a large grid is judged off the GUI thread; the last report stays shown.
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // The dtype's native (sublane, lane) tile: what a block size snaps to.
    Q_PROPERTY(int tileRows READ tileRows NOTIFY inputsChanged)
    Q_PROPERTY(int tileLanes READ tileLanes NOTIFY inputsChanged)

public:
    explicit BlockSpecModel(QObject *parent = nullptr);
    ~BlockSpecModel() override;

    QVariantList gridUsed() const;
    QVariantList operands() const;
    QVariantMap coverage() const;
    QVariantList coverageCells() const;
    // One of coverageCells; {} out of range.
    Q_INVOKABLE QVariantMap coverageCell(int index) const;
    QVariantMap vmem() const;
    QVariantMap prediction() const;
    bool sound() const;
    bool broken() const;
    int tileRows() const;
    int tileLanes() const;
    QString error() const;
    bool busy() const { return m_judge.busy(); }
    QVariantMap verification() const { return m_verification; }
    bool verifying() const { return m_watcher.isRunning(); }

    // Runs the current schedule numerically off the GUI thread.
    Q_INVOKABLE void verify();
    // Recomputes now instead of on the next turn of the event loop.
    Q_INVOKABLE void recompute();

signals:
    void inputsChanged();
    void reportChanged();
    void verificationChanged();
    void busyChanged();

private:
    void invalidate();
    std::variant<std::shared_ptr<SandboxReportMaps>, QFuture<std::shared_ptr<SandboxReportMaps>>> launch();
    void apply(const std::shared_ptr<SandboxReportMaps> &report);
    tpusim::SandboxInputs currentInputs() const; // throws tpusim::InputError

    QString m_chip = QStringLiteral("v5e");
    QString m_dtype = QStringLiteral("bf16");
    int m_m = 1024, m_k = 1024, m_n = 1024;
    int m_bm = 256, m_bk = 256, m_bn = 256;
    bool m_followBlocks = true;
    QString m_order = QStringLiteral("ijk");
    QVariantList m_grid{4, 4, 4};
    QStringList m_semantics{QStringLiteral("parallel"), QStringLiteral("parallel"), QStringLiteral("arbitrary")};
    QString m_xMap = QStringLiteral("lambda i, j, k: (i, k)");
    QString m_yMap = QStringLiteral("lambda i, j, k: (k, j)");
    QString m_outMap = QStringLiteral("lambda i, j, k: (i, j)");
    int m_reductionAxis = 2;
    int m_window = 64;

    std::shared_ptr<SandboxReportMaps> m_report;

    quint64 m_generation = 0; // bumped by every input change; a stale verify is dropped
    QVariantMap m_verification;
    // A learner's press: one run at a time, its answer dropped if the
    // inputs change meanwhile (m_generation).
    QFutureWatcher<std::shared_ptr<SandboxRun>> m_watcher;
    // The schedule judged once per burst of input changes, a large grid
    // off the GUI thread; a judgement of inputs since changed is dropped.
    simqml::LatestRun<std::shared_ptr<SandboxReportMaps>> m_judge;
};
