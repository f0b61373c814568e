#include "readingmarks.h"

#include <progress/store.h>
#include <storeguard.h>

namespace {

progress::Store *g_store = nullptr;

} // namespace

void ReadingMarks::provide(progress::Store *store)
{
    g_store = store;
    instance()->forget();
}

void ReadingMarks::forget()
{
    m_cache.clear();
    ++m_revision;
    emit changed();
}

const QVariantList &ReadingMarks::cached(int chapter) const
{
    auto it = m_cache.find(chapter);
    if (it != m_cache.end())
        return *it;
    QVariantList list = storeGuarded([&]() -> QVariantList {
        QVariantList out;
        if (!g_store || chapter <= 0)
            return out;
        for (const auto &m : g_store->readingMarks(chapter))
            out.append(QVariantMap{{"block", QString::fromStdString(m.block)},
                                   {"bookmarked", m.bookmarked},
                                   {"note", QString::fromStdString(m.note)},
                                   {"excerpt", QString::fromStdString(m.excerpt)}});
        return out;
    });
    return *m_cache.insert(chapter, list);
}

QVariantMap ReadingMarks::markOf(int chapter, const QString &block) const
{
    for (const QVariant &v : cached(chapter)) {
        const QVariantMap m = v.toMap();
        if (m.value(QStringLiteral("block")).toString() == block)
            return m;
    }
    return {{"bookmarked", false}, {"note", QString()}};
}

QVariantList ReadingMarks::marksOf(int chapter) const
{
    return cached(chapter);
}

void ReadingMarks::setBookmark(int chapter, const QString &block, bool bookmarked, const QString &excerpt)
{
    storeGuarded([&]() -> void {
        if (!g_store)
            return;
        g_store->setBookmark(chapter, block.toStdString(), bookmarked, excerpt.toStdString());
    });
    forget();
}

void ReadingMarks::setNote(int chapter, const QString &block, const QString &note, const QString &excerpt)
{
    storeGuarded([&]() -> void {
        if (!g_store)
            return;
        g_store->setNote(chapter, block.toStdString(), note.trimmed().toStdString(), excerpt.toStdString());
    });
    forget();
}
