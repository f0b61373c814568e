#pragma once

#include "profileview.h"

#include <QtQml/qqmlregistration.h>

// The device's op line on a time axis: every op event as a bar in its
// family's colour, nested events below their parents, and the time between
// ops (idle: the device waiting on the host) hatched, so a gap reads as a
// finding. The wheel zooms around the pointer, a drag pans; pointing at a
// bar or a gap says what it is. Wide views draw one column per pixel from a
// binary search, so a million events draw as fast as ten.
class ProfileTimeline : public ProfileView
{
    Q_OBJECT
    QML_ELEMENT
    // The visible window, as text: "2.40 s to 3.10 s of 92.5 s".
    Q_PROPERTY(QString windowText READ windowText NOTIFY viewChanged)
    Q_PROPERTY(QVariantList familyColors READ familyColors WRITE setFamilyColors NOTIFY styleChanged)
    Q_PROPERTY(QColor idle MEMBER m_idle NOTIFY styleChanged)

public:
    explicit ProfileTimeline(QQuickItem *parent = nullptr);

    QString windowText() const;
    QVariantList familyColors() const;
    void setFamilyColors(const QVariantList &colors);

    Q_INVOKABLE void showAll();
    // Zooms by `factor` (> 1 in) around x in item coordinates.
    Q_INVOKABLE void zoomAt(double x, double factor);
    Q_INVOKABLE void panBy(double pixels);

    void paint(QPainter *painter) override;

signals:
    void viewChanged();

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void hoverMoveEvent(QHoverEvent *event) override;
    void hoverLeaveEvent(QHoverEvent *event) override;
    void reload() override;
    void lightRow(int row) override;

private:
    double timeAt(double x) const;
    double xAt(double t) const;
    int eventAt(double x, double y) const; // index into the timeline, or -1
    void point(double x, double y);
    QColor colourOf(int op) const;
    double laneTop(int lane, int depth) const;

    int m_litOp = -1;
    std::vector<int> m_rowOfOp;
    std::vector<int> m_familyOfOp;
    double m_start = 0, m_span = 1; // the view, ps
    double m_totalStart = 0, m_totalSpan = 1;
    int m_lanes = 1, m_depths = 1;
    QList<QColor> m_familyColors;
    QColor m_idle;
    bool m_dragging = false;
    double m_dragX = 0;
    double m_pressX = 0;
};
