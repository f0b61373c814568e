#include <chapters/exhibit.h>

#include <chapters/livenumbers.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace course {

namespace {

QJsonObject objectOf(const QByteArray &json, const QString &name, QStringList &problems)
{
    if (json.isEmpty())
        return {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (!doc.isObject()) {
        problems << QStringLiteral("%1 is not a JSON object (%2).").arg(name, error.errorString());
        return {};
    }
    return doc.object();
}

} // namespace

QString blockPlainText(const DocBlock &block)
{
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    QString out = block.title + QLatin1Char('\n') + block.code;
    for (const QString &t : block.texts)
        out += QLatin1Char('\n') + QString(t).remove(tags);
    return out.replace(QStringLiteral("&lt;"), QStringLiteral("<"))
        .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
        .replace(QStringLiteral("&quot;"), QStringLiteral("\""))
        .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
}

Exhibit parseExhibit(const QString &artifact, const QByteArray &annotations, const QByteArray &figures)
{
    Exhibit ex;
    ex.artifact = parseChapter(artifact);
    ex.problems = ex.artifact.problems;
    if (ex.artifact.blocks.isEmpty())
        ex.problems << QStringLiteral("The artifact is empty.");

    // Parts: a heading and the blocks up to the next one.
    for (int i = 0; i < ex.artifact.blocks.size(); ++i) {
        const DocBlock &b = ex.artifact.blocks.at(i);
        if (b.kind == DocBlock::Kind::Heading || ex.parts.isEmpty()) {
            ExhibitPart part;
            part.first = i;
            if (b.kind == DocBlock::Kind::Heading) {
                part.anchor = b.anchor;
                part.title = b.title;
            }
            ex.parts << part;
        }
        ex.parts.last().last = i + 1;
    }

    const QJsonObject notes = objectOf(annotations, QStringLiteral("annotations.json"), ex.problems);
    ex.title = notes.value(QStringLiteral("title")).toString();
    ex.lead = notes.value(QStringLiteral("lead")).toString();
    for (const QJsonValue &v : notes.value(QStringLiteral("links")).toArray())
        ex.links << v.toString();
    for (const QJsonValue &v : notes.value(QStringLiteral("notes")).toArray()) {
        const QJsonObject n = v.toObject();
        ExhibitNote pin;
        pin.anchor = n.value(QStringLiteral("anchor")).toString();
        pin.mark = n.value(QStringLiteral("mark")).toString();
        const ChapterDocument text = parseChapter(n.value(QStringLiteral("text")).toString());
        if (text.blocks.size() != 1 || text.blocks.first().kind != DocBlock::Kind::Paragraph) {
            ex.problems << QStringLiteral("The note on \"%1\" is not one paragraph.").arg(pin.anchor);
            continue;
        }
        ex.problems << text.problems;
        const auto part = std::find_if(ex.parts.begin(), ex.parts.end(),
                                       [&](const ExhibitPart &p) { return p.anchor == pin.anchor; });
        if (pin.anchor.isEmpty() || part == ex.parts.end()) {
            ex.problems
                << QStringLiteral("A note is pinned to \"%1\", which is no heading of the artifact.").arg(pin.anchor);
            continue;
        }
        if (!pin.mark.isEmpty()) {
            for (int i = part->first; i < part->last && pin.markedBlock < 0; ++i)
                if (blockPlainText(ex.artifact.blocks.at(i)).contains(pin.mark))
                    pin.markedBlock = i;
            if (pin.markedBlock < 0) {
                ex.problems << QStringLiteral("The note on \"%1\" marks \"%2\", which that part does not hold.")
                                   .arg(pin.anchor, pin.mark);
                continue;
            }
        }
        pin.block = static_cast<int>(ex.notes.blocks.size());
        ex.notes.blocks << text.blocks.first();
        part->notes << static_cast<int>(ex.pins.size());
        ex.pins << pin;
    }

    const QJsonObject charts = objectOf(figures, QStringLiteral("figures.json"), ex.problems);
    for (const QJsonValue &v : charts.value(QStringLiteral("charts")).toArray()) {
        const QJsonObject c = v.toObject();
        ExhibitChart chart{c.value(QStringLiteral("title")).toString(), c.value(QStringLiteral("figure")).toString(),
                           c.value(QStringLiteral("note")).toString(),
                           c.value(QStringLiteral("kind")).toString(QStringLiteral("bars")),
                           c.value(QStringLiteral("anchor")).toString()};
        if (chart.kind != QLatin1String("bars") && chart.kind != QLatin1String("timeline") &&
            chart.kind != QLatin1String("kernels")) {
            ex.problems
                << QStringLiteral("The chart \"%1\" is of no kind the viewer draws (%2).").arg(chart.title, chart.kind);
            continue;
        }
        if (chart.anchor.isEmpty() != (chart.kind == QLatin1String("bars"))) {
            ex.problems << QStringLiteral(
                               "The chart \"%1\": bars go above the artifact, a timeline in a part (\"anchor\").")
                               .arg(chart.title);
            continue;
        }
        if (!chart.anchor.isEmpty() && std::none_of(ex.parts.cbegin(), ex.parts.cend(),
                                                    [&](const ExhibitPart &p) { return p.anchor == chart.anchor; })) {
            ex.problems << QStringLiteral("The chart \"%1\" is set in \"%2\", which is no heading of the artifact.")
                               .arg(chart.title, chart.anchor);
            continue;
        }
        if (chart.kind == QLatin1String("kernels")) {
            // `figure` names an HLO file of the folder; the viewer costs it.
            if (!chart.figure.endsWith(QLatin1String(".hlo")))
                ex.problems << QStringLiteral("The kernels of \"%1\" need an .hlo file, not \"%2\".")
                                   .arg(chart.title, chart.figure);
            else
                ex.charts << chart;
            continue;
        }
        try {
            const live::Placeholder p = live::parse(chart.figure.toStdString());
            if (chart.kind == QLatin1String("timeline") && p.kind != "collective_matmul") {
                ex.problems
                    << QStringLiteral("The timeline \"%1\" draws a collective_matmul figure only.").arg(chart.title);
                continue;
            }
            if (p.args.count("chip")) {
                ex.problems
                    << QStringLiteral("The chart \"%1\" names a chip; a chart asks every chip.").arg(chart.title);
                continue;
            }
        } catch (const std::exception &e) {
            ex.problems << QStringLiteral("The chart \"%1\": %2").arg(chart.title, QString::fromUtf8(e.what()));
            continue;
        }
        ex.charts << chart;
    }
    return ex;
}

} // namespace course
