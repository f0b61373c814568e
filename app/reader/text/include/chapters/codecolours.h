#pragma once

// Syntax colours for the code the course shows: Python (and Pallas), jaxpr,
// StableHLO/MLIR and HLO. One tokenizer for the chapter reader's code
// blocks and the IR x-ray's panes, so a `%dot` or a `tensor<8x128xf32>`
// looks the same wherever it appears.

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

namespace course {

enum class CodeToken { Plain, Keyword, String, Number, Comment, Type, Value, Op, Attribute };

struct CodeSpan
{
    int start = 0;
    int length = 0;
    CodeToken kind = CodeToken::Plain;
};

// The coloured spans of `code` (offsets into it), in order; text between
// spans is plain. `language` is a fence's info string: python, jaxpr,
// stablehlo, mlir, hlo; anything else gets no colours.
QList<CodeSpan> codeSpans(const QString &code, const QString &language);

struct CodePalette
{
    QColor plain, keyword, string, number, comment, type, value, op, attribute;
    QColor colour(CodeToken kind) const;
};

// `code` as Qt's styled text (<font color> runs, &nbsp; for spaces, <br>
// between lines), for a Text item that never wraps.
QString codeStyledText(const QString &code, const QString &language, const CodePalette &palette);

// The same in pieces of whole lines joined by <br>, each at most `limit`
// characters of markup (a longer line is a piece alone). Qt Quick lays out
// a text over 10,000 characters again whenever its place in the window
// changes, to draw only its lines in view: one per piece, a long code
// block would be laid out anew on every frame of a scroll.
QStringList codeStyledChunks(const QString &code, const QString &language, const CodePalette &palette,
                             int limit = 8000);

} // namespace course
