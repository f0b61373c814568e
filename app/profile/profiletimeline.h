#pragma once

#include <QColor>
#include <QQuickPaintedItem>
#include <QtQml/qqmlregistration.h>

#include "profilesession.h"

// The device's op line on a time axis: every op event as a bar in its
// family's colour, nested events below their parents, and the time between
// ops (idle: the device waiting on the host) hatched, so a gap reads as a
// finding. The wheel zooms around the pointer, a drag pans; pointing at a
// bar or a gap says what it is. Wide views draw one column per pixel from a
// binary search, so a million events draw as fast as ten.
class ProfileTimeline : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(ProfileSession *session READ session WRITE setSession NOTIFY sessionChanged)
    // The table row whose op is lit (-1: none).
    Q_PROPERTY(int litRow READ litRow WRITE setLitRow NOTIFY litRowChanged)
    // What the pointer is over, in a sentence; "" when nothing.
    Q_PROPERTY(QString pointed READ pointed NOTIFY pointedChanged)
    // The visible window, as text: "2.40 s to 3.10 s of 92.5 s".
    Q_PROPERTY(QString windowText READ windowText NOTIFY viewChanged)
    Q_PROPERTY(QVariantList familyColors READ familyColors WRITE setFamilyColors NOTIFY styleChanged)
    Q_PROPERTY(QColor ground MEMBER m_ground NOTIFY styleChanged)
    Q_PROPERTY(QColor idle MEMBER m_idle NOTIFY styleChanged)
    Q_PROPERTY(QColor ink MEMBER m_ink NOTIFY styleChanged)
    Q_PROPERTY(QColor lit MEMBER m_lit NOTIFY styleChanged)
    Q_PROPERTY(QString fontFamily MEMBER m_font NOTIFY styleChanged)
    Q_PROPERTY(int fontPixelSize MEMBER m_fontSize NOTIFY styleChanged)

public:
    explicit ProfileTimeline(QQuickItem *parent = nullptr);

    ProfileSession *session() const { return m_session; }
    void setSession(ProfileSession *session);
    int litRow() const { return m_litRow; }
    void setLitRow(int row);
    QString pointed() const { return m_pointed; }
    QString windowText() const;
    QVariantList familyColors() const;
    void setFamilyColors(const QVariantList &colors);

    Q_INVOKABLE void showAll();
    // Zooms by `factor` (> 1 in) around x in item coordinates.
    Q_INVOKABLE void zoomAt(double x, double factor);
    Q_INVOKABLE void panBy(double pixels);

    void paint(QPainter *painter) override;

signals:
    void sessionChanged();
    void litRowChanged();
    void pointedChanged();
    void viewChanged();
    void styleChanged();
    // The table row of the op clicked.
    void picked(int row);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void hoverMoveEvent(QHoverEvent *event) override;
    void hoverLeaveEvent(QHoverEvent *event) override;

private:
    void reload();
    double timeAt(double x) const;
    double xAt(double t) const;
    int eventAt(double x, double y) const;  // index into the timeline, or -1
    void point(double x, double y);
    QColor colourOf(int op) const;
    double laneTop(int lane, int depth) const;

    ProfileSession *m_session = nullptr;
    int m_litRow = -1;
    int m_litOp = -1;
    std::vector<int> m_rowOfOp;
    std::vector<int> m_familyOfOp;
    double m_start = 0, m_span = 1;          // the view, ps
    double m_totalStart = 0, m_totalSpan = 1;
    int m_lanes = 1, m_depths = 1;
    QString m_pointed;
    QList<QColor> m_familyColors;
    QColor m_ground, m_idle, m_ink, m_lit;
    QString m_font;
    int m_fontSize = 12;
    bool m_dragging = false;
    double m_dragX = 0;
    double m_pressX = 0;
};
