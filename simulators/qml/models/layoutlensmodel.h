#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

// libtpusim's layout lens for QML (type TpuCourse.Sim/LayoutLensModel): an
// array's shape and dtype, a relayout (none, a transpose, a reshape, a
// cast) and a chip in; its tiles, padding and waste, the relayout's bytes
// and predicted time, and the waste of one dimension scrubbed across its
// tile boundaries, out. One recompute takes a few microseconds.
class LayoutLensModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    // The chip prices the relayout; changing it keeps the preset in use.
    Q_PROPERTY(QString chip READ chip WRITE setChip NOTIFY chipChanged)
    Q_PROPERTY(QVariantList shape MEMBER m_shape NOTIFY inputsChanged)
    Q_PROPERTY(QString dtype MEMBER m_dtype NOTIFY inputsChanged)
    Q_PROPERTY(QString relayout MEMBER m_relayout NOTIFY inputsChanged) // none | transpose | reshape | cast
    Q_PROPERTY(QVariantList reshapeTo MEMBER m_reshapeTo NOTIFY inputsChanged)
    Q_PROPERTY(QString castTo MEMBER m_castTo NOTIFY inputsChanged)
    // The dimension whose waste profile is drawn; out of range means the last.
    Q_PROPERTY(int profileAxis MEMBER m_profileAxis NOTIFY inputsChanged)

    // [{id, title, note}]: chapter 7's worked cases.
    Q_PROPERTY(QVariantList presets READ presets CONSTANT)
    // The preset last applied, until an input changes; "" otherwise.
    Q_PROPERTY(QString preset READ preset NOTIFY lensChanged)
    // The dtype's native tile rows (8 x packing) and lanes.
    Q_PROPERTY(int tileRows READ tileRows NOTIFY inputsChanged)
    Q_PROPERTY(int tileLanes READ tileLanes CONSTANT)

    // {layout: L, change: {kind, moves, inKernel, readText, writtenText,
    //  movedText, bytesMoved, timeText, timeS, verdict, provenance, to: L},
    //  profile: {axis, from, to, values, current, tile}} where L is
    // {shapeText, paddedShapeText, dtype, tileText, packing, tiles, tilesText,
    //  logicalText, paddedText, paddingText, waste, wasteText, grid: {planes,
    //  rows, cols, tileRows, tileCols, edgeRows, edgeCols, rowsPerTile,
    //  lanesPerTile, packing}, provenance}; {problem: sentence} for input
    // libtpusim refuses.
    Q_PROPERTY(QVariantMap lens READ lens NOTIFY lensChanged)

public:
    explicit LayoutLensModel(QObject *parent = nullptr);

    QString chip() const { return m_chip; }
    void setChip(const QString &chip);
    QVariantList presets() const;
    QString preset() const { return m_preset; }
    int tileRows() const;
    int tileLanes() const { return 128; }
    QVariantMap lens() const { return m_lens; }

    // Sets every input to the preset's in one change; false for an unknown id.
    Q_INVOKABLE bool applyPreset(const QString &id);
    Q_INVOKABLE void recompute();

signals:
    void chipChanged();
    void inputsChanged();
    void lensChanged();

private:
    QString m_chip = QStringLiteral("v5e");
    QVariantList m_shape;
    QString m_dtype = QStringLiteral("bf16");
    QString m_relayout = QStringLiteral("none");
    QVariantList m_reshapeTo;
    QString m_castTo = QStringLiteral("bf16");
    int m_profileAxis = -1;

    QString m_preset;
    bool m_applying = false;
    QVariantMap m_lens;
};
