#include <chapters/chapterdocument.h>
#include <chapters/livenumbers.h>

#include <md4c.h>

#include <QRegularExpression>

#include <algorithm>
#include <optional>
#include <cmath>
#include <exception>

namespace course {

namespace {

// Live numbers are swapped for letters-and-digits tokens before md4c sees the
// text, so Markdown never reads their underscores or stars; code gets the
// original text back.
const QString kSlotPrefix = QStringLiteral("TPUCOURSESLOT");
const QString kEscapedBraces = QStringLiteral("TPUCOURSEBRACESX");
QString slotToken(int n) { return kSlotPrefix + QString::number(n) + QLatin1Char('X'); }
const QRegularExpression &slotPattern()
{
    static const QRegularExpression rx(QStringLiteral("TPUCOURSESLOT(\\d+)X"));
    return rx;
}

struct Tokenized
{
    QString text;
    QStringList placeholders; // by global slot number
    QList<int> lines;         // each placeholder's line in the Markdown, 1-based
};

Tokenized tokenize(const QString &markdown)
{
    static const QRegularExpression placeholder(QStringLiteral("\\\\\\{\\{|\\{\\{([^{}\\n]*)\\}\\}"));
    Tokenized out;
    qsizetype last = 0;
    auto it = placeholder.globalMatch(markdown);
    while (it.hasNext()) {
        const auto m = it.next();
        out.text += markdown.mid(last, m.capturedStart() - last);
        last = m.capturedEnd();
        if (m.captured(0).startsWith(QLatin1Char('\\'))) {
            out.text += kEscapedBraces;
            continue;
        }
        out.text += slotToken(static_cast<int>(out.placeholders.size()));
        out.placeholders << m.captured(1).trimmed();
        out.lines << static_cast<int>(QStringView(markdown).left(m.capturedStart()).count(QLatin1Char('\n'))) + 1;
    }
    out.text += markdown.mid(last);
    return out;
}

QString untokenize(QString text, const QStringList &placeholders)
{
    text.replace(kEscapedBraces, QStringLiteral("\\{{"));
    QString out;
    qsizetype last = 0;
    auto it = slotPattern().globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out += text.mid(last, m.capturedStart() - last);
        last = m.capturedEnd();
        const int n = m.captured(1).toInt();
        out += QStringLiteral("{{") + placeholders.value(n) + QStringLiteral("}}");
    }
    return out + text.mid(last);
}

QString attributeText(const MD_ATTRIBUTE &attribute)
{
    return QString::fromUtf8(attribute.text, static_cast<qsizetype>(attribute.size));
}

// Builds blocks from md4c's callbacks. Inline content goes to `inlineTarget`,
// the text being written (a paragraph, a list item, a cell).
class Builder
{
public:
    explicit Builder(const Tokenized &tokens) : m_tokens(tokens) {}

    ChapterDocument document;

