#include <chapters/livenumbers.h>
#include <chapters/livetext.h>

#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <exception>

namespace course {

namespace {

// A token that survives Markdown untouched (letters and digits only) and
// cannot occur in real text.
QString token(int n) { return QStringLiteral("TPUCOURSELIVEVALUE%1X").arg(n); }

bool insideFence(const QStringList &lines, int upTo)
{
    bool inside = false;
    for (int i = 0; i < upTo; ++i)
        if (lines.at(i).trimmed().startsWith(QLatin1String("```")))
            inside = !inside;
    return inside;
}

// Markdown import gives every block the same small margins; a page of prose
// and code reads better with space after paragraphs, room above headings,
// and code set tight on a tinted ground.
void setPageRhythm(QTextDocument &doc, const LiveTextStyle &style)
{
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        QTextCursor cursor(block);
        QTextBlockFormat format = block.blockFormat();
        if (format.nonBreakableLines()) {
            format.setBackground(style.codeBackground);
            format.setTopMargin(0);
            format.setBottomMargin(0);
            format.setLeftMargin(style.pixelSize * 0.75);
            format.setLineHeight(118, QTextBlockFormat::ProportionalHeight);
            QTextCharFormat code;
            code.setFontFamilies({style.monoFamily});
            code.setProperty(QTextFormat::FontPixelSize, int(style.pixelSize * 0.82));
            cursor.select(QTextCursor::BlockUnderCursor);
            cursor.mergeCharFormat(code);
            cursor.clearSelection();
        } else if (format.headingLevel() > 0) {
            format.setTopMargin(style.pixelSize * 1.2);
            format.setBottomMargin(style.pixelSize * 0.4);
        } else {
            format.setTopMargin(0);
            format.setBottomMargin(style.pixelSize * 0.65);
            format.setLineHeight(140, QTextBlockFormat::ProportionalHeight);
        }
        cursor.setBlockFormat(format);
    }
}

} // namespace

QList<CodeBlock> fencedBlocks(const QString &markdown)
{
    QList<CodeBlock> blocks;
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    CodeBlock *open = nullptr;
    for (int i = 0; i < lines.size(); ++i) {
        const QString t = lines.at(i).trimmed();
        if (!t.startsWith(QLatin1String("```"))) {
            if (open)
                open->code += lines.at(i) + QLatin1Char('\n');
            continue;
        }
        if (open) {
            open = nullptr;
        } else {
            blocks.append({t.mid(3).trimmed(), QString(), i + 1});
            open = &blocks.last();
        }
    }
    return blocks;
}

LiveText renderLiveText(const QString &markdown, const QString &chip, const LiveTextStyle &style)
{
    LiveText out;
    static const QRegularExpression placeholder(QStringLiteral("(?<!\\\\)\\{\\{([^{}\\n]*)\\}\\}"));
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    QStringList replaced;
    QList<QString> valueHtml;
    for (int i = 0; i < lines.size(); ++i) {
        QString line = lines.at(i);
        if (insideFence(lines, i) || line.trimmed().startsWith(QLatin1String("```"))) {
            replaced << line;
            continue;
        }
        QString result;
        qsizetype last = 0;
        auto it = placeholder.globalMatch(line);
        while (it.hasNext()) {
            const auto m = it.next();
            result += line.mid(last, m.capturedStart() - last);
            last = m.capturedEnd();
            const int n = static_cast<int>(valueHtml.size());
            try {
                const live::Value v = live::resolve(live::parse(m.captured(1).toStdString()), chip.toStdString());
                const QColor colour = v.isFact ? style.fact : style.predicted;
                valueHtml << QStringLiteral("<a href=\"value:%1\" style=\"color:%2; text-decoration:none; font-family:'%3'; font-weight:600;\">%4</a>")
                                 .arg(n).arg(colour.name(), style.monoFamily, QString::fromStdString(v.text).toHtmlEscaped());
                out.details << QString::fromStdString(v.details);
                ++out.values;
            } catch (const live::PlaceholderError &e) {
                out.problems << QStringLiteral("line %1: {{%2}}: %3").arg(i + 1).arg(m.captured(1), QString::fromUtf8(e.what()));
                valueHtml << QStringLiteral("<span style=\"color:%1;\">[%2]</span>").arg(style.problem.name(), m.captured(0).toHtmlEscaped());
                out.details << QString::fromUtf8(e.what());
            } catch (const std::exception &e) {
                // A sound question the model answers with "not here": say so in place.
                valueHtml << QStringLiteral("<a href=\"value:%1\" style=\"color:%2; text-decoration:none; font-style:italic;\">not on %3</a>")
                                 .arg(n).arg(style.predicted.name(), chip.toHtmlEscaped());
                out.details << QStringLiteral("The model refuses this on %1: %2").arg(chip, QString::fromUtf8(e.what()));
                ++out.refusals;
            }
            result += token(n);
        }
        result += line.mid(last);
        replaced << result.replace(QLatin1String("\\{{"), QLatin1String("{{"));
    }

    QTextDocument doc;
    QFont font(style.fontFamily);
    font.setPixelSize(style.pixelSize);
    doc.setDefaultFont(font);
    doc.setMarkdown(replaced.join(QLatin1Char('\n')));
    setPageRhythm(doc, style);
    QString html = doc.toHtml();
    // Replace the highest numbers first so token 1 never eats token 10's prefix.
    for (int n = static_cast<int>(valueHtml.size()) - 1; n >= 0; --n)
        html.replace(token(n), valueHtml.at(n));
    out.html = html;
    return out;
}

} // namespace course
