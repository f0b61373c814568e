#include <chapters/chapterinfo.h>
#include <chapters/chapterinterface.h>

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace course {

QString WorkshopPiece::displayId() const
{
    if (id.startsWith(QLatin1String("EX")))
        return QStringLiteral("EX·") + id.mid(2);
    return id;
}

namespace {

// Collects the first problem; later checks become no-ops once one is found,
// so the learner reads the cause, not a cascade.
class Reader
{
public:
    explicit Reader(QString *error) : m_error(error) {}

    bool ok() const { return m_failed == false; }

    void fail(const QString &message)
    {
        if (m_failed)
            return;
        m_failed = true;
        if (m_error)
            *m_error = message;
    }

    QString string(const QJsonObject &o, const QString &key, const QString &where, bool required = true)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() && !required)
            return {};
        if (!v.isString() || (required && v.toString().trimmed().isEmpty())) {
            fail(QStringLiteral("%1: \"%2\" must be a non-empty string.").arg(where, key));
            return {};
        }
        return v.toString();
    }

    int integer(const QJsonObject &o, const QString &key, const QString &where, int lo, int hi)
    {
        const QJsonValue v = o.value(key);
        const double d = v.toDouble(-1.0);
        if (!v.isDouble() || d != static_cast<int>(d) || d < lo || d > hi) {
            fail(QStringLiteral("%1: \"%2\" must be a whole number from %3 to %4.").arg(where, key).arg(lo).arg(hi));
            return lo;
        }
        return static_cast<int>(d);
    }

    QJsonArray array(const QJsonObject &o, const QString &key, const QString &where)
    {
        const QJsonValue v = o.value(key);
        if (!v.isArray()) {
            fail(QStringLiteral("%1: \"%2\" must be a list.").arg(where, key));
            return {};
        }
        return v.toArray();
    }

    QJsonObject object(const QJsonValue &v, const QString &where)
    {
        if (!v.isObject()) {
            fail(QStringLiteral("%1 must be an object.").arg(where));
            return {};
        }
        return v.toObject();
    }

    void onlyKeys(const QJsonObject &o, const QStringList &allowed, const QString &where)
    {
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!allowed.contains(it.key()))
                fail(QStringLiteral("%1: unknown key \"%2\".").arg(where, it.key()));
    }

private:
    QString *m_error;
    bool m_failed = false;
};

const QStringList pieceKinds{QStringLiteral("instrument"), QStringLiteral("drill"), QStringLiteral("exhibit"),
                             QStringLiteral("lab")};

bool pieceIdFitsKind(const QString &id, const QString &kind)
{
    static const QRegularExpression instrument(QStringLiteral("^EX\\d\\d$"));
    static const QRegularExpression drill(QStringLiteral("^D\\d$"));
    static const QRegularExpression exhibit(QStringLiteral("^M\\d$"));
    static const QRegularExpression lab(QStringLiteral("^L\\d\\d$"));
    if (kind == QLatin1String("instrument"))
        return instrument.match(id).hasMatch();
    if (kind == QLatin1String("drill"))
        return drill.match(id).hasMatch();
    if (kind == QLatin1String("exhibit"))
        return exhibit.match(id).hasMatch();
    return lab.match(id).hasMatch();
}

} // namespace

