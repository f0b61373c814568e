// The validation page: every row, each family's summary and every fitted
// constant as tpusim::validation() computes them, every published time badged as
// published with its source, and the page reachable from the bench, the
// palette and --open's place name.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/provenance.h>
#include <tpusim/validation.h>

#include <QQuickItem>
#include <QTest>

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString shownText(ShellFixture &shell, const QString &name)
{
    QObject *item = shell.findShown(name.toUtf8().constData());
    return item ? item->property("text").toString() : QStringLiteral("(not shown)");
}

QString percent(double fraction)
{
    return qs(tpusim::format_fixed(100 * fraction, 1)) + QStringLiteral(" %");
}

// Signed with a true minus; a tenth of a percent that rounds to nothing has no sign.
QString signedPercent(double fraction)
{
    const double tenths = std::round(1000 * fraction);
    if (tenths == 0)
        return QStringLiteral("0.0 %");
    return (tenths > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) +
           QString::number(std::fabs(tenths) / 10, 'f', 1) + QStringLiteral(" %");
}

QString gridSteps(std::int64_t steps)
{
    if (steps == 0)
        return QStringLiteral("—"); // an XLA op has no grid
    QString digits = QString::number(steps);
    for (qsizetype at = digits.size() - 3; at > 0; at -= 3)
        digits.insert(at, QLatin1Char(','));
    return digits;
}

// Every shown item whose objectName starts with `prefix`.
int countShown(QQuickItem *item, const QString &prefix)
{
    int n = item->objectName().startsWith(prefix) && ShellFixture::isShown(item) ? 1 : 0;
    for (QQuickItem *child : item->childItems())
        n += countShown(child, prefix);
    return n;
}

} // namespace

TEST_CASE("the validation page shows every row as tpusim::validation() computes it", "[validation][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("validation"));
    shell.shot("validation-page");

    const tpusim::Validation &v = tpusim::validation();
    int timed = 0;
    for (const tpusim::ValidationRow &r : v.rows)
        timed += r.row->published_s > 0;
    REQUIRE(timed >= 30);
    CHECK(countShown(shell.window()->contentItem(), QStringLiteral("validationRow_")) == timed);
    for (const tpusim::ValidationRow &r : v.rows) {
        const tpusim::PublishedRow &m = *r.row;
        if (!(m.published_s > 0))
            continue;
        const QString id = qs(m.id);
        INFO(m.id);
        CHECK(shownText(shell, "validationPublished_" + id) == qs(tpusim::format_time(m.published_s)));
        if (r.expressible) {
            CHECK(shownText(shell, "validationPredicted_" + id) == qs(tpusim::format_time(r.predicted_s)));
            CHECK(shownText(shell, "validationError_" + id) == signedPercent(r.error));
            CHECK(shownText(shell, "validationKind_" + id) == (r.fitted           ? QStringLiteral("fitted")
                                                               : r.held_out       ? QStringLiteral("held out")
                                                               : !m.doubt.empty() ? QStringLiteral("in doubt")
                                                                                  : QStringLiteral("tested")));
        } else {
            CHECK(shownText(shell, "validationWhyNot_" + id).contains(qs(r.not_expressible)));
        }
        CHECK(shownText(shell, "validationSteps_" + id) == gridSteps(r.grid_steps));

        // Someone else's measurement: said so, with where it was printed.
        QObject *badge = shell.findShown(("validationPublishedBadge_" + id).toUtf8().constData());
        REQUIRE(badge != nullptr);
        CHECK(badge->property("kind").toString() == QStringLiteral("published"));
        const QString details = badge->property("details").toString();
        CHECK(details.startsWith(QStringLiteral("published · ") + qs(m.chip)));
        CHECK(details.contains(qs(m.source)));
        CHECK(details.contains(qs(m.timing_how)));
        CHECK(details.contains(qs(m.quote)));
        // A row in doubt says why on its card.
        CHECK(details.contains(QStringLiteral("in doubt")) == !m.doubt.empty());
        if (!m.doubt.empty())
            CHECK(details.contains(qs(m.doubt)));
    }
}

