#include <catch2/catch.hpp>

#include "loggrid.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/bench.h>
#include <tpusim/roofline.h>

#include <QGuiApplication>
#include <QQuickItem>
#include <QStyleHints>
#include <QTest>

#include <cmath>

namespace {

QQuickItem *shownItem(ShellFixture &shell, const char *name)
{
    for (QObject *object : shell.findAll(name))
        if (ShellFixture::isShown(object))
            return qobject_cast<QQuickItem *>(object);
    return nullptr;
}

QString shownText(ShellFixture &shell, const char *name)
{
    QQuickItem *item = shownItem(shell, name);
    return item ? item->property("text").toString() : QString();
}

QPoint centreOf(QQuickItem *item)
{
    return item->mapToScene(QPointF(item->width() / 2, item->height() / 2)).toPoint();
}

// Presses at `from`, moves in small steps by `dx`, releases: a real drag.
void drag(QWindow *window, QPoint from, int dx)
{
    QTest::mousePress(window, Qt::LeftButton, Qt::NoModifier, from);
    const int steps = 12;
    for (int i = 1; i <= steps; ++i)
        QTest::mouseMove(window, from + QPoint(dx * i / steps, 0), 10);
    QTest::mouseRelease(window, Qt::LeftButton, Qt::NoModifier, from + QPoint(dx, 0), 10);
}

void click(QWindow *window, QQuickItem *item)
{
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, centreOf(item));
}

tpusim::Roofline matmulOnV5e(std::int64_t m, std::int64_t k, std::int64_t n)
{
    tpusim::MatmulSpec spec;
    spec.m = m;
    spec.k = k;
    spec.n = n;
    return tpusim::roofline(tpusim::chip("v5e"), tpusim::matmul_cost(spec));
}

QString timeText(const tpusim::Roofline &r)
{
    return QString::fromStdString(tpusim::format_time(r.time_s));
}

std::int64_t intValue(QQuickItem *scrub)
{
    return static_cast<std::int64_t>(scrub->property("value").toDouble());
}

} // namespace

