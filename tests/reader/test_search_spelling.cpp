// A mistyped word in a search of the chapters' text put right to the
// nearest word the text holds.
#include <catch2/catch.hpp>

#include <chapters/searchspelling.h>

namespace {

course::TextSection section(const QString &heading, const QString &text)
{
    return {1, QStringLiteral("a"), heading, text, 0, 0};
}

} // namespace

TEST_CASE("the edit distance counts insertions, deletions, changes and swaps", "[search]")
{
    using course::editDistance;
    CHECK(editDistance(u"attention", u"attention", 2) == 0);
    CHECK(editDistance(u"atention", u"attention", 2) == 1);   // a letter left out
    CHECK(editDistance(u"attenntion", u"attention", 2) == 1); // one too many
    CHECK(editDistance(u"attentoin", u"attention", 2) == 1);  // two swapped
    CHECK(editDistance(u"attantion", u"attention", 2) == 1);  // one changed
    CHECK(editDistance(u"Attention", u"attention", 2) == 0);  // case aside
    CHECK(editDistance(u"kitten", u"sitting", 5) == 3);
    // Past the limit, the limit and one: the work stops early.
    CHECK(editDistance(u"kitten", u"sitting", 1) == 2);
    CHECK(editDistance(u"tpu", u"attention", 2) == 3);
}

TEST_CASE("a word the text does not hold is put right to the nearest one it does", "[search]")
{
    const course::Vocabulary words({
        section(QStringLiteral("Flash attention"),
                QStringLiteral("Attention streams its keys; the attention kernel tiles them. Retention is kept.")),
        section(QStringLiteral("Tiling"), QStringLiteral("A tile of the matmul fits VMEM; tiling picks the block.")),
    });
    CHECK(words.count(QStringLiteral("attention")) == 3);
    CHECK(words.corrected(QStringLiteral("flash atention")) == QStringLiteral("flash attention"));
    CHECK(words.corrected(QStringLiteral("tilling")) == QStringLiteral("tiling"));
    // Two edits for a word of eight letters or more, one for a shorter one.
    CHECK(words.corrected(QStringLiteral("atentoin")) == QStringLiteral("attention"));
    CHECK(words.corrected(QStringLiteral("tillign")).isEmpty());
    // Two words as near: the commoner ("attention" stands three times,
    // "retention" once).
    CHECK(words.corrected(QStringLiteral("aetention")) == QStringLiteral("attention"));
    // Nothing to put right: every word held, or the start of one ("matm").
    CHECK(words.corrected(QStringLiteral("flash attention")).isEmpty());
    CHECK(words.corrected(QStringLiteral("matm")).isEmpty());
    // Too short to guess at, or nothing near: no correction.
    CHECK(words.corrected(QStringLiteral("vmm")).isEmpty());
    CHECK(words.corrected(QStringLiteral("flash quantization")).isEmpty());
}
