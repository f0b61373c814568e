#include "lastfolders.h"

#include <progress/store.h>
#include <storeguard.h>

#include <QDir>
#include <QFileInfo>

namespace {

progress::Store *g_store = nullptr;

std::string keyFor(const QString &kind)
{
    return "dialogs.folder." + kind.toStdString();
}

} // namespace

void LastFolders::provide(progress::Store *store)
{
    g_store = store;
}

QUrl LastFolders::folderFor(const QString &kind) const
{
    const QString kept = storeGuarded(
        [&]() -> QString { return g_store ? QString::fromStdString(g_store->setting(keyFor(kind))) : QString(); });
    if (!kept.isEmpty() && QFileInfo(kept).isDir())
        return QUrl::fromLocalFile(kept);
    return QUrl::fromLocalFile(QDir::homePath());
}

void LastFolders::remember(const QString &kind, const QUrl &chosen)
{
    if (!chosen.isLocalFile())
        return;
    const QFileInfo info(chosen.toLocalFile());
    const QString folder = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    storeGuarded([&]() -> void {
        if (g_store)
            g_store->setSetting(keyFor(kind), folder.toStdString());
    });
}
