// The report's pages after the summary: every gate attempt, every run, every
// chapter with its mastery work, and the activity log's counts.
#include "reporthtml.h"

#include <QFileInfo>
#include <QHash>
#include <QPair>

#include <algorithm>
#include "reportformat.h"
#include "reporttheme.h"

#include <QStringList>

using namespace reporttheme;

namespace {

using reporthtml::esc;

// When the predictions beside a profile's ops were made, and by which build.
QString pricedWhen(const ProgressReport::Profile &p)
{
    const QString by = p.pricedBy.isEmpty() ? QString() : QStringLiteral(" by ") + p.pricedBy;
    if (p.pricings <= 1)
        return QStringLiteral("predicted when imported%1").arg(by);
    return QStringLiteral("predicted again %1%2, priced %3 times").arg(reportformat::day(p.priced), by).arg(p.pricings);
}

// A page read on a screen sets its type a third larger than the printed
// page's, about 17 px for the body: the PDF is for paper.
constexpr double kScreenScale = 1.35;

QString styleSheet(bool webPage)
{
    const double k = webPage ? kScreenScale : 1.0;
    QString s = QStringLiteral(R"(
body { font-family: %1; color: %3; font-size: %5pt; }
h1 { font-size: %7pt; font-weight: 600; margin-top: 0; margin-bottom: 2pt; }
h2 { font-size: %8pt; font-weight: 600; margin-top: 14pt; margin-bottom: 6pt; }
h3 { font-size: %9pt; font-weight: 600; margin-top: 14pt; margin-bottom: 3pt; }
p { margin-top: 0; margin-bottom: 4pt; }
p.kicker { font-family: %2; font-size: %6pt; color: %4; margin-bottom: 2pt; }
p.lede { color: %4; margin-bottom: 8pt; }
p.note { font-size: %6pt; color: %4; }
p.figure { margin-top: 2pt; margin-bottom: 2pt; }
p.spacer { font-size: 4pt; margin: 0; }
.mono { font-family: %2; }
table.keys { background-color: %10; margin-bottom: 4pt; }
td.key { padding: 6pt; }
.keyvalue { font-family: %2; font-size: %19pt; font-weight: 600; }
.keylabel { font-size: %6pt; color: %4; }
table.grid { border-collapse: collapse; font-size: %11pt; }
table.grid th { text-align: left; font-weight: 600; color: %4; background-color: %10; border-bottom: 1px solid %12; }
table.grid td { vertical-align: top; border-bottom: 1px solid %13; }
td.num { text-align: right; font-family: %2; }
.small { font-size: %6pt; color: %4; }
.predicted { color: %14; }
.verified { color: %15; }
.measured { color: %16; }
.failed { color: %17; }
.locked { color: %4; }
.example { color: %18; font-style: italic; }
.done { color: %16; }
.todo { color: %18; }
)")
                    .arg(kSansStack, kMonoStack, css(kInk), css(kMuted))
                    .arg(kBodyPt * k)
                    .arg(kSmallPt * k)
                    .arg(kTitlePt * k)
                    .arg(kHeadingPt * k)
                    .arg(kSubheadingPt * k)
                    .arg(css(kPaperTint))
                    .arg((kSmallPt - 0.5) * k)
                    .arg(css(kRule), css(kHairline))
                    .arg(css(kPredicted), css(kVerified), css(kMeasured), css(kFailed), css(kFaint))
                    .arg(16 * k);
    if (webPage)
        s += QStringLiteral(R"(
body { max-width: 240mm; margin: 12mm auto; padding: 0 8mm; line-height: 1.4; }
div.runninghead { font-size: %1pt; color: %2; border-bottom: 1px solid %3; padding-bottom: 3pt; margin-bottom: 10pt; }
svg.figure { display: inline-block; height: auto; vertical-align: top; }
svg.figure [font-family="%4"] { font-family: %5; }
svg.figure [font-family="%6"] { font-family: %7; }
table.grid th, table.grid td { padding: 3pt 4pt; }
h2.newpage { page-break-before: always; }
@media print { body { margin: 0 auto; } }
)")
                 .arg(kSmallPt * k)
                 .arg(css(kMuted), css(kRule), kSans, kSansStack, kMono, kMonoStack);
    return s;
}

QString provenanceCell(const ProgressReport::Run &x)
{
    if (x.example)
        return QStringLiteral("<span class=\"example\">example<br>never counts</span>");
    if (x.kind == QLatin1String("measured"))
        return QStringLiteral("<span class=\"measured\">measured</span>");
    return QStringLiteral("<span class=\"verified\">verified off-chip</span>");
}

QString gateStateWords(const QString &state)
{
    if (state == QLatin1String("passed"))
        return QStringLiteral("<span class=\"measured\">passed</span>");
    if (state == QLatin1String("attempted"))
        return QStringLiteral("<span class=\"failed\">attempted, not passed</span>");
    return QStringLiteral("<span class=\"locked\">locked</span>");
}

QString attemptsSection(const ProgressReport &r)
{
    QStringList h;
    h << QStringLiteral(
        "<h2 class=\"newpage\" style=\"page-break-before: always; margin-top: 0\">Every gate attempt</h2>");
    if (r.attempts.isEmpty()) {
        h << QStringLiteral(
            "<p class=\"note\">No gate has been attempted yet: a gate is judged only on a measured run "
            "of your own from a real TPU.</p>");
        return h.join(QLatin1Char('\n'));
    }
    h << QStringLiteral("<p class=\"note\">Kept as judged, pass or fail; a failed attempt is never removed.</p>");
    h << QStringLiteral(
        "<table class=\"grid\" width=\"100%\" cellspacing=\"0\" cellpadding=\"3\"><thead><tr>"
        "<th>#</th><th>gate</th><th>stage</th><th>judged</th><th>run</th><th>timed on</th><th>verdict</th>"
        "<th width=\"40%\">why</th>"
        "</tr></thead>");
    for (const auto &a : r.attempts) {
        QStringList reasons;
        for (const QString &reason : a.reasons)
            reasons << esc(reason);
        const QString cls = a.passed ? QStringLiteral("measured") : QStringLiteral("failed");
        h << QStringLiteral(
                 "<tr><td class=\"num\">%1</td><td class=\"mono\"><b>%2</b></td><td>%3</td><td class=\"mono\">%4</td>"
                 "<td class=\"mono\">#%5</td><td>%6</td><td class=\"%7\"><b>%8</b></td><td class=\"%9\">%10</td></tr>")
                 .arg(QString::number(a.id), esc(a.gate), esc(a.stageTitle), reportformat::minute(a.judged),
                      QString::number(a.record),
                      a.deviceTimed ? QStringLiteral("the device (profile)") : QStringLiteral("the host's timer"), cls,
                      a.passed ? QStringLiteral("passed") : QStringLiteral("not passed"), a.passed ? QString() : cls,
                      reasons.join(QStringLiteral("<br>")));
    }
    h << QStringLiteral("</table>");
    return h.join(QLatin1Char('\n'));
}

QString runsSection(const ProgressReport &r)
{
    QStringList h;
    h << QStringLiteral("<h2>Runs</h2>");
    if (r.runs.isEmpty()) {
        h << QStringLiteral("<p class=\"note\">No run records imported yet.</p>");
        return h.join(QLatin1Char('\n'));
    }
    h << QStringLiteral(
        "<p class=\"note\">Every imported run record, oldest first. Times are medians over the record's "
        "samples; the <span class=\"predicted\">predicted floor</span> is the simulator's roofline for the "
        "same shape on the same chip, shown for measured runs of your own only.</p>");
    h << QStringLiteral(
        "<table class=\"grid\" width=\"100%\" cellspacing=\"0\" cellpadding=\"3\"><thead><tr>"
        "<th>#</th><th>lab</th><th>provenance</th><th>chip</th><th>shape · dtype</th><th>median</th>"
        "<th>baseline</th><th>predicted floor</th><th>correct</th><th>date</th></tr></thead>");
    for (const auto &x : r.runs) {
        QStringList floors;
        for (const auto &p : x.predictions)
            floors << reportformat::duration(p.floorS);
        const QString chip =
            x.deviceCount > 1 ? QStringLiteral("%1 ×%2").arg(esc(x.chip)).arg(x.deviceCount) : esc(x.chip);
        h << QStringLiteral(
                 "<tr><td class=\"num\">%1</td><td class=\"mono\">%2</td><td>%3</td>"
                 "<td class=\"mono\">%4<br><span class=\"small\">%5</span></td>"
                 "<td class=\"mono\">%6 %7<br><span class=\"small\">%8</span></td>"
                 "<td class=\"num\">%9</td><td class=\"num\">%10</td><td class=\"num predicted\">%11</td>"
                 "<td>%12</td><td class=\"mono\">%13</td></tr>")
                 .arg(QString::number(x.id), esc(x.lab), provenanceCell(x), chip,
                      esc(x.deviceKind).replace(QLatin1Char(' '), QChar(0x00A0)), esc(x.shapeText), esc(x.dtype),
                      esc(x.shapeAxes), reportformat::duration(x.medianS), reportformat::duration(x.baselineMedianS),
                      floors.isEmpty() ? QStringLiteral("—") : floors.join(QStringLiteral("<br>")),
                      x.correct ? QStringLiteral("yes") : QStringLiteral("<span class=\"failed\">no</span>"),
                      reportformat::day(x.date));
    }
    h << QStringLiteral("</table>");
    return h.join(QLatin1Char('\n'));
}

QString profilesSection(const ProgressReport &r)
{
    QStringList h;
    h << QStringLiteral("<h2>Profiles</h2>");
    if (r.profiles.isEmpty()) {
        h << QStringLiteral("<p class=\"note\">No profiles imported yet.</p>");
        return h.join(QLatin1Char('\n'));
    }
    h << QStringLiteral(
        "<p class=\"note\">Every device of every imported jax.profiler profile: "
        "<span class=\"measured\">measured</span> device time, as the profiler recorded it on the chip, "
        "and for its longest ops the <span class=\"predicted\">predicted</span> time of one run on the "
        "same chip.</p>");
    for (const auto &p : r.profiles) {
        h << QStringLiteral(
                 "<p><b class=\"mono\">%1</b> · %2%3 · %4 op events, busy %5 of %6 · taken %7 · "
                 "<span class=\"small mono\">%8 (sha256 %9…)</span> · %10</p>")
                 .arg(esc(p.device), esc(p.deviceType),
                      p.chip.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(esc(p.chip)),
                      QString::number(p.opEvents), reportformat::duration(p.busyS), reportformat::duration(p.spanS),
                      p.captured.isValid() ? reportformat::day(p.captured)
                                           : QStringLiteral("on a date the profile does not give"),
                      esc(QFileInfo(p.sourceFile).fileName()), esc(p.sha256.left(12)), esc(pricedWhen(p)));
        h << QStringLiteral(
            "<table class=\"grid\" width=\"100%\" cellspacing=\"0\" cellpadding=\"3\"><thead><tr>"
            "<th>op</th><th>kind</th><th>program</th><th>runs</th><th>self, all runs</th>"
            "<th>one run</th><th>predicted</th></tr></thead>");
        for (const auto &o : p.top)
            h << QStringLiteral(
                     "<tr><td class=\"mono\">%1</td><td>%2</td><td class=\"mono\">%3</td><td class=\"num\">%4</td>"
                     "<td class=\"num measured\">%5</td><td class=\"num measured\">%6</td>"
                     "<td class=\"num predicted\">%7</td></tr>")
                     .arg(esc(o.op), esc(o.kind), esc(o.program), QString::number(o.occurrences),
                          reportformat::duration(o.selfS), reportformat::duration(o.perCallS),
                          o.predictedS >= 0 ? reportformat::duration(o.predictedS) : QStringLiteral("—"));
        h << QStringLiteral("</table>");
    }
    return h.join(QLatin1Char('\n'));
}

QString chaptersSection(const ProgressReport &r)
{
    QStringList h;
    h << QStringLiteral("<h2>Chapters and their mastery work</h2>");
    h << QStringLiteral(
        "<table class=\"grid\" width=\"100%\" cellspacing=\"0\" cellpadding=\"3\"><thead><tr>"
        "<th>ch</th><th width=\"74%\">chapter and mastery work</th><th>state</th><th>work done</th>"
        "</tr></thead>");
    for (const auto &c : r.chapters) {
        QStringList items;
        for (const auto &i : c.items)
            items << QStringLiteral("<span class=\"%1\">%2</span> %3")
                         .arg(i.done ? QStringLiteral("done") : QStringLiteral("todo"),
                              i.done ? QStringLiteral("✓") : QStringLiteral("○"), esc(i.text));
        const QString where = c.isStage ? QStringLiteral("stage %1, pinned at %2 · gate %3: %4")
                                              .arg(c.stageNumber)
                                              .arg(esc(c.layerName), esc(c.gate), gateStateWords(c.gateState))
                                        : QStringLiteral("layer · %1").arg(esc(c.layerName));
        const QString stateClass = c.state == ProgressReport::ChapterState::Done         ? QStringLiteral("done")
                                   : c.state == ProgressReport::ChapterState::InProgress ? QStringLiteral("predicted")
                                                                                         : QStringLiteral("todo");
        h << QStringLiteral(
                 "<tr><td class=\"mono\"><b>%1</b></td><td><b>%2</b><br><span class=\"small\">%3</span><br>%4</td>"
                 "<td class=\"%5\">%6</td><td class=\"num\">%7/%8</td></tr>")
                 .arg(QStringLiteral("%1").arg(c.number, 2, 10, QLatin1Char('0')), esc(c.title), where,
                      items.join(QStringLiteral("<br>")), stateClass, chapterStateName(c.state),
                      QString::number(c.itemsDone), QString::number(c.itemsTotal));
    }
    h << QStringLiteral("</table>");
    return h.join(QLatin1Char('\n'));
}

QString drillsSection(const ProgressReport &r)
{
    QStringList h;
    h << QStringLiteral("<h2>Drills</h2>");
    h << QStringLiteral(
        "<table class=\"grid\" width=\"100%\" cellspacing=\"0\" cellpadding=\"3\"><thead><tr>"
        "<th>drill</th><th>name</th><th>reviews</th><th>accuracy</th><th>retention</th>"
        "<th>level</th><th>due today</th><th>reviews a day, 14 days</th></tr></thead>");
    for (const auto &d : r.drills) {
        // A sparkline: one block a day, its height the day's reviews against the busiest day.
        static const QString bars = QStringLiteral("\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588");
        int most = 0, total = 0;
        for (int n : d.perDay) {
            most = std::max(most, n);
            total += n;
        }
        QString line;
        for (int n : d.perDay)
            line += n == 0 ? bars.at(0) : bars.at(1 + (n * 6 + most - 1) / most);
        const QStringList days{line, QStringLiteral("(%1)").arg(total)};
        h << QStringLiteral(
                 "<tr><td class=\"mono\"><b>%1</b> <span class=\"small\">ch&nbsp;%3</span></td><td nowrap>%2</td>"
                 "<td class=\"num\">%4</td><td class=\"num\">%5</td><td class=\"num\">%6</td>"
                 "<td class=\"num\">%7</td><td class=\"num\">%8</td><td class=\"mono small\">%9</td></tr>")
                 .arg(esc(d.id), esc(d.name), QStringLiteral("%1").arg(d.chapter, 2, 10, QLatin1Char('0')))
                 .arg(d.reviews)
                 .arg(d.reviews ? QStringLiteral("%1 %").arg(qRound(100 * d.accuracy)) : QStringLiteral("–"),
                      d.hasRetention ? QStringLiteral("%1 %").arg(qRound(100 * d.retention)) : QStringLiteral("–"))
                 .arg(d.level)
                 .arg(d.due)
                 .arg(days.join(QLatin1Char(' ')));
    }
    h << QStringLiteral("</table>");
    return h.join(QLatin1Char('\n'));
}

// What the learner did, in words; the store's own upkeep (its schema
// migrations) and earlier exports of this report are left out.
QString activityWords(const QString &kind, qint64 count)
{
    static const QHash<QString, QPair<QString, QString>> words{
        {QStringLiteral("drill.reviewed"), {QStringLiteral("drill answer"), QStringLiteral("drill answers")}},
        {QStringLiteral("gate.passed"), {QStringLiteral("gate passed"), QStringLiteral("gates passed")}},
        {QStringLiteral("gate.failed"),
         {QStringLiteral("gate attempt failed"), QStringLiteral("gate attempts failed")}},
        {QStringLiteral("prediction.entered"),
         {QStringLiteral("prediction entered"), QStringLiteral("predictions entered")}},
        {QStringLiteral("profile.imported"), {QStringLiteral("profile imported"), QStringLiteral("profiles imported")}},
        {QStringLiteral("profile.repriced"),
         {QStringLiteral("profile priced again"), QStringLiteral("profiles priced again")}},
        {QStringLiteral("run.imported"), {QStringLiteral("run imported"), QStringLiteral("runs imported")}},
    };
    const auto it = words.constFind(kind);
    const QString what = it == words.constEnd() ? kind : count == 1 ? it->first : it->second;
    return QStringLiteral("%1 %2").arg(count).arg(esc(what));
}

QString activitySection(const ProgressReport &r)
{
    QStringList kinds;
    qint64 total = 0;
    for (const auto &k : r.eventKinds) {
        if (k.kind == QLatin1String("schema.migrated") || k.kind == QLatin1String("report-exported"))
            continue;
        kinds << activityWords(k.kind, k.count);
        total += k.count;
    }
    return QStringLiteral(
               "<h2>Activity</h2><p class=\"note\">%1.<br>Progress file: "
               "<span class=\"mono\">%2</span></p>")
        .arg(total == 0 ? QStringLiteral("Nothing done yet") : kinds.join(QStringLiteral(" · ")), esc(r.database));
}

} // namespace

QString reporthtml::esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString progressReportHtml(const ProgressReport &r, const ReportHtmlTarget &target)
{
    QStringList h;
    h << QStringLiteral(
             "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             "<title>tpu-course progress report · %1</title><style>%2</style></head><body>")
             .arg(esc(r.learner), styleSheet(target.webPage));
    if (target.webPage)
        h << QStringLiteral("<div class=\"runninghead\">tpu-course · progress report · %1 · %2</div>")
                 .arg(esc(r.learner), reportformat::minute(r.generated));
    h << reporthtml::summaryPage(r, target) << attemptsSection(r) << runsSection(r) << profilesSection(r)
      << chaptersSection(r) << drillsSection(r) << activitySection(r);
    h << QStringLiteral("</body></html>");
    return h.join(QLatin1Char('\n'));
}
