#pragma once

#include <chapters/chapterinterface.h>

#include <QFile>

namespace course {

// The part of every chapter plugin that is the same: its text and pieces live
// in its own resources under :/chapters/<slug>/.
class ChapterResources : public ChapterInterface
{
public:
    explicit ChapterResources(QString slug) : m_slug(std::move(slug)) {}

    QString slug() const override { return m_slug; }

    QString introMarkdown() const override { return text(QStringLiteral("intro.md")); }
    QString textMarkdown() const override { return text(QStringLiteral("text.md")); }

    QUrl pieceUrl(const QString &pieceId) const override
    {
        const QString path = QStringLiteral(":/chapters/%1/pieces/%2.qml").arg(m_slug, pieceId);
        if (!QFile::exists(path))
            return {};
        return QUrl(QStringLiteral("qrc") + path);
    }

private:
    QString text(const QString &name) const
    {
        QFile file(QStringLiteral(":/chapters/%1/%2").arg(m_slug, name));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(file.readAll());
    }

    QString m_slug;
};

} // namespace course
