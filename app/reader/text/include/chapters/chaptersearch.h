#pragma once

// Full-text search over the chapters: each chapter's text cut into its
// sections (a heading and what follows it, code included), as plain words,
// and a query's words looked up in them. What the command palette shows
// below its title matches, each hit a way to its section (chNN#anchor).

#include <chapters/chapterdocument.h>

#include <QList>
#include <QString>

namespace course {

struct TextSection
{
    int chapter = 0;
    QString anchor;  // the heading's id; empty for the text above the first heading
    QString heading; // its plain text; the chapter's title for the text above the first heading
    QString text;    // plain: tags gone, live numbers left out, code as written
};

// The sections of one chapter's parsed document.
QList<TextSection> sectionsOf(int chapter, const QString &chapterTitle, const ChapterDocument &doc);

struct TextHit
{
    int chapter = 0;
    QString anchor;
    QString heading;
    QString snippet; // the words around the first match, with "…" where cut
    int score = 0;   // higher is better: words in the heading, whole words, fewer sections first
};

// The sections holding every word of `query` (case-insensitive; words of
// fewer than two letters are ignored), best first, at most `limit`.
QList<TextHit> searchSections(const QList<TextSection> &sections, const QString &query, int limit = 12);

} // namespace course
