// g++ 12 reports false -Wrestrict overlaps inside std::string appends (GCC bug 105651).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/mxu.h>

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>

#include <cmath>

using namespace piece_input;

namespace {

// libtpusim's figures as the piece prints them: "1,066", "25.1 %".
std::string grouped(std::int64_t v)
{
    std::string digits = std::to_string(v);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}
std::string percent(double fraction)
{
    const double p = fraction * 100.0;
    char text[32];
    std::snprintf(text, sizeof text, p < 1.0 ? "%.2f %%" : "%.1f %%", p);
    return text;
}

std::int64_t value(QQuickItem *scrub)
{
    return static_cast<std::int64_t>(std::llround(scrub->property("value").toDouble()));
}

// A corner cell's line of text ("Σ 9") at row r, column c.
std::string cellLine(ShellFixture &shell, int r, int c, const char *line)
{
    const std::string name = "ex06Cell_" + std::to_string(r) + "_" + std::to_string(c);
    QQuickItem *cell = item(shell, name.c_str());
    auto *text = cell->findChild<QObject *>(QString::fromLatin1(line));
    return text ? text->property("text").toString().toStdString() : "<no " + std::string(line) + ">";
}

std::string number(float v)
{
    return (v < 0 ? "−" : "") + std::to_string(static_cast<int>(std::fabs(v)));
}

} // namespace

