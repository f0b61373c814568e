#pragma once

#include "systolicmodel.h"

#include <QtQml/qqmlregistration.h>
#include <QColor>
#include <QPointer>
#include <QQuickPaintedItem>
#include <QString>

// The whole array as one picture: a pixel per cell, scaled to the item's
// square, coloured by what the cell does at the model's cycle ("cycle") or
// by how much work it does over the run ("run"). The corner the piece shows
// with values is outlined.
class SystolicHeat : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(SystolicModel *model READ model WRITE setModel NOTIFY modelChanged)
    Q_PROPERTY(QString view MEMBER m_view NOTIFY look)
    Q_PROPERTY(QColor idleColor MEMBER m_idle NOTIFY look)
    Q_PROPERTY(QColor loadingColor MEMBER m_loading NOTIFY look)
    Q_PROPERTY(QColor usefulColor MEMBER m_useful NOTIFY look)
    Q_PROPERTY(QColor paddingColor MEMBER m_padding NOTIFY look)
    Q_PROPERTY(QColor outlineColor MEMBER m_outline NOTIFY look)
    Q_PROPERTY(qreal outlineWidth MEMBER m_outlineWidth NOTIFY look)
    Q_PROPERTY(int corner MEMBER m_corner NOTIFY look)

public:
    explicit SystolicHeat(QQuickItem *parent = nullptr);
    SystolicModel *model() const { return m_model; }
    void setModel(SystolicModel *model);
    void paint(QPainter *painter) override;

signals:
    void modelChanged();
    void look();

private:
    QPointer<SystolicModel> m_model;
    QString m_view = QStringLiteral("cycle");
    QColor m_idle, m_loading, m_useful, m_padding, m_outline;
    int m_corner = 8;
    qreal m_outlineWidth = 1;
};
