#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

// One decode step over a paged KV cache for QML (type
// TpuCourse.Sim/PagedCacheModel): the sequences' lengths, the heads, the
// page size, the pages a grid step copies, the cache's dtype and a chip in;
// where each sequence's pages sit in a shared pool (its page table), and
// libtpusim's prediction of the step (bytes per token, the share of HBM
// reached, the time against XLA's gather) out. A recompute takes a few
// microseconds, so it runs on every change.
class PagedCacheModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString chip MEMBER m_chip NOTIFY inputsChanged)
    Q_PROPERTY(QVariantList lengths MEMBER m_lengths NOTIFY inputsChanged) // tokens per sequence
    Q_PROPERTY(int heads MEMBER m_heads NOTIFY inputsChanged)
    Q_PROPERTY(int kvHeads MEMBER m_kvHeads NOTIFY inputsChanged)
    Q_PROPERTY(int headDim MEMBER m_headDim NOTIFY inputsChanged)
    Q_PROPERTY(int pageSize MEMBER m_pageSize NOTIFY inputsChanged)
    Q_PROPERTY(int pagesPerBlock MEMBER m_pagesPerBlock NOTIFY inputsChanged)
    Q_PROPERTY(QString kvDtype MEMBER m_kvDtype NOTIFY inputsChanged)

    // {sequences: [{length, pages: [pool index], lastFill}], pool: [owner
    //  sequence or -1 for a free page], figures: {time, timeS, callTime,
    //  bound, kvBytes, bytesPerToken, bytesPerTokenB, bandwidth (0..1),
    //  bandwidthText, attainable (0..1), padding, paddingText, steps, xlaTime,
    //  xlaTimeS, xlaBytes, intensityText, ridgeText, tokensPerS}, provenance};
    // {problem: sentence} for input libtpusim refuses.
    Q_PROPERTY(QVariantMap cache READ cache NOTIFY cacheChanged)

public:
    explicit PagedCacheModel(QObject *parent = nullptr);
    QVariantMap cache() const { return m_cache; }
    Q_INVOKABLE void recompute();

signals:
    void inputsChanged();
    void cacheChanged();

private:
    QString m_chip = QStringLiteral("v5e");
    QVariantList m_lengths;
    int m_heads = 32;
    int m_kvHeads = 8;
    int m_headDim = 128;
    int m_pageSize = 16;
    int m_pagesPerBlock = 8;
    QString m_kvDtype = QStringLiteral("bf16");
    QVariantMap m_cache;
};