TEST_CASE("EX06: an MXU stepped cycle by cycle, driven by mouse and keys, goals only for the learner's own moves",
          "[ex06][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX06")));
    WAIT_VERIFY(shownItem(shell, "ex06Size_m") != nullptr);

    // The piece opens on one 128 x 128 tile on v5e's 128-wide array.
    tpusim::MxuRun r = tpusim::mxu_cycles(128, 128, 128, 128, tpusim::MxuMode::overlapped);
    WAIT_COMPARE(shown(shell, "ex06Cycles"), grouped(r.cycles));
    CHECK(shown(shell, "ex06Utilization") == percent(r.utilization));
    WAIT_COMPARE(shown(shell, "ex06Stepped"), grouped(r.cycles)); // stepped off the GUI thread, the same count
    CHECK(shell.store().masteryGoalsReached(8).empty());

    // The cursor opens six cycles after the first row entered: the corner
    // holds the skewed wave, with libtpusim's values.
    const tpusim::MxuTimeline open = tpusim::mxu_timeline(128, 128, 128, 128, tpusim::MxuMode::overlapped);
    CHECK(value(item(shell, "ex06Cycle")) == open.first_start + 6);
    tpusim::MxuFrame f = tpusim::mxu_frame(open, open.first_start + 6);
    CHECK(shown(shell, "ex06Phase") == f.phase);
    for (auto [row, col] : {std::pair{0, 0}, std::pair{2, 3}, std::pair{5, 1}}) {
        const tpusim::MxuCornerCell &cell = f.corner_cells[static_cast<std::size_t>(row * 8 + col)];
        REQUIRE(cell.has_row);
        CHECK(cellLine(shell, row, col, "ex06CellSum") == "Σ " + number(cell.sum));
    }
    CHECK(cellLine(shell, 7, 7, "ex06CellSum").empty()); // the wave has not reached it
    // Pointing at a cell explains it in words, beside the grid.
    QTest::mouseMove(window, at(item(shell, "ex06Cell_2_3"), 0.5));
    QObject *card = shell.find("ex06CellCard");
    REQUIRE(card != nullptr);
    WAIT_VERIFY(card->property("visible").toBool());
    const tpusim::MxuCornerCell &c23 = f.corner_cells[2 * 8 + 3];
    CHECK(card->property("text").toString().toStdString() ==
          "cell (2, 3) at cycle 134: multiplying\nholds the weight w = " + number(c23.weight) + "\nrow " +
              std::to_string(c23.row) + " of x passes through it: x = " + number(c23.activation) +
              ", moving one cell right per cycle\npasses down Σ = " + number(c23.sum) +
              ": that row's products in rows 0 to 2 of this column");
    QTest::mouseMove(window, QPoint(2, 2));
    WAIT_VERIFY(!card->property("visible").toBool());
    shell.shot("ex06_open");

    // Dragging the cycle right by 40 px: 20 cycles on, still filling.
    QQuickItem *cycle = item(shell, "ex06Cycle");
    drag(window, cycle, 40);
    WAIT_COMPARE(value(cycle), open.first_start + 26);
    f = tpusim::mxu_frame(open, open.first_start + 26);
    CHECK(shown(shell, "ex06Phase") == "fill");
    CHECK(cellLine(shell, 7, 7, "ex06CellSum") == "Σ " + number(f.corner_cells[63].sum));
    // The arrow key steps one cycle.
    QTest::keyClick(window, Qt::Key_Right);
    WAIT_COMPARE(value(cycle), open.first_start + 27);

    // M typed down to 8 rows: the skinny goal, and libtpusim's count.
    typeInto(window, item(shell, "ex06Size_m"), "8");
    r = tpusim::mxu_cycles(8, 128, 128, 128, tpusim::MxuMode::overlapped);
    WAIT_COMPARE(shown(shell, "ex06Cycles"), grouped(r.cycles));
    CHECK(shown(shell, "ex06Utilization") == percent(r.utilization));
    WAIT_VERIFY(shell.store().masteryGoalsReached(8).count("ch08-systolic/skinny") == 1);
    CHECK(shell.store().masteryGoalsReached(8).size() == 1);

    // The 1024-row preset is the course's: no goal for it. Then the
    // learner's own cycles through fill, steady state and drain.
    click(shell, "ex06Preset_long");
    const tpusim::MxuTimeline longer = tpusim::mxu_timeline(1024, 128, 128, 128, tpusim::MxuMode::overlapped);
    WAIT_COMPARE(shown(shell, "ex06Cycles"), grouped(longer.cycles));
    typeInto(window, cycle, "200");
    WAIT_COMPARE(shown(shell, "ex06Phase"), std::string("fill"));
    typeInto(window, cycle, "600");
    WAIT_COMPARE(shown(shell, "ex06Phase"), std::string("steady state"));
    f = tpusim::mxu_frame(longer, 600);
    CHECK(f.useful_cells == 128 * 128);
    CHECK(shell.store().masteryGoalsReached(8).count("ch08-systolic/phases") == 0);
    shell.shot("ex06_steady");
    typeInto(window, cycle, "1200");
    WAIT_COMPARE(shown(shell, "ex06Phase"), std::string("drain"));
    WAIT_VERIFY(shell.store().masteryGoalsReached(8).count("ch08-systolic/phases") == 1);

    // The ragged shape typed in: SCALE-Sim's folds and count, and the
    // stepped run agreeing with the closed form.
    typeInto(window, item(shell, "ex06Size_m"), "100");
    typeInto(window, item(shell, "ex06Size_k"), "300");
    typeInto(window, item(shell, "ex06Size_n"), "200");
    r = tpusim::mxu_cycles(100, 300, 200, 128, tpusim::MxuMode::overlapped);
    REQUIRE(r.cycles == 1066);
    WAIT_COMPARE(shown(shell, "ex06Cycles"), std::string("1,066"));
    WAIT_COMPARE(shown(shell, "ex06Stepped"), std::string("1,066"));
    const tpusim::MxuScaleSimCount ss = tpusim::mxu_scalesim_count(100, 300, 200, 128);
    CHECK(shown(shell, "ex06ScaleSimCycles") == "2,892");
    CHECK(shown(shell, "ex06ScaleSimUtil") == "folds × (3S + M − 2) = 6 × 482\noverall utilization " +
                                                  percent(ss.overall_utilization) + " · mapping efficiency " +
                                                  percent(ss.mapping_efficiency) + " · compute utilization " +
                                                  percent(ss.compute_utilization));
    WAIT_VERIFY(shell.store().masteryGoalsReached(8).count("ch08-systolic/ragged") == 1);
    CHECK(shell.store().masteryItemsDone(8).count("ch08-systolic") == 1);

    // SCALE-Sim's mode: each tile loads, streams and drains in turn.
    click(shell, "ex06Mode_no-overlap");
    WAIT_COMPARE(shown(shell, "ex06Cycles"), std::string("2,892"));
    WAIT_COMPARE(shown(shell, "ex06Stepped"), std::string("2,892"));
    click(shell, "ex06Heat_run");
    shell.shot("ex06_ragged_run_heat");

    // A zero or negative size: one sentence in place, and no crash.
    typeInto(window, item(shell, "ex06Size_m"), "0");
    WAIT_COMPARE(shown(shell, "ex06Problem"), std::string("M, K and N must be positive integers (got 0, 300, 200)."));
    CHECK(shownItem(shell, "ex06Cycles") == nullptr);
    QQuickItem *m = item(shell, "ex06Size_m");
    m->forceActiveFocus();
    QTest::keyClick(window, Qt::Key_Return);
    QTest::keyClick(window, '-');
    QTest::keyClick(window, '5');
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(value(m), std::int64_t(0));
    CHECK(shown(shell, "ex06Problem") == "M, K and N must be positive integers (got 0, 300, 200).");
    shell.shot("ex06_problem");
    typeInto(window, m, "100");
    WAIT_COMPARE(shown(shell, "ex06Cycles"), std::string("2,892"));

    // v6e's MXU is 256 wide: two folds of 3 * 256 + 100 - 2 cycles.
    click(shell, "ex06Chip_v6e");
    WAIT_COMPARE(shown(shell, "ex06Cycles"),
                 grouped(tpusim::mxu_cycles(100, 300, 200, 256, tpusim::MxuMode::no_overlap).cycles));
    CHECK(shown(shell, "ex06Cycles") == "1,732");

    // Leaving and coming back keeps the state.
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    REQUIRE(shell.navigate(QStringLiteral("EX06")));
    WAIT_VERIFY(shownItem(shell, "ex06Size_m") != nullptr);
    CHECK(value(item(shell, "ex06Size_k")) == 300);
    CHECK(shown(shell, "ex06Cycles") == "1,732");
}

TEST_CASE("EX06: presets named by the chapter text are the course's doing", "[ex06][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX06")));
    WAIT_VERIFY(shownItem(shell, "ex06Size_m") != nullptr);
    for (const char *preset : {"ex06Preset_skinny", "ex06Preset_ragged", "ex06Preset_long", "ex06Preset_tile"})
        click(shell, preset);
    click(shell, "ex06Preset_ragged");
    WAIT_COMPARE(shown(shell, "ex06Stepped"), std::string("1,066"));
    CHECK(shell.store().masteryGoalsReached(8).empty());
}
