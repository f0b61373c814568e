#include "reader.h"
#include "course.h"

#include <chapters/chaptersearch.h>

#include <chapters/chaptercatalog.h>
#include <chapters/chapterinfo.h>
#include <chapters/chapterinterface.h>
#include <chapters/exhibit.h>
#include <chapters/livenumbers.h>

#include <tpusim/chips.h>
#include <tpusim/fusion.h>
#include <tpusim/ir.h>
#include <tpusim/provenance.h>
#include <tpusim/roofline.h>

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <limits>

namespace {

QString kindName(course::DocBlock::Kind kind)
{
    using K = course::DocBlock::Kind;
    switch (kind) {
        case K::Heading:
            return QStringLiteral("heading");
        case K::Paragraph:
            return QStringLiteral("paragraph");
        case K::List:
            return QStringLiteral("list");
        case K::Quote:
            return QStringLiteral("quote");
        case K::Code:
            return QStringLiteral("code");
        case K::Table:
            return QStringLiteral("table");
        case K::Rule:
            return QStringLiteral("rule");
        case K::Piece:
            return QStringLiteral("piece");
        case K::Figure:
            return QStringLiteral("figure");
    }
    return {};
}

QString alignName(Qt::Alignment a)
{
    return a == Qt::AlignRight     ? QStringLiteral("right")
           : a == Qt::AlignHCenter ? QStringLiteral("center")
                                   : QStringLiteral("left");
}

QColor colourOf(const QVariantMap &style, const char *key, const QColor &fallback)
{
    const QVariant v = style.value(QLatin1String(key));
    return v.isValid() ? v.value<QColor>() : fallback;
}

QVariantList inputList(const QList<course::LiveInput> &inputs)
{
    QVariantList out;
    for (const course::LiveInput &i : inputs)
        out << QVariantMap{{"name", i.name}, {"value", i.value}, {"from", i.from},
                           {"to", i.to},     {"step", i.step},   {"logarithmic", i.logarithmic},
                           {"unit", i.unit}};
    return out;
}

QVariantMap filledMap(const course::FilledBlock &filled)
{
    QVariantMap m{{"html", filled.html}, {"details", filled.details}, {"problems", filled.problems}};
    if (!filled.numericColumns.isEmpty()) {
        QVariantList numeric;
        for (bool n : filled.numericColumns)
            numeric << n;
        m.insert({{"left", filled.leftParts}, {"right", filled.rightParts}, {"numeric", numeric}});
    }
    return m;
}

course::CodePalette paletteOf(const QVariantMap &code)
{
    const QColor plain = colourOf(code, "plain", Qt::black);
    return {plain,
            colourOf(code, "keyword", plain),
            colourOf(code, "string", plain),
            colourOf(code, "number", plain),
            colourOf(code, "comment", plain),
            colourOf(code, "type", plain),
            colourOf(code, "value", plain),
            colourOf(code, "op", plain),
            colourOf(code, "attribute", plain)};
}

} // namespace

Reader::Reader(course::ChapterCatalog &catalog, QObject *parent) : QObject(parent), m_catalog(catalog)
{
    // Between two goes the event loop runs: a key typed or a frame due
    // comes first.
    m_fillTimer.setSingleShot(true);
    m_fillTimer.setInterval(0);
    connect(&m_fillTimer, &QTimer::timeout, this, &Reader::fillForSearch);
    m_readTimer.setSingleShot(true);
    m_readTimer.setInterval(0);
    connect(&m_readTimer, &QTimer::timeout, this, [this] {
        if (readNextSections())
            m_readTimer.start();
    });
}

Reader *Reader::create(QQmlEngine *, QJSEngine *)
{
    return Course::madeByCourse<&Course::reader>();
}

void Reader::applyTextStyle(const QVariantMap &style)
{
    if (style == m_appliedStyle)
        return;
    m_appliedStyle = style;
    m_textStyle.fontFamily = style.value("font", m_textStyle.fontFamily).toString();
    m_textStyle.monoFamily = style.value("mono", m_textStyle.monoFamily).toString();
    m_textStyle.predicted = colourOf(style, "predicted", m_textStyle.predicted);
    m_textStyle.fact = colourOf(style, "fact", m_textStyle.fact);
    m_textStyle.assumed = colourOf(style, "assumed", m_textStyle.assumed);
    m_textStyle.problem = colourOf(style, "problem", m_textStyle.problem);
    m_textStyle.input = colourOf(style, "input", m_textStyle.input);
    m_textStyle.codeInk = colourOf(style, "codeInk", m_textStyle.codeInk);
    m_codePalette = paletteOf(style.value("code").toMap());
    ++m_textStyleRevision;
    emit textStyleChanged();
}

