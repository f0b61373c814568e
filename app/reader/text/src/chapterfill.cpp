// A block's live numbers filled for a chip and its inputs: the values as
// rich text with what each one is, and a table's cells split on their
// decimal points.
#include "liveslots.h"

#include <chapters/chapterdocument.h>
#include <chapters/livenumbers.h>

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

namespace {

// Inline code's HTML with its spaces unbreakable and a zero-width
// non-joiner between two adjacent operator characters, so the mono font's
// ligatures ("->" as an arrow, "==" as one glyph) never form: Qt 6.4's rich
// text cannot switch a span's shaping off, as MonoText does for a whole text.
QString asTyped(const QString &codeHtml)
{
    if (codeHtml.contains(QLatin1Char('<')))
        return codeHtml; // a live number's markup inside: left as it is
    static const QRegularExpression op(QStringLiteral("&lt;|&gt;|&amp;|[=!\\-+*/|:.~^%?]"));
    // A zero-width non-joiner between two operator characters keeps the
    // font from drawing them as one glyph; in a short expression, a word
    // joiner after each keeps the line from breaking after it ("FLOP/s"
    // stays whole). A long one may still break at its operators, or it
    // would run past a narrow column (a table's cell).
    constexpr qsizetype kWholeUpTo = 24; // characters, about a third of a line
    static const QRegularExpression entity(QStringLiteral("&[#a-zA-Z0-9]+;"));
    const bool whole = QString(codeHtml).replace(entity, QStringLiteral("_")).size() <= kWholeUpTo;
    QString out;
    qsizetype last = 0, previousEnd = -1;
    for (auto it = op.globalMatch(codeHtml); it.hasNext();) {
        const auto m = it.next();
        out += codeHtml.mid(last, m.capturedStart() - last);
        if (m.capturedStart() == previousEnd)
            out += QStringLiteral("&#8204;");
        out += m.captured();
        if (whole && m.capturedEnd() < codeHtml.size())
            out += QStringLiteral("&#8288;");
        last = previousEnd = m.capturedEnd();
    }
    out += codeHtml.mid(last);
    out.replace(QLatin1Char(' '), QLatin1String("&nbsp;"));
    return out;
}

} // namespace

namespace course {

namespace {

QString numberText(double v)
{
    return std::abs(v - std::round(v)) < 1e-9 ? QString::number(static_cast<long long>(std::llround(v)))
                                              : QString::number(v, 'g', 6);
}

// A value never breaks across lines: "820 GB/s" keeps its space and slash.
QString unbreakable(const QString &text)
{
    QString out = text.toHtmlEscaped();
    out.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    out.replace(QLatin1Char('/'), QStringLiteral("/&#8288;"));
    return out;
}

// A cell's text when it is a number with at most one unit ("697.7 µs",
// "1,024", "~2.5×", "75.0 %"): the unit, possibly empty. Anything more
// ("2 × 256 × 1000 × 4 B ≈ 2 MB", "512 × 1024 bf16") is not a number to
// align on its decimal point.
std::optional<QString> unitOfNumber(const QString &html)
{
    QString plain = html;
    plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    plain.replace(QLatin1String("&nbsp;"), QLatin1String(" "));
    plain.replace(QChar(0x00a0), QLatin1Char(' '));
    static const QRegularExpression number(
        QStringLiteral("^\\s*[~≈−+\\-$]?\\d[\\d,]*(?:\\.\\d+)?\\s*([A-Za-zµ%×°]+(?:/[A-Za-z]+)?)?\\s*$"));
    const auto m = number.match(plain);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1);
}

bool emptyCell(const QString &html)
{
    QString plain = html;
    plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    plain = plain.trimmed();
    return plain.isEmpty() || plain == QStringLiteral("—") || plain == QStringLiteral("-");
}

} // namespace

namespace {

// What a {{unless chip=...}} or {{end}} slot becomes in the text, until
// withConditionsApplied() keeps or drops the words between: characters of
// Unicode's private use area, which no chapter writes.
const QString kHiddenStart = QStringLiteral("\uE000");
const QString kShownStart = QStringLiteral("\uE001");
const QString kShownEnd = QStringLiteral("\uE002");

// The words between a hidden start and its end dropped, the markers gone.
QString withConditionsApplied(QString html, QStringList &problems)
{
    for (qsizetype at = html.indexOf(kHiddenStart); at >= 0; at = html.indexOf(kHiddenStart, at)) {
        const qsizetype end = html.indexOf(kShownEnd, at);
        if (end < 0) {
            problems << QStringLiteral("{{unless chip=...}} has no {{end}} in the same paragraph");
            html.truncate(at);
            break;
        }
        html.remove(at, end + 1 - at);
    }
    html.remove(kShownStart);
    html.remove(kShownEnd);
    return html;
}

} // namespace

bool isConditionMarker(const QString &spec)
{
    return spec == QLatin1String("end") || spec.startsWith(QLatin1String("unless chip="));
}

