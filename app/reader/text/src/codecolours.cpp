#include <chapters/codecolours.h>

#include <QRegularExpression>

#include <algorithm>
#include <vector>

namespace course {

namespace {

struct Rule
{
    QRegularExpression pattern;
    CodeToken kind;
};

Rule rule(const char *pattern, CodeToken kind)
{
    return {QRegularExpression(QString::fromLatin1(pattern), QRegularExpression::MultilineOption), kind};
}

// Tried in order at each position; the earliest match wins, the first rule
// breaking ties, so comments and strings shadow what is inside them.
const std::vector<Rule> &rulesFor(const QString &language)
{
    static const std::vector<Rule> python{
        rule(R"(#[^\n]*)", CodeToken::Comment),
        rule(R"("""[\s\S]*?"""|'''[\s\S]*?'''|[rbf]?"[^"\n]*"|[rbf]?'[^'\n]*')", CodeToken::String),
        rule(R"(@[A-Za-z_][\w.]*)", CodeToken::Attribute),
        rule(
            R"(\b(?:def|return|for|in|if|else|elif|import|from|as|with|lambda|class|None|True|False|and|or|not|is|yield|while|pass|break|continue|raise|try|except|finally|global|nonlocal|assert|del|async|await)\b)",
            CodeToken::Keyword),
        rule(R"(\b(?:jnp|jax|lax|pl|pltpu|np|functools)\b)", CodeToken::Type),
        rule(R"(\b\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?\b)", CodeToken::Number),
        rule(R"(\b[A-Za-z_]\w*(?=\())", CodeToken::Op),
    };
    static const std::vector<Rule> jaxpr{
        rule(R"(\b(?:lambda|let|in)\b)", CodeToken::Keyword),
        rule(R"(\b(?:f64|f32|f16|bf16|i64|i32|i16|i8|u32|u8|bool|f8_e4m3fn|f8_e5m2)\[[^\]]*\])", CodeToken::Type),
        rule(R"(\b[a-z_][a-z0-9_]*(?=\[|\s+[a-z]+:?\s*$|\s+\w+$))", CodeToken::Op),
        rule(R"((?<==\s)[a-z_][a-z0-9_]*\b)", CodeToken::Op),
        rule(R"(\b[a-z_]+(?==))", CodeToken::Attribute),
        rule(R"(\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b)", CodeToken::Number),
    };
    static const std::vector<Rule> mlir{
        rule(R"(//[^\n]*)", CodeToken::Comment),
        rule(R"("[^"\n]*")", CodeToken::String),
        rule(R"(%[\w.#:]+)", CodeToken::Value),
        rule(R"(@[\w.$]+)", CodeToken::Value),
        rule(R"(\b(?:tensor|memref|vector)<[^>\n]*>)", CodeToken::Type),
        rule(R"(\b(?:stablehlo|func|mhlo|chlo|tpu|arith|scf|memref|vector|sdy|tt)\.[\w.]+)", CodeToken::Op),
        rule(R"(#[\w.]+(?:<[^>\n]*>)?)", CodeToken::Attribute),
        rule(R"(\b(?:module|attributes|return|func|private|public|dense)\b)", CodeToken::Keyword),
        rule(R"(\b(?:f64|f32|f16|bf16|i64|i32|i16|i8|i1|index)\b)", CodeToken::Type),
        rule(R"(\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b)", CodeToken::Number),
    };
    static const std::vector<Rule> hlo{
        rule(R"(/\*[\s\S]*?\*/|//[^\n]*)", CodeToken::Comment),
        rule(R"("[^"\n]*")", CodeToken::String),
        rule(R"(\b(?:HloModule|ENTRY|ROOT)\b)", CodeToken::Keyword),
        rule(R"(%[\w.\-]+)", CodeToken::Value),
        rule(
            R"(\b(?:pred|s4|s8|s16|s32|s64|u8|u16|u32|u64|f16|bf16|f32|f64|f8e4m3fn|f8e5m2)\[[^\]]*\](?:\{[^}\n]*\})?)",
            CodeToken::Type),
        rule(R"(\b[a-z][\w\-]*(?=\())", CodeToken::Op),
        rule(R"(\b[a-z_]+(?==))", CodeToken::Attribute),
        rule(R"(\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b)", CodeToken::Number),
    };
    static const std::vector<Rule> none;
    const QString lang = language.toLower();
    if (lang == QLatin1String("python") || lang == QLatin1String("py"))
        return python;
    if (lang == QLatin1String("jaxpr"))
        return jaxpr;
    if (lang == QLatin1String("stablehlo") || lang == QLatin1String("mlir") || lang == QLatin1String("mosaic"))
        return mlir;
    if (lang == QLatin1String("hlo"))
        return hlo;
    return none;
}

bool ligaturePart(QChar c)
{
    return c.unicode() < 128 && c.isPunct() ? true : QStringLiteral("<>=-+*/|&!~:.#%^$").contains(c);
}

// The course's monospace font draws "->", "==", "<=" and the like as single
// glyphs; code must show the characters typed. A zero-width non-joiner
// between two symbols keeps them apart (copying takes the code as written).
QString escapedCode(QStringView text)
{
    QString out;
    out.reserve(text.size() + 16);
    QChar previous;
    for (const QChar c : text) {
        if (!previous.isNull() && ligaturePart(previous) && ligaturePart(c))
            out += QLatin1String("&#8204;");
        previous = c;
        switch (c.unicode()) {
            case '<':
                out += QLatin1String("&lt;");
                break;
            case '>':
                out += QLatin1String("&gt;");
                break;
            case '&':
                out += QLatin1String("&amp;");
                break;
            case ' ':
                out += QLatin1String("&nbsp;");
                break;
            case '\t':
                out += QLatin1String("&nbsp;&nbsp;&nbsp;&nbsp;");
                break;
            case '\n':
                out += QLatin1String("<br>");
                break;
            default:
                out += c;
        }
    }
    return out;
}

} // namespace

QList<CodeSpan> codeSpans(const QString &code, const QString &language)
{
    const std::vector<Rule> &rules = rulesFor(language);
    QList<CodeSpan> spans;
    if (rules.empty())
        return spans;
    // Each rule's next match, found once and refreshed only when passed.
    std::vector<QRegularExpressionMatch> next(rules.size());
    for (size_t r = 0; r < rules.size(); ++r)
        next[r] = rules[r].pattern.match(code, 0);
    qsizetype at = 0;
    while (at < code.size()) {
        int best = -1;
        for (size_t r = 0; r < rules.size(); ++r) {
            if (next[r].hasMatch() && next[r].capturedStart() < at)
                next[r] = rules[r].pattern.match(code, at);
            if (!next[r].hasMatch() || next[r].capturedLength() == 0)
                continue;
            if (best < 0 || next[r].capturedStart() < next[size_t(best)].capturedStart())
                best = static_cast<int>(r);
        }
        if (best < 0)
            break;
        const auto &m = next[size_t(best)];
        spans.append(
            {static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), rules[size_t(best)].kind});
        at = m.capturedEnd();
    }
    return spans;
}

QColor CodePalette::colour(CodeToken kind) const
{
    switch (kind) {
        case CodeToken::Keyword:
            return keyword;
        case CodeToken::String:
            return string;
        case CodeToken::Number:
            return number;
        case CodeToken::Comment:
            return comment;
        case CodeToken::Type:
            return type;
        case CodeToken::Value:
            return value;
        case CodeToken::Op:
            return op;
        case CodeToken::Attribute:
            return attribute;
        case CodeToken::Plain:
            break;
    }
    return plain;
}

namespace {

// Each line of `code` as styled text of its own: a span that runs over a
// line's end is closed there and opened again on the next line.
QStringList styledLines(const QString &code, const QString &language, const CodePalette &palette)
{
    QString trimmed = code;
    while (trimmed.endsWith(QLatin1Char('\n')))
        trimmed.chop(1);
    const QList<CodeSpan> spans = codeSpans(trimmed, language);
    QStringList lines;
    qsizetype next = 0; // the first span not yet wholly set
    for (qsizetype start = 0; start <= trimmed.size();) {
        qsizetype end = trimmed.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = trimmed.size();
        QString out;
        qsizetype at = start;
        for (qsizetype i = next; i < spans.size() && spans[i].start < end; ++i) {
            const qsizetype from = std::max<qsizetype>(spans[i].start, start);
            const qsizetype to = std::min<qsizetype>(spans[i].start + spans[i].length, end);
            if (to <= from)
                continue;
            out += escapedCode(QStringView(trimmed).mid(at, from - at));
            out += QStringLiteral("<font color=\"%1\">").arg(palette.colour(spans[i].kind).name());
            out += escapedCode(QStringView(trimmed).mid(from, to - from));
            out += QLatin1String("</font>");
            at = to;
        }
        while (next < spans.size() && spans[next].start + spans[next].length <= end)
            ++next;
        out += escapedCode(QStringView(trimmed).mid(at, end - at));
        lines << out;
        start = end + 1;
    }
    return lines;
}

} // namespace

QString codeStyledText(const QString &code, const QString &language, const CodePalette &palette)
{
    return styledLines(code, language, palette).join(QLatin1String("<br>"));
}

QStringList codeStyledChunks(const QString &code, const QString &language, const CodePalette &palette, int limit)
{
    QStringList chunks;
    QString chunk;
    bool started = false;
    for (const QString &line : styledLines(code, language, palette)) {
        if (started && chunk.size() + 4 + line.size() > limit) {
            chunks << chunk;
            chunk.clear();
            started = false;
        }
        if (started)
            chunk += QLatin1String("<br>");
        chunk += line;
        started = true;
    }
    if (started)
        chunks << chunk;
    return chunks;
}

} // namespace course
