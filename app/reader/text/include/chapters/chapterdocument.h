#pragma once

// A chapter's Markdown as typed blocks for the reader: headings, paragraphs,
// lists, quotes, code, tables, rules and inline pieces (`::: piece EX09
// preset=race`). CommonMark (with tables) is parsed by md4c; live numbers
// ({{...}}, see LIVE-NUMBERS.md) are kept as slots and filled per chip.

#include <chapters/livetext.h>

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace course {

// A number in the text the reader drags in place ({{input n=4096 from=256
// to=16384 log}}); the block's other live numbers may use it as `$n`.
struct LiveInput
{
    QString name;
    double value = 0;
    double from = 0;
    double to = 0;
    double step = 1;
    bool logarithmic = false; // each step doubles or halves
    QString unit;             // shown after the number, if any
};

struct DocBlock
{
    enum class Kind { Heading, Paragraph, List, Quote, Code, Table, Rule, Piece, Figure };
    Kind kind = Kind::Paragraph;
    int level = 0;  // a heading's level
    QString anchor; // a heading's id, for links and --open chNN#id
    QString title;  // a heading's plain text
    // Rich-text templates with slots for live numbers: one for a heading,
    // paragraph or quote; one per item of a list; one per cell of a table,
    // row by row, the header row first.
    QStringList texts;
    bool ordered = false;       // list
    int start = 1;              // ordered list
    int columns = 0;            // table
    QList<Qt::Alignment> align; // table, per column
    QString language;           // code
    QString code;               // code, exactly as written
    QString figureSource;       // figure: the image's path, relative to the chapter's folder
    QString caption;            // figure: its title, else its alt text
    QString pieceId;            // piece
    QMap<QString, QString> pieceArgs;
    QStringList placeholders; // the live numbers' placeholders, in order of their slots
    QList<int> lines;         // and the Markdown line each is on
    QList<LiveInput> inputs;
};

struct ChapterDocument
{
    QList<DocBlock> blocks;
    QStringList problems; // malformed directives or inputs, one sentence each
};

ChapterDocument parseChapter(const QString &markdown);

// "The parts of a TensorCore" -> "the-parts-of-a-tensorcore".
QString headingAnchor(const QString &title);

// A block's texts with its live numbers filled for `chip`, inputs at
// `inputValues` (by name; missing ones at their written value). Each value
// is a link "value:N" (or "input:NAME"); details[N] says what it is.
struct FilledBlock
{
    QStringList html;
    QStringList details;
    QStringList problems;
    int values = 0;
    int refusals = 0;
    // Tables: each cell split before its number's decimal point (or after
    // its integer), so a column of numbers lines up on the point; and which
    // columns hold a number in every body cell.
    QStringList leftParts;
    QStringList rightParts;
    QList<bool> numericColumns;
};
FilledBlock fillBlock(const DocBlock &block, const QString &chip, const QHash<QString, double> &inputValues,
                      const LiveTextStyle &style = {});
// A placeholder that is no number but bounds words shown on other chips
// only: {{unless chip=v5e}} ... {{end}} (LIVE-NUMBERS.md).
bool isConditionMarker(const QString &spec);

// `html` split before the decimal point (or after the integer) of the number
// its text starts with, tags closed on the left and reopened on the right;
// nothing when its text does not start with a number.
std::optional<std::pair<QString, QString>> splitAtDecimal(const QString &html);

} // namespace course
