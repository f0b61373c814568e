#pragma once

// A mistyped word in a search of the chapters' text ("atention") finds
// nothing: every word must stand in a section. The words the text does
// hold, counted, are what such a word is put right to.

#include <chapters/chaptersearch.h>

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace course {

// The edits (a letter put in, taken out, changed, or two neighbours
// swapped) between a and b, case and all; once over `limit`, limit + 1.
int editDistance(QStringView a, QStringView b, int limit);

class Vocabulary
{
public:
    Vocabulary() = default;
    // Every word of three letters or more in the sections' text and
    // headings, in lower case, with how often it stands there.
    explicit Vocabulary(const QList<TextSection> &sections);

    bool isEmpty() const { return m_count.isEmpty(); }
    int count(const QString &word) const { return m_count.value(word.toLower()); }

    // The query with each word of four letters or more that the text does
    // not hold (neither as a word nor as the start of one) put right to
    // the nearest word it does: one edit away, two for a word of eight
    // letters or more, the commoner where two are as near. Empty when no
    // word needed it, or one that did has nothing near.
    QString corrected(const QString &query) const;

private:
    QHash<QString, int> m_count;
    QStringList m_sorted;               // the words in order, for the starts of words
    QHash<int, QStringList> m_byLength; // the words by their length
};

} // namespace course
