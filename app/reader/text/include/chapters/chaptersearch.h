#pragma once

// Full-text search over the chapters: each chapter's text cut into its
// sections (a heading and what follows it, code included), as plain words,
// and a query's words looked up in them. What the command palette shows
// below its title matches, each hit a way to its section (chNN#anchor).

#include <chapters/chapterdocument.h>

#include <QList>
#include <QString>

#include <functional>

namespace course {

struct TextSection
{
    int chapter = 0;
    QString anchor;  // the heading's id; empty for the text above the first heading
    QString heading; // its plain text; the chapter's title for the text above the first heading
    QString text;    // plain: tags gone, each live number a "…", code as written
    // Its blocks in the document, [firstBlock, endBlock): what filledTextOf fills.
    int firstBlock = 0;
    int endBlock = 0;
    // A chapter's list of sources (its "Sources" heading): searched, but a
    // title found there weighs less than the same words in the prose.
    bool sources = false;
};

// The sections of one chapter's parsed document.
QList<TextSection> sectionsOf(int chapter, const QString &chapterTitle, const ChapterDocument &doc);

// A section's text with its live numbers as they read on `chip` (inputs at
// their written values), figures kept whole by no-break spaces: what a
// snippet is cut from. Filling runs the simulator, so it is done for the
// hits shown, not for every section searched.
QString filledTextOf(const TextSection &section, const ChapterDocument &doc, const QString &chip);

struct TextHit
{
    int section = -1; // its index in the sections searched
    int chapter = 0;
    QString anchor;
    QString heading;
    QString snippet;  // the words around the first match, with "…" where cut
    double score = 0; // higher is better: BM25 over the body, with the heading weighted above it
};

// The sections holding every word of `query` (case-insensitive; words of
// fewer than two letters are ignored), best first, at most `limit`. With
// `filled` (the text of the section at an index, as filledTextOf gives
// it), each hit's snippet is cut from that text, its numbers in place of
// the "…". With `filledIfKnown` (that text where it is at hand, else
// null), a section is searched in it, so its figures are found too.
QList<TextHit> searchSections(const QList<TextSection> &sections, const QString &query, int limit = 12,
                              const std::function<QString(int section)> &filled = {},
                              const std::function<const QString *(int section)> &filledIfKnown = {});

} // namespace course