const course::ChapterDocument *Reader::documentOf(int number)
{
    if (!m_documents.contains(number)) {
        course::ChapterInterface *plugin = m_catalog.chapter(number) ? m_catalog.load(number) : nullptr;
        if (!plugin)
            return nullptr;
        const QString text = plugin->textMarkdown();
        m_documents.insert(number, course::parseChapter(plugin->introMarkdown() +
                                                        (text.isEmpty() ? QString() : QStringLiteral("\n\n") + text)));
    }
    return &m_documents[number];
}

QList<PaletteModel::Entry> Reader::searchText(const QString &query, const QString &chip)
{
    readAllSections();
    // Filling every section runs the simulator for each of its figures
    // (50-70 ms a chip for the course, bench_search_fill): done a little at
    // a time after this search, which finds what is filled so far.
    if (m_filledSections.value(chip).size() < m_sections.size() && (m_fillingChip != chip || !m_fillTimer.isActive())) {
        m_fillingChip = chip;
        m_fillTimer.start();
    }
    const QHash<int, QString> &known = m_filledSections[chip];
    const auto filledIfKnown = [&known](int at) -> const QString * {
        const auto it = known.constFind(at);
        return it == known.cend() ? nullptr : &*it;
    };
    const auto filledText = [&](int at) { return filledSection(at, chip); };
    QList<course::TextHit> hits = course::searchSections(m_sections, query, 12, filledText, filledIfKnown);
    // Nothing found, perhaps for a mistyped word: the words the text holds
    // nearest to it are searched instead, and the rows say so.
    QString searched;
    if (hits.isEmpty()) {
        searched = putRight(query);
        if (!searched.isEmpty())
            hits = course::searchSections(m_sections, searched, 12, filledText, filledIfKnown);
    }
    QList<PaletteModel::Entry> entries;
    for (const course::TextHit &hit : hits) {
        const QString chapter = QStringLiteral("ch%1").arg(hit.chapter, 2, 10, QLatin1Char('0'));
        PaletteModel::Entry entry{
            hit.anchor.isEmpty() ? chapter : chapter + QLatin1Char('#') + hit.anchor,
            QStringLiteral("in the text"),
            hit.heading,
            QStringLiteral("ch %1 · %2").arg(hit.chapter, 2, 10, QLatin1Char('0')).arg(hit.snippet),
            QString(),
            true};
        entry.marks = searched; // the palette shows the words searched for
        entries.append(entry);
    }
    return entries;
}

QString Reader::putRight(const QString &query)
{
    if (m_vocabulary.isEmpty()) {
        readAllSections();
        m_vocabulary = course::Vocabulary(m_sections);
    }
    return m_vocabulary.corrected(query);
}

const QString &Reader::filledSection(int at, const QString &chip)
{
    QHash<int, QString> &filled = m_filledSections[chip];
    if (const auto known = filled.constFind(at); known != filled.cend())
        return *known;
    const course::TextSection &section = m_sections.at(at);
    const course::ChapterDocument *doc = documentOf(section.chapter);
    return *filled.insert(at, doc ? course::filledTextOf(section, *doc, chip) : section.text);
}

bool Reader::readForSearch() const
{
    return m_sectionsRead >= m_catalog.chapters().size();
}

void Reader::readAheadForSearch()
{
    if (!readForSearch() && !m_readTimer.isActive())
        m_readTimer.start();
}

void Reader::readAllSections()
{
    // Read once: those not read ahead, now.
    m_readTimer.stop();
    while (readNextSections()) {
    }
}

bool Reader::readNextSections()
{
    const QList<course::ChapterInfo> &chapters = m_catalog.chapters();
    if (m_sectionsRead >= chapters.size())
        return false;
    const course::ChapterInfo &c = chapters.at(m_sectionsRead++);
    if (const course::ChapterDocument *doc = documentOf(c.number))
        m_sections.append(course::sectionsOf(c.number, c.title, *doc));
    return m_sectionsRead < chapters.size();
}

void Reader::fillForSearch()
{
    // A go of about a quarter of a 60 Hz frame.
    constexpr qint64 kGoNs = 4'000'000;
    if (!readForSearch())
        return;
    QElapsedTimer go;
    go.start();
    const qsizetype count = m_sections.size();
    QHash<int, QString> &filled = m_filledSections[m_fillingChip];
    for (int at = 0; at < count && go.nsecsElapsed() < kGoNs; ++at)
        if (!filled.contains(at))
            filledSection(at, m_fillingChip);
    if (filled.size() < count)
        m_fillTimer.start();
    else
        emit textFilledFor(m_fillingChip);
}

