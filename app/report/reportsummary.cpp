// Page 1 of the report: who, when, and the shape of their progress at a glance.
#include "reportformat.h"
#include "reporthtml.h"

#include <QStringList>

namespace {

using reporthtml::esc;

QString keyFigure(const QString &value, const QString &label, const QString &cls = QString())
{
    return QStringLiteral(
               "<td class=\"key\"><span class=\"keyvalue %1\">%2</span><br><span class=\"keylabel\">%3</span></td>")
        .arg(cls, value, label);
}

QString keyFigures(const ProgressReport &r)
{
    QStringList cells;
    cells << keyFigure(QStringLiteral("%1/%2").arg(r.gatesPassed).arg(r.gateCount), QStringLiteral("gates passed"),
                       r.gatesPassed > 0 ? QStringLiteral("measured") : QString())
          << keyFigure(QStringLiteral("%1/%2").arg(r.chaptersDone).arg(r.chapters.size()),
                       QStringLiteral("chapters done"))
          << keyFigure(QStringLiteral("%1/%2").arg(r.itemsDone).arg(r.itemsTotal), QStringLiteral("mastery items done"))
          << keyFigure(QString::number(r.ownMeasuredRuns), QStringLiteral("own measured runs"),
                       QStringLiteral("measured"))
          << keyFigure(QString::number(r.ownVerifiedRuns), QStringLiteral("verified off-chip"),
                       QStringLiteral("verified"))
          << keyFigure(QString::number(r.exampleRuns), QStringLiteral("examples, never count"),
                       QStringLiteral("example"));
    // QTextDocument keeps no margin below a table, so a small empty line
    // gives the heading after it its air in the PDF as on the web page.
    return QStringLiteral(
               "<table class=\"keys\" width=\"100%\" cellspacing=\"0\" cellpadding=\"4\"><tr>%1</tr></table>"
               "<p class=\"spacer\">&nbsp;</p>")
        .arg(cells.join(QString()));
}

QString dateRange(const ProgressReport &r)
{
    if (!r.firstActivity.isValid())
        return QStringLiteral("no activity yet");
    const QString first = reportformat::day(r.firstActivity), last = reportformat::day(r.lastActivity);
    return first == last ? QStringLiteral("activity on %1").arg(first)
                         : QStringLiteral("activity from %1 to %2").arg(first, last);
}

QString figureBlock(const ReportHtmlTarget &t, const QList<ReportFigure> &figures)
{
    QStringList parts;
    for (const auto &f : figures)
        parts << t.figure(f);
    return QStringLiteral("<p class=\"figure\">%1</p>").arg(parts.join(QStringLiteral(" ")));
}

QString rooflines(const ProgressReport &r, const ReportHtmlTarget &t)
{
    QString h = QStringLiteral("<h3>Measured runs on their chips' rooflines</h3>");
    if (r.rooflines.isEmpty())
        return h + QStringLiteral(
                       "<p class=\"note\">No measured run of your own has a shape the simulator can cost yet "
                       "(matmuls, the bench rows, the elementwise add and streaming attention can be placed). "
                       "Examples and runs verified off-chip never appear here.</p>");
    return h + figureBlock(t, rooflineFigures(r, t.bodyWidthPt));
}

QString predictedVsMeasured(const ProgressReport &r, const ReportHtmlTarget &t)
{
    QString h = QStringLiteral("<h3>Predicted against measured</h3>");
    const auto figure = predictedVsMeasuredFigure(r, t.bodyWidthPt);
    if (!figure)
        return h + QStringLiteral(
                       "<p class=\"note\">Nothing to compare yet: a measured run of your own whose shape the "
                       "simulator can cost shows its predicted floor beside its measured time here.</p>");
    return h + figureBlock(t, {*figure});
}

} // namespace

// Each block of page 1 is one function; drill retention joins them as a
// block of its own once drills keep their reviews in the store.
QString reporthtml::summaryPage(const ProgressReport &r, const ReportHtmlTarget &t)
{
    QStringList h;
    h << QStringLiteral("<p class=\"kicker\">tpu-course · progress report</p>");
    h << QStringLiteral("<h1>Learn to make TPUs fast</h1>");
    h << QStringLiteral("<p class=\"lede\"><b>%1</b> · %2 · generated %3 by tpu-course %4</p>")
             .arg(esc(r.learner), dateRange(r), reportformat::minute(r.generated), esc(r.appVersion));
    if (!r.historyFinding.isEmpty())
        h << QStringLiteral(
                 "<p class=\"failed\"><b>This progress file's history does not verify:</b> %1. The counts "
                 "below are only what its verifiable evidence supports; a gate counts only with a run "
                 "record that still checks out.</p>")
                 .arg(esc(r.historyFinding));
    h << keyFigures(r);
    h << QStringLiteral("<h3>The six stages and their gates</h3>");
    h << figureBlock(t, {stagePathFigure(t.bodyWidthPt)});
    h << QStringLiteral("<h3>Chapters</h3>");
    h << figureBlock(t, {chapterStripFigure(t.bodyWidthPt)});
    h << rooflines(r, t);
    h << predictedVsMeasured(r, t);
    h << QStringLiteral(
        "<p class=\"note\">Every value says what it is: <span class=\"predicted\">predicted</span> by the "
        "simulator from the chip's published figures, <span class=\"verified\">verified off-chip</span> "
        "(correct, with no claim of speed), or <span class=\"measured\">measured</span> on a real TPU "
        "(chip, dtype, shapes and date in the run table). Gates pass only on measured runs; every attempt "
        "is listed, pass or fail.</p>");
    return h.join(QLatin1Char('\n'));
}
