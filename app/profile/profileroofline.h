#pragma once

#include "profileview.h"

#include <QtQml/qqmlregistration.h>

// The profile's longest ops on the chip's roofline, log-log as EX·01 draws
// it: attainable FLOP/s against FLOPs per HBM byte, the MXU roof, the VPU's
// lower one dashed, the HBM slope. Each op is a measured dot (FLOPs over its
// self time) with a predicted ring above it at the same intensity, joined:
// the line is how far the op ran below what the simulator expects.
class ProfileRoofline : public ProfileView
{
    Q_OBJECT
    QML_ELEMENT
    // How many ops are drawn, and why any are left out.
    Q_PROPERTY(int shown READ shown NOTIFY contentChanged)
    Q_PROPERTY(QString leftOut READ leftOut NOTIFY contentChanged)
    // What each roof drawn is, in words.
    Q_PROPERTY(QString roofKey READ roofKey NOTIFY contentChanged)
    Q_PROPERTY(QColor grid MEMBER m_grid NOTIFY styleChanged)
    Q_PROPERTY(QColor roof MEMBER m_roof NOTIFY styleChanged)
    Q_PROPERTY(QColor measured MEMBER m_measured NOTIFY styleChanged)
    Q_PROPERTY(QColor predicted MEMBER m_predicted NOTIFY styleChanged)

public:
    explicit ProfileRoofline(QQuickItem *parent = nullptr);

    int shown() const { return static_cast<int>(m_points.size()); }
    QString leftOut() const { return m_leftOut; }
    QString roofKey() const;
    // The ops named beside their dots, as drawn now.
    Q_INVOKABLE QStringList labels() const;

    void paint(QPainter *painter) override;

signals:
    void contentChanged();

protected:
    void hoverMoveEvent(QHoverEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void reload() override;

private:
    struct Point
    {
        int row;
        double intensity, measured, predicted; // FLOP/B, FLOP/s, FLOP/s (0: none)
        QString label;
    };
    QRectF plot() const;
    QPointF at(double intensity, double flops) const;
    int pointAt(QPointF pos) const;
    struct Label
    {
        QString text;
        QRectF box;
        bool lit, over; // over: drawn over another label (only the lit one is)
    };
    double dotRadius() const;
    std::vector<Label> placeLabels() const;

    std::vector<Point> m_points;
    QString m_leftOut;
    double m_peak = 0, m_vpu = 0, m_bandwidth = 0;
    double m_attainablePeak = 0, m_attainableBandwidth = 0; // 0: no fitted rates (a GPU)
    double m_xMin = 1e-2, m_xMax = 1e4, m_yMin = 1e9, m_yMax = 1e15;
    QColor m_grid, m_roof, m_measured, m_predicted;
};
