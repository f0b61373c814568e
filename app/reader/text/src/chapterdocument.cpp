#include "liveinput.h"
#include "liveslots.h"

#include <chapters/chapterdocument.h>
#include <chapters/livenumbers.h>

#include <md4c.h>

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

namespace course {

namespace {

// Live numbers are swapped for tokens (liveslots.h) before md4c sees the
// text; code gets the original text back.
const QString kEscapedBraces = QStringLiteral("TPUCOURSEBRACESX");
using liveslots::substitute;

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
        out.text += liveslots::token(static_cast<int>(out.placeholders.size()));
        out.placeholders << m.captured(1).trimmed();
        out.lines << static_cast<int>(QStringView(markdown).left(m.capturedStart()).count(QLatin1Char('\n'))) + 1;
    }
    out.text += markdown.mid(last);
    return out;
}

QString untokenize(QString text, const QStringList &placeholders)
{
    text.replace(kEscapedBraces, QStringLiteral("\\{{"));
    return substitute(text, [&](int n) { return QStringLiteral("{{") + placeholders.value(n) + QStringLiteral("}}"); });
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
                m_images.clear();
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
                if (m_quoteDepth == 0 && m_listDepth == 0) {
                    takeFigure();
                    takeDirective();
                } else if (!m_images.isEmpty()) {
                    document.problems
                        << QStringLiteral("The image %1 sits inside a list or quote; give it a paragraph of its own.")
                               .arg(m_images.first().src);
                }
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
            case MD_SPAN_EM:
                write(QStringLiteral("<i>"));
                break;
            case MD_SPAN_STRONG:
                write(QStringLiteral("<b>"));
                break;
            case MD_SPAN_CODE:
                write(QStringLiteral("<code>"));
                break;
            case MD_SPAN_DEL:
                write(QStringLiteral("<s>"));
                break;
            case MD_SPAN_A:
                write(QStringLiteral("<a href=\"%1\">")
                          .arg(attributeText(static_cast<MD_SPAN_A_DETAIL *>(detail)->href).toHtmlEscaped()));
                break;
            case MD_SPAN_IMG: {
                const auto *image = static_cast<MD_SPAN_IMG_DETAIL *>(detail);
                m_image = {attributeText(image->src), attributeText(image->title), QString()};
                m_inImage = true;
                break;
            }
            default:
                break;
        }
        return 0;
    }

    int leaveSpan(MD_SPANTYPE type, void *)
    {
        switch (type) {
            case MD_SPAN_EM:
                write(QStringLiteral("</i>"));
                break;
            case MD_SPAN_STRONG:
                write(QStringLiteral("</b>"));
                break;
            case MD_SPAN_CODE:
                write(QStringLiteral("</code>"));
                break;
            case MD_SPAN_DEL:
                write(QStringLiteral("</s>"));
                break;
            case MD_SPAN_A:
                write(QStringLiteral("</a>"));
                break;
            case MD_SPAN_IMG:
                m_inImage = false;
                m_images << m_image;
                break;
            default:
                break;
        }
        return 0;
    }

    int text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size)
    {
        const QString t = QString::fromUtf8(text, static_cast<qsizetype>(size));
        if (m_inImage) {
            m_image.alt += t; // an image's alt text is its description, not prose
            return 0;
        }
        if (m_inCode) {
            if (!document.blocks.isEmpty() && current().kind == DocBlock::Kind::Code)
                current().code += t;
            return 0;
        }
        switch (type) {
            case MD_TEXT_BR:
                write(QStringLiteral("<br>"));
                break;
            case MD_TEXT_SOFTBR:
                write(QStringLiteral(" "));
                m_plain += QLatin1Char(' ');
                break;
            case MD_TEXT_ENTITY:
                write(t);
                break; // already an HTML entity
            case MD_TEXT_NULLCHAR:
                write(QStringLiteral("\uFFFD"));
                break;
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
    // A paragraph that is one image and nothing else is a figure. Figures
    // ship with the chapter: a web address would be a download, and is
    // refused like an image in the middle of a sentence.
    void takeFigure()
    {
        if (m_images.isEmpty())
            return;
        const Image image = m_images.first();
        const bool alone = m_images.size() == 1 && m_plain.trimmed().isEmpty();
        if (!alone) {
            document.problems << QStringLiteral("The image %1 sits inside a sentence; give it a paragraph of its own.")
                                     .arg(image.src);
            return;
        }
        if (image.src.contains(QLatin1String("://")) || image.src.startsWith(QLatin1Char('/'))) {
            document.problems << QStringLiteral(
                                     "The image %1 is not in the chapter's folder; figures ship with the course.")
                                     .arg(image.src);
            return;
        }
        DocBlock figure;
        figure.kind = DocBlock::Kind::Figure;
        figure.figureSource = image.src;
        figure.caption = image.title.isEmpty() ? image.alt.simplified() : image.title;
        current() = figure;
    }

    // A paragraph that reads "::: piece EX09 preset=race" embeds a piece.
    void takeDirective()
    {
        const QString plain = m_plain.trimmed();
        if (!plain.startsWith(QLatin1String(":::")))
            return;
        const QStringList words = plain.mid(3).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() < 2 || words.at(0) != QLatin1String("piece")) {
            document.problems << QStringLiteral(
                                     "\"%1\" is not a directive the reader knows; write \"::: piece ID key=value\".")
                                     .arg(plain);
            return;
        }
        DocBlock piece;
        piece.kind = DocBlock::Kind::Piece;
        piece.pieceId = words.at(1);
        for (int i = 2; i < words.size(); ++i) {
            const qsizetype eq = words.at(i).indexOf(QLatin1Char('='));
            if (eq <= 0) {
                document.problems
                    << QStringLiteral("piece %1: \"%2\" is not key=value.").arg(piece.pieceId, words.at(i));
                continue;
            }
            piece.pieceArgs.insert(words.at(i).left(eq), words.at(i).mid(eq + 1));
        }
        current() = piece;
    }

    struct Image
    {
        QString src, title, alt;
    };
    Image m_image;
    QList<Image> m_images; // in the current paragraph
    bool m_inImage = false;

    const Tokenized &m_tokens;
    int m_quoteDepth = 0;
    int m_listDepth = 0;
    bool m_inCode = false;
    bool m_inHeader = false;
    QString m_plain; // the current heading's or paragraph's text, without markup
    QStringList m_anchors;
};

