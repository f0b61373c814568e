#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantMap>

// libtpusim's attention module for QML (singleton TpuCourse.Sim/Attention):
// the online-softmax stepper's state after every K/V block, and the naive
// against streaming cost model. Thin: inputs in, libtpusim's answers out as
// maps; bad input comes back as {error: "one sentence"}.
class AttentionModel : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Attention)
    QML_SINGLETON

public:
    using QObject::QObject;

    // Steps a seeded problem one K/V block at a time, with all of Q resident
    // (one query block). {seqQ, seqKv, headDim, blockK, blocks, causal, seed,
    //  steps: [{done, m: [], l: [], alpha: [], acc: [[..]], output: [[..]]}]
    //  (steps[0] is the state before any block: m = -inf, l = 0, acc = 0),
    //  reference: [[..]] the direct softmax(QK^T)V,
    //  check: {maxAbsError, text, provenance}, provenance}
    Q_INVOKABLE QVariantMap stream(int seqQ, int seqKv, int headDim, int blockK, bool causal, int seed) const;

    // Naive against streaming attention on a chip, for the forward pass or
    // (pass "both") the forward and the backward.
    // {naive: form, flash: form, scoreBytes, scoreBytesText, speedup,
    //  speedupText, comparisonText, kvBlocks, tiles, provenance}; form =
    //  {timeS, time, bound, boundText, peakS, gridSteps, hbmBytes,
    //  hbmBytesText, bytes: [{name, value, text}], stages: [..]}
    Q_INVOKABLE QVariantMap costs(const QString &chipId, int batch, int heads, int seq, int headDim, int blockQ,
                                  int blockK, const QString &dtype, bool causal,
                                  const QString &pass = QStringLiteral("forward")) const;
};
