#pragma once
// The folder each kind of file dialog last opened a file from (dumps,
// records, profiles, exports), kept in the progress store's settings, so a
// dialog opens where the learner was rather than in the working directory.
// A kept folder that no longer exists falls back to the home folder.
#include <QtQml/qqmlregistration.h>
#include <processsingleton.h>
#include <QObject>
#include <QString>
#include <QUrl>

namespace progress {
class Store;
}

class LastFolders : public QObject, public ProcessSingleton<LastFolders>
{
    Q_OBJECT
    QML_NAMED_ELEMENT(LastFolders)
    QML_SINGLETON

public:
    static void provide(progress::Store *store);

    // The folder to open a dialog of this kind in: the one kept, or home.
    Q_INVOKABLE QUrl folderFor(const QString &kind) const;
    // Keeps the folder of a file (or a folder) chosen in a dialog of this kind.
    Q_INVOKABLE void remember(const QString &kind, const QUrl &chosen);
    // The same for a file's path opened some other way (dropped, opened again).
    Q_INVOKABLE void rememberPath(const QString &kind, const QString &path)
    {
        remember(kind, QUrl::fromLocalFile(path));
    }

private:
    friend class ProcessSingleton<LastFolders>;
    LastFolders() = default;
};
