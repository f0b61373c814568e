#include <chapters/chaptersearch.h>

#include "liveslots.h"

#include <QRegularExpression>
#include <QStringList>
#include <QTextDocumentFragment>

#include <algorithm>
#include <cmath>
#include <utility>

namespace course {

namespace {

// Rich text as plain words. The word joiners the filler puts into code and
// source tags, to keep a line from breaking there, go: a query typed as
// "x == y" or "SB-TPU" has none. With keepNoBreak, no-break spaces stay,
// so a filled figure such as "1 µs" is one word where a snippet is cut;
// else they are spaces, as a query types them.
QString plainOf(const QString &richText, bool keepNoBreak)
{
    QString text = richText;
    if (text.contains(QLatin1Char('<')) || text.contains(QLatin1Char('&'))) {
        const QTextDocumentFragment fragment = QTextDocumentFragment::fromHtml(text);
        // toPlainText makes every no-break space a plain one.
        text = keepNoBreak ? fragment.toRawText() : fragment.toPlainText();
    }
    text.remove(QChar(0x2060));
    if (!keepNoBreak)
        return text.simplified();
    constexpr char16_t kKept = 0xE0FF; // private use: not in the text
    text.replace(QChar(0x00A0), QChar(kKept));
    text = text.simplified();
    return text.replace(QChar(kKept), QChar(0x00A0));
}

// A block's words added to `text`: its live numbers filled for `*chip`,
// or each a "…" (their values depend on the chip) when chip is null.
void addWordsOf(QString &text, const DocBlock &block, const QString *chip)
{
    const auto add = [&text](const QString &words) {
        if (words.isEmpty())
            return;
        if (!text.isEmpty())
            text += QLatin1Char(' ');
        text += words;
    };
    if (chip && !block.placeholders.isEmpty()) {
        for (const QString &html : fillBlock(block, *chip, {}).html)
            add(plainOf(html, true));
    } else {
        for (const QString &t : block.texts)
            add(plainOf(liveslots::substitute(t, [](int) { return QStringLiteral("…"); }), false));
    }
    if (block.kind == DocBlock::Kind::Code)
        add(block.code.simplified());
    if (block.kind == DocBlock::Kind::Figure)
        add(block.caption.simplified());
}

QStringList wordsOf(const QString &query)
{
    QStringList words;
    for (const QString &w : query.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (w.size() >= 2)
            words << w;
    return words;
}

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

// Whether the `length` characters of `text` at `at` start a word, and end one.
std::pair<bool, bool> wordEdges(const QString &text, qsizetype at, qsizetype length)
{
    const qsizetype end = at + length;
    return {at == 0 || !isWordChar(text.at(at - 1)), end >= text.size() || !isWordChar(text.at(end))};
}

// Where `word` starts in `text` (case-insensitive), and whether it stands
// alone there; -1 when it does not occur.
std::pair<qsizetype, bool> find(const QString &text, const QString &word)
{
    qsizetype first = -1;
    for (qsizetype at = text.indexOf(word, 0, Qt::CaseInsensitive); at >= 0;
         at = text.indexOf(word, at + 1, Qt::CaseInsensitive)) {
        const auto [starts, ends] = wordEdges(text, at, word.size());
        if (first < 0)
            first = at;
        if (starts && ends)
            return {at, true};
    }
    return {first, false};
}

// How often `word` stands in `text`: a whole word counts one, the start of
// a longer one ("tiling" in "tilings") a half, the inside of one a quarter.
double occurrences(const QString &text, const QString &word)
{
    double n = 0;
    for (qsizetype at = text.indexOf(word, 0, Qt::CaseInsensitive); at >= 0;
         at = text.indexOf(word, at + word.size(), Qt::CaseInsensitive)) {
        const auto [starts, ends] = wordEdges(text, at, word.size());
        n += starts && ends ? 1.0 : starts ? 0.5 : 0.25;
    }
    return n;
}

QString snippetAt(const QString &text, qsizetype at, qsizetype length)
{
    constexpr qsizetype before = 40, after = 80;
    qsizetype from = std::max<qsizetype>(0, at - before);
    qsizetype to = std::min(text.size(), at + length + after);
    // Cut at spaces, so no word is halved, and past the tail of a code
    // block ("} }" or "),"): the snippet starts on a word.
    if (from > 0) {
        const qsizetype space = text.indexOf(QLatin1Char(' '), from);
        if (space >= 0 && space < at)
            from = space + 1;
        const auto wordless = [&text](qsizetype start, qsizetype end) {
            for (qsizetype i = start; i < end; ++i)
                if (isWordChar(text.at(i)))
                    return false;
            return true;
        };
        for (qsizetype next = text.indexOf(QLatin1Char(' '), from); next >= 0 && next < at && wordless(from, next);
             next = text.indexOf(QLatin1Char(' '), from))
            from = next + 1;
    }
    if (to < text.size()) {
        const qsizetype space = text.lastIndexOf(QLatin1Char(' '), to);
        if (space > at + length)
            to = space;
    }
    return (from > 0 ? QStringLiteral("…") : QString()) + text.mid(from, to - from) +
           (to < text.size() ? QStringLiteral("…") : QString());
}

} // namespace

QList<TextSection> sectionsOf(int chapter, const QString &chapterTitle, const ChapterDocument &doc)
{
    QList<TextSection> sections{{chapter, QString(), chapterTitle, QString(), 0, 0}};
    for (int i = 0; i < doc.blocks.size(); ++i) {
        const DocBlock &block = doc.blocks.at(i);
        if (block.kind == DocBlock::Kind::Heading) {
            sections.last().endBlock = i;
            const QString heading = block.title.simplified();
            sections.append({chapter, block.anchor, heading, QString(), i + 1, i + 1,
                             heading.compare(QLatin1String("Sources"), Qt::CaseInsensitive) == 0});
            continue;
        }
        addWordsOf(sections.last().text, block, nullptr);
    }
    sections.last().endBlock = static_cast<int>(doc.blocks.size());
    sections.erase(std::remove_if(sections.begin(), sections.end(),
                                  [](const TextSection &s) { return s.text.isEmpty() && s.anchor.isEmpty(); }),
                   sections.end());
    return sections;
}

QString filledTextOf(const TextSection &section, const ChapterDocument &doc, const QString &chip)
{
    QString text;
    for (int i = section.firstBlock; i < section.endBlock && i < doc.blocks.size(); ++i)
        addWordsOf(text, doc.blocks.at(i), &chip);
    return text;
}

QList<TextHit> searchSections(const QList<TextSection> &sections, const QString &query, int limit,
                              const std::function<QString(int section)> &filled,
                              const std::function<const QString *(int section)> &filledIfKnown)
{
    const QStringList words = wordsOf(query);
    QList<TextHit> hits;
    if (words.isEmpty() || sections.isEmpty())
        return hits;
    // The words typed together, found as one phrase of whole words, rank a
    // section higher and set its snippet ("16 MiB" is not found in "416
    // MiB"); else the snippet stands at the longest word, the least likely
    // to fill every sentence. A figure's no-break space ("16 MiB" filled)
    // matches a typed space; the two are one character each, so places
    // found in the spaced copy hold in the text.
    const auto spaced = [](QString text) { return text.replace(QChar(0x00a0), QLatin1Char(' ')); };
    const QString phrase = words.size() >= 2 ? words.join(QLatin1Char(' ')) : QString();
    const QString &longest = *std::max_element(words.begin(), words.end(),
                                               [](const QString &a, const QString &b) { return a.size() < b.size(); });

    // Ranked as Okapi BM25 ranks [BM25], with its usual k1 and b (here
    // lengthWeight): a word counts more the fewer sections hold it and the
    // more often it stands in this one, with diminishing returns, against
    // the section's length; the heading is a field of its own, weighted
    // well above the body. A section about tiling so outranks one that
    // mentions it once. A chapter's list of sources is short and names
    // its subjects in titles, so it would outrank the prose on them: its
    // score is cut to a third, and it comes first only where the prose
    // barely holds the words.
    constexpr double k1 = 1.2, lengthWeight = 0.75, headingWeight = 3.0, phraseWeight = 1.5, sourcesWeight = 1.0 / 3;
    // First which sections hold each word, for its weight; then the
    // counts, only in the sections that hold every word.
    const auto bodyOf = [&](int at) -> const QString & {
        // Its figures too, where its text is known filled. Each word is
        // found alone, so the no-break space inside a figure ("16 MiB")
        // parts its words as a typed space would.
        const QString *known = filledIfKnown ? filledIfKnown(at) : nullptr;
        return known ? *known : sections.at(at).text;
    };
    QList<int> holding(words.size(), 0); // sections holding each word
    QList<int> holdingAll;               // the sections holding every word
    double totalLength = 0;
    for (int at = 0; at < sections.size(); ++at) {
        const QString &body = bodyOf(at);
        totalLength += double(body.size());
        bool all = true;
        for (qsizetype w = 0; w < words.size(); ++w) {
            const bool holds = body.contains(words.at(w), Qt::CaseInsensitive) ||
                               sections.at(at).heading.contains(words.at(w), Qt::CaseInsensitive);
            holding[w] += holds ? 1 : 0;
            all = all && holds;
        }
        if (all)
            holdingAll << at;
    }
    const double n = double(sections.size());
    const double averageLength = std::max(1.0, totalLength / n);
    for (const int at : holdingAll) {
        const TextSection &s = sections.at(at);
        const QString &body = bodyOf(at);
        const double lengthNorm = 1 - lengthWeight + lengthWeight * double(body.size()) / averageLength;
        double score = 0;
        double idfs = 0;
        for (qsizetype w = 0; w < words.size(); ++w) {
            const double tf = occurrences(body, words.at(w));
            const bool inHeading = s.heading.contains(words.at(w), Qt::CaseInsensitive);
            const double idf = std::log(1 + (n - holding.at(w) + 0.5) / (holding.at(w) + 0.5));
            idfs += idf;
            score += idf * (tf * (k1 + 1) / (tf + k1 * lengthNorm) + (inHeading ? headingWeight : 0));
        }
        if (!phrase.isEmpty() && find(spaced(body), phrase).second)
            score += phraseWeight * idfs;
        if (s.sources)
            score *= sourcesWeight;
        hits.append({at, s.chapter, s.anchor, s.heading, QString(), score});
    }
    std::stable_sort(hits.begin(), hits.end(), [](const TextHit &a, const TextHit &b) { return a.score > b.score; });
    if (hits.size() > limit)
        hits.resize(limit);
    // Snippets for the hits kept only, cut from the text as the page reads
    // when `filled` gives it.
    for (TextHit &hit : hits) {
        const QString text = filled ? filled(hit.section) : sections.at(hit.section).text;
        const auto [phraseAt, phraseWhole] =
            phrase.isEmpty() ? std::pair<qsizetype, bool>{-1, false} : find(spaced(text), phrase);
        const qsizetype atPhrase = phraseWhole ? phraseAt : -1;
        const qsizetype atWord = atPhrase >= 0 ? -1 : find(text, longest).first;
        hit.snippet = atPhrase >= 0 ? snippetAt(text, atPhrase, phrase.size())
                      : atWord >= 0 ? snippetAt(text, atWord, longest.size())
                                    : snippetAt(text, 0, 0);
    }
    return hits;
}

} // namespace course
