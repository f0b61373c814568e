#include <chapters/searchspelling.h>

#include <algorithm>
#include <vector>

namespace course {

int editDistance(QStringView a, QStringView b, int limit)
{
    const qsizetype n = a.size(), m = b.size();
    if (std::abs(n - m) > limit)
        return limit + 1;
    // Three rows of the optimal-string-alignment table: two back for a swap.
    std::vector<int> before(static_cast<std::size_t>(m + 1)), previous(before.size()), row(before.size());
    for (qsizetype j = 0; j <= m; ++j)
        previous[static_cast<std::size_t>(j)] = static_cast<int>(j);
    for (qsizetype i = 1; i <= n; ++i) {
        row[0] = static_cast<int>(i);
        int best = row[0];
        for (qsizetype j = 1; j <= m; ++j) {
            const auto at = static_cast<std::size_t>(j);
            const int change = a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1;
            int d = std::min({previous[at] + 1, row[at - 1] + 1, previous[at - 1] + change});
            if (i > 1 && j > 1 && a[i - 1].toLower() == b[j - 2].toLower() && a[i - 2].toLower() == b[j - 1].toLower())
                d = std::min(d, before[at - 2] + 1);
            row[at] = d;
            best = std::min(best, d);
        }
        if (best > limit)
            return limit + 1;
        std::swap(before, previous);
        std::swap(previous, row);
    }
    return std::min(previous[static_cast<std::size_t>(m)], limit + 1);
}

Vocabulary::Vocabulary(const QList<TextSection> &sections)
{
    // Words scanned by hand, not split by a regular expression: the
    // course's text is some 200 sections, read at a learner's keystroke.
    const auto addWordsOf = [this](const QString &text) {
        qsizetype start = -1;
        for (qsizetype i = 0; i <= text.size(); ++i) {
            const bool inWord = i < text.size() && (text.at(i).isLetterOrNumber() || text.at(i) == QLatin1Char('_'));
            if (inWord && start < 0)
                start = i;
            else if (!inWord && start >= 0) {
                if (i - start >= 3)
                    ++m_count[text.mid(start, i - start).toLower()];
                start = -1;
            }
        }
    };
    for (const TextSection &s : sections) {
        addWordsOf(s.text);
        addWordsOf(s.heading);
    }
    m_sorted = m_count.keys();
    std::sort(m_sorted.begin(), m_sorted.end());
    for (const QString &word : std::as_const(m_sorted))
        m_byLength[static_cast<int>(word.size())] << word;
}

QString Vocabulary::corrected(const QString &query) const
{
    const QStringList typed = query.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList out;
    bool changed = false;
    for (const QString &word : typed) {
        const QString lower = word.toLower();
        const auto from = std::lower_bound(m_sorted.cbegin(), m_sorted.cend(), lower);
        const bool held = from != m_sorted.cend() && from->startsWith(lower);
        if (word.size() < 4 || held || !word.front().isLetter()) {
            out << word;
            continue;
        }
        const int limit = word.size() >= 8 ? 2 : 1;
        QString best;
        int bestDistance = limit + 1, bestCount = 0;
        for (int length = static_cast<int>(word.size()) - limit; length <= word.size() + limit; ++length)
            for (const QString &candidate : m_byLength.value(length)) {
                const int d = editDistance(lower, candidate, std::min(limit, bestDistance));
                const int n = m_count.value(candidate);
                if (d < bestDistance || (d == bestDistance && d <= limit && n > bestCount)) {
                    best = candidate;
                    bestDistance = d;
                    bestCount = n;
                }
            }
        if (best.isEmpty())
            return {};
        out << best;
        changed = true;
    }
    return changed ? out.join(QLatin1Char(' ')) : QString();
}

} // namespace course