    int enterBlock(MD_BLOCKTYPE type, void *detail)
    {
        switch (type) {
        case MD_BLOCK_DOC:
            break;
        case MD_BLOCK_QUOTE:
            ++m_quoteDepth;
            if (m_quoteDepth == 1 && m_listDepth == 0)
                begin(DocBlock::Kind::Quote).texts << QString();
            break;
        case MD_BLOCK_UL:
        case MD_BLOCK_OL:
            if (++m_listDepth == 1 && m_quoteDepth == 0) {
                DocBlock &list = begin(DocBlock::Kind::List);
                list.ordered = type == MD_BLOCK_OL;
                if (list.ordered)
                    list.start = static_cast<int>(static_cast<MD_BLOCK_OL_DETAIL *>(detail)->start);
            }
            break;
        case MD_BLOCK_LI:
            if (m_quoteDepth == 0 && m_listDepth == 1)
                current().texts << QString();
            else
                separate(QStringLiteral("<br>• "));
            break;
        case MD_BLOCK_HR:
            if (m_quoteDepth == 0 && m_listDepth == 0)
                begin(DocBlock::Kind::Rule);
            break;
        case MD_BLOCK_H:
            if (m_quoteDepth == 0 && m_listDepth == 0) {
                DocBlock &heading = begin(DocBlock::Kind::Heading);
                heading.level = static_cast<int>(static_cast<MD_BLOCK_H_DETAIL *>(detail)->level);
                heading.texts << QString();
                m_plain.clear();
            }
            break;
        case MD_BLOCK_CODE: {
            if (m_quoteDepth == 0 && m_listDepth == 0) {
                DocBlock &code = begin(DocBlock::Kind::Code);
                code.language = attributeText(static_cast<MD_BLOCK_CODE_DETAIL *>(detail)->lang);
            }
            m_inCode = true;
            break;
        }
        case MD_BLOCK_HTML:
            m_inCode = true;
            break;
        case MD_BLOCK_P:
            if (m_quoteDepth == 0 && m_listDepth == 0) {
                begin(DocBlock::Kind::Paragraph).texts << QString();
                m_plain.clear();
            } else {
                separate(QStringLiteral("<br><br>"));
            }
            break;
        case MD_BLOCK_TABLE:
            if (m_quoteDepth == 0 && m_listDepth == 0)
                begin(DocBlock::Kind::Table);
            break;
        case MD_BLOCK_TH:
        case MD_BLOCK_TD: {
            DocBlock &table = current();
            const auto *cell = static_cast<MD_BLOCK_TD_DETAIL *>(detail);
            if (m_inHeader) {
                ++table.columns;
                table.align << (cell->align == MD_ALIGN_RIGHT    ? Qt::AlignRight
                                : cell->align == MD_ALIGN_CENTER ? Qt::AlignHCenter
                                                                 : Qt::AlignLeft);
            }
            table.texts << QString();
            break;
        }
        case MD_BLOCK_THEAD:
            m_inHeader = true;
            break;
        case MD_BLOCK_TBODY:
        case MD_BLOCK_TR:
            break;
        }
        return 0;
    }

    int leaveBlock(MD_BLOCKTYPE type, void *)
    {
        switch (type) {
        case MD_BLOCK_QUOTE:
            --m_quoteDepth;
            break;
        case MD_BLOCK_UL:
        case MD_BLOCK_OL:
            --m_listDepth;
            break;
        case MD_BLOCK_CODE:
        case MD_BLOCK_HTML:
            m_inCode = false;
            if (!document.blocks.isEmpty() && current().kind == DocBlock::Kind::Code)
                current().code = untokenize(current().code, m_tokens.placeholders);
            break;
        case MD_BLOCK_H:
            if (m_quoteDepth == 0 && m_listDepth == 0) {
                current().title = untokenize(m_plain.simplified(), m_tokens.placeholders);
                current().anchor = uniqueAnchor(headingAnchor(current().title));
            }
            break;
        case MD_BLOCK_P:
            if (m_quoteDepth == 0 && m_listDepth == 0)
                takeDirective();
            break;
        case MD_BLOCK_THEAD:
            m_inHeader = false;
            break;
        case MD_BLOCK_TR: {
            // A body row with fewer cells than the header gets empty ones.
            DocBlock &table = current();
            while (table.columns > 0 && table.texts.size() % table.columns != 0)
                table.texts << QString();
            break;
        }
        default:
            break;
        }
        return 0;
    }

    int enterSpan(MD_SPANTYPE type, void *detail)
    {
        switch (type) {
        case MD_SPAN_EM: write(QStringLiteral("<i>")); break;
        case MD_SPAN_STRONG: write(QStringLiteral("<b>")); break;
        case MD_SPAN_CODE: write(QStringLiteral("<code>")); break;
        case MD_SPAN_DEL: write(QStringLiteral("<s>")); break;
        case MD_SPAN_A:
            write(QStringLiteral("<a href=\"%1\">").arg(attributeText(static_cast<MD_SPAN_A_DETAIL *>(detail)->href).toHtmlEscaped()));
            break;
        case MD_SPAN_IMG: write(QStringLiteral("<i>[figure: ")); break;
        default: break;
        }
        return 0;
    }

    int leaveSpan(MD_SPANTYPE type, void *)
    {
        switch (type) {
        case MD_SPAN_EM: write(QStringLiteral("</i>")); break;
        case MD_SPAN_STRONG: write(QStringLiteral("</b>")); break;
        case MD_SPAN_CODE: write(QStringLiteral("</code>")); break;
        case MD_SPAN_DEL: write(QStringLiteral("</s>")); break;
        case MD_SPAN_A: write(QStringLiteral("</a>")); break;
        case MD_SPAN_IMG: write(QStringLiteral("]</i>")); break;
        default: break;
        }
        return 0;
    }

