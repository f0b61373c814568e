#include "palettemodel.h"
#include "fuzzymatch.h"

#include <algorithm>

PaletteModel::PaletteModel(QObject *parent) : QAbstractListModel(parent) {}

void PaletteModel::setEntries(QList<Entry> entries)
{
    m_entries = std::move(entries);
    refilter();
}

void PaletteModel::setQuery(const QString &query)
{
    if (query == m_query)
        return;
    m_query = query;
    emit queryChanged();
    refilter();
}

namespace {

// Whether every word typed appears whole in the text, as against letters
// strewn through it ("psum" in "Pallas fundamentals").
bool holdsEveryWord(const QString &query, const QString &text)
{
    const QStringList words = query.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return !words.isEmpty() && std::all_of(words.begin(), words.end(),
                                           [&text](const QString &w) { return text.contains(w, Qt::CaseInsensitive); });
}

} // namespace

void PaletteModel::refilter()
{
    struct Scored
    {
        int score;
        qsizetype order;
        const Entry *entry;
        bool whole; // every word typed is in it, not only its letters
    };
    // The text first: where its search put a mistyped word right, a place
    // whose title holds the words put right counts as holding them.
    const QList<Entry> inText =
        m_textSearch && m_query.trimmed().size() >= kTextQueryLength ? m_textSearch(m_query) : QList<Entry>();
    const QString putRight = inText.isEmpty() ? QString() : inText.first().marks;
    QList<Scored> scored;
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        const Entry &e = m_entries.at(i);
        // The title counts most; the id, kind and keywords help find it.
        const QString rest = e.place + QLatin1Char(' ') + e.keywords + QLatin1Char(' ') + e.subtitle;
        const int onTitle = fuzzyScore(m_query, e.title);
        const int onAll = fuzzyScore(m_query, rest);
        const int score = std::max(onTitle >= 0 ? onTitle + 8 : -1, onAll);
        if (score >= 0)
            scored.append({score, i, &e,
                           holdsEveryWord(m_query, e.title + QLatin1Char(' ') + rest) ||
                               (!putRight.isEmpty() && holdsEveryWord(putRight, e.title + QLatin1Char(' ') + rest))});
    }
    // A weak match is one scoring under 70% of the best: letters strewn
    // across a title ("mesh" in "megablocks-style matmul") next to a clean
    // hit ("the mesh, hop by hop" scores 160, the strewn ones 100 or less).
    int best = 0;
    for (const Scored &s : scored)
        best = std::max(best, s.score);
    const int floor = best * 7 / 10;
    std::stable_sort(scored.begin(), scored.end(), [](const Scored &a, const Scored &b) {
        if (a.entry->built != b.entry->built)
            return a.entry->built;
        return a.score != b.score ? a.score > b.score : a.order < b.order;
    });
    // Places holding the words come first, then the paragraphs that hold
    // them, and only then places whose titles merely hold their letters in
    // order ("bnch" for the bench), which is all an abbreviation finds.
    QList<Entry> matches;
    for (const Scored &s : scored)
        if (s.score >= floor && s.whole)
            matches.append(*s.entry);
    matches.append(inText);
    for (const Scored &s : scored)
        if (s.score >= floor && !s.whole)
            matches.append(*s.entry);
    // The same list again (the text searched anew) leaves the rows, and
    // the one picked, as they were.
    const auto same = [](const Entry &a, const Entry &b) {
        return a.place == b.place && a.title == b.title && a.subtitle == b.subtitle;
    };
    if (std::equal(matches.cbegin(), matches.cend(), m_matches.cbegin(), m_matches.cend(), same))
        return;
    beginResetModel();
    m_matches = std::move(matches);
    endResetModel();
    emit countChanged();
}

void PaletteModel::searchTextAgain()
{
    if (m_textSearch && m_query.trimmed().size() >= kTextQueryLength)
        refilter();
}

QString PaletteModel::placeAt(int row) const
{
    return row >= 0 && row < m_matches.size() ? m_matches.at(row).place : QString();
}

QString PaletteModel::kindAt(int row) const
{
    return row >= 0 && row < m_matches.size() ? m_matches.at(row).kind : QString();
}

QString PaletteModel::marksAt(int row) const
{
    if (row < 0 || row >= m_matches.size())
        return {};
    return m_matches.at(row).marks.isEmpty() ? m_query : m_matches.at(row).marks;
}

int PaletteModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_matches.size());
}

QVariant PaletteModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_matches.size())
        return {};
    const Entry &e = m_matches.at(index.row());
    switch (role) {
        case PlaceRole:
            return e.place;
        case KindRole:
            return e.kind;
        case TitleRole:
            return e.title;
        case SubtitleRole:
            return e.subtitle;
        case MarksRole:
            return e.marks;
        default:
            return {};
    }
}

QHash<int, QByteArray> PaletteModel::roleNames() const
{
    return {{PlaceRole, "place"},
            {KindRole, "kind"},
            {TitleRole, "title"},
            {SubtitleRole, "subtitle"},
            {MarksRole, "marks"}};
}
