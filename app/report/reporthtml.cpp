#include "progressreport.h"

#include <QStringList>

// One HTML text serves the .html file and the PDF (QTextDocument renders it),
// so it keeps to what both understand: tables, inline colours, no scripts.
namespace {

QString esc(const QString &s) { return s.toHtmlEscaped(); }
QString two(int n) { return QStringLiteral("%1").arg(n, 2, 10, QLatin1Char('0')); }
QString stamp(const QDateTime &t) { return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) : QStringLiteral("—"); }

const char *const kStyle = R"(
body { font-family: 'Inter', 'DejaVu Sans', sans-serif; color: #11151d; font-size: 10pt; }
h1 { font-size: 20pt; font-weight: 600; margin-bottom: 2pt; }
h2 { font-size: 13pt; font-weight: 600; margin-top: 16pt; margin-bottom: 4pt; }
p.lede { color: #4f4a43; margin-top: 0; }
.mono { font-family: 'JetBrains Mono', 'DejaVu Sans Mono', monospace; }
table { border-collapse: collapse; }
th { text-align: left; color: #4f4a43; font-weight: 600; border-bottom: 1px solid #bab4aa; }
td { border-bottom: 1px solid #e6e1d7; vertical-align: top; }
.done { color: #2f7d3e; }
.todo { color: #8f8b85; }
.locked { color: #8a5b00; }
.passed { color: #2f7d3e; }
.failed { color: #c62828; }
.small { font-size: 8.5pt; color: #4f4a43; }
)";

QString gateCell(const ProgressReport::Chapter &c)
{
    if (!c.isStage)
        return QStringLiteral("—");
    const QString cls = c.gateState == QLatin1String("passed") ? QStringLiteral("passed")
                        : c.gateState == QLatin1String("attempted") ? QStringLiteral("failed")
                                                                   : QStringLiteral("locked");
    return QStringLiteral("<span class=\"mono %1\">%2 · %3</span>").arg(cls, esc(c.gate), esc(c.gateState));
}

} // namespace

QString progressReportHtml(const ProgressReport &r, const QString &imageSource)
{
    QStringList h;
    h << QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>tpu-course progress report</title><style>")
      << QString::fromUtf8(kStyle) << QStringLiteral("</style></head><body>");
    h << QStringLiteral("<h1>Learn to make TPUs fast: progress report</h1>");
    h << QStringLiteral("<p class=\"lede\">Generated %1 by tpu-course %2. Gates pass only on measured runs on a real TPU; "
                        "every attempt, pass or fail, is listed.</p>")
             .arg(stamp(r.generated), esc(r.appVersion));
    h << QStringLiteral("<table cellpadding=\"6\"><tr><td><b class=\"mono\">%1/%2</b> gates passed</td>"
                        "<td><b class=\"mono\">%3/%4</b> chapters done</td><td><b class=\"mono\">%5</b> events logged</td></tr></table>")
             .arg(r.gatesPassed).arg(r.gateCount).arg(r.chaptersDone).arg(r.chapters.size()).arg(r.eventCount);

    h << QStringLiteral("<h2>Chapters and stages</h2>");
    h << QStringLiteral("<table width=\"100%\" cellpadding=\"5\"><tr><th width=\"6%\">ch</th><th width=\"34%\">title</th>"
                        "<th width=\"26%\">where</th><th width=\"12%\">mastery work</th><th width=\"22%\">state</th></tr>");
    for (const auto &c : r.chapters) {
        const QString where = c.isStage ? QStringLiteral("stage %1 · at %2").arg(c.stageNumber).arg(esc(c.layerName))
                                         : QStringLiteral("layer · %1").arg(esc(c.layerName));
        const QString state = c.isStage ? gateCell(c)
                                        : QStringLiteral("<span class=\"%1\">%2</span>")
                                              .arg(c.done ? QStringLiteral("done") : QStringLiteral("todo"),
                                                   c.done ? QStringLiteral("done") : QStringLiteral("in progress"));
        h << QStringLiteral("<tr><td class=\"mono\">%1</td><td>%2</td><td>%3</td><td class=\"mono\">%4/%5</td><td>%6</td></tr>")
                 .arg(two(c.number), esc(c.title), where)
                 .arg(c.itemsDone).arg(c.itemsTotal)
                 .arg(state);
    }
    h << QStringLiteral("</table>");

    h << QStringLiteral("<h2>Gates</h2><table width=\"100%\" cellpadding=\"5\"><tr><th width=\"7%\">gate</th>"
                        "<th width=\"25%\">stage</th><th width=\"50%\">passes when</th><th width=\"18%\">state</th></tr>");
    for (const auto &c : r.chapters) {
        if (!c.isStage)
            continue;
        h << QStringLiteral("<tr><td class=\"mono\">%1</td><td>%2 · ch %3</td><td>%4</td><td>%5</td></tr>")
                 .arg(esc(c.gate), esc(c.title), two(c.number), esc(c.gateRule), gateCell(c));
    }
    h << QStringLiteral("</table>");

    h << QStringLiteral("<h2>Every gate attempt</h2>");
    if (r.attempts.isEmpty())
        h << QStringLiteral("<p class=\"todo\">No gate has been attempted yet: gates are judged only on measured runs from a real TPU.</p>");
    for (const auto &a : r.attempts) {
        h << QStringLiteral("<p><b class=\"mono %1\">%2 · %3</b> <span class=\"small\">attempt %4 · judged %5 · run record #%6</span></p><ul>")
                 .arg(a.passed ? QStringLiteral("passed") : QStringLiteral("failed"), esc(a.gate),
                      a.passed ? QStringLiteral("passed") : QStringLiteral("not passed"))
                 .arg(a.id).arg(stamp(a.judged)).arg(a.record);
        for (const QString &reason : a.reasons)
            h << QStringLiteral("<li class=\"small\">%1</li>").arg(esc(reason));
        h << QStringLiteral("</ul>");
    }

    h << QStringLiteral("<h2>Runs</h2>");
    if (r.runs.isEmpty()) {
        h << QStringLiteral("<p class=\"todo\">No run records imported yet.</p>");
    } else {
        h << QStringLiteral("<table width=\"100%\" cellpadding=\"4\"><tr><th>#</th><th>lab</th><th>what it is</th><th>chip</th>"
                            "<th>dtype · shapes</th><th>median</th><th>XLA</th><th>correct</th><th>date</th></tr>");
        for (const auto &x : r.runs) {
            const QString what = x.example ? QStringLiteral("example (never counts)")
                                 : x.kind == QLatin1String("measured") ? QStringLiteral("<span class=\"passed\">measured</span>")
                                                                       : QStringLiteral("verified off-chip");
            h << QStringLiteral("<tr><td class=\"mono\">%1</td><td class=\"mono\">%2</td><td>%3</td><td>%4 %5</td><td class=\"mono\">%6 · %7</td>"
                                "<td class=\"mono\">%8</td><td class=\"mono\">%9</td><td>%10</td><td class=\"small\">%11</td></tr>")
                     .arg(x.id).arg(esc(x.lab), what, esc(x.chip), esc(x.deviceKind), esc(x.dtype), esc(x.shapes),
                          x.medianS > 0 ? QString::number(x.medianS * 1e6, 'f', 1) + QStringLiteral(" µs") : QStringLiteral("—"),
                          x.baselineMedianS > 0 ? QString::number(x.baselineMedianS * 1e6, 'f', 1) + QStringLiteral(" µs") : QStringLiteral("—"))
                     .arg(x.correct ? QStringLiteral("yes") : QStringLiteral("<span class=\"failed\">no</span>"), esc(x.date));
        }
        h << QStringLiteral("</table>");
    }

    h << QStringLiteral("<h2>Your runs on the roofline · %1</h2>").arg(esc(r.chart.chip));
    h << QStringLiteral("<p class=\"small\">The line is the simulator's predicted roof for the chip (bf16 MXU peak and HBM bandwidth); "
                        "the points are your measured runs whose shapes the cost model knows, placed by the FLOP/s their median achieved.</p>");
    h << QStringLiteral("<p><img src=\"%1\" width=\"540\"></p>").arg(imageSource);

    h << QStringLiteral("<h2>Mastery work done</h2>");
    int doneCount = 0;
    for (const auto &c : r.chapters) {
        QStringList done;
        for (const auto &i : c.items)
            if (i.done)
                done << QStringLiteral("<li>%1</li>").arg(esc(i.text));
        if (done.isEmpty())
            continue;
        doneCount += static_cast<int>(done.size());
        h << QStringLiteral("<p><b>ch %1 · %2</b></p><ul>%3</ul>").arg(two(c.number), esc(c.title), done.join(QString()));
    }
    if (doneCount == 0)
        h << QStringLiteral("<p class=\"todo\">No mastery work checked off yet.</p>");

    h << QStringLiteral("<h2>Activity</h2>");
    if (r.eventCount == 0) {
        h << QStringLiteral("<p class=\"todo\">No activity logged yet.</p>");
    } else {
        h << QStringLiteral("<p>%1 events from %2 to %3.</p>").arg(r.eventCount).arg(stamp(r.firstEvent), stamp(r.lastEvent));
        h << QStringLiteral("<table cellpadding=\"4\"><tr><th>kind</th><th>count</th></tr>");
        for (const auto &k : r.eventKinds)
            h << QStringLiteral("<tr><td class=\"mono\">%1</td><td class=\"mono\">%2</td></tr>").arg(esc(k.kind)).arg(k.count);
        h << QStringLiteral("</table><p class=\"small\">Most recent:</p><table cellpadding=\"3\" class=\"small\">");
        for (const auto &e : r.recentEvents)
            h << QStringLiteral("<tr><td class=\"mono\">%1</td><td class=\"mono\">%2</td><td>%3</td></tr>")
                     .arg(stamp(e.when), esc(e.kind), esc(e.subject));
        h << QStringLiteral("</table>");
    }
    h << QStringLiteral("<p class=\"small\">Progress file: <span class=\"mono\">%1</span></p>").arg(esc(r.database));
    h << QStringLiteral("</body></html>");
    return h.join(QLatin1Char('\n'));
}
