#include "course.h"
#include "chapterprogress.h"
#include "drills/drills.h"
#include "labruns/labruns.h"
#include "palette/palettemodel.h"
#include "reader/reader.h"
#include "report/reportexport.h"
#include "report/reportsettings.h"
#include "report/reportwriter.h"

#include <QClipboard>
#include <QGuiApplication>

#include <chapters/chaptercatalog.h>
#include <chapters/chapterinterface.h>
#include <progress/store.h>
#include <storeguard.h>
#include <tpusim/chips.h>

#include <QColor>

#include <QtQml/qqml.h>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJSEngine>
#include <QLocale>
#include <QStandardPaths>
#include <algorithm>
#include <optional>

using course::ChapterInfo;

namespace {

QVariantMap pieceFacts(const course::WorkshopPiece &p)
{
    return {{"id", p.id},     {"displayId", p.displayId()}, {"kind", p.kind},      {"name", p.name},
            {"does", p.does}, {"chapter", p.chapter},       {"hasPage", p.hasPage}};
}

} // namespace

Course::Course(course::ChapterCatalog &catalog, progress::Store &store, QObject *parent)
    : QObject(parent),
      m_catalog(catalog),
      m_store(store),
      m_palette(new PaletteModel(this)),
      m_drills(new Drills(catalog, store, this)),
      m_reader(new Reader(catalog, this)),
      m_reportExport(new ReportExport(catalog, store, this)),
      m_labRuns(new LabRuns(store, this))
{
    connect(m_labRuns, &LabRuns::progressMade, this, &Course::noteProgress);
    connect(m_labRuns, &LabRuns::problem, this, &Course::reportProblem);
    connect(m_reportExport, &ReportExport::problem, this, &Course::reportProblem);
    connect(m_drills, &Drills::reviewed, this, &Course::noteProgress);
    connect(m_drills, &Drills::problem, this, &Course::reportProblem);
    buildPalette();
    loadChip();
    // What verifying the history found when the store opened, for the banner.
    StoreHealth::instance()->setHistory(QString::fromStdString(store.historyFinding()));
}

void Course::noteProgress()
{
    // Before the signal: QML re-reads what it binds while the signal is
    // being emitted, ahead of any slot connected here.
    ++m_revision;
    m_chaptersCache.reset();
    m_piecesCache.reset();
    m_drills->progressChanged();
    emit progressChanged();
}

Course::~Course() = default;

namespace {
// The object the Course singleton stands for: set by exposeToQml, asked for
// by an engine when its QML first names Course.
Course *exposedCourse = nullptr;
} // namespace

Course *Course::create(QQmlEngine *, QJSEngine *)
{
    // Owned by main (or a test), never by the engine.
    QJSEngine::setObjectOwnership(exposedCourse, QJSEngine::CppOwnership);
    return exposedCourse;
}

void Course::countFirstScreen() const
{
    chapters();
    pieces();
    m_drills->dueToday();
}

void Course::exposeToQml()
{
    exposedCourse = this;
}

int Course::chapterCount() const
{
    return static_cast<int>(m_catalog.chapters().size());
}

int Course::gateCount() const
{
    int n = 0;
    for (const ChapterInfo &c : m_catalog.chapters())
        n += c.isStage() ? 1 : 0;
    return n;
}

int Course::gatesPassed() const
{
    return storeGuarded([&]() -> int {
        const auto done = m_store.masteryItemsDone();
        const auto gates = m_labRuns->gateStates();
        int n = 0;
        for (const ChapterInfo &c : m_catalog.chapters())
            n += (c.isStage() && chapterProgress(c, done, gates).gateState == QLatin1String("passed")) ? 1 : 0;
        return n;
    });
}

int Course::chaptersDone() const
{
    return storeGuarded([&]() -> int {
        const auto done = m_store.masteryItemsDone();
        const auto gates = m_labRuns->gateStates();
        int n = 0;
        for (const ChapterInfo &c : m_catalog.chapters())
            n += chapterProgress(c, done, gates).done ? 1 : 0;
        return n;
    });
}

bool Course::started() const
{
    return storeGuarded([&]() -> bool { return !m_store.masteryItemsDone().empty() || gatesPassed() > 0; });
}

int Course::nextChapter() const
{
    return storeGuarded([&]() -> int {
        const auto done = m_store.masteryItemsDone();
        const auto gates = m_labRuns->gateStates();
        for (const ChapterInfo &c : m_catalog.chapters())
            if (!chapterProgress(c, done, gates).done)
                return c.number;
        return m_catalog.chapters().isEmpty() ? 0 : m_catalog.chapters().constLast().number;
    });
}

QStringList Course::problems() const
{
    QStringList out;
    for (const auto &p : m_catalog.problems())
        out.append(p.file.isEmpty() ? p.message : p.file + QStringLiteral(": ") + p.message);
    out.append(m_runtimeProblems);
    return out;
}

void Course::reportProblem(const QString &message)
{
    m_runtimeProblems.append(message);
    emit problemsChanged();
}

