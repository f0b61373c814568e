#pragma once

#include <QtQml/qqmlregistration.h>
#include <QColor>
#include <QImage>
#include <QLineF>
#include <QPointer>
#include <QQuickPaintedItem>

#include "meshmodel.h"

// One plane of a MeshModel's slice (type TpuCourse.Sim/MeshView): chips as
// squares, each directed link as a line beside its partner (the + direction
// above or left of the - one), coloured by the bytes it carried in the whole
// collective; wraparound links leave one edge and enter the opposite one.
// Chunks in flight at `time` are dots part-way along their link. Links and
// chips only change with the model's view, the size or the colours, so they
// are kept as one image and a change of `time` repaints just the dots.
class MeshView : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(MeshModel *model READ model WRITE setModel NOTIFY modelChanged)
    Q_PROPERTY(double time READ time WRITE setTime NOTIFY timeChanged)
    Q_PROPERTY(QColor chipColor MEMBER m_chip NOTIFY look) // a chip's face
    Q_PROPERTY(QColor chipEdgeColor MEMBER m_chipEdge NOTIFY look)
    Q_PROPERTY(QColor idleColor MEMBER m_idle NOTIFY look) // a link that carried nothing
    Q_PROPERTY(QColor loadColor MEMBER m_load NOTIFY look) // the busiest link; lighter loads draw fainter
    Q_PROPERTY(QColor chunkColor MEMBER m_chunk NOTIFY look)
    Q_PROPERTY(qreal margin MEMBER m_margin NOTIFY look) // room at the edges for the wrap stubs

public:
    explicit MeshView(QQuickItem *parent = nullptr);
    MeshModel *model() const { return m_model; }
    void setModel(MeshModel *model);
    double time() const { return m_time; }
    void setTime(double time);
    void paint(QPainter *painter) override;

    // How many chunk dots the last paint drew, for tests.
    Q_INVOKABLE int chunksDrawn() const { return m_chunksDrawn; }

signals:
    void modelChanged();
    void timeChanged();
    void look();

protected:
    void geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry) override;
    void itemChange(ItemChange change, const ItemChangeData &value) override;

private:
    void invalidate();
    void layOut();
    void paintStatic(QPainter &p) const;
    QPointF centre(int r, int c) const;
    QPointF offset(int r0, int r1, int direction) const;
    // Where a link is drawn: one line, or the two stubs of a wrap, offset to its side.
    int segments(int r0, int c0, int r1, int c1, int direction, bool wrap, QLineF out[2]) const;

    QPointer<MeshModel> m_model;
    double m_time = 0;
    QColor m_chip, m_chipEdge, m_idle, m_load, m_chunk;
    qreal m_margin = 24;

    // Laid out from the model's picture and the item's size.
    bool m_dirty = true;
    int m_rows = 1, m_cols = 1;
    qreal m_cell = 4, m_originX = 0, m_originY = 0;
    QImage m_static; // links and chips
    int m_chunksDrawn = 0;
};
