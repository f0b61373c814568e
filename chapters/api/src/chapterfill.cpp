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

namespace course {

namespace {

QString numberText(double v)
{
    return std::abs(v - std::round(v)) < 1e-9 ? QString::number(static_cast<long long>(std::llround(v))) : QString::number(v, 'g', 6);
}

// A value never breaks across lines: "820 GB/s" keeps its space and slash.
QString unbreakable(const QString &text)
{
    QString out = text.toHtmlEscaped();
    out.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    out.replace(QLatin1Char('/'), QStringLiteral("/&#8288;"));
    return out;
}

} // namespace

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
        if (spec.startsWith(QLatin1String("input "))) {
            const auto input = std::find_if(block.inputs.cbegin(), block.inputs.cend(), [&](const LiveInput &i) {
                return spec.section(QLatin1Char(' '), 1, 1, QString::SectionSkipEmpty).startsWith(i.name + QLatin1Char('='));
            });
            if (input == block.inputs.cend()) {
                valueHtml << QStringLiteral("<span style=\"color:%1;\">[{{%2}}]</span>").arg(style.problem.name(), spec.toHtmlEscaped());
                out.details << QStringLiteral("This input is written wrong; see the problems above the text.");
                continue;
            }
            const QString shown = numberText(vars.value(input->name)) + (input->unit.isEmpty() ? QString() : QLatin1Char(' ') + input->unit);
            valueHtml << QStringLiteral("<a href=\"input:%1:%2\" style=\"color:%3; text-decoration:underline;\"><b>%4</b></a>")
                             .arg(input->name).arg(n).arg(style.input.name(), unbreakable(shown));
            out.details << QStringLiteral("input · drag sideways (or focus and use the arrow keys) to change it; the figures in this %1 follow")
                               .arg(block.kind == DocBlock::Kind::Table ? QStringLiteral("table") : QStringLiteral("paragraph"));
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
            const QColor colour = v.isFact ? style.fact : style.predicted;
            valueHtml << QStringLiteral("<a href=\"value:%1\" style=\"color:%2; text-decoration:none;\"><b>%3</b></a>")
                             .arg(n).arg(colour.name(), unbreakable(QString::fromStdString(v.text)));
            out.details << QString::fromStdString(v.details);
            ++out.values;
        } catch (const live::PlaceholderError &e) {
            out.problems << QStringLiteral("line %1: {{%2}}: %3").arg(block.lines.value(n)).arg(spec, QString::fromUtf8(e.what()));
            valueHtml << QStringLiteral("<span style=\"color:%1;\">[{{%2}}]</span>").arg(style.problem.name(), spec.toHtmlEscaped());
            out.details << QString::fromUtf8(e.what());
        } catch (const std::exception &e) {
            // A sound question the model answers with "not here": say so in place.
            valueHtml << QStringLiteral("<a href=\"value:%1\" style=\"color:%2; text-decoration:none;\"><i>not&nbsp;on&nbsp;%3</i></a>")
                             .arg(n).arg(style.predicted.name(), chip.toHtmlEscaped());
            out.details << QStringLiteral("The model refuses this on %1: %2").arg(chip, QString::fromUtf8(e.what()));
            ++out.refusals;
        }
    }

    for (const QString &text : block.texts) {
        QString html = liveslots::substitute(text, [&](int n) { return valueHtml.value(n); });
        const QString size = style.codePixelSize > 0 ? QStringLiteral(" font-size:%1px;").arg(style.codePixelSize) : QString();
        html.replace(QLatin1String("<code>"), QStringLiteral("<span style=\"font-family:'%1'; color:%2;%3\">").arg(style.monoFamily, style.codeInk.name(), size));
        html.replace(QLatin1String("</code>"), QLatin1String("</span>"));
        out.html << html;
    }
    if (block.kind == DocBlock::Kind::Table && block.columns > 0) {
        const int rows = static_cast<int>(out.html.size()) / block.columns;
        for (int c = 0; c < block.columns; ++c)
            out.numericColumns << (rows > 1);
        for (int i = 0; i < out.html.size(); ++i) {
            const auto parts = splitAtDecimal(out.html.at(i));
            out.leftParts << (parts ? parts->first : out.html.at(i));
            out.rightParts << (parts ? parts->second : QString());
            const bool empty = QString(out.html.at(i)).remove(QRegularExpression(QStringLiteral("<[^>]*>"))).trimmed().isEmpty();
            if (i >= block.columns && !parts && !empty)
                out.numericColumns[i % block.columns] = false;
        }
    }
    return out;
}

std::optional<std::pair<QString, QString>> splitAtDecimal(const QString &html)
{
    QStringList open;   // the tags open at the split, outermost first
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
        left += QStringLiteral("</") + it->mid(1).section(QRegularExpression(QStringLiteral("[ >]")), 0, 0) + QLatin1Char('>');
    return std::make_pair(left, open.join(QString()) + html.mid(split));
}

} // namespace course
