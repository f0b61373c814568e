#pragma once

#include "progressreport.h"

#include <QFont>
#include <QSizeF>

#include <optional>

class QPainter;

// The report's figures, drawn with QPainter in points: as vectors on a PDF
// page, and as inline SVG in the HTML, from the same code.
struct ReportFigure
{
    enum class Kind { StagePath, ChapterStrip, Roofline, PredictedVsMeasured };
    Kind kind = Kind::StagePath;
    int roofline = 0; // Roofline: which of the report's rooflines
    QSizeF sizePt;
};

// The summary's figures at a body width, in the order page 1 shows them;
// a chart with nothing to show is left out (the text says why).
ReportFigure stagePathFigure(double widthPt);
ReportFigure chapterStripFigure(double widthPt);
QList<ReportFigure> rooflineFigures(const ProgressReport &report, double widthPt);
std::optional<ReportFigure> predictedVsMeasuredFigure(const ProgressReport &report, double widthPt);

// Paints a figure into the painter's current coordinates, where one unit is
// one point and the figure's top left is the origin.
void paintFigure(QPainter &painter, const ProgressReport &report, const ReportFigure &figure);

// The figure as an <svg> element for an HTML page, scaling with its
// column: it takes the share of the column's width it takes of bodyWidthPt.
QString figureSvg(const ProgressReport &report, const ReportFigure &figure, double bodyWidthPt);

// Painting helpers shared by the figures.
namespace figurepaint {
// A font whose size is `pt` points in a painter scaled to points, whatever
// the device's resolution.
QFont font(const QPainter &painter, const QString &family, double pt, QFont::Weight weight = QFont::Normal);
} // namespace figurepaint

void paintRoofline(QPainter &painter, const ProgressReport::Roofline &roof, const QSizeF &sizePt);
void paintPredictedVsMeasured(QPainter &painter, const ProgressReport &report, const QSizeF &sizePt);