TEST_CASE("hovering a published time's badge opens a card that names its source", "[validation][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("validation"));

    const tpusim::PublishedRow &m = *tpusim::validation().rows.front().row;
    auto *badge =
        qobject_cast<QQuickItem *>(shell.findShown(("validationPublishedBadge_" + qs(m.id)).toUtf8().constData()));
    REQUIRE(badge != nullptr);
    QObject *page = shell.findShown("validationPage");
    REQUIRE(page != nullptr);
    // Scrolled to once the table is laid out, then left to glide there.
    WAIT_VERIFY(page->property("scrollable").toBool());
    QTest::qWait(200);
    QMetaObject::invokeMethod(page, "reveal", Q_ARG(QVariant, QVariant::fromValue(badge)));
    QTest::qWait(400);
    const QPoint badgeCentre = badge->mapToScene(QPointF(badge->width() / 2, badge->height() / 2)).toPoint();
    REQUIRE(QRect(QPoint(0, 0), window->size()).contains(badgeCentre));

    // The card is made when the badge is first pointed at, then shown.
    const auto cardOf = [badge]() -> QObject * {
        for (QObject *child : badge->findChildren<QObject *>())
            if (child->inherits("QQuickToolTip"))
                return child;
        return nullptr;
    };
    CHECK(cardOf() == nullptr);
    QTest::mouseMove(window, badgeCentre);
    WAIT_VERIFY(cardOf() != nullptr);
    QObject *card = cardOf();
    WAIT_VERIFY(card->property("visible").toBool());
    shell.shot("validation-source-card");
    const QString text = card->property("text").toString();
    CHECK(text.startsWith(QStringLiteral("published")));
    CHECK(text.contains(qs(m.source)));
    CHECK(card->property("kind").toString() == QStringLiteral("published"));
}

TEST_CASE("the validation page sums up each family and lists every fitted constant", "[validation][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("validation"));

    const tpusim::Validation &v = tpusim::validation();
    REQUIRE(v.families.size() >= 3);
    for (const tpusim::FamilyErrors &e : v.families) {
        const QString family = qs(std::string(tpusim::family_key(e.family)));
        INFO(family.toStdString());
        CHECK(shownText(shell, "validationHeldOut_" + family) == QString::number(e.held_out));
        CHECK(shownText(shell, "validationMedian_" + family) ==
              (e.held_out > 0 ? percent(e.held_out_median) : QStringLiteral("—")));
        CHECK(shownText(shell, "validationWorst_" + family) ==
              (e.held_out > 0 ? percent(e.held_out_worst) : QStringLiteral("—")));
        CHECK(shownText(shell, "validationFitted_" + family) == QString::number(e.fitted));
        CHECK(shownText(shell, "validationFittedWorst_" + family) ==
              (e.fitted > 0 ? percent(e.fitted_worst) : QStringLiteral("—")));
        // A family with rows in doubt shows them on a line of their own.
        QObject *doubt = shell.findShown(("validationInDoubt_" + family).toUtf8().constData());
        CHECK((doubt != nullptr) == (e.in_doubt > 0));
        if (doubt) {
            CHECK(doubt->property("text").toString() == QString::number(e.in_doubt));
            CHECK(shownText(shell, "validationInDoubtWorst_" + family) == percent(e.in_doubt_worst));
            CHECK(shell.findShown(("validationInDoubtNote_" + family).toUtf8().constData()) != nullptr);
        }
    }
    const auto collectives = std::find_if(v.families.begin(), v.families.end(), [](const tpusim::FamilyErrors &e) {
        return e.family == tpusim::Family::collective;
    });
    REQUIRE(collectives != v.families.end());
    CHECK(collectives->in_doubt >= 2);
    // The sources once each, with how many rows each gave; they add up to
    // the rows listed.
    std::set<std::string> documents;
    int listed = 0;
    for (const tpusim::ValidationRow &r : v.rows)
        if (r.row->published_s > 0) {
            documents.insert(tpusim::source_document(r.row->source));
            ++listed;
        }
    const QList<QObject *> sourceLines = shell.findAll("validationSource");
    CHECK(sourceLines.size() == int(documents.size()));
    int counted = 0;
    for (QObject *line : sourceLines)
        counted += line->property("modelData").toMap().value(QStringLiteral("rows")).toInt();
    CHECK(counted == listed);
    CHECK(countShown(shell.window()->contentItem(), QStringLiteral("validationConstant_")) == int(v.constants.size()));
    for (const tpusim::FittedConstant &c : v.constants) {
        QObject *line = shell.findShown(("validationConstant_" + c.chip + "_" + c.key).c_str());
        INFO(c.chip << " " << c.key);
        CHECK(line != nullptr);
    }
}
