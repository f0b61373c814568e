#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <tpusim/vmem_budget.h>

// libtpusim's VMEM budget for QML (type TpuCourse.Sim/VmemBudgetModel): a
// kernel (matmul, attention or layernorm), its sizes, blocks, dtype and
// input buffers, a chip and a scoped limit in; every line of the budget,
// the verdict, what the compiler says when it does not fit, and the largest
// legal blocks that would, out. Recomputed on every change: one budget and
// one block search take tens of microseconds.
class VmemBudgetModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString chip MEMBER m_chip NOTIFY inputsChanged)
    Q_PROPERTY(QString kernel MEMBER m_kernel NOTIFY inputsChanged) // "matmul" | "attention" | "layernorm"
    Q_PROPERTY(QString dtype MEMBER m_dtype NOTIFY inputsChanged)
    Q_PROPERTY(QVariantList sizes MEMBER m_sizes NOTIFY inputsChanged)
    Q_PROPERTY(QVariantList blocks MEMBER m_blocks NOTIFY inputsChanged)
    Q_PROPERTY(int inputBuffers MEMBER m_inputBuffers NOTIFY inputsChanged) // 2 or 3
    // The kernel's vmem_limit_bytes; 0 keeps the chip's scoped default.
    Q_PROPERTY(double limitBytes MEMBER m_limitBytes NOTIFY inputsChanged)

    // [{id, title, sizes: [{name, value, lanes}], blocks: [...]}], with the presets' values.
    Q_PROPERTY(QVariantList kernels READ kernels CONSTANT)
    // The current kernel's {id, title, sizes, blocks} as in `kernels`.
    Q_PROPERTY(QVariantMap kernelInfo READ kernelInfo NOTIFY inputsChanged)
    // The dtype's native (sublane, lane) tile: what a block dimension snaps to.
    Q_PROPERTY(int tileRows READ tileRows NOTIFY inputsChanged)
    Q_PROPERTY(int tileLanes READ tileLanes NOTIFY inputsChanged)
    // The chip's VMEM per TensorCore and scoped default, as facts (variants.h).
    Q_PROPERTY(QVariantMap physical READ physical NOTIFY inputsChanged)
    Q_PROPERTY(QVariantMap scopedDefault READ scopedDefault NOTIFY inputsChanged)

    // {lines: [{name, role, what, block, padded, dtype, tile, buffers, logical,
    //  logicalText, padded, paddedText, total, totalText, padding, paddingText,
    //  legal, reason}], total, totalText, logicalText, paddingText, limit,
    //  limitText, defaultLimit, defaultLimitText, physical, physicalText,
    //  limitRaised, legal, fits, fitsPhysical, limitNeeded, limitNeededText,
    //  hbmText, steps, verdict, error: {stage, quoted, source, explanation} or
    //  {}, provenance}; {problem: sentence} for input libtpusim refuses.
    Q_PROPERTY(QVariantMap budget READ budget NOTIFY budgetChanged)
    // {found, blocks: [..], blocksText, total, totalText, hbmText, steps, reason, provenance}
    Q_PROPERTY(QVariantMap suggestion READ suggestion NOTIFY budgetChanged)

public:
    explicit VmemBudgetModel(QObject *parent = nullptr);

    QVariantList kernels() const;
    QVariantMap kernelInfo() const;
    int tileRows() const;
    int tileLanes() const { return 128; }
    QVariantMap physical() const;
    QVariantMap scopedDefault() const;
    QVariantMap budget() const { return m_budget; }
    QVariantMap suggestion() const { return m_suggestion; }

    // The kernel's preset sizes, blocks and dtype, with two input buffers;
    // the limit stays where the learner put it. One change, one recompute.
    Q_INVOKABLE void applyPreset(const QString &kernelId);
    // The suggested blocks, when there are any.
    Q_INVOKABLE void applySuggestion();
    Q_INVOKABLE void recompute();
    // A chip's VMEM per TensorCore in bytes; 0 for an unknown chip.
    Q_INVOKABLE double physicalOf(const QString &chipId) const;

signals:
    void inputsChanged();
    void budgetChanged();

private:
    tpusim::BudgetKernelSpec currentSpec() const; // throws tpusim::InputError

    QString m_chip = QStringLiteral("v5e");
    QString m_kernel = QStringLiteral("matmul");
    QString m_dtype = QStringLiteral("bf16");
    QVariantList m_sizes;
    QVariantList m_blocks;
    int m_inputBuffers = 2;
    double m_limitBytes = 0;

    QVariantMap m_budget;
    QVariantMap m_suggestion;
};
