#include "progressreport.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTemporaryFile>
#include <QTextDocument>

#include <filesystem>

namespace {

bool writePdf(const ProgressReport &report, const QString &path, QString *error)
{
    // Render into a temporary file beside the target, then move it into
    // place, so a failure never leaves a half-written PDF.
    const QFileInfo target(path);
    QTemporaryFile temp(target.absoluteDir().filePath(QStringLiteral(".tpu-course-report-XXXXXX.pdf")));
    if (!temp.open()) {
        *error = QStringLiteral("cannot write in %1 (%2).").arg(target.absolutePath(), temp.errorString());
        return false;
    }
    {
        QPdfWriter writer(&temp);
        writer.setTitle(QStringLiteral("tpu-course progress report"));
        writer.setCreator(QStringLiteral("tpu-course ") + report.appVersion);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(18, 16, 18, 16), QPageLayout::Millimeter);
        writer.setResolution(300);
        QTextDocument doc;
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("roofline.png")),
                        drawRooflineChart(report.chart, 1800, 1100));
        doc.setHtml(progressReportHtml(report, QStringLiteral("roofline.png")));
        // The document's page size is left unset: print() then scales points
        // to the writer's resolution and numbers the pages itself.
        doc.print(&writer);
    }
    temp.close();
    if (temp.size() == 0) {
        *error = QStringLiteral("the PDF could not be rendered.");
        return false;
    }
    // std::filesystem::rename replaces an existing report atomically.
    std::error_code ec;
    std::filesystem::rename(temp.fileName().toStdString(), target.absoluteFilePath().toStdString(), ec);
    if (ec) {
        *error = QStringLiteral("cannot move the PDF into place at %1 (%2).").arg(path, QString::fromStdString(ec.message()));
        return false;
    }
    temp.setAutoRemove(false);
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    return true;
}

bool writeText(const QByteArray &bytes, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1 (%2).").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

bool writeProgressReport(const ProgressReport &report, const QString &path, QString *error)
{
    QString ignored;
    QString &err = error ? *error : ignored;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("json"))
        return writeText(progressReportJson(report), path, &err);
    if (suffix == QLatin1String("html")) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        drawRooflineChart(report.chart, 1280, 780).save(&buffer, "PNG");
        const QString src = QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
        return writeText(progressReportHtml(report, src).toUtf8(), path, &err);
    }
    if (suffix == QLatin1String("pdf"))
        return writePdf(report, path, &err);
    err = QStringLiteral("%1 must end in .pdf, .html or .json.").arg(path);
    return false;
}
