#pragma once

#include <QColor>
#include <QQuickPaintedItem>
#include <QtQml/qqmlregistration.h>

#include "profilesession.h"

// The profile's longest ops on the chip's roofline, log-log as EX·01 draws
// it: attainable FLOP/s against FLOPs per HBM byte, the MXU roof, the VPU's
// lower one dashed, the HBM slope. Each op is a measured dot (FLOPs over its
// self time) with a predicted ring above it at the same intensity, joined:
// the line is how far the op ran below what the simulator expects.
class ProfileRoofline : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(ProfileSession *session READ session WRITE setSession NOTIFY sessionChanged)
    Q_PROPERTY(int litRow READ litRow WRITE setLitRow NOTIFY litRowChanged)
    // How many ops are drawn, and why any are left out.
    Q_PROPERTY(int shown READ shown NOTIFY contentChanged)
    Q_PROPERTY(QString leftOut READ leftOut NOTIFY contentChanged)
    Q_PROPERTY(QString pointed READ pointed NOTIFY pointedChanged)
    Q_PROPERTY(QColor ground MEMBER m_ground NOTIFY styleChanged)
    Q_PROPERTY(QColor grid MEMBER m_grid NOTIFY styleChanged)
    Q_PROPERTY(QColor roof MEMBER m_roof NOTIFY styleChanged)
    Q_PROPERTY(QColor ink MEMBER m_ink NOTIFY styleChanged)
    Q_PROPERTY(QColor measured MEMBER m_measured NOTIFY styleChanged)
    Q_PROPERTY(QColor predicted MEMBER m_predicted NOTIFY styleChanged)
    Q_PROPERTY(QColor lit MEMBER m_lit NOTIFY styleChanged)
    Q_PROPERTY(QString fontFamily MEMBER m_font NOTIFY styleChanged)
    Q_PROPERTY(int fontPixelSize MEMBER m_fontSize NOTIFY styleChanged)

public:
    explicit ProfileRoofline(QQuickItem *parent = nullptr);

    ProfileSession *session() const { return m_session; }
    void setSession(ProfileSession *session);
    int litRow() const { return m_litRow; }
    void setLitRow(int row);
    int shown() const { return static_cast<int>(m_points.size()); }
    QString leftOut() const { return m_leftOut; }
    QString pointed() const { return m_pointed; }

    void paint(QPainter *painter) override;

signals:
    void sessionChanged();
    void litRowChanged();
    void contentChanged();
    void pointedChanged();
    void styleChanged();
    void picked(int row);

protected:
    void hoverMoveEvent(QHoverEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    struct Point {
        int row;
        double intensity, measured, predicted;  // FLOP/B, FLOP/s, FLOP/s (0: none)
        QString label;
    };
    void reload();
    QRectF plot() const;
    QPointF at(double intensity, double flops) const;
    int pointAt(QPointF pos) const;

    ProfileSession *m_session = nullptr;
    int m_litRow = -1;
    std::vector<Point> m_points;
    QString m_leftOut;
    QString m_pointed;
    double m_peak = 0, m_vpu = 0, m_bandwidth = 0;
    double m_xMin = 1e-2, m_xMax = 1e4, m_yMin = 1e9, m_yMax = 1e15;
    QColor m_ground, m_grid, m_roof, m_ink, m_measured, m_predicted, m_lit;
    QString m_font;
    int m_fontSize = 12;
};
