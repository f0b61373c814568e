#include "reportwriter.h"
#include "reportfigures.h"
#include "reporthtml.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace {

// A4's body column, in points: the HTML's figures are drawn for it, so a
// web page keeps the printed report's proportions.
constexpr double kWebBodyWidthPt = 504;

QByteArray webPage(const ProgressReport &report)
{
    ReportHtmlTarget target;
    target.bodyWidthPt = kWebBodyWidthPt;
    target.webPage = true;
    target.figure = [&report](const ReportFigure &f) { return figureSvg(report, f, kWebBodyWidthPt); };
    return progressReportHtml(report, target).toUtf8();
}

bool prepareFolder(const QFileInfo &target, bool create, QString *error)
{
    const QDir folder = target.absoluteDir();
    if (folder.exists())
        return true;
    if (!create) {
        *error = QStringLiteral("the folder %1 does not exist.").arg(QDir::toNativeSeparators(folder.absolutePath()));
        return false;
    }
    if (!QDir().mkpath(folder.absolutePath())) {
        *error =
            QStringLiteral("the folder %1 could not be created.").arg(QDir::toNativeSeparators(folder.absolutePath()));
        return false;
    }
    return true;
}

} // namespace

bool writeProgressReport(const ProgressReport &report, const ReportFile &file, QString *error)
{
    QString ignored;
    QString &err = error ? *error : ignored;
    const QFileInfo target(file.path);
    const QString suffix = target.suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("html") && suffix != QLatin1String("json")) {
        err = QStringLiteral("%1 must end in .pdf, .html or .json.").arg(file.path);
        return false;
    }
    if (target.isDir()) {
        err = QStringLiteral("%1 is a folder; name a file in it.")
                  .arg(QDir::toNativeSeparators(target.absoluteFilePath()));
        return false;
    }
    if (!prepareFolder(target, file.createMissingFolder, &err))
        return false;

    // QSaveFile writes beside the target and renames on commit; a failure
    // part-way leaves any earlier report untouched and no fragment behind.
    QSaveFile out(target.absoluteFilePath());
    if (!out.open(QIODevice::WriteOnly)) {
        err = QStringLiteral("cannot write in %1 (%2).")
                  .arg(QDir::toNativeSeparators(target.absolutePath()), out.errorString());
        return false;
    }
    bool written = false;
    if (suffix == QLatin1String("json")) {
        const QByteArray bytes = progressReportJson(report);
        written = out.write(bytes) == bytes.size();
    } else if (suffix == QLatin1String("html")) {
        const QByteArray bytes = webPage(report);
        written = out.write(bytes) == bytes.size();
    } else {
        written = writeProgressReportPdf(report, file.paper, out, &err);
    }
    if (!written || !out.commit()) {
        if (err.isEmpty())
            err = QStringLiteral("cannot write %1 (%2).")
                      .arg(QDir::toNativeSeparators(target.absoluteFilePath()), out.errorString());
        out.cancelWriting();
        return false;
    }
    return true;
}

QPageSize::PageSizeId paperForLocale(const QLocale &locale)
{
    // Letter is the office paper of North America and a few neighbours.
    static const QList<QLocale::Territory> letter{QLocale::UnitedStates, QLocale::Canada,    QLocale::Mexico,
                                                  QLocale::Chile,        QLocale::Colombia,  QLocale::CostaRica,
                                                  QLocale::Guatemala,    QLocale::Panama,    QLocale::Philippines,
                                                  QLocale::PuertoRico,   QLocale::Venezuela, QLocale::DominicanRepublic,
                                                  QLocale::ElSalvador};
    return letter.contains(locale.territory()) ? QPageSize::Letter : QPageSize::A4;
}

std::optional<QPageSize::PageSizeId> paperNamed(const QString &name)
{
    if (name.compare(QLatin1String("a4"), Qt::CaseInsensitive) == 0)
        return QPageSize::A4;
    if (name.compare(QLatin1String("letter"), Qt::CaseInsensitive) == 0)
        return QPageSize::Letter;
    return std::nullopt;
}

QString paperName(QPageSize::PageSizeId paper)
{
    return paper == QPageSize::Letter ? QStringLiteral("Letter") : QStringLiteral("A4");
}