QVariantMap Reader::chapterDocument(int number, const QVariantMap &style)
{
    applyTextStyle(style);
    if (!documentOf(number))
        return {};
    // Only the outline here: each block is filled when the reader builds it,
    // so opening a chapter converts no more than the blocks it shows.
    const course::ChapterDocument &doc = m_documents[number];
    QVariantList headings;
    QVariantList pieces;
    int values = 0;
    for (int i = 0; i < doc.blocks.size(); ++i) {
        const course::DocBlock &block = doc.blocks.at(i);
        if (block.kind == course::DocBlock::Kind::Heading)
            headings << QVariantMap{
                {"index", i}, {"level", block.level}, {"anchor", block.anchor}, {"title", block.title}};
        else if (block.kind == course::DocBlock::Kind::Piece)
            pieces << QVariantMap{{"index", i}, {"pieceId", block.pieceId}};
        values += static_cast<int>(std::count_if(block.placeholders.cbegin(), block.placeholders.cend(),
                                                 [](const QString &p) { return !course::isConditionMarker(p); }) -
                                   block.inputs.size());
    }
    return {{"count", static_cast<int>(doc.blocks.size())},
            {"headings", headings},
            {"pieces", pieces},
            {"problems", doc.problems},
            {"values", values}};
}

QVariantMap Reader::documentBlock(int number, int index, const QString &chip, const QVariantMap &inputs,
                                  int codePixelSize) const
{
    const auto doc = m_documents.constFind(number);
    if (doc == m_documents.cend() || index < 0 || index >= doc->blocks.size())
        return {};
    const course::DocBlock &block = doc->blocks.at(index);
    QVariantMap b{{"kind", kindName(block.kind)}};
    switch (block.kind) {
        case course::DocBlock::Kind::Heading:
            b.insert({{"level", block.level}, {"anchor", block.anchor}, {"title", block.title}});
            break;
        case course::DocBlock::Kind::List:
            b.insert({{"ordered", block.ordered}, {"start", block.start}});
            break;
        case course::DocBlock::Kind::Table: {
            QStringList align;
            for (Qt::Alignment a : block.align)
                align << alignName(a);
            b.insert({{"columns", block.columns}, {"align", align}});
            break;
        }
        case course::DocBlock::Kind::Code:
            b.insert({{"language", block.language},
                      {"code", block.code},
                      {"styled", course::codeStyledChunks(block.code, block.language, m_codePalette)}});
            break;
        case course::DocBlock::Kind::Figure: {
            // The chapter's own resources: its plugin ships the image.
            const course::ChapterInfo *info = m_catalog.chapter(number);
            b.insert({{"source",
                       QStringLiteral("qrc:/chapters/%1/%2").arg(info ? info->slug : QString(), block.figureSource)},
                      {"path", block.figureSource},
                      {"caption", block.caption}});
            break;
        }
        case course::DocBlock::Kind::Piece: {
            QVariantMap args;
            for (auto it = block.pieceArgs.cbegin(); it != block.pieceArgs.cend(); ++it)
                args.insert(it.key(), it.value());
            b.insert({{"pieceId", block.pieceId}, {"args", args}});
            break;
        }
        default:
            break;
    }
    if (!block.texts.isEmpty()) {
        QHash<QString, double> values;
        for (auto it = inputs.cbegin(); it != inputs.cend(); ++it)
            values.insert(it.key(), it.value().toDouble());
        course::LiveTextStyle style = m_textStyle;
        style.codePixelSize = codePixelSize;
        b.insert(filledMap(course::fillBlock(block, chip, values, style)));
        b.insert("inputs", inputList(block.inputs));
    }
    return b;
}

QString Reader::codeStyled(const QString &code, const QString &language, const QVariantMap &palette) const
{
    return course::codeStyledText(code, language, paletteOf(palette));
}

