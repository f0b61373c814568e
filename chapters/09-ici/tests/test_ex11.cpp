#include <catch2/catch.hpp>

#include "meshmodel.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/collective.h>
#include <tpusim/mesh.h>

#include <QCoreApplication>
#include <QImage>
#include <QQuickItem>
#include <QSignalSpy>
#include <QTest>

#include <cstdlib>

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

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

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

// The item as the window shows it.
QImage grabItem(ShellFixture &shell, QQuickItem *item)
{
    const QRect rect = item->mapRectToScene(QRectF(0, 0, item->width(), item->height())).toAlignedRect();
    REQUIRE(QRect(QPoint(0, 0), shell.window()->size()).contains(rect));
    return shell.window()->grabWindow().copy(rect);
}

} // namespace

TEST_CASE("EX11's mesh draws its links by load and its chunks where the time puts them", "[ex11][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX11")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));
    QObject *model = shell.find("ex11Model");
    auto *mesh = qobject_cast<QQuickItem *>(shell.find("ex11Mesh"));
    REQUIRE(model != nullptr);
    REQUIRE(mesh != nullptr);
    WAIT_VERIFY(model->property("view").toMap().value(QStringLiteral("hopCount")).toInt() > 0);
    WAIT_VERIFY(mesh->width() > 100 && mesh->height() > 100);
    const double end = model->property("view").toMap().value(QStringLiteral("endS")).toDouble();
    REQUIRE(end > 0);
    const QColor load = mesh->property("loadColor").value<QColor>();
    const QColor chunk = mesh->property("chunkColor").value<QColor>();
    const QColor chip = mesh->property("chipColor").value<QColor>();
    REQUIRE(load.isValid());
    REQUIRE(chunk.isValid());

    // A third of the way in, chunks are on the wire on every row of the 8x4
    // slice (one row simulated, drawn on all eight).
    mesh->setProperty("time", end / 3);
    QTest::qWait(50);
    const QImage early = grabItem(shell, mesh);
    int drawn = 0;
    QMetaObject::invokeMethod(mesh, "chunksDrawn", Q_RETURN_ARG(int, drawn));
    CHECK(drawn > 0);
    CHECK(drawn % 8 == 0);
    CHECK(pixelsNear(early, chunk) > drawn * 4);
    // The busiest link is drawn in the full load colour, the chips' faces in theirs.
    CHECK(pixelsNear(early, load) > 50);
    CHECK(pixelsNear(early, chip) > 8 * 4 * 20);

    // Later the chunks are elsewhere: the picture changes, the links do not.
    mesh->setProperty("time", end * 2 / 3);
    QTest::qWait(50);
    const QImage later = grabItem(shell, mesh);
    CHECK(later != early);
    CHECK(pixelsNear(later, load) > 50);

    // After the end nothing is in flight: no dots at all.
    mesh->setProperty("time", end * 2);
    QTest::qWait(50);
    const QImage after = grabItem(shell, mesh);
    QMetaObject::invokeMethod(mesh, "chunksDrawn", Q_RETURN_ARG(int, drawn));
    CHECK(drawn == 0);
    CHECK(pixelsNear(after, chunk) == 0);
    CHECK(pixelsNear(after, load) > 50);
}

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
    // Beside the peak's times, what a real chip shows: the links at the
    // fraction of their peak the validation fits for the chip, after the
    // least time every collective pays.
    const tpusim::Fact &fraction = tpusim::chip("v5e").ici_attainable;
    const tpusim::Fact &floor = tpusim::chip("v5e").collective_floor;
    REQUIRE(fraction.value > 0);
    REQUIRE(fraction.value < 1);
    REQUIRE(floor.value > 0);
    CHECK(shown(shell, "ex11Attainable") == q(tpusim::format_time(r.time_s / fraction.value + floor.value)));
    CHECK(shown(shell, "ex11AttainableWhy").contains(q(tpusim::format_fixed(100 * fraction.value, 1) + " %")));
    CHECK(shown(shell, "ex11AttainableWhy").contains(q(tpusim::format_fact(floor))));
    // What HBM and the VPU do meanwhile, in libtpusim's words.
    CHECK(shown(shell, "ex11Memory") == q(r.memory_note));
    CHECK(shown(shell, "ex11Memory").contains(QStringLiteral("through HBM")));
    // The link's bandwidth in the chip sheet's and D4's unit: "45.0 GB/s".
    const double link = tpusim::chip("v5e").ici_link_bandwidth.value;
    CHECK(shown(shell, "ex11LinkLine").contains(q(tpusim::format_rate(link, "B/s") + " one way")));

    // libtpusim simulates one row of the eight and says the rest run the
    // same: the view draws that row's chunks on every row.
    REQUIRE(r.lines_simulated == 1);
    REQUIRE(r.lines_total == 8);
    QObject *model = shell.find("ex11Model");
    REQUIRE(model != nullptr);
    CHECK(model->property("view").toMap().value(QStringLiteral("repeatHops")).toString() == QStringLiteral("rows"));
    CHECK(model->property("view").toMap().value(QStringLiteral("hopCount")).toInt() > 0);

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

    // Axis 0 dragged far past the pod's side stops at it (v5e pods are
    // 16x16), so the times never turn into a refusal mid-drag.
    auto *axis0 = qobject_cast<QQuickItem *>(shell.find("ex11Axis_0"));
    REQUIRE(axis0 != nullptr);
    dragScrub(shell, axis0, 24 * 12);
    WAIT_COMPARE(axis0->property("value").toInt(), 16);
    r = expected("v5e", {16, 16}, 1, 64 * mib);
    WAIT_COMPARE(shown(shell, "ex11Simulated"), q(tpusim::format_time(r.simulated_s)));

    // Another chip states another wraparound rule.
    const QString v5eRule = shown(shell, "ex11WrapRule");
    CHECK(v5eRule.contains(QStringLiteral("v5e")));
    QMetaObject::invokeMethod(shell.find("ex11Chip_v5p"), "clicked");
    WAIT_VERIFY(shown(shell, "ex11WrapRule").contains(QStringLiteral("v5p")));
    CHECK(shown(shell, "ex11WrapRule") != v5eRule);
    r = expected("v5p", {16, 16}, 1, 64 * mib);
    WAIT_COMPARE(shown(shell, "ex11Simulated"), q(tpusim::format_time(r.simulated_s)));

    // A v5p slice of 24 x 16 taken back to v5e is cut to v5e's 16 x 16.
    dragScrub(shell, axis0, 8 * 12);
    WAIT_COMPARE(axis0->property("value").toInt(), 24);
    QMetaObject::invokeMethod(shell.find("ex11Chip_v5e"), "clicked");
    WAIT_COMPARE(axis0->property("value").toInt(), 16);
    r = expected("v5e", {16, 16}, 1, 64 * mib);
    WAIT_COMPARE(shown(shell, "ex11Simulated"), q(tpusim::format_time(r.simulated_s)));
    shell.shot("ex11_v5p");
}

