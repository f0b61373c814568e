// The validation page: every row and each model's summary as
// tpusim::validate() computes them, every published time badged as
// published with its source, and the page reachable from the bench, the
// palette and --open's place name.
#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/provenance.h>
#include <tpusim/validation.h>

#include <QQuickItem>
#include <QTest>

namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }

QString shownText(ShellFixture &shell, const QString &name)
{
    QObject *item = shell.findShown(name.toUtf8().constData());
    return item ? item->property("text").toString() : QStringLiteral("(not shown)");
}

QString percent(double fraction) { return qs(tpusim::format_fixed(100 * fraction, 1)) + QStringLiteral(" %"); }

QString signedPercent(double fraction) { return (fraction >= 0 ? QStringLiteral("+") : QString()) + percent(fraction); }

QString gridSteps(std::int64_t steps)
{
    if (steps == 0)
        return QStringLiteral("—");  // an XLA op has no grid
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

TEST_CASE("the validation page shows every row as tpusim::validate() computes it", "[validation][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("validation"));
    shell.shot("validation-page");

    const tpusim::Validation v = tpusim::validate();
    REQUIRE(v.rows.size() >= 20);
    CHECK(countShown(shell.window()->contentItem(), QStringLiteral("validationRow_")) == int(v.rows.size()));
    for (const tpusim::ValidationRow &r : v.rows) {
        const tpusim::Measurement &m = *r.measurement;
        const QString id = qs(m.id);
        INFO(m.id);
        CHECK(shownText(shell, "validationPublished_" + id) == qs(tpusim::format_time(m.published_s)));
        CHECK(shownText(shell, "validationPredicted_" + id) == qs(tpusim::format_time(r.predicted_s)));
        CHECK(shownText(shell, "validationError_" + id) == signedPercent(r.error));
        CHECK(shownText(shell, "validationSteps_" + id) == gridSteps(r.grid_steps));
        CHECK(shownText(shell, "validationKind_" + id) == (m.fitted ? QStringLiteral("fitted") : QStringLiteral("held out")));

        // Someone else's measurement: said so, with where it was printed.
        QObject *badge = shell.findShown(("validationPublishedBadge_" + id).toUtf8().constData());
        REQUIRE(badge != nullptr);
        CHECK(badge->property("kind").toString() == QStringLiteral("published"));
        const QString details = badge->property("details").toString();
        CHECK(details.startsWith(QStringLiteral("published · ") + qs(m.chip)));
        CHECK(details.contains(qs(m.source)));
        CHECK(details.contains(qs(m.timing)));
    }
}

TEST_CASE("hovering a published time's badge opens a card that names its source", "[validation][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("validation"));

    const tpusim::Measurement &m = *tpusim::validate().rows.front().measurement;
    auto *badge = qobject_cast<QQuickItem *>(shell.findShown(("validationPublishedBadge_" + qs(m.id)).toUtf8().constData()));
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

TEST_CASE("the validation page sums up each model as tpusim::validate() does", "[validation][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("validation"));

    const tpusim::Validation v = tpusim::validate();
    REQUIRE(v.models.size() == 2);
    for (const tpusim::ModelErrors &e : v.models) {
        const QString model = qs(std::string(tpusim::model_name(e.model)));
        INFO(model.toStdString());
        CHECK(shownText(shell, "validationHeldOut_" + model) == QString::number(e.held_out));
        CHECK(shownText(shell, "validationMedian_" + model) == percent(e.held_out_median));
        CHECK(shownText(shell, "validationWorst_" + model) == percent(e.held_out_worst));
        CHECK(shownText(shell, "validationFitted_" + model) == QString::number(e.fitted));
        CHECK(shownText(shell, "validationFittedWorst_" + model)
              == (e.fitted > 0 ? percent(e.fitted_worst) : QStringLiteral("—")));
    }
}

TEST_CASE("the validation page opens from the bench and the palette, and Escape goes back", "[validation][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("bench")));
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("bench"));
    QObject *link = shell.findShown("validationLink");
    REQUIRE(link != nullptr);
    QMetaObject::invokeMethod(link, "clicked");
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("validation"));
    QTest::keyClick(window, Qt::Key_Escape);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("bench"));
    QTest::keyClick(window, Qt::Key_Escape);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("stack"));

    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    QObject *field = shell.find("paletteField");
    REQUIRE(field != nullptr);
    WAIT_VERIFY(field->property("activeFocus").toBool());
    shell.typeText(QStringLiteral("how wrong"));
    WAIT_COMPARE(shell.course().palette()->query(), QStringLiteral("how wrong"));
    REQUIRE(shell.course().palette()->rowCount() > 0);
    CHECK(shell.course().palette()->placeAt(0) == QStringLiteral("validation"));
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(window->property("page").toString(), QStringLiteral("validation"));

    // The page takes the keys: End scrolls to the sources at the foot.
    QObject *page = shell.findShown("validationPage");
    REQUIRE(page != nullptr);
    WAIT_VERIFY(page->property("scrollable").toBool());
    QTest::keyClick(window, Qt::Key_End);
    WAIT_VERIFY(page->property("contentY").toReal() > 0
                && qAbs(page->property("contentY").toReal() - page->property("maximumY").toReal()) < 1);
    shell.shot("validation-page-end");
}