FilledBlock fillBlock(const DocBlock &block, const QString &chip, const QHash<QString, double> &inputValues,
                      const LiveTextStyle &style)
{
    FilledBlock out;
    QHash<QString, double> vars;
    for (const LiveInput &input : block.inputs)
        vars.insert(input.name, inputValues.value(input.name, input.value));
    static const QRegularExpression variable(QStringLiteral("\\$([A-Za-z_][A-Za-z0-9_]*)"));

    QStringList valueHtml;
    for (int n = 0; n < block.placeholders.size(); ++n) {
        QString spec = block.placeholders.at(n);
        // {{unless chip=v5e}} ... {{end}}: words for the other chips only,
        // such as a comparison with v5e, which says nothing on v5e itself.
        if (isConditionMarker(spec)) {
            valueHtml << (spec == QLatin1String("end")     ? kShownEnd
                          : spec.mid(12).trimmed() == chip ? kHiddenStart
                                                           : kShownStart);
            out.details << QString();
            continue;
        }
        if (spec.startsWith(QLatin1String("input "))) {
            const auto input = std::find_if(block.inputs.cbegin(), block.inputs.cend(), [&](const LiveInput &i) {
                return spec.section(QLatin1Char(' '), 1, 1, QString::SectionSkipEmpty)
                    .startsWith(i.name + QLatin1Char('='));
            });
            if (input == block.inputs.cend()) {
                valueHtml << QStringLiteral("<span style=\"color:%1;\">[{{%2}}]</span>")
                                 .arg(style.problem.name(), spec.toHtmlEscaped());
                out.details << QStringLiteral("This input is written wrong; see the problems above the text.");
                continue;
            }
            const QString shown = numberText(vars.value(input->name)) +
                                  (input->unit.isEmpty() ? QString() : QLatin1Char(' ') + input->unit);
            valueHtml << QStringLiteral(
                             "<a href=\"input:%1:%2\" style=\"color:%3; text-decoration:underline;\"><b>%4</b></a>")
                             .arg(input->name)
                             .arg(n)
                             .arg(style.input.name(), unbreakable(shown));
            out.details << QStringLiteral(
                               "input · drag sideways (or focus and use the arrow keys) to change it; the figures in "
                               "this %1 follow")
                               .arg(block.kind == DocBlock::Kind::Table ? QStringLiteral("table")
                                                                        : QStringLiteral("paragraph"));
            continue;
        }
        // $n takes the input's current value.
        QString resolved;
        qsizetype last = 0;
        auto it = variable.globalMatch(spec);
        bool unknown = false;
        while (it.hasNext()) {
            const auto m = it.next();
            resolved += spec.mid(last, m.capturedStart() - last);
            last = m.capturedEnd();
            if (!vars.contains(m.captured(1)))
                unknown = true;
            resolved += numberText(vars.value(m.captured(1)));
        }
        resolved += spec.mid(last);
        try {
            if (unknown)
                throw live::PlaceholderError("it uses an input that this block does not define");
            const live::Value v = live::resolve(live::parse(resolved.toStdString()), chip.toStdString());
            const QColor colour = v.isAssumption ? style.assumed : v.isFact ? style.fact : style.predicted;
            valueHtml << QStringLiteral("<a href=\"value:%1\" style=\"color:%2; text-decoration:none;\"><b>%3</b></a>")
                             .arg(n)
                             .arg(colour.name(), unbreakable(QString::fromStdString(v.text)));
            out.details << QString::fromStdString(v.details);
            ++out.values;
        } catch (const live::PlaceholderError &e) {
            out.problems << QStringLiteral("line %1: {{%2}}: %3")
                                .arg(block.lines.value(n))
                                .arg(spec, QString::fromUtf8(e.what()));
            valueHtml << QStringLiteral("<span style=\"color:%1;\">[{{%2}}]</span>")
                             .arg(style.problem.name(), spec.toHtmlEscaped());
            out.details << QString::fromUtf8(e.what());
        } catch (const std::exception &e) {
            // A sound question the model answers with "not here": say so in place.
            valueHtml
                << QStringLiteral(
                       "<a href=\"value:%1\" style=\"color:%2; text-decoration:none;\"><i>not&nbsp;on&nbsp;%3</i></a>")
                       .arg(n)
                       .arg(style.predicted.name(), chip.toHtmlEscaped());
            out.details << QStringLiteral("The model refuses this on %1: %2").arg(chip, QString::fromUtf8(e.what()));
            ++out.refusals;
        }
    }

    for (const QString &text : block.texts) {
        QString html =
            withConditionsApplied(liveslots::substitute(text, [&](int n) { return valueHtml.value(n); }), out.problems);
        const QString size =
            style.codePixelSize > 0 ? QStringLiteral(" font-size:%1px;").arg(style.codePixelSize) : QString();
        // Inline code is an expression: it does not break at its spaces,
        // and its characters are drawn as typed, as in a code block.
        static const QRegularExpression codeSpan(QStringLiteral("<code>(.*?)</code>"));
        for (auto m = codeSpan.match(html); m.hasMatch(); m = codeSpan.match(html, m.capturedStart() + 6)) {
            const QString inner = asTyped(m.captured(1));
            if (inner != m.captured(1))
                html.replace(m.capturedStart(1), m.capturedLength(1), inner);
        }
        // A link of the text (a source's address) in the ground's accent:
        // rich text ignores the item's linkColor and would draw it in
        // Qt's fixed blue, unreadable on the dark theme's ground.
        static const QRegularExpression plainLink(QStringLiteral("<a href=\"([^\"]*)\">"));
        html.replace(plainLink, QStringLiteral("<a href=\"\\1\" style=\"color:%1;\">").arg(style.input.name()));
        // The joiners asTyped puts in are in neither face: Qt takes each
        // from a fallback font, whose tall line (DejaVu Math TeX Gyre's)
        // would make the line it stands on taller. DejaVu Sans, named
        // second, has them and a line no taller than the prose's.
        html.replace(QLatin1String("<code>"),
                     QStringLiteral("<span style=\"font-family:'%1','DejaVu Sans'; color:%2;%3\">")
                         .arg(style.monoFamily, style.codeInk.name(), size));
        html.replace(QLatin1String("</code>"), QLatin1String("</span>"));
        // A source tag ([SB-TRAIN]) is one word: a word joiner after each of
        // its hyphens keeps the line from breaking inside it.
        static const QRegularExpression sourceTag(
            QStringLiteral("\\[[[:upper:]][[:upper:][:digit:]]*(?:-[[:alnum:]]+)+\\]"));
        for (auto m = sourceTag.match(html); m.hasMatch(); m = sourceTag.match(html, m.capturedStart() + 1)) {
            QString whole = m.captured(0);
            whole.replace(QLatin1Char('-'), QStringLiteral("-&#8288;"));
            html.replace(m.capturedStart(), m.capturedLength(), whole);
        }
        out.html << html;
    }
    if (block.kind == DocBlock::Kind::Table && block.columns > 0) {
        // A column is aligned on its decimal point only when every cell
        // below the header is a number in one and the same unit (or empty):
        // across unrelated quantities the points mean nothing.
        const int rows = static_cast<int>(out.html.size()) / block.columns;
        for (int c = 0; c < block.columns; ++c)
            out.numericColumns << (rows > 1);
        QList<std::optional<QString>> units(block.columns);
        for (int i = 0; i < out.html.size(); ++i) {
            const auto parts = splitAtDecimal(out.html.at(i));
            out.leftParts << (parts ? parts->first : out.html.at(i));
            out.rightParts << (parts ? parts->second : QString());
            const int c = i % block.columns;
            if (i < block.columns || emptyCell(out.html.at(i)))
                continue;
            const std::optional<QString> unit = parts ? unitOfNumber(out.html.at(i)) : std::nullopt;
            if (!unit || (units[c] && *units[c] != *unit))
                out.numericColumns[c] = false;
            else
                units[c] = unit;
        }
    }
    return out;
}

