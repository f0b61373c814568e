#include "reportfigures.h"
#include "reporttheme.h"

#include <QBuffer>
#include <QPaintDevice>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

using namespace reporttheme;

namespace {

constexpr double kStagePathHeightPt = 78;
constexpr double kChapterStripHeightPt = 46;
constexpr double kRooflineAspect = 0.42; // height over width
constexpr double kPredictionRowPt = 15;
constexpr double kSideBySideGapPt = 8;
constexpr double kPredictionAxisPt = 34;

QColor gateColour(const QString &state)
{
    if (state == QLatin1String("passed"))
        return kMeasured;
    if (state == QLatin1String("attempted"))
        return kFailed;
    return kLocked;
}

QString gateWords(const QString &state)
{
    if (state == QLatin1String("passed"))
        return QStringLiteral("passed");
    if (state == QLatin1String("attempted"))
        return QStringLiteral("attempted, not passed");
    return QStringLiteral("locked: no attempt yet");
}

// Six stages on one line in the order they are taken, each a node coloured
// by its gate, with the stage's title below.
void paintStagePath(QPainter &p, const ProgressReport &r, const QSizeF &size)
{
    QList<const ProgressReport::Chapter *> stages;
    for (const auto &c : r.chapters)
        if (c.isStage)
            stages << &c;
    std::sort(stages.begin(), stages.end(), [](auto a, auto b) { return a->stageNumber < b->stageNumber; });
    if (stages.isEmpty())
        return;
    const double step = size.width() / stages.size();
    const double lineY = 24;
    const double radius = 7;
    p.setPen(QPen(kRule, 2));
    p.drawLine(QPointF(step / 2, lineY), QPointF(size.width() - step / 2, lineY));
    for (int i = 0; i < stages.size(); ++i) {
        const auto &s = *stages[i];
        const double cx = step * (i + 0.5);
        const QColor colour = gateColour(s.gateState);
        p.setPen(kMuted);
        p.setFont(figurepaint::font(p, kMono, kTinyPt, QFont::DemiBold));
        p.drawText(QRectF(cx - step / 2, 0, step, 12), Qt::AlignHCenter | Qt::AlignTop,
                   QStringLiteral("STAGE %1 · %2").arg(s.stageNumber).arg(s.gate));
        p.setPen(QPen(colour, 2));
        p.setBrush(s.gateState == QLatin1String("passed") ? QBrush(colour) : QBrush(Qt::white));
        p.drawEllipse(QPointF(cx, lineY), radius, radius);
        if (s.gateState == QLatin1String("attempted")) {
            p.setBrush(colour);
            p.drawEllipse(QPointF(cx, lineY), radius / 2.5, radius / 2.5);
        }
        p.setPen(kInk);
        p.setFont(figurepaint::font(p, kSans, kSmallPt, QFont::DemiBold));
        p.drawText(QRectF(cx - step / 2 + 3, lineY + radius + 4, step - 6, 24),
                   Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, s.title);
        p.setPen(colour == kLocked ? kMuted : colour);
        p.setFont(figurepaint::font(p, kSans, kTinyPt));
        p.drawText(QRectF(cx - step / 2, lineY + radius + 28, step, 12), Qt::AlignHCenter | Qt::AlignTop,
                   gateWords(s.gateState));
    }
}

// Fifteen chapters as cells, each filled by its share of mastery work and
// coloured by its state.
void paintChapterStrip(QPainter &p, const ProgressReport &r, const QSizeF &size)
{
    if (r.chapters.isEmpty())
        return;
    const double gap = 3;
    const double cell = (size.width() - gap * (r.chapters.size() - 1)) / r.chapters.size();
    const double barTop = 13, barHeight = 10;
    for (int i = 0; i < r.chapters.size(); ++i) {
        const auto &c = r.chapters[i];
        const double x = i * (cell + gap);
        p.setPen(kMuted);
        p.setFont(figurepaint::font(p, kMono, kTinyPt, c.isStage ? QFont::DemiBold : QFont::Normal));
        p.drawText(QRectF(x, 0, cell, 11), Qt::AlignHCenter | Qt::AlignTop,
                   QStringLiteral("%1").arg(c.number, 2, 10, QLatin1Char('0')));
        const QRectF bar(x, barTop, cell, barHeight);
        p.setPen(Qt::NoPen);
        p.setBrush(kHairline);
        p.drawRect(bar);
        const double share = c.state == ProgressReport::ChapterState::Done ? 1.0
                             : c.itemsTotal > 0                            ? double(c.itemsDone) / c.itemsTotal
                                                                           : 0.0;
        p.setBrush(c.state == ProgressReport::ChapterState::Done ? kMeasured : kPredictedLight);
        p.drawRect(QRectF(bar.left(), bar.top(), bar.width() * share, bar.height()));
        if (c.state == ProgressReport::ChapterState::InProgress && share == 0) {
            p.setBrush(kPredictedLight);
            p.drawRect(QRectF(bar.left(), bar.bottom() - 2, bar.width(), 2));
        }
        p.setPen(c.state == ProgressReport::ChapterState::Done ? kMeasured : kMuted);
        p.setFont(figurepaint::font(p, kSans, kTinyPt - 0.5));
        const QString word = c.state == ProgressReport::ChapterState::Done ? QStringLiteral("done")
                             : c.state == ProgressReport::ChapterState::InProgress
                                 ? QStringLiteral("%1/%2").arg(c.itemsDone).arg(c.itemsTotal)
                                 : QStringLiteral("—");
        p.drawText(QRectF(x, barTop + barHeight + 3, cell, 11), Qt::AlignHCenter | Qt::AlignTop, word);
    }
    p.setPen(kMuted);
    p.setFont(figurepaint::font(p, kSans, kTinyPt));
    p.drawText(QRectF(0, size.height() - 10, size.width(), 10), Qt::AlignLeft | Qt::AlignBottom,
               QStringLiteral("01–09 the layers, 10–15 the stages · green: done · amber: share of mastery work done · "
                              "thin amber line: opened, nothing done yet · —: not started"));
}

QString figureTitle(ReportFigure::Kind kind)
{
    switch (kind) {
        case ReportFigure::Kind::StagePath:
            return QStringLiteral("The six stages and the state of their gates");
        case ReportFigure::Kind::ChapterStrip:
            return QStringLiteral("Each chapter's state and its share of mastery work done");
        case ReportFigure::Kind::Roofline:
            return QStringLiteral("Measured runs on the chip's predicted roofline");
        case ReportFigure::Kind::PredictedVsMeasured:
            return QStringLiteral("Each measured run against its predicted floor");
    }
    return {};
}

} // namespace

