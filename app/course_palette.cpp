// The palette's half of Course: every place Ctrl+K can jump to, and the
// chapters' text to search (Reader::searchText).
#include "course.h"
#include "reader/reader.h"

#include <chapters/chaptercatalog.h>

using course::ChapterInfo;

namespace {

QString two(int n)
{
    return QStringLiteral("%1").arg(n, 2, 10, QLatin1Char('0'));
}

const char *kindPlural(const QString &kind)
{
    if (kind == QLatin1String("instrument"))
        return "instruments";
    if (kind == QLatin1String("drill"))
        return "drills";
    if (kind == QLatin1String("exhibit"))
        return "museum exhibits";
    return "labs";
}

// The shell's pages: place, title, what it holds, words that find it.
struct Page
{
    const char *place, *title, *subtitle, *keywords;
};
constexpr Page kPages[] = {
    {"workshop", "The workshop", "instruments, drills, exhibits and labs", "pieces"},
    {"bench", "The bench", "roofline-predicted floors per chip; hardware rows replace them",
     "roofline floors matmul elementwise"},
    {"chips", "The chips", "v4, v5e, v5p, v6e and v7 side by side, every figure with its source", "hardware table tpu"},
    {"validation", "How wrong the models are",
     "published timings of real TPUs against the simulator's predictions, row by row",
     "validation error accuracy published measured sources"},
    {"profile", "Your profile, measured", "open a jax.profiler profile: every op's device time beside its prediction",
     "profile xprof trace xplane measured device time ops"},
    {"labs", "The labs", "every lab end to end: a TPU VM, the run, its record brought back and imported",
     "labs tpu vm gcloud run record import measured"},
    {"about", "About tpu-course", "version, commit, the validation table, licences",
     "version licence license build credits"},
    {"report", "Export the progress report", "PDF, HTML or JSON: chapters, stages, gates and every attempt",
     "pdf html json export"},
    {"stack", "The stack", "the top of the descent", "home top start"},
    {"theme", "Light or dark theme", "switch the chapters between paper and a dark ground (Ctrl+Shift+D); kept",
     "theme dark light night mode colours"},
};

} // namespace

void Course::buildPalette()
{
    QList<PaletteModel::Entry> entries;
    for (const ChapterInfo &c : m_catalog.chapters()) {
        const QString id = QStringLiteral("ch") + two(c.number);
        if (c.stage) {
            entries.append({id, QStringLiteral("stage"), c.title,
                            QStringLiteral("ch %1 · stage %2 · gate %3 · pinned at %4")
                                .arg(two(c.number))
                                .arg(c.stage->number)
                                .arg(c.stage->gate, c.layerName),
                            QStringLiteral("stage %1 %2 chapter").arg(c.stage->number).arg(c.stage->gate)});
        } else {
            entries.append({id, QStringLiteral("chapter"), c.title,
                            QStringLiteral("ch %1 · layer %2 · %3").arg(two(c.number)).arg(c.layer).arg(c.layerLine),
                            QStringLiteral("chapter layer %1").arg(c.slug)});
        }
    }
    for (const ChapterInfo &c : m_catalog.chapters())
        for (const auto &p : c.pieces)
            entries.append({p.id, p.kind, p.name,
                            p.hasPage || p.kind == QLatin1String("lab")
                                ? QStringLiteral("%1 · %2 · ch %3").arg(p.displayId(), p.does, two(c.number))
                                : QStringLiteral("%1 · not built yet: opens ch %2").arg(p.displayId(), two(c.number)),
                            QStringLiteral("%1 %2 %3").arg(p.displayId(), QLatin1String(kindPlural(p.kind)), c.title),
                            p.hasPage || p.kind == QLatin1String("lab")});
    for (const Page &p : kPages)
        entries.append({QString::fromUtf8(p.place), QStringLiteral("page"), QString::fromUtf8(p.title),
                        QString::fromUtf8(p.subtitle), QString::fromUtf8(p.keywords)});
    m_palette->setEntries(entries);
    m_palette->setTextSearch([this](const QString &query) { return m_reader->searchText(query, m_chip); });
    m_palette->setTextSearchReadAhead([this] { m_reader->readAheadForSearch(); });
    connect(m_reader, &Reader::textFilledFor, m_palette, [this](const QString &chip) {
        if (chip == m_chip)
            m_palette->searchTextAgain();
    });
}