TEST_CASE("EX01: dragging M changes the time to libtpusim's, and presets give the bench floors", "[ex01][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX01")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));
    QWindow *window = shell.window();

    QQuickItem *m = nullptr;
    WAIT_VERIFY((m = shownItem(shell, "matmulM")) != nullptr);
    REQUIRE(intValue(m) == 4096);
    WAIT_COMPARE(shownText(shell, "readoutTime"), timeText(matmulOnV5e(4096, 4096, 4096)));

    SECTION("a mouse drag on the M number changes M, and the time follows")
    {
        drag(window, centreOf(m), -100);
        const auto newM = intValue(m);
        CHECK(newM < 4096);
        CHECK(newM >= 1);
        const QString expected = timeText(matmulOnV5e(newM, 4096, 4096));
        WAIT_COMPARE(shownText(shell, "matmulTime"), expected);
        WAIT_COMPARE(shownText(shell, "readoutTime"), expected);
    }

    SECTION("arrow keys step M by its factor")
    {
        m->forceActiveFocus();
        QTest::keyClick(window, Qt::Key_Right);
        CHECK(intValue(m) == 8192);
        QTest::keyClick(window, Qt::Key_Left);
        QTest::keyClick(window, Qt::Key_Left);
        CHECK(intValue(m) == 2048);
        WAIT_COMPARE(shownText(shell, "matmulTime"), timeText(matmulOnV5e(2048, 4096, 4096)));
    }

    SECTION("a click types a value; bad text keeps the old one; a double click resets")
    {
        QQuickItem *k = shownItem(shell, "matmulK");
        REQUIRE(k != nullptr);
        click(window, k);
        WAIT_VERIFY(k->property("editing").toBool());
        shell.typeText(QStringLiteral("2048"));
        QTest::keyClick(window, Qt::Key_Return);
        CHECK(intValue(k) == 2048);
        WAIT_COMPARE(shownText(shell, "matmulTime"), timeText(matmulOnV5e(4096, 2048, 4096)));

        click(window, k);
        WAIT_VERIFY(k->property("editing").toBool());
        shell.typeText(QStringLiteral("abc"));
        QTest::keyClick(window, Qt::Key_Return);
        CHECK_FALSE(k->property("editing").toBool());
        CHECK(intValue(k) == 2048);

        QTest::mouseDClick(window, Qt::LeftButton, Qt::NoModifier, centreOf(k));
        CHECK(intValue(k) == 4096);
        QTest::qWait(QGuiApplication::styleHints()->mouseDoubleClickInterval() + 200);
        CHECK_FALSE(k->property("editing").toBool()); // a double click never opens the editor
    }

    SECTION("the bench presets read the landing page's floors on v5e")
    {
        const auto rows = tpusim::landing_bench(tpusim::chip("v5e"));
        const char *expected[] = {"697.7 µs", "41.1 µs", "122.8 µs"};
        REQUIRE(rows.size() == 3);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            INFO(rows[i].id);
            QQuickItem *button = shownItem(shell, ("preset_" + rows[i].id).c_str());
            REQUIRE(button != nullptr);
            click(window, button);
            WAIT_COMPARE(shownText(shell, "readoutTime"), QString::fromUtf8(expected[i]));
            CHECK(shownText(shell, "readoutTime") == timeText(rows[i].result));
        }
    }

    SECTION("another chip moves the roof and the times; a dtype it has no rate for says so")
    {
        QQuickItem *v6e = shownItem(shell, "ex01chip_v6e");
        REQUIRE(v6e != nullptr);
        click(window, v6e);
        tpusim::MatmulSpec spec;
        spec.m = spec.k = spec.n = 4096;
        const auto r = tpusim::roofline(tpusim::chip("v6e"), tpusim::matmul_cost(spec));
        WAIT_COMPARE(shownText(shell, "matmulTime"), timeText(r));

        click(window, shownItem(shell, "ex01chip_v5e"));
        click(window, shownItem(shell, "ex01dtype_fp8"));
        WAIT_COMPARE(shownText(shell, "matmulTime"), QStringLiteral("not computed"));
        CHECK(shownText(shell, "readoutTime") == QStringLiteral("not computed"));
        click(window, shownItem(shell, "ex01dtype_bf16"));
        WAIT_COMPARE(shownText(shell, "matmulTime"), timeText(matmulOnV5e(4096, 4096, 4096)));
    }

    SECTION("the bound flips from memory to compute as M crosses the ridge, and back")
    {
        QQuickItem *skinnyM = shownItem(shell, "skinnyM");
        REQUIRE(skinnyM != nullptr);
        REQUIRE(intValue(skinnyM) == 8);
        REQUIRE(matmulOnV5e(8, 4096, 4096).bound == tpusim::Bound::memory);
        const double ridge = tpusim::ridge_point(tpusim::chip("v5e"), tpusim::DType::bf16);

        drag(window, centreOf(skinnyM), 240); // six powers of two: 8 -> 512
        const auto up = intValue(skinnyM);
        INFO("M after the drag right: " << up << ", ridge " << ridge);
        REQUIRE(matmulOnV5e(up, 4096, 4096).bound == tpusim::Bound::compute);
        WAIT_VERIFY(shownText(shell, "readoutBound").startsWith(QStringLiteral("compute")));
        CHECK(shownText(shell, "skinnyTime") == timeText(matmulOnV5e(up, 4096, 4096)));

        // Back across, this time by dragging the op's dot on the chart.
        QQuickItem *dot = shownItem(shell, "dot_skinny");
        REQUIRE(dot != nullptr);
        drag(window, centreOf(dot), -200);
        const auto down = intValue(skinnyM);
        INFO("M after the chart drag left: " << down);
        CHECK(down < up);
        REQUIRE(matmulOnV5e(down, 4096, 4096).bound == tpusim::Bound::memory);
        WAIT_VERIFY(shownText(shell, "readoutBound").startsWith(QStringLiteral("memory")));

        // Both directions on one chip: two of the item's three goals, and
        // the item is not done until the ridge is crossed on a second chip.
        WAIT_VERIFY(shell.store().masteryGoalsReached(10).count("ch10-ridge/down") == 1);
        CHECK(shell.store().masteryGoalsReached(10).count("ch10-ridge/up") == 1);
        CHECK(shell.store().masteryItemsDone(10).count("ch10-ridge") == 0);
        WAIT_VERIFY(shell.findShown("goal_up")->property("reached").toBool());
        CHECK_FALSE(shell.findShown("goal_second-chip")->property("reached").toBool());
        // Its share shows the same on the workshop card's figure: two goals of three.
        double piece = -1;
        for (const QVariant &p : shell.course().pieces())
            if (p.toMap().value("id").toString() == QStringLiteral("EX01"))
                piece = p.toMap().value("progress").toDouble();
        CHECK(piece == Approx(2.0 / 3.0));

        click(window, shownItem(shell, "ex01chip_v6e"));
        drag(window, centreOf(skinnyM), 280); // up across v6e's higher ridge
        WAIT_VERIFY(shell.store().masteryItemsDone(10).count("ch10-ridge") == 1);
        WAIT_VERIFY(shell.findShown("goalsDone")->property("opacity").toDouble() == 1.0);
    }
}

