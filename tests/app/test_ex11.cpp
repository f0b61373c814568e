#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/collective.h>
#include <tpusim/mesh.h>

#include <QQuickItem>
#include <QTest>

namespace {

QString shown(ShellFixture &shell, const char *name)
{
    for (QObject *item : shell.findAll(name))
        if (ShellFixture::isShown(item))
            return item->property("text").toString().trimmed();
    return QStringLiteral("<not shown: %1>").arg(QString::fromLatin1(name));
}

// libtpusim's answer for the instrument's inputs: all-gather on a v5e slice,
// bidirectional rings cut into 4 chunks.
tpusim::CollectiveResult expected(const char *chip, std::vector<std::int64_t> shape, int axis, double bytes)
{
    tpusim::CollectiveSpec spec;
    spec.kind = tpusim::CollectiveKind::all_gather;
    spec.axes = {axis};
    spec.bytes = bytes;
    return tpusim::collective(tpusim::make_mesh(tpusim::chip(chip), shape), spec);
}

QString q(const std::string &s) { return QString::fromStdString(s); }

// Drags a scrub number sideways by `dx` pixels from its value box (the
// right end of the control: these have no unit text).
void dragScrub(ShellFixture &shell, QQuickItem *scrub, int dx)
{
    const QPoint start = scrub->mapToScene(QPointF(scrub->width() - 12, scrub->height() / 2)).toPoint();
    QTest::mousePress(shell.window(), Qt::LeftButton, {}, start);
    for (int i = 1; i <= 8; ++i)
        QTest::mouseMove(shell.window(), start + QPoint(dx * i / 8, 0));
    QTest::mouseRelease(shell.window(), Qt::LeftButton, {}, start + QPoint(dx, 0));
}

} // namespace

TEST_CASE("EX11 shows libtpusim's simulated and closed-form collective times", "[ex11][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX11")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));

    // The defaults: v5e 8x4, all-gather over axis 1, 32 MiB.
    const double mib = 1024.0 * 1024.0;
    tpusim::CollectiveResult r = expected("v5e", {8, 4}, 1, 32 * mib);
    WAIT_COMPARE(shown(shell, "ex11Simulated"), q(tpusim::format_time(r.simulated_s)));
    CHECK(shown(shell, "ex11ClosedForm") == q(tpusim::format_time(r.analytic_s)));

    // libtpusim simulates one row of the eight and says the rest run the
    // same: the view draws that row's chunks on every row.
    REQUIRE(r.lines_simulated == 1);
    REQUIRE(r.lines_total == 8);
    QObject *model = shell.find("ex11Model");
    REQUIRE(model != nullptr);
    CHECK(model->property("view").toMap().value(QStringLiteral("repeatHops")).toString() == QStringLiteral("rows"));
    CHECK(!model->property("view").toMap().value(QStringLiteral("hops")).toList().isEmpty());

    // The run the piece opens with is not the learner's: no goal yet.
    CHECK(shell.store().masteryGoalsReached(9).empty());

    // One logarithmic step to the right doubles the array.
    auto *bytes = qobject_cast<QQuickItem *>(shell.find("ex11Bytes"));
    REQUIRE(bytes != nullptr);
    dragScrub(shell, bytes, 45);
    WAIT_COMPARE(bytes->property("value").toDouble(), 64.0 * 1024);
    r = expected("v5e", {8, 4}, 1, 64 * mib);
    WAIT_COMPARE(shown(shell, "ex11Simulated"), q(tpusim::format_time(r.simulated_s)));
    CHECK(shown(shell, "ex11ClosedForm") == q(tpusim::format_time(r.analytic_s)));
    CHECK(shell.store().masteryItemsDone(9).count("ch09-hop-by-hop") == 0);
    CHECK(shell.store().masteryGoalsReached(9) == std::set<std::string>{"ch09-hop-by-hop/unwrapped"});

    // Axis 1 dragged out to 16 chips: v5e wraps it, and the mastery item counts.
    auto *axis1 = qobject_cast<QQuickItem *>(shell.find("ex11Axis_1"));
    REQUIRE(axis1 != nullptr);
    dragScrub(shell, axis1, 12 * 12);
    WAIT_COMPARE(axis1->property("value").toInt(), 16);
    r = expected("v5e", {8, 16}, 1, 64 * mib);
    WAIT_COMPARE(shown(shell, "ex11Simulated"), q(tpusim::format_time(r.simulated_s)));
    CHECK(shown(shell, "ex11ClosedForm") == q(tpusim::format_time(r.analytic_s)));
    WAIT_VERIFY(shell.store().masteryItemsDone(9).count("ch09-hop-by-hop") == 1);

    // Another chip states another wraparound rule.
    const QString v5eRule = shown(shell, "ex11WrapRule");
    CHECK(v5eRule.contains(QStringLiteral("v5e")));
    QMetaObject::invokeMethod(shell.find("ex11Chip_v5p"), "clicked");
    WAIT_VERIFY(shown(shell, "ex11WrapRule").contains(QStringLiteral("v5p")));
    CHECK(shown(shell, "ex11WrapRule") != v5eRule);
    r = expected("v5p", {8, 16}, 1, 64 * mib);
    WAIT_COMPARE(shown(shell, "ex11Simulated"), q(tpusim::format_time(r.simulated_s)));
    shell.shot("ex11_v5p");
}