TEST_CASE("a burst of edits to a large slice runs once, on the newest inputs only", "[ex11]")
{
    // 16 x 16 chips go to a worker thread.
    MeshModel model;
    QSignalSpy results(&model, &MeshModel::resultChanged);
    const double mib = 1024.0 * 1024.0;
    const auto shows = [&](double bytes) {
        const tpusim::CollectiveResult r = expected("v5e", {16, 16}, 1, bytes);
        return model.result().value(QStringLiteral("simulated")).toString() == q(tpusim::format_time(r.simulated_s));
    };
    model.setProperty("shape", QVariantList{16, 16});
    WAIT_VERIFY(!model.busy() && results.count() >= 1);

    // Six edits before the event loop turns (a chip switch, a drag's burst):
    // one run, on the last.
    results.clear();
    for (int step = 1; step <= 6; ++step)
        model.setProperty("bytes", step * mib);
    WAIT_VERIFY(!model.busy() && !results.isEmpty());
    QTest::qWait(50); // nothing more comes
    CHECK(results.count() == 1);
    CHECK(shows(6 * mib));

    // An edit while a run is out: the run that ends stale is dropped (its
    // picture would be of another slice) and the newest inputs run; had it
    // ended first, it showed and the next ran after. Either way the last
    // result is the last edit's.
    results.clear();
    model.setProperty("bytes", 7 * mib);
    WAIT_VERIFY(model.busy() || shows(7 * mib)); // out, or (a fast machine) already back
    model.setProperty("bytes", 8 * mib);
    WAIT_VERIFY(!model.busy() && !results.isEmpty() && shows(8 * mib));
    QTest::qWait(50);
    CHECK(shows(8 * mib));
    CHECK(results.count() <= 2);
}
