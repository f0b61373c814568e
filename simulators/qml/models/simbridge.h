#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QStringList>
#include <QVariantList>
#include <QVariantMap>

// The simulator for QML pages: chips, their sheets and the bench. Every
// answer carries its provenance map (see variants.h). Errors from bad input
// come back as {error: "one sentence"} rather than exceptions.
class SimBridge : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Sim)
    QML_SINGLETON
    Q_PROPERTY(QVariantList chips READ chips CONSTANT)
    Q_PROPERTY(QString defaultChip READ defaultChip CONSTANT)

public:
    using QObject::QObject;

    // Registers the QML singleton TpuCourse.Sim/Sim (one per engine).

    QVariantList chips() const; // [{id, name}]
    QString defaultChip() const { return QStringLiteral("v5e"); }

    // Every figure of a chip: [{group, label, fact: {...}}]
    Q_INVOKABLE QVariantList chipSheet(const QString &chipId) const;
    // The bench rows of a chip: the landing three, or the full bench.
    // [{id, group, label, shapes, dtype, roofline: {...}}]
    Q_INVOKABLE QVariantList bench(const QString &chipId, bool full) const;
    // The models against published timings of real TPU runs
    // (validation_bridge.cpp), computed once: {rows: [{id, model, what,
    // chip, dtype, shape, blocks, gridSteps, gridStepsText, publishedS,
    // published, publishedDetails, predictedS, predicted, predictedDetails,
    // error, errorText, fitted, timing, source}], models: [{model, heldOut,
    // heldOutMedian(Text), heldOutWorst(Text), fitted, fittedMedian(Text),
    // fittedWorst(Text), fittedOn}]}
    Q_INVOKABLE QVariantMap validation() const;

    // The roofline playground (roofline_bridge.cpp). Each op answer is a
    // roofline map (variants.h) plus attained, attainedText, peakFraction,
    // percentOfPeak, intensityText, ridgeText and peakText.
    Q_INVOKABLE QVariantMap rooflineMatmul(const QString &chipId, qint64 m, qint64 k, qint64 n,
                                           const QString &dtype) const;
    Q_INVOKABLE QVariantMap rooflineElementwise(const QString &chipId, qint64 rows, qint64 cols, int inputs,
                                                const QString &dtype, double flopsPerElement = 1) const;
    // Flash attention (block_q = block_k = block), placed by its MXU FLOPs per HBM byte.
    Q_INVOKABLE QVariantMap rooflineAttention(const QString &chipId, qint64 seq, qint64 headDim, qint64 block,
                                              const QString &dtype) const;
    // The roof for one engine ("mxu" or "vpu"): {points: [{x, y}] from
    // minIntensity through the ridge to maxIntensity, ridge, peakFlops, bandwidth, ...}
    Q_INVOKABLE QVariantMap rooflineCurve(const QString &chipId, const QString &dtype, const QString &engine,
                                          double minIntensity, double maxIntensity) const;
    // The landing bench rows as playground presets: {id, label, op: matmul|elementwise,
    // m, k, n | rows, cols, inputs, dtype, roofline}
    Q_INVOKABLE QVariantList rooflinePresets(const QString &chipId) const;
};