// The slots of each block renumbered from 0, with their placeholders.
void collectSlots(DocBlock &block, const Tokenized &tokens, QStringList &problems)
{
    for (QString &text : block.texts) {
        text = substitute(text, [&](int global) {
            const QString spec = tokens.placeholders.value(global);
            const int line = tokens.lines.value(global);
            if (spec.startsWith(QLatin1String("input "))) {
                LiveInput input;
                QString problem;
                if (parseLiveInput(spec, input, problem))
                    block.inputs << input;
                else
                    problems << QStringLiteral("line %1: %2").arg(line).arg(problem);
            }
            const QString local = liveslots::token(static_cast<int>(block.placeholders.size()));
            block.placeholders << spec;
            block.lines << line;
            return local;
        });
        text.replace(kEscapedBraces, QStringLiteral("{{"));
    }
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
    parser.text = [](MD_TEXTTYPE t, const MD_CHAR *s, MD_SIZE n, void *u) {
        return static_cast<Builder *>(u)->text(t, s, n);
    };
    const QByteArray utf8 = tokens.text.toUtf8();
    if (md_parse(utf8.constData(), static_cast<MD_SIZE>(utf8.size()), &parser, &builder) != 0)
        builder.document.problems << QStringLiteral("The chapter's Markdown could not be parsed.");
    ChapterDocument doc = std::move(builder.document);
    for (DocBlock &block : doc.blocks)
        collectSlots(block, tokens, doc.problems);
    return doc;
}

} // namespace course
