// The report as a PDF: the HTML laid out by QTextDocument on the page's text
// column, the figures drawn as vectors inside the text, and each page given
// a running header and its number.
#include "reportformat.h"
#include "reporthtml.h"
#include "reporttheme.h"
#include "reportwriter.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>

using namespace reporttheme;

namespace {

constexpr int kResolutionDpi = 600; // layout precision only: the page is vectors
constexpr int kFigureObjectType = QTextFormat::UserObject + 1;
constexpr int kFigureIndexProperty = QTextFormat::UserProperty + 1;

double mmToDevice(double mm)
{
    return mm / 25.4 * kResolutionDpi;
}
double ptToDevice(double pt)
{
    return pt / 72.0 * kResolutionDpi;
}
double deviceToPt(double px)
{
    return px * 72.0 / kResolutionDpi;
}

// Inter's contextual forms (a hyphen or colon raised between figures, a
// parenthesis raised before capitals) reach the PDF as glyphs without a
// character behind them, so a reader copying text would lose them; text is
// set without shaping, which Latin text does not need.
QFont textFont(double pt)
{
    QFont font(kSans);
    font.setPointSizeF(pt);
    font.setStyleStrategy(QFont::PreferNoShaping);
    return font;
}

QString figureMarker(int index)
{
    return QStringLiteral("[[figure-%1]]").arg(index);
}

// Draws the report's figures where the text holds their object characters.
class FigureObject : public QObject, public QTextObjectInterface
{
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    FigureObject(const ProgressReport &report, const QList<ReportFigure> &figures)
        : m_report(report), m_figures(figures)
    {
    }

    QSizeF intrinsicSize(QTextDocument *, int, const QTextFormat &format) override
    {
        const ReportFigure &f = m_figures.at(format.property(kFigureIndexProperty).toInt());
        return QSizeF(ptToDevice(f.sizePt.width()), ptToDevice(f.sizePt.height()));
    }

    void drawObject(QPainter *painter, const QRectF &rect, QTextDocument *, int, const QTextFormat &format) override
    {
        const ReportFigure &f = m_figures.at(format.property(kFigureIndexProperty).toInt());
        painter->save();
        painter->translate(rect.topLeft());
        painter->scale(rect.width() / f.sizePt.width(), rect.height() / f.sizePt.height());
        paintFigure(*painter, m_report, f);
        painter->restore();
    }

private:
    const ProgressReport &m_report;
    QList<ReportFigure> m_figures;
};

// Swaps each figure's marker in the laid-out text for the object that draws it.
void placeFigures(QTextDocument &doc, int count)
{
    for (int i = 0; i < count; ++i) {
        QTextCursor cursor = doc.find(figureMarker(i));
        if (cursor.isNull())
            continue;
        QTextCharFormat format;
        format.setObjectType(kFigureObjectType);
        format.setProperty(kFigureIndexProperty, i);
        cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
    }
}

void paintRunningHead(QPainter &p, const ProgressReport &r, const QRectF &page, int index, int count)
{
    const double margin = mmToDevice(kMarginMm);
    const QRectF head(margin, margin - mmToDevice(kHeaderBandMm), page.width() - 2 * margin,
                      mmToDevice(kHeaderBandMm) * 0.6);
    const QRectF foot(margin, page.height() - margin + mmToDevice(kFooterBandMm) * 0.4, page.width() - 2 * margin,
                      mmToDevice(kFooterBandMm) * 0.6);
    p.setFont(textFont(kSmallPt));
    p.setPen(kMuted);
    if (index > 0) {
        p.drawText(head, Qt::AlignLeft | Qt::AlignBottom,
                   QStringLiteral("tpu-course · progress report · %1").arg(r.learner));
        p.drawText(head, Qt::AlignRight | Qt::AlignBottom,
                   QStringLiteral("generated %1").arg(reportformat::minute(r.generated)));
        p.setPen(QPen(kRule, ptToDevice(0.5)));
        p.drawLine(head.bottomLeft() + QPointF(0, ptToDevice(2)), head.bottomRight() + QPointF(0, ptToDevice(2)));
        p.setPen(kMuted);
    }
    p.drawText(foot, Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("Gates pass only on measured runs; every attempt is kept."));
    p.drawText(foot, Qt::AlignRight | Qt::AlignTop, QStringLiteral("page %1 of %2").arg(index + 1).arg(count));
}

} // namespace

bool writeProgressReportPdf(const ProgressReport &report, QPageSize::PageSizeId paper, QIODevice &device,
                            QString *error)
{
    QPdfWriter writer(&device);
    writer.setTitle(QStringLiteral("tpu-course progress report · %1").arg(report.learner));
    writer.setCreator(QStringLiteral("tpu-course ") + report.appVersion);
    writer.setPageSize(QPageSize(paper));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(kResolutionDpi);
    const QRectF page(0, 0, writer.width(), writer.height());
    const double margin = mmToDevice(kMarginMm);
    const QRectF body = page.adjusted(margin, margin, -margin, -margin);

    QList<ReportFigure> figures;
    ReportHtmlTarget target;
    target.bodyWidthPt = deviceToPt(body.width());
    target.figure = [&figures](const ReportFigure &f) {
        figures.append(f);
        return figureMarker(int(figures.size()) - 1);
    };
    const QString html = progressReportHtml(report, target);

    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&writer);
    FigureObject figureObject(report, figures);
    doc.documentLayout()->registerHandler(kFigureObjectType, &figureObject);
    QTextOption wrapAtWords;
    wrapAtWords.setWrapMode(QTextOption::WordWrap); // never inside a word or number
    doc.setDefaultTextOption(wrapAtWords);
    doc.setDocumentMargin(0);
    doc.setDefaultFont(textFont(kBodyPt));
    doc.setHtml(html);
    placeFigures(doc, int(figures.size()));
    doc.setPageSize(body.size());

    QPainter painter;
    if (!painter.begin(&writer)) {
        *error = QStringLiteral("the PDF could not be started.");
        return false;
    }
    const int pages = doc.pageCount();

    for (int i = 0; i < pages; ++i) {
        if (i > 0)
            writer.newPage();
        paintRunningHead(painter, report, page, i, pages);
        painter.save();
        painter.translate(body.left(), body.top() - i * body.height());
        const QRectF slice(0, i * body.height(), body.width(), body.height());
        painter.setClipRect(slice);
        // A block that only touches the page's edge belongs to the page
        // beside it; drawing it clipped would still put its text in this page.
        doc.drawContents(&painter, slice.adjusted(0, 0.5, 0, -0.5));
        painter.restore();
    }
    painter.end();
    return true;
}

#include "reportpdf.moc"
