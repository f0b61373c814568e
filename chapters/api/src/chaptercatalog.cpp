#include <chapters/chaptercatalog.h>
#include <chapters/chapterinterface.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QLoggingCategory>
#include <QPluginLoader>
#include <QSet>

#include <algorithm>

Q_LOGGING_CATEGORY(lcChapters, "tpucourse.chapters")

namespace course {

ChapterCatalog::ChapterCatalog() = default;
ChapterCatalog::~ChapterCatalog() = default;

void ChapterCatalog::addProblem(const QString &file, const QString &message)
{
    qCWarning(lcChapters).noquote() << (file.isEmpty() ? message : file + QStringLiteral(": ") + message);
    m_problems.append({file, message});
}

void ChapterCatalog::scan(const QString &dir, int expectedChapters)
{
    m_chapters.clear();
    m_problems.clear();
    m_paths.clear();
    m_loaders.clear();

    const QDir folder(dir);
    if (!folder.exists())
        addProblem({}, QStringLiteral("the chapter folder %1 does not exist.").arg(QDir::toNativeSeparators(dir)));

    QSet<QString> itemIds;
    QSet<QString> pieceIds;
    const QFileInfoList files = folder.entryInfoList(QDir::Files, QDir::Name);
    for (const QFileInfo &file : files) {
        if (!QLibrary::isLibrary(file.fileName()))
            continue;
        const QString name = file.fileName();
        QPluginLoader probe(file.absoluteFilePath());
        const QJsonObject raw = probe.metaData();
        if (raw.isEmpty()) {
            addProblem(name, QStringLiteral("not a chapter plugin (it carries no plugin metadata)."));
            continue;
        }
        const QString iid = raw.value(QStringLiteral("IID")).toString();
        if (iid != QLatin1String(ChapterInterfaceId)) {
            addProblem(
                name,
                QStringLiteral("built for interface \"%1\", not \"%2\".").arg(iid, QLatin1String(ChapterInterfaceId)));
            continue;
        }
        QString error;
        auto info = parseChapterMetadata(raw.value(QStringLiteral("MetaData")).toObject(), &error);
        if (!info) {
            addProblem(name, error);
            continue;
        }
        if (m_paths.count(info->number)) {
            addProblem(name, QStringLiteral("chapter %1 is already provided by %2.")
                                 .arg(info->number)
                                 .arg(QFileInfo(m_paths[info->number]).fileName()));
            continue;
        }
        QString clash;
        for (const MasteryItem &item : info->mastery)
            if (itemIds.contains(item.id))
                clash = QStringLiteral("mastery item \"%1\"").arg(item.id);
        for (const WorkshopPiece &p : info->pieces)
            if (pieceIds.contains(p.id))
                clash = QStringLiteral("workshop piece %1").arg(p.id);
        if (!clash.isEmpty()) {
            addProblem(name, QStringLiteral("its %1 belongs to another chapter already.").arg(clash));
            continue;
        }
        for (const MasteryItem &item : info->mastery)
            itemIds.insert(item.id);
        for (const WorkshopPiece &p : info->pieces)
            pieceIds.insert(p.id);
        m_paths[info->number] = file.absoluteFilePath();
        m_chapters.append(*info);
    }
    std::sort(m_chapters.begin(), m_chapters.end(),
              [](const ChapterInfo &a, const ChapterInfo &b) { return a.number < b.number; });

    for (int n = 1; n <= expectedChapters; ++n)
        if (!m_paths.count(n))
            addProblem({}, QStringLiteral("chapter %1 is missing: no usable plugin provides it.").arg(n));
}

const ChapterInfo *ChapterCatalog::chapter(int number) const
{
    for (const ChapterInfo &c : m_chapters)
        if (c.number == number)
            return &c;
    return nullptr;
}

const WorkshopPiece *ChapterCatalog::piece(const QString &id) const
{
    for (const ChapterInfo &c : m_chapters)
        for (const WorkshopPiece &p : c.pieces)
            if (p.id == id)
                return &p;
    return nullptr;
}

const MasteryItem *ChapterCatalog::masteryItemOf(const QString &pieceId) const
{
    const WorkshopPiece *p = piece(pieceId);
    if (const ChapterInfo *c = p ? chapter(p->chapter) : nullptr)
        for (const MasteryItem &item : c->mastery)
            if (item.piece == pieceId)
                return &item;
    return nullptr;
}

bool ChapterCatalog::isLoaded(int number) const
{
    const auto it = m_loaders.find(number);
    return it != m_loaders.end() && it->second->isLoaded();
}

ChapterInterface *ChapterCatalog::load(int number)
{
    const auto path = m_paths.find(number);
    if (path == m_paths.end())
        return nullptr;
    auto &loader = m_loaders[number];
    if (!loader)
        loader = std::make_unique<QPluginLoader>(path->second);
    // instance() is the truth: errorString() says "Unknown error" even on success.
    QObject *object = loader->instance();
    const QString name = QFileInfo(path->second).fileName();
    if (!object) {
        addProblem(name, QStringLiteral("could not be loaded (%1).").arg(loader->errorString()));
        return nullptr;
    }
    auto *chapter = qobject_cast<ChapterInterface *>(object);
    if (!chapter) {
        addProblem(name, QStringLiteral("loaded, but does not implement the chapter interface."));
        return nullptr;
    }
    const ChapterInfo *info = this->chapter(number);
    if (info && chapter->slug() != info->slug) {
        addProblem(
            name,
            QStringLiteral("says its slug is \"%1\" but its metadata says \"%2\".").arg(chapter->slug(), info->slug));
        return nullptr;
    }
    return chapter;
}

} // namespace course
