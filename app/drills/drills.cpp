#include "drills.h"
#include "course.h"

#include <chapters/chaptercatalog.h>
#include <coursework/drills.h>
#include <drillbridge.h>
#include <progress/drills.h>
#include <progress/store.h>
#include <storeguard.h>

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTime>

#include <algorithm>
#include <cstdint>
#include <set>

namespace {

std::vector<std::string> kindsOf(const QString &drill)
{
    try {
        return coursework::drills::card_kinds(drill.toStdString());
    } catch (const std::exception &) {
        return {};
    }
}

// Local midnight that starts today, in ms since the epoch.
std::int64_t todayStartMs(std::int64_t nowMs)
{
    const QDateTime now = QDateTime::fromMSecsSinceEpoch(nowMs);
    return QDateTime(now.date(), QTime(0, 0)).toMSecsSinceEpoch();
}

QString kindName(const std::string &kind)
{
    static const QHash<QString, QString> names{{"D2.matmul", "matmul"},
                                               {"D2.elementwise", "elementwise"},
                                               {"D2.reduction", "reduction"},
                                               {"D3.blocks", "block shapes"},
                                               {"D3.maps", "index maps"},
                                               {"D3.vmem", "VMEM"},
                                               {"D1.jaxpr", "jaxpr"},
                                               {"D1.stablehlo", "StableHLO"},
                                               {"D1.hlo", "HLO"},
                                               {"D1.real", "real dumps"},
                                               {"D4.gather", "all-gather and reduce-scatter"},
                                               {"D4.reduce", "all-reduce"},
                                               {"D4.all-to-all", "all-to-all"},
                                               {"D4.shard", "a sharded layer"}};
    const QString k = QString::fromStdString(kind);
    return names.value(k, k);
}

} // namespace

Drills::Drills(const course::ChapterCatalog &catalog, progress::Store &store, QObject *parent)
    : QObject(parent), m_catalog(catalog), m_store(store)
{
}

Drills *Drills::create(QQmlEngine *, QJSEngine *)
{
    return Course::madeByCourse<&Course::drills>();
}

void Drills::progressChanged()
{
    // Before the signal, for the bindings it wakes.
    m_dueCache.reset();
    ++m_revision;
    emit changed();
}

QVariantMap Drills::question(const QString &drill)
{
    return storeGuarded([&]() -> QVariantMap {
        const auto kinds = kindsOf(drill);
        if (kinds.empty())
            return {{"error", QStringLiteral("There is no drill %1.").arg(drill)}};
        progress::DrillLedger ledger(m_store);
        const std::int64_t now = m_store.nowMs();
        const std::int64_t endOfDay = todayStartMs(now) + progress::fsrs::kDayMs - 1;
        const auto lastDue = ledger.lastDueByKind();
        const auto due = progress::dueAmong(lastDue, kinds, endOfDay);
        // Due kinds first (one waiting out its relearning step after new
        // ones); when none is due, practice goes on with the kind seen longest ago.
        std::string kind;
        if (!due.empty()) {
            kind = progress::practiceOrder(lastDue, kinds, now, endOfDay).front();
        } else {
            std::int64_t oldest = INT64_MAX;
            for (const auto &k : kinds) {
                const auto last = ledger.lastReview(k);
                if (last && last->reviewedAtMs < oldest) {
                    oldest = last->reviewedAtMs;
                    kind = k;
                }
            }
        }
        const int level = progress::drillLevel(ledger.reviews(drill.toStdString()), coursework::drills::max_level());
        const std::uint64_t seed = QRandomGenerator::global()->bounded(1u << 30);
        QVariantMap q = simqml::drillQuestion(QString::fromStdString(kind), level, seed);
        q.insert(QStringLiteral("kindName"), kindName(kind));
        q.insert(QStringLiteral("dueBefore"), static_cast<int>(due.size()));
        return q;
    });
}

namespace {

constexpr const char *kGradeNames[] = {"", "again", "hard", "good", "easy"};

// A kept review's grade and when its kind comes back, into `result`.
void insertSchedule(QVariantMap &result, const progress::DrillReview &kept)
{
    result.insert(QStringLiteral("reviewId"), QString::number(kept.id));
    result.insert(QStringLiteral("grade"), QString::fromLatin1(kGradeNames[kept.grade]));
    result.insert(QStringLiteral("intervalDays"),
                  static_cast<int>((kept.dueAtMs - kept.reviewedAtMs) / progress::fsrs::kDayMs));
    // A missed kind is relearnt within the session, minutes later.
    const std::int64_t wait = kept.dueAtMs - kept.reviewedAtMs;
    result.insert(QStringLiteral("relearnMinutes"), wait < progress::fsrs::kDayMs ? static_cast<int>(wait / 60000) : 0);
    result.insert(QStringLiteral("due"), QDateTime::fromMSecsSinceEpoch(kept.dueAtMs).date().toString(Qt::ISODate));
}

} // namespace

QVariantMap Drills::regrade(const QString &reviewId, const QString &grade)
{
    const auto *named = std::find(std::begin(kGradeNames) + 1, std::end(kGradeNames), grade);
    if (named == std::end(kGradeNames))
        return {{"refused", true},
                {"refusal", QStringLiteral("\"%1\" is not a grade: again, hard, good or easy.").arg(grade)}};
    QVariantMap result;
    try {
        progress::DrillLedger ledger(m_store);
        insertSchedule(result,
                       ledger.regrade(reviewId.toLongLong(), static_cast<int>(named - std::begin(kGradeNames))));
    } catch (const std::exception &e) {
        return {{"refused", true}, {"refusal", QString::fromUtf8(e.what())}};
    }
    emit reviewed();
    return result;
}

