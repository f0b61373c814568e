#include "fuzzymatch.h"

#include <algorithm>
#include <vector>

namespace {

bool isWordStart(const QString &text, qsizetype i)
{
    if (i == 0)
        return true;
    const QChar prev = text.at(i - 1);
    const QChar here = text.at(i);
    return !prev.isLetterOrNumber() || (prev.isLower() && here.isUpper()) || (prev.isLetter() && here.isDigit());
}

constexpr int kMatch = 16;
constexpr int kAdjacent = 24;
constexpr int kWordStart = 20;
constexpr int kFirstChar = 12;
constexpr int kGapPenalty = 1;
constexpr int kNone = -1000000;

} // namespace

// Dynamic programming over (query position, text position) so that the best
// alignment wins, not the first one found: "ir" should prefer "IR x-ray" over
// the i and r inside "the primitive".
int fuzzyScore(const QString &query, const QString &text)
{
    const QString q = query.simplified().remove(QLatin1Char(' ')).toCaseFolded();
    if (q.isEmpty())
        return 0;
    const QString t = text.toCaseFolded();
    const qsizetype n = q.size();
    const qsizetype m = t.size();
    if (n > m)
        return -1;
    // Word starts are judged on the original casing when folding kept the length.
    const QString &shape = text.size() == m ? text : t;

    // prev[j] / cur[j]: best score with query[i-1] / query[i] matched at text[j].
    std::vector<int> prev(static_cast<size_t>(m), kNone);
    std::vector<int> cur(static_cast<size_t>(m), kNone);
    for (qsizetype i = 0; i < n; ++i) {
        // carry: best prev[k] - gap * (j - 1 - k) over k <= j - 2, i.e. the
        // previous query character matched with a gap before text[j].
        int carry = kNone;
        for (qsizetype j = 0; j < m; ++j) {
            const auto uj = static_cast<size_t>(j);
            if (i > 0 && j >= 2) {
                const int fresh = prev[uj - 2] > kNone ? prev[uj - 2] - kGapPenalty : kNone;
                carry = std::max(carry > kNone ? carry - kGapPenalty : kNone, fresh);
            }
            cur[uj] = kNone;
            if (t.at(j) != q.at(i))
                continue;
            const int bonus = kMatch + (isWordStart(shape, j) ? kWordStart : 0);
            if (i == 0) {
                cur[uj] = bonus - static_cast<int>(j) * kGapPenalty + (j == 0 ? kFirstChar : 0);
                continue;
            }
            const int adjacent = (j > 0 && prev[uj - 1] > kNone) ? prev[uj - 1] + kAdjacent : kNone;
            const int base = std::max(adjacent, carry);
            if (base > kNone)
                cur[uj] = base + bonus;
        }
        std::swap(prev, cur);
    }
    const int best = *std::max_element(prev.begin(), prev.end());
    return best > kNone ? best : -1;
}
