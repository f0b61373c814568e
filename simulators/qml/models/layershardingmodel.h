#pragma once

#include "latestrun.h"

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariantMap>

// One MLP block trained on a mesh under a sharding, for QML (type
// TpuCourse.Sim/LayerShardingModel): the mesh, a role per axis, DP or FSDP
// on the data axes, the block's sizes and a chip in; libtpusim's
// PartitionSpecs, collectives, the matmul each runs under, a timeline of
// one step and the verdict out. A recompute prices at most ten collectives
// and four matmuls: on a 2D pod a fifth of a millisecond, run on every
// change; a 3D slice of thousands of chips is priced off the GUI thread
// while `busy` is true.
class LayerShardingModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString chip READ chip WRITE setChip NOTIFY chipChanged)
    Q_PROPERTY(QString mesh MEMBER m_mesh NOTIFY inputsChanged)         // "16x16"
    Q_PROPERTY(QStringList roles MEMBER m_roles NOTIFY inputsChanged)   // "data" or "model" per axis
    Q_PROPERTY(QString dataMode MEMBER m_dataMode NOTIFY inputsChanged) // "dp" or "fsdp"
    Q_PROPERTY(double batch MEMBER m_batch NOTIFY inputsChanged)        // rows of the global batch
    Q_PROPERTY(double dModel MEMBER m_dModel NOTIFY inputsChanged)
    Q_PROPERTY(double dFf MEMBER m_dFf NOTIFY inputsChanged)
    Q_PROPERTY(bool overlapTp MEMBER m_overlapTp NOTIFY inputsChanged)
    // The chip's torus: 2 axes on v5e and v6e, 3 on v4, v5p and TPU7x.
    Q_PROPERTY(int torusAxes READ torusAxes NOTIFY chipChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

    // {strategy, axes: [{name, size, role, wraps}], xSpec, wInSpec, wOutSpec,
    //  rowsPerDevice, weightBytes, gatheredBytes, matmuls: [{name, short,
    //  pass, time, timeS, startS}], idle: [{startS, timeS, time, waiting}], collectives: [{what, pass, kind, role,
    //  bytes, time, timeS, startS, under (a matmul's name, "" on the critical path), exposedS, exposed}], compute,
    //  computeS, exposed, exposedS, exposedShare, step, stepS, dataThreshold, modelThreshold, fPerModel, verdict,
    //  provenance}; {problem: sentence} for input libtpusim refuses.
    Q_PROPERTY(QVariantMap plan READ plan NOTIFY planChanged)

public:
    explicit LayerShardingModel(QObject *parent = nullptr);
    ~LayerShardingModel() override;
    struct Inputs;
    QVariantMap plan() const { return m_plan; }
    QString chip() const { return m_chip; }
    void setChip(const QString &id);
    int torusAxes() const;
    bool busy() const { return m_run.busy(); }
    Q_INVOKABLE void recompute();

signals:
    void inputsChanged();
    void chipChanged();
    void planChanged();
    void busyChanged();

private:
    QString m_chip = QStringLiteral("v5e");
    QString m_mesh = QStringLiteral("16x16");
    QStringList m_roles{QStringLiteral("data"), QStringLiteral("model")};
    QString m_dataMode = QStringLiteral("fsdp");
    double m_batch = 65536;
    double m_dModel = 8192;
    double m_dFf = 32768;
    bool m_overlapTp = false;
    QVariantMap m_plan;

    std::variant<QVariantMap, QFuture<QVariantMap>> launch() const;
    simqml::LatestRun<QVariantMap> m_run;
};
