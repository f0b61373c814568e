#pragma once

#include <QString>
#include <QUrl>
#include <QtPlugin>

namespace course {

// What the shell asks of a chapter once its library is loaded. Everything the
// stack needs before that (number, title, layer, stage, mastery work, pieces)
// is in the plugin's metadata, read without loading the library.
class ChapterInterface
{
public:
    virtual ~ChapterInterface() = default;

    // The slug from chapter.json; the shell checks the two agree.
    virtual QString slug() const = 0;

    // The chapter's introduction, Markdown.
    virtual QString introMarkdown() const = 0;

    // The chapter's full text after the introduction, Markdown with live
    // numbers (chapters/api/LIVE-NUMBERS.md); empty when it has none.
    virtual QString textMarkdown() const = 0;

    // The QML page of a workshop piece this chapter owns, or an empty URL
    // when the piece has no page in this build.
    virtual QUrl pieceUrl(const QString &pieceId) const = 0;
};

// The interface id carries its version: a plugin built against another
// version is told apart by the id alone, before anything is loaded.
inline constexpr char ChapterInterfaceId[] = "org.tpucourse.ChapterInterface/2";
inline constexpr int ChapterApiVersion = 2;

} // namespace course

Q_DECLARE_INTERFACE(course::ChapterInterface, "org.tpucourse.ChapterInterface/2")