QVariantMap Drills::check(const QVariantMap &question, const QVariantMap &answers, int elapsedMs)
{
    const QString kind = question.value(QStringLiteral("kind")).toString();
    const int level = question.value(QStringLiteral("level")).toInt();
    const std::uint64_t seed = question.value(QStringLiteral("seed")).toString().toULongLong();
    QVariantMap result = simqml::drillCheck(kind, level, seed, answers);
    if (result.value(QStringLiteral("refused")).toBool())
        return result; // not graded, not kept
    progress::NewDrillReview review;
    review.drill = question.value(QStringLiteral("drill")).toString().toStdString();
    review.kind = kind.toStdString();
    review.level = level;
    review.seed = static_cast<std::int64_t>(seed);
    review.answerJson =
        QJsonDocument(QJsonObject::fromVariantMap(answers)).toJson(QJsonDocument::Compact).toStdString();
    review.correct = result.value(QStringLiteral("correct")).toBool();
    review.fieldsRight = result.value(QStringLiteral("fieldsRight")).toInt();
    review.fieldsAsked = result.value(QStringLiteral("fieldsAsked")).toInt();
    review.elapsedMs = elapsedMs;
    try {
        progress::DrillLedger ledger(m_store);
        const progress::DrillReview kept = ledger.addReview(review);
        insertSchedule(result, kept);
        // A right answer at the top level is the drill's mastery item done.
        if (kept.correct && kept.level >= coursework::drills::max_level()) {
            const QString drill = QString::fromStdString(review.drill);
            if (const course::MasteryItem *item = m_catalog.masteryItemOf(drill))
                m_store.setMasteryItemDone(m_catalog.piece(drill)->chapter, item->id.toStdString(), true);
        }
    } catch (const std::exception &e) {
        emit problem(QString::fromUtf8(e.what()));
        return {{"refused", true}, {"refusal", QString::fromUtf8(e.what())}};
    }
    emit reviewed();
    return result;
}

QVariantMap Drills::stats(const QString &drill) const
{
    return storeGuarded([&]() -> QVariantMap {
        const auto kinds = kindsOf(drill);
        progress::DrillLedger ledger(m_store);
        const std::int64_t today = todayStartMs(m_store.nowMs());
        const progress::DrillStats s = ledger.stats(drill.toStdString(), kinds, today, 14);
        QVariantList perDay;
        int most = 0;
        for (const auto &d : s.perDay) {
            perDay.append(QVariantMap{
                {"day", QDateTime::fromMSecsSinceEpoch(d.dayStartMs).date().toString(QStringLiteral("MMM d"))},
                {"reviews", d.reviews}});
            most = std::max(most, d.reviews);
        }
        QVariantList dueKinds;
        for (const auto &k : s.dueKinds)
            dueKinds.append(kindName(k));
        // Opened before its chapter, with nothing reviewed: practice ahead,
        // nothing due yet, as the stack's list of drills due has it.
        const course::WorkshopPiece *piece = m_catalog.piece(drill);
        const bool ahead = piece && progress::aheadOfPath(ledger.lastDueByKind(), kinds,
                                                          progress::openedChapters(m_store).count(piece->chapter));
        return {{"drill", drill},
                {"ahead", ahead},
                {"chapter", piece ? piece->chapter : 0},
                {"reviews", s.reviews},
                {"correct", s.correct},
                {"accuracy", s.accuracy},
                {"retention", s.retention ? QVariant(*s.retention) : QVariant()},
                {"level", s.level},
                {"maxLevel", coursework::drills::max_level()},
                {"due", s.due()},
                {"dueKinds", dueKinds},
                {"kinds", static_cast<int>(kinds.size())},
                {"perDay", perDay},
                {"mostPerDay", most}};
    });
}

QVariantList Drills::dueToday() const
{
    return storeGuarded([&]() -> QVariantList {
        const QDate today = QDate::currentDate();
        if (m_dueCache && m_dueCache->first == today)
            return m_dueCache->second;
        QVariantList out;
        // Every kind's due time read once, for all the drills.
        const auto lastDue = progress::DrillLedger(m_store).lastDueByKind();
        const std::int64_t endOfToday = todayStartMs(m_store.nowMs()) + progress::fsrs::kDayMs - 1;
        // A drill is first due once its chapter has been opened.
        const std::set<int> reached = progress::openedChapters(m_store);
        for (const course::ChapterInfo &c : m_catalog.chapters())
            for (const auto &piece : c.pieces) {
                if (piece.kind != QLatin1String("drill") || !piece.hasPage)
                    continue;
                const auto kinds = kindsOf(piece.id);
                if (kinds.empty())
                    continue;
                if (progress::aheadOfPath(lastDue, kinds, reached.count(c.number) > 0))
                    continue;
                // The count alone: the header shows no other figure of a drill.
                const int due = static_cast<int>(progress::dueAmong(lastDue, kinds, endOfToday).size());
                if (due == 0)
                    continue;
                out.append(QVariantMap{{"id", piece.id}, {"name", piece.name}, {"due", due}});
            }
        m_dueCache.emplace(today, out);
        return out;
    });
}
