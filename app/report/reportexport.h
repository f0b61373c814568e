#pragma once
// The export dialog's side of the report (TpuCourse.Backend's
// ReportExport): where it starts, the name and paper it offers, and the
// export itself (PDF, HTML, JSON, or the progress file whole as .sqlite).
// Course makes it and hands it to QML.
#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QUrl>

class QJSEngine;
class QQmlEngine;
namespace course {
class ChapterCatalog;
}
namespace progress {
class Store;
}

class ReportExport : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

public:
    ReportExport(const course::ChapterCatalog &catalog, progress::Store &store, QObject *parent = nullptr);
    // The app's ReportExport, which Course made: what QML's stands for.
    static ReportExport *create(QQmlEngine *, QJSEngine *);

    // Writes the progress report to a path or file: URL, creating a missing
    // folder, on `paper` ("A4" or "Letter") with `learner` as the name on it;
    // remembers the folder and the name. Returns an empty string or the
    // reason it failed, in one sentence.
    Q_INVOKABLE QString write(const QString &pathOrUrl, const QString &learner, const QString &paper);
    // Where the export dialog starts: the last folder written to, else Documents.
    Q_INVOKABLE QString defaultPath() const;
    Q_INVOKABLE QUrl folderUrl() const;
    Q_INVOKABLE QString learner() const;
    Q_INVOKABLE QString paper() const; // the locale's: "A4" or "Letter"
    // A file: URL from the file dialog as a path to show, and back.
    Q_INVOKABLE QString localPath(const QUrl &url) const;
    Q_INVOKABLE QUrl fileUrl(const QString &path) const;

signals:
    // One sentence for the problem banner.
    void problem(const QString &message);

private:
    const course::ChapterCatalog &m_catalog;
    progress::Store &m_store;
};