QFont figurepaint::font(const QPainter &painter, const QString &family, double pt, QFont::Weight weight)
{
    QFont f(family);
    const int dpi = painter.device() ? painter.device()->logicalDpiY() : 72;
    f.setPointSizeF(pt * 72.0 / dpi);
    f.setWeight(weight);
    f.setStyleStrategy(QFont::PreferNoShaping); // copyable text in the PDF: see textFont in reportpdf.cpp
    return f;
}

ReportFigure stagePathFigure(double widthPt)
{
    return {ReportFigure::Kind::StagePath, 0, QSizeF(widthPt, kStagePathHeightPt)};
}

ReportFigure chapterStripFigure(double widthPt)
{
    return {ReportFigure::Kind::ChapterStrip, 0, QSizeF(widthPt, kChapterStripHeightPt)};
}

QList<ReportFigure> rooflineFigures(const ProgressReport &report, double widthPt)
{
    // Two or more chips share the width, two to a line.
    const double width = report.rooflines.size() > 1 ? (widthPt - kSideBySideGapPt) / 2 : widthPt;
    QList<ReportFigure> out;
    for (int i = 0; i < report.rooflines.size(); ++i)
        out.append({ReportFigure::Kind::Roofline, i, QSizeF(width, widthPt * kRooflineAspect)});
    return out;
}

std::optional<ReportFigure> predictedVsMeasuredFigure(const ProgressReport &report, double widthPt)
{
    int rows = 0;
    for (const auto &run : report.runs)
        rows += static_cast<int>(run.predictions.size());
    if (rows == 0)
        return std::nullopt;
    return ReportFigure{ReportFigure::Kind::PredictedVsMeasured, 0,
                        QSizeF(widthPt, rows * kPredictionRowPt + kPredictionAxisPt)};
}

void paintFigure(QPainter &painter, const ProgressReport &report, const ReportFigure &figure)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    switch (figure.kind) {
        case ReportFigure::Kind::StagePath:
            paintStagePath(painter, report, figure.sizePt);
            break;
        case ReportFigure::Kind::ChapterStrip:
            paintChapterStrip(painter, report, figure.sizePt);
            break;
        case ReportFigure::Kind::Roofline:
            paintRoofline(painter, report.rooflines.at(figure.roofline), figure.sizePt);
            break;
        case ReportFigure::Kind::PredictedVsMeasured:
            paintPredictedVsMeasured(painter, report, figure.sizePt);
            break;
    }
    painter.restore();
}

QString figureSvg(const ProgressReport &report, const ReportFigure &figure, double bodyWidthPt)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(72); // one SVG unit is one point, as in the PDF
    svg.setSize(figure.sizePt.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), figure.sizePt));
    svg.setTitle(figureTitle(figure.kind));
    svg.setDescription(QStringLiteral("tpu-course progress report"));
    {
        QPainter painter(&svg);
        paintFigure(painter, report, figure);
    }
    // Inline in the page: no XML prolog, and the width of its column.
    QString text = QString::fromUtf8(bytes);
    text = text.mid(text.indexOf(QLatin1String("<svg")));
    static const QRegularExpression fixedSize(QStringLiteral("<svg([^>]*?)\\swidth=\"[^\"]*\"\\s+height=\"[^\"]*\""));
    const double percent = std::min(100.0, std::floor(1000 * figure.sizePt.width() / bodyWidthPt) / 10);
    text.replace(fixedSize, QStringLiteral("<svg\\1 width=\"%1%\" class=\"figure\"").arg(percent));
    return text;
}