std::optional<ChapterInfo> parseChapterMetadata(const QJsonObject &meta, QString *error)
{
    Reader r(error);
    const QString top = QStringLiteral("chapter metadata");
    if (meta.isEmpty()) {
        r.fail(QStringLiteral("the plugin has no chapter metadata."));
        return std::nullopt;
    }
    r.onlyKeys(meta,
               {"apiVersion", "number", "slug", "title", "summary", "layer", "layerName", "layerLine", "stage",
                "mastery", "pieces", "pages"},
               top);
    const QJsonValue api = meta.value(QStringLiteral("apiVersion"));
    if (r.ok() && api.toInt(-1) != ChapterApiVersion)
        r.fail(QStringLiteral("built for chapter API version %1; this app speaks version %2.")
                   .arg(api.isDouble() ? QString::number(api.toInt()) : QStringLiteral("(none)"))
                   .arg(ChapterApiVersion));

    ChapterInfo info;
    info.number = r.integer(meta, QStringLiteral("number"), top, 1, 99);
    info.slug = r.string(meta, QStringLiteral("slug"), top);
    static const QRegularExpression slugRx(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$"));
    if (r.ok() && !slugRx.match(info.slug).hasMatch())
        r.fail(QStringLiteral("%1: slug \"%2\" must be lower-case words joined by dashes.").arg(top, info.slug));
    const QString where = QStringLiteral("chapter %1").arg(info.number);
    info.title = r.string(meta, QStringLiteral("title"), where);
    info.summary = r.string(meta, QStringLiteral("summary"), where);
    info.layer = r.integer(meta, QStringLiteral("layer"), where, 1, 9);
    info.layerName = r.string(meta, QStringLiteral("layerName"), where);
    info.layerLine = r.string(meta, QStringLiteral("layerLine"), where);

    if (meta.contains(QStringLiteral("stage"))) {
        const QString sw = where + QStringLiteral(" stage");
        const QJsonObject s = r.object(meta.value(QStringLiteral("stage")), sw);
        r.onlyKeys(s, {"number", "gate", "lab", "rule"}, sw);
        StageInfo stage;
        stage.number = r.integer(s, QStringLiteral("number"), sw, 0, 9);
        stage.gate = r.string(s, QStringLiteral("gate"), sw);
        stage.lab = r.string(s, QStringLiteral("lab"), sw);
        stage.rule = r.string(s, QStringLiteral("rule"), sw);
        info.stage = stage;
    }

    QSet<QString> seen;
    const QJsonArray pieces = r.array(meta, QStringLiteral("pieces"), where);
    for (const QJsonValue &v : pieces) {
        const QString pw = where + QStringLiteral(" piece");
        const QJsonObject o = r.object(v, pw);
        r.onlyKeys(o, {"id", "kind", "name", "does"}, pw);
        WorkshopPiece p;
        p.id = r.string(o, QStringLiteral("id"), pw);
        p.kind = r.string(o, QStringLiteral("kind"), pw);
        p.name = r.string(o, QStringLiteral("name"), pw);
        p.does = r.string(o, QStringLiteral("does"), pw);
        p.chapter = info.number;
        if (r.ok() && !pieceKinds.contains(p.kind))
            r.fail(QStringLiteral("%1 %2: kind \"%3\" is not one of %4.")
                       .arg(pw, p.id, p.kind, pieceKinds.join(QStringLiteral(", "))));
        if (r.ok() && !pieceIdFitsKind(p.id, p.kind))
            r.fail(QStringLiteral("%1: id \"%2\" does not fit kind \"%3\".").arg(pw, p.id, p.kind));
        if (r.ok() && seen.contains(p.id))
            r.fail(QStringLiteral("%1: \"%2\" is listed twice.").arg(pw, p.id));
        seen.insert(p.id);
        info.pieces.append(p);
    }

    // "pages": the pieces the plugin serves a page for (the build writes it).
    if (meta.contains(QStringLiteral("pages"))) {
        const QString gw = where + QStringLiteral(" pages");
        for (const QJsonValue &v : r.array(meta, QStringLiteral("pages"), where)) {
            if (!r.ok())
                break;
            const auto piece = std::find_if(info.pieces.begin(), info.pieces.end(),
                                            [&](const WorkshopPiece &p) { return p.id == v.toString(); });
            if (!v.isString() || piece == info.pieces.end())
                r.fail(QStringLiteral("%1: \"%2\" is not a piece the chapter lists.").arg(gw, v.toString()));
            else if (piece->kind == QLatin1String("lab"))
                r.fail(QStringLiteral("%1: %2 is a lab; labs live on their chapter's page.").arg(gw, piece->id));
            else
                piece->hasPage = true;
        }
    }

    QSet<QString> itemIds;
    const QJsonArray mastery = r.array(meta, QStringLiteral("mastery"), where);
    if (r.ok() && mastery.isEmpty())
        r.fail(QStringLiteral("%1: \"mastery\" lists no work.").arg(where));
    for (const QJsonValue &v : mastery) {
        const QString mw = where + QStringLiteral(" mastery item");
        const QJsonObject o = r.object(v, mw);
        r.onlyKeys(o, {"id", "text", "piece", "goals"}, mw);
        MasteryItem item;
        item.id = r.string(o, QStringLiteral("id"), mw);
        item.text = r.string(o, QStringLiteral("text"), mw);
        item.piece = r.string(o, QStringLiteral("piece"), mw, false);
        if (o.contains(QStringLiteral("goals"))) {
            const QString gw = mw + QStringLiteral(" \"") + item.id + QStringLiteral("\" goal");
            if (item.piece.isEmpty())
                r.fail(QStringLiteral("%1: goals need a piece that checks them.").arg(gw));
            QSet<QString> goalIds;
            for (const QJsonValue &g : r.array(o, QStringLiteral("goals"), gw)) {
                const QJsonObject go = r.object(g, gw);
                r.onlyKeys(go, {"id", "text"}, gw);
                const MasteryGoal goal{r.string(go, QStringLiteral("id"), gw),
                                       r.string(go, QStringLiteral("text"), gw)};
                if (r.ok() && goalIds.contains(goal.id))
                    r.fail(QStringLiteral("%1: \"%2\" is listed twice.").arg(gw, goal.id));
                goalIds.insert(goal.id);
                item.goals.append(goal);
            }
        }
        if (r.ok() && itemIds.contains(item.id))
            r.fail(QStringLiteral("%1: \"%2\" is listed twice.").arg(mw, item.id));
        itemIds.insert(item.id);
        info.mastery.append(item);
    }

    if (!r.ok())
        return std::nullopt;
    return info;
}

} // namespace course
