#pragma once

#include <QImage>
#include <QList>
#include <QString>

// A log-log roofline for the report: the chip's predicted roofs (HBM slope,
// MXU peak) and the learner's measured points on top.
struct RooflinePoint
{
    QString label;
    double intensity = 0;   // FLOP per HBM byte
    double flopsPerS = 0;   // achieved, from the measured median
};

struct RooflineChart
{
    QString chip;
    double peakFlops = 0;   // predicted roof (bf16 MXU)
    double bandwidth = 0;   // HBM B/s
    QList<RooflinePoint> points;
};

// Draws the chart at the given size in pixels (for a PDF page or a web page).
QImage drawRooflineChart(const RooflineChart &chart, int width, int height);
