#pragma once

#include <QtQml/qqmlregistration.h>
#include <QColor>
#include <QQuickPaintedItem>

// Diagonal hatching over the stack's empty band between XLA and Pallas.
// Painted when the scene graph first syncs the item, so the band is
// hatched in the very frame it first shows, not one frame later.
class GapHatch : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QColor lineColor MEMBER m_line NOTIFY look)
    Q_PROPERTY(int spacing MEMBER m_spacing NOTIFY look) // between lines, along the edge

public:
    explicit GapHatch(QQuickItem *parent = nullptr);
    void paint(QPainter *painter) override;

signals:
    void look();

private:
    QColor m_line = Qt::transparent;
    int m_spacing = 18;
};
