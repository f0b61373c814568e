#pragma once

#include <QtQml/qqmlregistration.h>
#include <QColor>
#include <QQuickPaintedItem>

#include <vector>

// Log-log graph paper: the plot area's ground, a line at every decade and
// fainter ones at 2..9 times each decade, on both axes (base 10). Drawn
// beneath a chart whose own grid is off: Qt Charts strokes each of its
// 150-odd antialiased grid lines through the general path stroker, some
// 13 ms a drawing of the roofline, and draws the whole chart again for
// every change. Here the lines are axis-aligned and pixel-snapped, so they
// need no antialiasing, and the paper is drawn only when it moves.
class LogGrid : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(double xMin MEMBER m_xMin NOTIFY changed)
    Q_PROPERTY(double xMax MEMBER m_xMax NOTIFY changed)
    Q_PROPERTY(double yMin MEMBER m_yMin NOTIFY changed)
    Q_PROPERTY(double yMax MEMBER m_yMax NOTIFY changed)
    Q_PROPERTY(QColor ground MEMBER m_ground NOTIFY changed)
    Q_PROPERTY(QColor majorColor MEMBER m_major NOTIFY changed)
    Q_PROPERTY(QColor minorColor MEMBER m_minor NOTIFY changed)

public:
    explicit LogGrid(QQuickItem *parent = nullptr);
    void paint(QPainter *painter) override;

    // Where the grid's lines fall for the range [lo, hi] of a log axis, as
    // fractions of its length from lo: decades first (major), then the
    // 2..9 multiples between them (minor). Empty for a range that is not
    // positive and increasing.
    struct Lines
    {
        std::vector<double> major, minor;
    };
    static Lines linesFor(double lo, double hi);

signals:
    void changed();

private:
    double m_xMin = 1, m_xMax = 10, m_yMin = 1, m_yMax = 10;
    QColor m_ground = Qt::transparent, m_major = Qt::gray, m_minor = Qt::lightGray;
};
