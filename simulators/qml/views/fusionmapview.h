#pragma once

#include <QtQml/qqmlregistration.h>
#include "fusionmapmodel.h"

#include <QColor>
#include <QPointer>
#include <QQuickPaintedItem>

// The whole graph in one picture: fusions as regions (filled when on, dashed
// when split), ops as boxes, edges that cross HBM drawn bright. Drag to pan,
// Ctrl+wheel (or the wheel once the map is clicked) or +/- to zoom, 0 to fit,
// click an op to select it.
class FusionMapView : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(FusionMapModel *model READ model WRITE setModel NOTIFY modelChanged)
    Q_PROPERTY(double zoom READ zoom NOTIFY viewChanged)
    Q_PROPERTY(QColor groundColor MEMBER m_ground NOTIFY look)
    Q_PROPERTY(QColor opColor MEMBER m_op NOTIFY look)
    Q_PROPERTY(QColor textColor MEMBER m_text NOTIFY look)
    Q_PROPERTY(QColor mutedColor MEMBER m_muted NOTIFY look)
    Q_PROPERTY(QColor fusedColor MEMBER m_fused NOTIFY look)
    Q_PROPERTY(QColor hbmColor MEMBER m_hbm NOTIFY look)
    Q_PROPERTY(QColor selectColor MEMBER m_select NOTIFY look)
    Q_PROPERTY(QColor matchColor MEMBER m_match NOTIFY look)
    Q_PROPERTY(QString fontFamily MEMBER m_font NOTIFY look)
    Q_PROPERTY(int fontPixelSize MEMBER m_fontSize NOTIFY look)

public:
    explicit FusionMapView(QQuickItem *parent = nullptr);
    FusionMapModel *model() const { return m_model; }
    void setModel(FusionMapModel *model);
    double zoom() const { return m_zoom; }
    void paint(QPainter *painter) override;

    Q_INVOKABLE void fit();
    Q_INVOKABLE void zoomBy(double factor);
    Q_INVOKABLE void panBy(double dx, double dy);
    Q_INVOKABLE void centerOn(int node);
    Q_INVOKABLE QPointF nodeCenter(int node) const; // in item coordinates, for tests

signals:
    void modelChanged();
    void viewChanged();
    void look();
    void nodeClicked(int node);
    void nodeDoubleClicked(int node);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry) override;

private:
    QPointF toGraph(QPointF p) const;
    const FusionLayout *currentLayout() const;
    QPointer<FusionMapModel> m_model;
    double m_zoom = 1.0;
    QPointF m_offset; // item point of the graph's origin
    bool m_fitted = false;
    QPointF m_pressAt, m_pressOffset;
    bool m_dragged = false;
    QColor m_ground, m_op, m_text, m_muted, m_fused, m_hbm, m_select, m_match;
    QString m_font;
    int m_fontSize = 12;
};