    int text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size)
    {
        const QString t = QString::fromUtf8(text, static_cast<qsizetype>(size));
        if (m_inCode) {
            if (!document.blocks.isEmpty() && current().kind == DocBlock::Kind::Code)
                current().code += t;
            return 0;
        }
        switch (type) {
        case MD_TEXT_BR: write(QStringLiteral("<br>")); break;
        case MD_TEXT_SOFTBR: write(QStringLiteral(" ")); m_plain += QLatin1Char(' '); break;
        case MD_TEXT_ENTITY: write(t); break; // already an HTML entity
        case MD_TEXT_NULLCHAR: write(QStringLiteral("\uFFFD")); break;
        case MD_TEXT_CODE:
            // Code spans show placeholders as written, never filled.
            write(untokenize(t, m_tokens.placeholders).toHtmlEscaped());
            m_plain += t;
            break;
        default:
            write(t.toHtmlEscaped());
            m_plain += t;
            break;
        }
        return 0;
    }

private:
    DocBlock &current() { return document.blocks.last(); }
    DocBlock &begin(DocBlock::Kind kind)
    {
        document.blocks.append(DocBlock{});
        document.blocks.last().kind = kind;
        return document.blocks.last();
    }
    void write(const QString &html)
    {
        if (document.blocks.isEmpty() || current().texts.isEmpty())
            return;
        current().texts.last() += html;
    }
    // A second paragraph in a quote or list item, a nested item.
    void separate(const QString &html)
    {
        if (!document.blocks.isEmpty() && !current().texts.isEmpty() && !current().texts.last().isEmpty())
            current().texts.last() += html;
    }
    QString uniqueAnchor(const QString &anchor)
    {
        QString candidate = anchor;
        for (int n = 2; m_anchors.contains(candidate); ++n)
            candidate = anchor + QLatin1Char('-') + QString::number(n);
        m_anchors << candidate;
        return candidate;
    }
    // A paragraph that reads "::: piece EX09 preset=race" embeds a piece.
    void takeDirective()
    {
        const QString plain = m_plain.trimmed();
        if (!plain.startsWith(QLatin1String(":::")))
            return;
        const QStringList words = plain.mid(3).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() < 2 || words.at(0) != QLatin1String("piece")) {
            document.problems << QStringLiteral("\"%1\" is not a directive the reader knows; write \"::: piece ID key=value\".").arg(plain);
            return;
        }
        DocBlock piece;
        piece.kind = DocBlock::Kind::Piece;
        piece.pieceId = words.at(1);
        for (int i = 2; i < words.size(); ++i) {
            const qsizetype eq = words.at(i).indexOf(QLatin1Char('='));
            if (eq <= 0) {
                document.problems << QStringLiteral("piece %1: \"%2\" is not key=value.").arg(piece.pieceId, words.at(i));
                continue;
            }
            piece.pieceArgs.insert(words.at(i).left(eq), words.at(i).mid(eq + 1));
        }
        current() = piece;
    }

    const Tokenized &m_tokens;
    int m_quoteDepth = 0;
    int m_listDepth = 0;
    bool m_inCode = false;
    bool m_inHeader = false;
    QString m_plain; // the current heading's or paragraph's text, without markup
    QStringList m_anchors;
};