QVariantMap Course::chapterSummary(const ChapterInfo &info, const std::set<std::string> &done,
                                   const QMap<QString, QString> &gates, const std::set<std::string> &goals) const
{
    const ChapterProgress p = chapterProgress(info, done, gates, goals);
    QVariantMap m{
        {"number", info.number},       {"slug", info.slug},         {"title", info.title},
        {"summary", info.summary},     {"layer", info.layer},       {"layerName", info.layerName},
        {"layerLine", info.layerLine}, {"isStage", info.isStage()}, {"itemsDone", p.itemsDone},
        {"itemsTotal", p.itemsTotal},  {"progress", p.fraction()},  {"done", p.done},
    };
    if (info.stage) {
        m.insert("stageNumber", info.stage->number);
        m.insert("gate", info.stage->gate);
        m.insert("gateLab", info.stage->lab);
        m.insert("gateRule", info.stage->rule);
        m.insert("gateState", p.gateState);
    }
    return m;
}

QVariantList Course::chapters() const
{
    return storeGuarded([&]() -> QVariantList {
        if (m_chaptersCache)
            return *m_chaptersCache;
        const auto done = m_store.masteryItemsDone();
        const auto goals = m_store.masteryGoalsReached();
        const auto gates = m_labRuns->gateStates();
        QVariantList list;
        for (const ChapterInfo &c : m_catalog.chapters())
            list.append(chapterSummary(c, done, gates, goals));
        m_chaptersCache = list;
        return list;
    });
}

QVariantList Course::pieces() const
{
    return storeGuarded([&]() -> QVariantList {
        if (m_piecesCache)
            return *m_piecesCache;
        // A piece's progress: its mastery items, each counted as the chapter
        // counts it (goal by goal), so the workshop card, the chapter and the
        // piece's own goal list always agree.
        const auto done = m_store.masteryItemsDone();
        const auto goals = m_store.masteryGoalsReached();
        QHash<QString, QPair<double, int>> byPiece; // piece -> (items' progress summed, items)
        for (const ChapterInfo &c : m_catalog.chapters())
            for (const auto &item : c.mastery)
                if (!item.piece.isEmpty()) {
                    auto &tally = byPiece[item.piece];
                    tally.first += itemProgress(item, done, goals);
                    tally.second += 1;
                }
        QVariantList list;
        for (const ChapterInfo &c : m_catalog.chapters())
            for (const auto &p : c.pieces) {
                const auto tally = byPiece.value(p.id);
                QVariantMap entry = pieceFacts(p);
                entry.insert(QStringLiteral("progress"), tally.second > 0 ? double(tally.first) / tally.second : 0.0);
                list.append(entry);
            }
        m_piecesCache = list;
        return list;
    });
}

QVariantMap Course::piece(const QString &pieceId) const
{
    for (const ChapterInfo &c : m_catalog.chapters())
        for (const auto &p : c.pieces)
            if (p.id == pieceId)
                return pieceFacts(p);
    return {};
}

QVariantMap Course::chapterPage(int number)
{
    return storeGuarded([&]() -> QVariantMap {
        const ChapterInfo *info = m_catalog.chapter(number);
        if (!info)
            return {};
        const auto done = m_store.masteryItemsDone(number);
        QVariantMap page = chapterSummary(*info, done, m_labRuns->gateStates(), m_store.masteryGoalsReached(number));
        QVariantList items;
        for (const auto &item : info->mastery)
            items.append(QVariantMap{{"id", item.id},
                                     {"text", item.text},
                                     {"piece", item.piece},
                                     {"done", done.count(item.id.toStdString()) > 0},
                                     {"goals", goalsOf(number, item.id)}});
        page.insert("mastery", items);
        QVariantList pieces;
        for (const auto &p : info->pieces)
            pieces.append(QVariantMap{{"id", p.id},
                                      {"displayId", p.displayId()},
                                      {"kind", p.kind},
                                      {"name", p.name},
                                      {"does", p.does},
                                      {"hasPage", p.hasPage}});
        page.insert("pieces", pieces);

        const int before = static_cast<int>(m_catalog.problems().size());
        course::ChapterInterface *plugin = m_catalog.load(number);
        if (m_catalog.problems().size() != before)
            emit problemsChanged();
        if (plugin) {
            page.insert("intro", plugin->introMarkdown());
            page.insert("loaded", true);
        } else {
            page.insert("intro", QString());
            page.insert("loaded", false);
            page.insert("loadError",
                        m_catalog.problems().isEmpty() ? QString() : m_catalog.problems().constLast().message);
        }
        try {
            if (m_store.writesRefused()) // a picture of the page: not a visit
                return page;
            const auto states = m_store.chapterStates();
            const bool first = std::none_of(states.begin(), states.end(), [number](const progress::ChapterState &c) {
                return c.number == number && c.firstOpenedMs;
            });
            m_store.noteChapterOpened(number);
            // A chapter opened for the first time makes its drills due:
            // progress, said once the page is made.
            if (first)
                QMetaObject::invokeMethod(this, &Course::noteProgress, Qt::QueuedConnection);
        } catch (const std::exception &e) {
            reportProblem(QString::fromUtf8(e.what()));
        }
        return page;
    });
}

