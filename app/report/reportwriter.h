#pragma once

#include "progressreport.h"

#include <QLocale>
#include <QPageSize>

#include <optional>

// Where and how a report is written.
struct ReportFile
{
    QString path;                                // its ending picks the format: .pdf, .html or .json
    QPageSize::PageSizeId paper = QPageSize::A4; // the PDF's paper
    bool createMissingFolder = false;            // false: a missing folder is refused
};

// Writes the report in the format its path names, through a temporary file
// in the same folder that is renamed into place, so a failure never leaves a
// half-written file. On failure *error holds one sentence.
bool writeProgressReport(const ProgressReport &report, const ReportFile &file, QString *error);

// The paper a locale prints on: Letter in the Americas that use it, A4 elsewhere.
QPageSize::PageSizeId paperForLocale(const QLocale &locale);
// "a4" or "letter" (any case); nothing for anything else.
std::optional<QPageSize::PageSizeId> paperNamed(const QString &name);
QString paperName(QPageSize::PageSizeId paper); // "A4", "Letter"

// Writes the PDF to an open device (reportpdf.cpp).
bool writeProgressReportPdf(const ProgressReport &report, QPageSize::PageSizeId paper, QIODevice &device,
                            QString *error);