// {{input n=4096 from=256 to=16384 step=256 log unit=rows}}
bool parseInput(const QString &spec, LiveInput &input, QString &problem)
{
    const QStringList words = spec.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (int i = 1; i < words.size(); ++i) {
        const QString &w = words.at(i);
        const qsizetype eq = w.indexOf(QLatin1Char('='));
        const QString key = eq < 0 ? w : w.left(eq);
        const QString value = eq < 0 ? QString() : w.mid(eq + 1);
        bool ok = true;
        if (key == QLatin1String("log") && eq < 0)
            input.logarithmic = true;
        else if (key == QLatin1String("from"))
            input.from = value.toDouble(&ok);
        else if (key == QLatin1String("to"))
            input.to = value.toDouble(&ok);
        else if (key == QLatin1String("step"))
            input.step = value.toDouble(&ok);
        else if (key == QLatin1String("unit"))
            input.unit = value;
        else if (input.name.isEmpty() && eq > 0 && key.front().isLetter())
            input.name = key, input.value = value.toDouble(&ok);
        else
            ok = false;
        if (!ok) {
            problem = QStringLiteral("{{%1}}: \"%2\" is not something an input takes (name=value, from=, to=, step=, log, unit=).").arg(spec, w);
            return false;
        }
    }
    if (input.name.isEmpty() || !(input.from < input.to) || input.value < input.from || input.value > input.to || input.step <= 0) {
        problem = QStringLiteral("{{%1}}: an input needs name=value with from <= value <= to, from < to and a positive step.").arg(spec);
        return false;
    }
    return true;
}

// The slots of each block renumbered from 0, with their placeholders.
void collectSlots(DocBlock &block, const Tokenized &tokens, QStringList &problems)
{
    for (QString &text : block.texts) {
        QString out;
        qsizetype last = 0;
        auto it = slotPattern().globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            out += text.mid(last, m.capturedStart() - last);
            last = m.capturedEnd();
            const int global = m.captured(1).toInt();
            const QString spec = tokens.placeholders.value(global);
            const int line = tokens.lines.value(global);
            if (spec.startsWith(QLatin1String("input "))) {
                LiveInput input;
                QString problem;
                if (parseInput(spec, input, problem))
                    block.inputs << input;
                else
                    problems << QStringLiteral("line %1: %2").arg(line).arg(problem);
            }
            out += slotToken(static_cast<int>(block.placeholders.size()));
            block.placeholders << spec;
            block.lines << line;
        }
        text = out + text.mid(last);
        text.replace(kEscapedBraces, QStringLiteral("{{"));
    }
}

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

QString headingAnchor(const QString &title)
{
    QString out;
    bool dash = false;
    for (const QChar c : title.toLower()) {
        if (c.isLetterOrNumber()) {
            if (dash && !out.isEmpty())
                out += QLatin1Char('-');
            out += c;
            dash = false;
        } else {
            dash = true;
        }
    }
    return out.isEmpty() ? QStringLiteral("section") : out;
}

ChapterDocument parseChapter(const QString &markdown)
{
    const Tokenized tokens = tokenize(markdown);
    Builder builder(tokens);
    MD_PARSER parser{};
    parser.abi_version = 0;
    parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_NOHTML | MD_FLAG_PERMISSIVEURLAUTOLINKS;
    parser.enter_block = [](MD_BLOCKTYPE t, void *d, void *u) { return static_cast<Builder *>(u)->enterBlock(t, d); };
    parser.leave_block = [](MD_BLOCKTYPE t, void *d, void *u) { return static_cast<Builder *>(u)->leaveBlock(t, d); };
    parser.enter_span = [](MD_SPANTYPE t, void *d, void *u) { return static_cast<Builder *>(u)->enterSpan(t, d); };
    parser.leave_span = [](MD_SPANTYPE t, void *d, void *u) { return static_cast<Builder *>(u)->leaveSpan(t, d); };
    parser.text = [](MD_TEXTTYPE t, const MD_CHAR *s, MD_SIZE n, void *u) { return static_cast<Builder *>(u)->text(t, s, n); };
    const QByteArray utf8 = tokens.text.toUtf8();
    if (md_parse(utf8.constData(), static_cast<MD_SIZE>(utf8.size()), &parser, &builder) != 0)
        builder.document.problems << QStringLiteral("The chapter's Markdown could not be parsed.");
    ChapterDocument doc = std::move(builder.document);
    for (DocBlock &block : doc.blocks)
        collectSlots(block, tokens, doc.problems);
    return doc;
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
        QString html;
        qsizetype last = 0;
        auto it = slotPattern().globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            html += text.mid(last, m.capturedStart() - last);
            last = m.capturedEnd();
            html += valueHtml.value(m.captured(1).toInt());
        }
        html += text.mid(last);
        html.replace(QLatin1String("<code>"), QStringLiteral("<span style=\"font-family:'%1'; color:%2;\">").arg(style.monoFamily, style.codeInk.name()));
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