namespace {

constexpr const char *kChipSetting = "chip";
const QString kDefaultChip = QStringLiteral("v5e");

bool isKnownChip(const QString &id)
{
    const auto &chips = tpusim::all_chips();
    return std::any_of(chips.cbegin(), chips.cend(), [&](const auto &c) { return QString::fromStdString(c.id) == id; });
}

} // namespace

void Course::loadChip()
{
    try {
        const QString stored = QString::fromStdString(m_store.setting(kChipSetting));
        if (stored.isEmpty() || isKnownChip(stored)) {
            m_chip = stored.isEmpty() ? kDefaultChip : stored;
            return;
        }
        m_chip = kDefaultChip;
        reportProblem(
            QStringLiteral(
                "The chip \"%1\" kept in the progress file is not one the simulator knows; the numbers are for %2.")
                .arg(stored, kDefaultChip));
    } catch (const std::exception &e) {
        m_chip = kDefaultChip;
        reportProblem(QString::fromUtf8(e.what()));
    }
}

void Course::setChip(const QString &chip)
{
    if (chip == m_chip || !isKnownChip(chip))
        return;
    m_chip = chip;
    try {
        m_store.setSetting(kChipSetting, chip.toStdString());
    } catch (const std::exception &e) {
        reportProblem(QString::fromUtf8(e.what()));
    }
    emit chipChanged();
}

QVariantList Course::goalsOf(int chapter, const QString &itemId) const
{
    return storeGuarded([&]() -> QVariantList {
        const ChapterInfo *info = m_catalog.chapter(chapter);
        if (!info)
            return {};
        const auto reached = m_store.masteryGoalsReached(chapter);
        QVariantList out;
        for (const auto &item : info->mastery)
            if (item.id == itemId)
                for (const auto &goal : item.goals)
                    out.append(QVariantMap{{"id", goal.id},
                                           {"text", goal.text},
                                           {"reached", reached.count(goalKey(itemId, goal.id)) > 0}});
        return out;
    });
}

bool Course::reachGoal(int chapter, const QString &itemId, const QString &goalId)
{
    const ChapterInfo *info = m_catalog.chapter(chapter);
    const course::MasteryItem *item = nullptr;
    if (info)
        for (const auto &m : info->mastery)
            if (m.id == itemId &&
                std::any_of(m.goals.cbegin(), m.goals.cend(), [&](const auto &g) { return g.id == goalId; }))
                item = &m;
    if (!item) {
        reportProblem(
            QStringLiteral("Chapter %1 has no goal \"%2\" in its item \"%3\".").arg(chapter).arg(goalId, itemId));
        return false;
    }
    try {
        // A goal reached again (a scrub passing the same mark every step)
        // changes nothing: no write, and no progress refresh of every page.
        std::set<std::string> reached = m_store.masteryGoalsReached(chapter);
        if (!reached.insert(goalKey(itemId, goalId)).second)
            return true;
        m_store.reachMasteryGoal(chapter, itemId.toStdString(), goalId.toStdString());
        // The item is done once every goal is reached, by the same rule every meter counts with.
        if (itemProgress(*item, {}, reached) >= 1.0)
            m_store.setMasteryItemDone(chapter, itemId.toStdString(), true);
    } catch (const std::exception &e) {
        reportProblem(QString::fromUtf8(e.what()));
        return false;
    }
    noteProgress();
    return true;
}

bool Course::setItemDone(int chapter, const QString &itemId, bool done)
{
    try {
        m_store.setMasteryItemDone(chapter, itemId.toStdString(), done);
    } catch (const std::exception &e) {
        reportProblem(QString::fromUtf8(e.what()));
        return false;
    }
    noteProgress();
    return true;
}

QUrl Course::pieceUrl(const QString &pieceId)
{
    const int chapter = chapterOfPiece(pieceId);
    if (chapter == 0)
        return {};
    course::ChapterInterface *plugin = m_catalog.load(chapter);
    return plugin ? plugin->pieceUrl(pieceId) : QUrl();
}

int Course::chapterOfPiece(const QString &pieceId) const
{
    const auto *piece = m_catalog.piece(pieceId);
    return piece ? piece->chapter : 0;
}

std::pair<int, QString> Course::masteryItemOfPiece(const QString &pieceId) const
{
    const course::MasteryItem *item = m_catalog.masteryItemOf(pieceId);
    return item ? std::pair<int, QString>{chapterOfPiece(pieceId), item->id} : std::pair<int, QString>{0, {}};
}

void Course::copyText(const QString &text) const
{
    if (QClipboard *clipboard = QGuiApplication::clipboard())
        clipboard->setText(text);
}