std::optional<std::pair<QString, QString>> splitAtDecimal(const QString &html)
{
    QStringList open; // the tags open at the split, outermost first
    qsizetype split = -1;
    enum { Before, Digits } state = Before;
    for (qsizetype i = 0; i < html.size(); ++i) {
        const QChar c = html.at(i);
        if (c == QLatin1Char('<')) {
            const qsizetype end = html.indexOf(QLatin1Char('>'), i);
            if (end < 0)
                return std::nullopt;
            const QString tag = html.mid(i, end - i + 1);
            if (tag.startsWith(QLatin1String("</")))
                open.removeLast();
            else if (!tag.startsWith(QLatin1String("<br")))
                open << tag;
            i = end;
            continue;
        }
        if (c == QLatin1Char('&')) {
            const qsizetype end = html.indexOf(QLatin1Char(';'), i);
            const QString entity = end < 0 ? QString() : html.mid(i, end - i + 1);
            if (state == Digits) {
                split = i;
                break;
            }
            if (entity != QLatin1String("&nbsp;") && entity != QLatin1String("&lt;") && entity != QLatin1String("&gt;"))
                return std::nullopt;
            i = end;
            continue;
        }
        if (state == Before) {
            if (c.isDigit())
                state = Digits;
            else if (!c.isSpace() && !QStringLiteral("~≈−-+$").contains(c))
                return std::nullopt;
            continue;
        }
        const bool groupComma = c == QLatin1Char(',') && i + 1 < html.size() && html.at(i + 1).isDigit();
        if (c.isDigit() || groupComma)
            continue;
        split = i;
        break;
    }
    if (state != Digits)
        return std::nullopt;
    if (split < 0)
        split = html.size();
    QString left = html.left(split);
    for (auto it = open.crbegin(); it != open.crend(); ++it)
        left += QStringLiteral("</") + it->mid(1).section(QRegularExpression(QStringLiteral("[ >]")), 0, 0) +
                QLatin1Char('>');
    // The right half starts a rich text of its own, where a leading space
    // would be dropped ("1MiB"): keep it as a non-breaking one.
    QString right = html.mid(split);
    if (right.startsWith(QLatin1Char(' ')))
        right = QStringLiteral("&nbsp;") + right.mid(1);
    return std::make_pair(left, open.join(QString()) + right);
}

} // namespace course