QVariantMap Reader::exhibit(const QUrl &folder, const QVariantMap &style)
{
    applyTextStyle(style);
    const QString key = folder.toString();
    const auto known = m_exhibits.constFind(key);
    if (known != m_exhibits.cend())
        return *known;
    QString dir = folder.scheme() == QLatin1String("qrc") ? QLatin1Char(':') + folder.path() : folder.toLocalFile();
    if (!dir.endsWith(QLatin1Char('/')))
        dir += QLatin1Char('/');
    auto read = [&](const char *name) {
        QFile file(dir + QLatin1String(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    const QByteArray artifact = read("artifact.md");
    course::Exhibit ex =
        course::parseExhibit(QString::fromUtf8(artifact), read("annotations.json"), read("figures.json"));
    if (artifact.isEmpty())
        ex.problems.prepend(QStringLiteral("No artifact at %1.").arg(dir));
    const int docKey = kExhibitKeys + 2 * static_cast<int>(m_exhibits.size());
    m_documents.insert(docKey, ex.artifact);
    m_documents.insert(docKey + 1, ex.notes);

    QVariantList parts;
    for (const course::ExhibitPart &part : ex.parts) {
        QVariantList notes;
        for (int n : part.notes)
            notes << QVariantMap{{"index", ex.pins.at(n).block},
                                 {"mark", ex.pins.at(n).mark},
                                 {"markedBlock", ex.pins.at(n).markedBlock}};
        parts << QVariantMap{{"anchor", part.anchor},
                             {"title", part.title},
                             {"first", part.first},
                             {"last", part.last},
                             {"notes", notes}};
    }
    QVariantList charts;
    for (const course::ExhibitChart &c : ex.charts)
        charts << QVariantMap{
            {"title", c.title}, {"figure", c.figure}, {"note", c.note}, {"kind", c.kind}, {"anchor", c.anchor}};
    const QVariantMap out{
        {"key", docKey},   {"notesKey", docKey + 1}, {"title", ex.title},
        {"lead", ex.lead}, {"links", ex.links},      {"count", static_cast<int>(ex.artifact.blocks.size())},
        {"parts", parts},  {"charts", charts},       {"problems", ex.problems}};
    m_exhibits.insert(key, out);
    return out;
}

QVariantMap Reader::liveFigure(const QString &figure, const QString &chip) const
{
    try {
        const course::live::Value v =
            course::live::resolve(course::live::parse(figure.toStdString()), chip.toStdString());
        const QString details = QString::fromStdString(v.details);
        return {{"text", QString::fromStdString(v.text)},
                {"number", v.number},
                {"isFact", v.isFact},
                {"isAssumption", v.isAssumption},
                {"source", QString::fromStdString(v.source)},
                {"details", details}};
    } catch (const std::exception &e) {
        return {{"text", QStringLiteral("?")},
                {"number", std::numeric_limits<double>::quiet_NaN()},
                {"isFact", false},
                {"problem", QString::fromUtf8(e.what())}};
    }
}

QVariantMap Reader::hloKernels(const QUrl &folder, const QString &file, const QString &chip) const
{
    QString path = folder.scheme() == QLatin1String("qrc") ? QLatin1Char(':') + folder.path() : folder.toLocalFile();
    if (!path.endsWith(QLatin1Char('/')))
        path += QLatin1Char('/');
    QFile in(path + file);
    if (!in.open(QIODevice::ReadOnly))
        return {{"problem", QStringLiteral("No dump at %1.").arg(path + file)}};
    try {
        const std::string text = in.readAll().toStdString();
        const tpusim::fusion::HloCost cost =
            tpusim::fusion::cost_hlo_kernels(tpusim::ir::parse_hlo(text), tpusim::chip(chip.toStdString()));
        QVariantList kernels;
        for (const tpusim::fusion::HloKernel &k : cost.kernels)
            kernels << QVariantMap{
                {"line", k.position.line},
                {"name", QString::fromStdString(k.name)},
                {"kind", QString::fromStdString(k.kind)},
                {"engine", k.engine == tpusim::Engine::mxu ? QStringLiteral("MXU") : QStringLiteral("VPU")},
                {"flops",
                 k.flops > 0 ? QString::fromStdString(tpusim::format_rate(k.flops, "FLOP")) : QStringLiteral("0")},
                {"read", QString::fromStdString(tpusim::format_bytes(k.bytes_read))},
                {"written", QString::fromStdString(tpusim::format_bytes(k.bytes_written))},
                {"time", QString::fromStdString(tpusim::format_time(k.time_s))},
                {"seconds", k.time_s},
                {"bound", QString::fromStdString(std::string(tpusim::bound_name(k.bound)))}};
        return {{"kernels", kernels},
                {"time", QString::fromStdString(tpusim::format_time(cost.time_s))},
                {"details", QString::fromStdString(tpusim::describe(cost.provenance))}};
    } catch (const std::exception &e) {
        return {{"problem", QString::fromUtf8(e.what())}};
    }
}