TEST_CASE("log-log paper: a line at every decade, fainter ones at 2..9 times each", "[ex01][loggrid]")
{
    // The roofline's intensity axis: 0.01 to 100000, seven decades.
    const LogGrid::Lines lines = LogGrid::linesFor(0.01, 100000);
    REQUIRE(lines.major.size() == 8);
    for (std::size_t k = 0; k < lines.major.size(); ++k)
        CHECK(lines.major[k] == Approx(double(k) / 7.0).margin(1e-12));
    REQUIRE(lines.minor.size() == 7 * 8);
    // 2 times the first decade sits log10(2) of a decade along.
    CHECK(lines.minor.front() == Approx(std::log10(2.0) / 7.0));
    for (const double f : lines.minor) {
        CHECK(f > 0);
        CHECK(f < 1);
    }
    // A range that does not start on a decade has only the lines inside it.
    const LogGrid::Lines part = LogGrid::linesFor(3, 200);
    CHECK(part.major.size() == 2);     // 10 and 100
    CHECK(part.minor.size() == 6 + 8); // 4..9 and 20..90: 3 and 200 are its ends
    // No paper for a range a log axis cannot have.
    CHECK(LogGrid::linesFor(0, 10).major.empty());
    CHECK(LogGrid::linesFor(10, 1).minor.empty());
}

TEST_CASE("EX01: the roofline's paper lies exactly under the chart's plot area", "[ex01][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX01")));
    QQuickItem *paper = nullptr;
    WAIT_VERIFY((paper = shownItem(shell, "rooflinePaper")) != nullptr);
    QQuickItem *chart = shownItem(shell, "rooflineChart");
    REQUIRE(chart != nullptr);
    // The chart takes its room once the piece's layout has settled.
    WAIT_VERIFY(chart->width() > 0 && paper->width() > 0);
    const QRectF plot = chart->property("plotArea").toRectF();
    const QRectF plotInScene = chart->mapRectToScene(plot);
    const QRectF paperInScene = paper->mapRectToScene(QRectF(0, 0, paper->width(), paper->height()));
    CHECK(paperInScene.x() == Approx(plotInScene.x()));
    CHECK(paperInScene.y() == Approx(plotInScene.y()));
    CHECK(paperInScene.width() == Approx(plotInScene.width()));
    CHECK(paperInScene.height() == Approx(plotInScene.height()));
    CHECK(paper->property("xMin").toDouble() == Approx(0.01));
    CHECK(paper->property("xMax").toDouble() == Approx(100000));
}
