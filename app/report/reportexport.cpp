#include "reportexport.h"
#include "course.h"
#include "progressreport.h"
#include "reportsettings.h"
#include "reportwriter.h"

#include <chapters/chaptercatalog.h>
#include <progress/store.h>
#include <progress/store_error.h>
#include <storehealth.h>

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QStandardPaths>

#include <optional>

ReportExport::ReportExport(const course::ChapterCatalog &catalog, progress::Store &store, QObject *parent)
    : QObject(parent), m_catalog(catalog), m_store(store)
{
}

ReportExport *ReportExport::create(QQmlEngine *, QJSEngine *)
{
    return Course::madeByCourse<&Course::reportExport>();
}

QString ReportExport::defaultPath() const
{
    QString folder = reportsettings::lastFolder();
    if (folder.isEmpty() || !QDir(folder).exists()) {
        const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        folder = docs.isEmpty() ? QDir::homePath() : docs;
    }
    return QDir::toNativeSeparators(QDir(folder).filePath(QStringLiteral("tpu-course-progress.pdf")));
}

QUrl ReportExport::folderUrl() const
{
    return QUrl::fromLocalFile(QFileInfo(defaultPath()).absolutePath());
}

QString ReportExport::learner() const
{
    return reportsettings::learnerName();
}

QString ReportExport::paper() const
{
    return paperName(paperForLocale(QLocale::system()));
}

QString ReportExport::localPath(const QUrl &url) const
{
    return QDir::toNativeSeparators(url.isLocalFile() ? url.toLocalFile() : url.toString());
}

QUrl ReportExport::fileUrl(const QString &path) const
{
    return QUrl::fromLocalFile(QDir::fromNativeSeparators(path.trimmed()));
}

QString ReportExport::write(const QString &pathOrUrl, const QString &learner, const QString &paper)
{
    const QUrl url(pathOrUrl);
    const QString path = url.isLocalFile() ? url.toLocalFile() : pathOrUrl.trimmed();
    if (path.isEmpty())
        return QStringLiteral("Name a file to write, ending in .pdf, .html, .json or .sqlite.");
    // .sqlite: the progress file itself, copied whole (Store::copyTo).
    if (path.endsWith(QLatin1String(".sqlite"), Qt::CaseInsensitive)) {
        try {
            m_store.copyTo(path.toStdString());
        } catch (const progress::StoreError &e) {
            return QString::fromUtf8(e.what());
        }
        reportsettings::rememberFolder(QFileInfo(path).absolutePath());
        return {};
    }
    const QString name = learner.trimmed().isEmpty() ? reportsettings::learnerName() : learner.trimmed();
    const ReportFile file{path, paperNamed(paper).value_or(paperForLocale(QLocale::system())), true};
    QString error;
    std::optional<ProgressReport> report;
    try {
        report = buildProgressReport(m_catalog, m_store, name);
    } catch (const progress::StoreError &e) {
        StoreHealth::instance()->report(e);
        return QStringLiteral("The report was not written: %1").arg(QString::fromUtf8(e.what()));
    }
    if (!writeProgressReport(*report, file, &error))
        return error.left(1).toUpper() + error.mid(1);
    reportsettings::rememberFolder(QFileInfo(path).absolutePath());
    reportsettings::rememberLearnerName(name);
    try {
        m_store.logEvent("report-exported", path.toStdString(), "");
    } catch (const std::exception &e) {
        emit problem(QString::fromUtf8(e.what()));
    }
    return {};
}
