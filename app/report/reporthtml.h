#pragma once

#include "progressreport.h"
#include "reportfigures.h"

#include <functional>

// The report as HTML. One text serves the .html file and the PDF (which
// QTextDocument lays out), so it keeps to what both understand: tables,
// classes with colours and sizes, no scripts.
struct ReportHtmlTarget
{
    double bodyWidthPt = 0; // the text column the figures are sized for
    // How a figure enters the page: inline SVG for a web page, a marker the
    // PDF replaces with the figure drawn as vectors.
    std::function<QString(const ReportFigure &)> figure;
    bool webPage = false; // a page of its own for a browser (adds page styling)
};

QString progressReportHtml(const ProgressReport &report, const ReportHtmlTarget &target);

// Parts of the page, shared by the summary and the detail sections.
namespace reporthtml {
QString esc(const QString &s);
QString summaryPage(const ProgressReport &report, const ReportHtmlTarget &target);
} // namespace reporthtml
