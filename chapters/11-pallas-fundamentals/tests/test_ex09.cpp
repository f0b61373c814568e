#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include "blockspecmodel.h"

#include <tpusim/blockspec_sandbox.h>
#include <tpusim/index_map_text.h>

#include <cstdlib>

#include <QImage>
#include <QQuickItem>
#include <QQuickWindow>
#include <QSignalSpy>
#include <QTest>

using namespace piece_input;

namespace {

int intValue(QQuickItem *scrub)
{
    return static_cast<int>(scrub->property("value").toDouble());
}

// The inputs the piece shows, as libtpusim takes them.
tpusim::SandboxInputs inputsShown(ShellFixture &shell)
{
    tpusim::SandboxInputs in;
    in.m = intValue(item(shell, "ex09M"));
    in.k = intValue(item(shell, "ex09K"));
    in.n = intValue(item(shell, "ex09N"));
    in.bm = intValue(item(shell, "ex09Bm"));
    in.bk = intValue(item(shell, "ex09Bk"));
    in.bn = intValue(item(shell, "ex09Bn"));
    in.grid = {intValue(item(shell, "ex09Grid0")), intValue(item(shell, "ex09Grid1")),
               intValue(item(shell, "ex09Grid2"))};
    in.semantics.clear();
    for (const char *name : {"ex09Semantics0", "ex09Semantics1", "ex09Semantics2"})
        in.semantics.push_back(shown(shell, name) == "parallel" ? tpusim::Semantics::parallel
                                                                : tpusim::Semantics::arbitrary);
    in.x_map = shown(shell, "ex09Map_x");
    in.y_map = shown(shell, "ex09Map_y");
    in.out_map = shown(shell, "ex09Map_out");
    return in;
}

tpusim::Kernel kernelOf(const tpusim::SandboxInputs &in)
{
    return tpusim::sandbox_kernel(in, tpusim::parse_index_map(in.x_map, 3, 2), tpusim::parse_index_map(in.y_map, 3, 2),
                                  tpusim::parse_index_map(in.out_map, 3, 2));
}

} // namespace

TEST_CASE("EX09: drag the blocks, type a racing map, verify off-chip, all as libtpusim says", "[ex09][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX09")));
    WAIT_VERIFY(shownItem(shell, "ex09Bn") != nullptr);
    const tpusim::Chip &chip = tpusim::chip("v5e");

    // The docs' schedule, as the piece opens.
    tpusim::SandboxInputs in = inputsShown(shell);
    CHECK(in.grid == std::vector<std::int64_t>{4, 4, 4});
    const tpusim::PipelineResult docs = tpusim::simulate(chip, kernelOf(in));
    WAIT_COMPARE(shown(shell, "ex09Time"), (tpusim::format_time(docs.time_s)));
    // The time is a call's, as Python sees it: the launch and the device's share stated apart.
    CHECK(shown(shell, "ex09TimeDetail")
              .rfind("a call from Python: " + tpusim::format_time(docs.launch_s) + " launch + " +
                         tpusim::format_time(docs.time_s - docs.launch_s) + " on the device · ",
                     0) == 0);
    CHECK(shown(shell, "ex09CoverageStatus") == std::string("covered, race-free"));
    shell.shot("ex09_docs");

    // A block dragged moves a whole lane tile at a time, and says so.
    QQuickItem *bn = item(shell, "ex09Bn");
    CHECK(bn->property("snapHint").toString().startsWith(QStringLiteral("snaps to multiples of 128 (128 lanes)")));
    drag(window, bn, 17); // two steps of 8 px: 256 -> 512
    WAIT_COMPARE(intValue(bn), 512);
    drag(window, bn, -17);
    WAIT_COMPARE(intValue(bn), 256);

    // bm from 256 to 368 takes the map from four rows to three; the
    // readouts below it stay where they were.
    QQuickItem *vmem = item(shell, "ex09Vmem");
    QQuickItem *canvas = item(shell, "ex09CoverageCanvas");
    const double vmemY = vmem->mapToScene(QPointF(0, 0)).y();
    const double mapHeight = canvas->height();
    typeInto(window, item(shell, "ex09Bm"), "368");
    WAIT_COMPARE(intValue(item(shell, "ex09Bm")), 368);
    WAIT_VERIFY(canvas->height() < mapHeight);
    CHECK(vmem->mapToScene(QPointF(0, 0)).y() == Approx(vmemY));
    typeInto(window, item(shell, "ex09Bm"), "256");
    WAIT_COMPARE(intValue(item(shell, "ex09Bm")), 256);

    // Typed, any value stands: bn = 64 is not a multiple of 128, so y's and out's blocks are illegal.
    typeInto(window, bn, "64");
    WAIT_COMPARE(intValue(bn), 64);
    in = inputsShown(shell);
    const tpusim::Legality y = tpusim::check_block({in.k, in.n}, {in.bk, in.bn}, in.dtype);
    REQUIRE_FALSE(y.legal);
    WAIT_COMPARE(shown(shell, "ex09Legal_y"), std::string("illegal"));
    CHECK(shown(shell, "ex09Reason_y") == (y.reason));
    CHECK(shown(shell, "ex09Legal_x") == std::string("legal"));
    CHECK(shown(shell, "ex09TimeDetail") == (tpusim::evaluate_sandbox(chip, in).prediction_error));
    CHECK(shown(shell, "ex09Time") == std::string("—"));
    CHECK(shown(shell, "ex09Vmem") == (tpusim::format_bytes(tpusim::vmem_bytes(chip, kernelOf(in)))));
    CHECK(intValue(item(shell, "ex09Grid1")) == 16); // the grid follows the blocks
    shell.shot("ex09_illegal");

    // Dragged from there, it snaps back onto the tiles: three steps up is 512,
    // legal again; time and VMEM are the pipeline model's.
    drag(window, bn, 28);
    WAIT_COMPARE(intValue(bn), 512);
    in = inputsShown(shell);
    CHECK(in.grid == std::vector<std::int64_t>{4, 2, 4});
    const tpusim::PipelineResult run = tpusim::simulate(chip, kernelOf(in));
    WAIT_COMPARE(shown(shell, "ex09Time"), (tpusim::format_time(run.time_s)));
    CHECK(shown(shell, "ex09Legal_y") == std::string("legal"));
    CHECK(shown(shell, "ex09Vmem") == (tpusim::format_bytes(run.vmem_bytes)));
    CHECK(shown(shell, "ex09VmemLimit").find(tpusim::format_bytes(run.vmem_limit_bytes)) != std::string::npos);

    // Type an output map that pins the column: every j writes block (i, 0), a
    // race on the parallel j axis, and column 1 is never written.
    click(shell, "ex09Map_out");
    QTest::keyClick(window, Qt::Key_A, Qt::ControlModifier);
    shell.typeText(QStringLiteral("lambda i, j, k: (i, 0)"));
    WAIT_COMPARE(shown(shell, "ex09Map_out"), std::string("lambda i, j, k: (i, 0)"));
    in = inputsShown(shell);
    const tpusim::Coverage racing = tpusim::check_coverage(
        in.grid, in.semantics,
        tpusim::BlockSpec{"out", {in.m, in.n}, {in.bm, in.bn}, tpusim::parse_index_map(in.out_map, 3, 2), in.dtype, 2});
    REQUIRE(racing.race);
    std::string problems;
    for (const auto &p : racing.problems)
        problems += (problems.empty() ? "" : "\n") + p;
    WAIT_COMPARE(shown(shell, "ex09Problems"), problems);
    CHECK(shown(shell, "ex09CoverageStatus") == std::string("broken"));

    // Clicking block (0, 1) says it is a gap; the arrow key moves to block
    // (0, 0), which says which steps write it, and that they race.
    QQuickItem *map = item(shell, "ex09CoverageCanvas");
    // Hovering a block describes it too.
    QTest::mouseMove(window, at(map, 0.25, 0.375));
    QTest::mouseMove(window, at(map, 0.75, 0.125));
    WAIT_COMPARE(shown(shell, "ex09CellInfo"), std::string("block (0, 1): never written, a gap in the output"));
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, at(map, 0.75, 0.125));
    WAIT_COMPARE(shown(shell, "ex09CellInfo"), std::string("block (0, 1): never written, a gap in the output"));
    QTest::keyClick(window, Qt::Key_Left);
    INFO(shown(shell, "ex09CellInfo"));
    WAIT_VERIFY(shown(shell, "ex09CellInfo").rfind("block (0, 0): 8 writes, steps 0 (0, 0, 0) … 7 (0, 1, 3)", 0) == 0);
    CHECK(shown(shell, "ex09CellInfo").find("a race") != std::string::npos);
    shell.shot("ex09_race");
    CHECK(shell.store().masteryItemsDone(11).count("ch11-blockspec-sandbox") == 0);
    CHECK(shell.store().masteryGoalsReached(11) == std::set<std::string>{"ch11-blockspec-sandbox/break"});

    // A map the parser refuses says where and why, and the rest waits for it.
    click(shell, "ex09Map_x");
    QTest::keyClick(window, Qt::Key_A, Qt::ControlModifier);
    shell.typeText(QStringLiteral("lambda i, j, k: (i // 2, k)"));
    WAIT_VERIFY(shown(shell, "ex09MapError_x").rfind("column 18: `i // 2` is not affine", 0) == 0);
    shell.shot("ex09_parse_error");

    // Back to the docs' schedule; verify it off-chip and earn the badge.
    click(shell, "ex09Preset_docs");
    WAIT_COMPARE(shown(shell, "ex09CoverageStatus"), std::string("covered, race-free"));
    in = inputsShown(shell);
    const tpusim::SandboxVerification verified = tpusim::verify_sandbox(in);
    REQUIRE(verified.result.passed);
    click(shell, "ex09Verify");
    WAIT_COMPARE(shown(shell, "ex09VerifyResult"), std::string("✓ ") + (verified.result.reason));
    QQuickItem *badge = item(shell, "ex09VerifiedBadge");
    CHECK(badge->property("kind").toString().toStdString() == "verified");
    CHECK(shown(shell, "ex09VerifyRan").find(verified.ran) != std::string::npos);
    CHECK(verified.shrunk); // 1024 x 1024 x 512 is run with blocks of 8 x 128 x 128
    CHECK(shell.store().masteryItemsDone(11).count("ch11-blockspec-sandbox") == 1);
    shell.shot("ex09_verified");

    // Any change of input takes the badge away: it belonged to the old inputs.
    drag(window, item(shell, "ex09Bm"), -68); // eight bf16 row tiles of 16 down
    WAIT_COMPARE(intValue(item(shell, "ex09Bm")), 128);
    WAIT_VERIFY(shownItem(shell, "ex09VerifiedBadge") == nullptr);
    CHECK(shownItem(shell, "ex09VerifyResult") == nullptr);

    // The reduction axis first: each output block goes back to HBM between
    // its k steps, and the host run fails it, with a failed badge.
    click(shell, "ex09Preset_kfirst");
    WAIT_COMPARE(shown(shell, "ex09Map_out"), std::string("lambda k, i, j: (i, j)"));
    in = inputsShown(shell);
    in.reduction_axis = 0;
    const tpusim::SandboxVerification lost = tpusim::verify_sandbox(in);
    REQUIRE_FALSE(lost.result.passed);
    CHECK(shown(shell, "ex09CoverageStatus") == "broken");
    click(shell, "ex09Verify");
    WAIT_COMPARE(shown(shell, "ex09VerifyResult"), "✗ " + lost.result.reason);
    CHECK(item(shell, "ex09VerifiedBadge")->property("kind").toString().toStdString() == "failed");
    // The grid's axes carry the names the map's lambda gives them.
    CHECK(item(shell, "ex09Grid0")->property("label").toString() == QStringLiteral("0 · k"));
    CHECK(item(shell, "ex09Grid2")->property("label").toString() == QStringLiteral("2 · j"));
    shell.shot("ex09_kfirst");

    // Blocks too big for VMEM (y alone takes 2 x 8 MiB): no prediction, and the pipeline model says why.
    QQuickItem *bk = item(shell, "ex09Bk");
    drag(window, bk, 116); // fourteen lane tiles up: 256 -> 2048
    WAIT_COMPARE(intValue(bk), 2048);
    drag(window, bn, 100); // twelve up: 512 -> 2048
    WAIT_COMPARE(intValue(bn), 2048);
    in = inputsShown(shell);
    in.reduction_axis = 0;
    const tpusim::SandboxReport over = tpusim::evaluate_sandbox(chip, in);
    REQUIRE(over.vmem_bytes > over.vmem_limit_bytes);
    WAIT_COMPARE(shown(shell, "ex09TimeDetail"), over.prediction_error);
    CHECK(shown(shell, "ex09Vmem") == tpusim::format_bytes(over.vmem_bytes));
    CHECK(shown(shell, "ex09VmemLimit").find(": over") != std::string::npos);
    shell.shot("ex09_vmem_over");

    // Scrubbing a grid axis by hand leaves the blocks behind: two of four row
    // blocks are never written. "fit to blocks" brings the grid back.
    click(shell, "ex09Preset_docs");
    QQuickItem *rows = item(shell, "ex09Grid0");
    WAIT_COMPARE(intValue(rows), 8);
    WAIT_COMPARE(rows->property("label").toString(), QStringLiteral("0 · i"));
    drag(window, rows, -32); // four steps of 8 px
    WAIT_COMPARE(intValue(rows), 4);
    in = inputsShown(shell);
    const tpusim::Coverage partial = tpusim::check_coverage(
        in.grid, in.semantics,
        tpusim::BlockSpec{"out", {in.m, in.n}, {in.bm, in.bn}, tpusim::parse_index_map(in.out_map, 3, 2), in.dtype, 2});
    REQUIRE(partial.blocks_written == 4);
    WAIT_COMPARE(shown(shell, "ex09Problems").substr(0, partial.problems.front().size()), partial.problems.front());
    CHECK(shown(shell, "ex09FitGrid") == "fit to blocks");
    click(shell, "ex09FitGrid");
    WAIT_COMPARE(intValue(rows), 8);
    CHECK(shown(shell, "ex09CoverageStatus") == "covered, race-free");

    // A race passes the host run, which walks the grid on one core; the piece
    // says the race still stands.
    QQuickItem *bkScrub = item(shell, "ex09Bk");
    drag(window, bkScrub, -116); // fourteen lane tiles down: 2048 -> 256
    WAIT_COMPARE(intValue(bkScrub), 256);
    drag(window, bn, -116);
    WAIT_COMPARE(intValue(bn), 256);
    click(shell, "ex09Preset_race");
    WAIT_COMPARE(shown(shell, "ex09Semantics2"), std::string("parallel"));
    in = inputsShown(shell);
    REQUIRE(tpusim::verify_sandbox(in).result.passed);
    click(shell, "ex09Verify");
    WAIT_VERIFY(shownItem(shell, "ex09VerifyCaveat") != nullptr);
    CHECK(item(shell, "ex09VerifiedBadge")->property("kind").toString().toStdString() == "verified");
    CHECK(shown(shell, "ex09CoverageStatus") == "broken");
    shell.shot("ex09_race_verified");
}

TEST_CASE("EX09: a large grid is judged off the GUI thread, its map capped and saying so", "[ex09]")
{
    BlockSpecModel model;
    REQUIRE_FALSE(model.busy());
    model.setProperty("m", 8192);
    model.setProperty("bm", 8); // 1024 x 4 x 4 = 16384 steps: past what the GUI thread takes
    QSignalSpy busy(&model, &BlockSpecModel::busyChanged);
    model.recompute();        // now rather than on the next turn of the event loop
    CHECK(busy.count() == 1); // started off the GUI thread
    WAIT_VERIFY(model.coverage().value("rows").toLongLong() == 1024);
    CHECK_FALSE(model.busy());
    const QVariantMap coverage = model.coverage();
    CHECK(coverage.value("rows").toLongLong() == 1024);
    CHECK(coverage.value("shownRows").toLongLong() == 64);
    CHECK(coverage.value("capped").toBool());
    CHECK(coverage.value("ok").toBool());
    const int shown = coverage.value("shownRows").toInt() * coverage.value("shownCols").toInt();
    CHECK(model.coverageCells().size() == shown);
    CHECK(model.coverageCell(shown - 1).value("row").toInt() == 63);
    CHECK(model.coverageCell(shown).isEmpty());
    CHECK(model.gridUsed() == QVariantList{1024, 4, 4});
    CHECK(model.prediction().contains("time"));
}

TEST_CASE("EX09: a block dragged by the learner still follows its model afterwards", "[ex09][qml]")
{
    // The scrub's number is the model's: a drag edits the model through
    // it, and a later change of the model's own (a preset, a chip's
    // limits) shows in the number, not only in the figures.
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX09")));
    WAIT_VERIFY(shownItem(shell, "ex09Bn") != nullptr);
    QQuickItem *bn = item(shell, "ex09Bn");
    QObject *model = shell.find("ex09Model");
    drag(shell.window(), bn, 17); // 256 -> 512
    WAIT_COMPARE(intValue(bn), 512);
    CHECK(model->property("bn").toInt() == 512);
    model->setProperty("bn", 1024);
    WAIT_COMPARE(intValue(bn), 1024);
    // Typed values too.
    typeInto(shell.window(), bn, "384");
    WAIT_COMPARE(model->property("bn").toInt(), 384);
    model->setProperty("bn", 128);
    WAIT_COMPARE(intValue(bn), 128);
}

TEST_CASE("EX09: its goals say the chapter they count toward, as the catalog has it", "[ex09][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX09")));
    WAIT_VERIFY(shownItem(shell, "ex09Mastery") != nullptr);
    CHECK(shell.findShown("ex09Mastery")->property("chapter").toInt() == shell.course().chapterOfPiece("EX09"));
    CHECK(shell.course().chapterOfPiece("EX09") == 11);
    // Said once the item is done; kept in the layout, unseen, until then.
    const QObject *closing = shell.findShown("ex09Mastery")->findChild<QObject *>(QStringLiteral("goalsDone"));
    REQUIRE(closing != nullptr);
    CHECK(closing->property("text").toString() == QStringLiteral("Counted toward chapter 11."));
}

TEST_CASE("EX09: a preset that races is the course's doing, not a break of the learner's", "[ex09][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX09")));
    WAIT_VERIFY(shownItem(shell, "ex09Bn") != nullptr);
    click(shell, "ex09Preset_race");
    WAIT_COMPARE(shown(shell, "ex09CoverageStatus"), std::string("broken"));
    QTest::qWait(200);
    CHECK(shell.store().masteryGoalsReached(11).empty());
    CHECK_FALSE(shell.findShown("goal_break")->property("reached").toBool());

    // The preset the schedule is now is marked; an edit of the learner's unmarks it.
    WAIT_VERIFY(shell.findShown("ex09Preset_race")->property("active").toBool());
    CHECK_FALSE(shell.findShown("ex09Preset_docs")->property("active").toBool());
    click(shell, "ex09Preset_docs");
    WAIT_VERIFY(shell.findShown("ex09Preset_docs")->property("active").toBool());
    CHECK_FALSE(shell.findShown("ex09Preset_race")->property("active").toBool());
    shell.find("ex09Model")->setProperty("outMap", QStringLiteral("lambda i, j, k: (j, i)"));
    WAIT_VERIFY(!shell.findShown("ex09Preset_docs")->property("active").toBool());
}

namespace {

// How many pixels of a cell's square, in window pixels, are near a colour.
int cellPixelsNear(const QImage &shot, QQuickItem *map, int row, int col, const QColor &colour)
{
    const qreal s = map->property("cell").toReal();
    const qreal dpr = shot.devicePixelRatio();
    const QRectF box(map->mapToScene(QPointF(col * s, row * s)), QSizeF(s, s));
    return pixelsNear(shot, colour,
                      QRect(QPoint(int(box.left() * dpr), int(box.top() * dpr)),
                            QPoint(int(box.right() * dpr) - 1, int(box.bottom() * dpr) - 1)));
}

} // namespace

TEST_CASE("EX09: the coverage map paints gaps and races in their colours and outlines the current block", "[ex09][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX09")));
    WAIT_VERIFY(shownItem(shell, "ex09Bn") != nullptr);
    // Every i writes row 0, and i is parallel: row 0 races, the other rows are gaps.
    click(shell, "ex09Preset_gap");
    WAIT_COMPARE(shown(shell, "ex09CoverageStatus"), std::string("broken"));
    QQuickItem *map = item(shell, "ex09CoverageCanvas");
    const QVariantList cells = shell.find("ex09Model")->property("coverageCells").toList();
    CHECK(map->property("cellCount").toInt() == cells.size());
    REQUIRE(cells.size() >= 4);
    int raceAt = -1, gapAt = -1;
    for (int i = 0; i < cells.size(); ++i) {
        const QVariantMap c = cells[i].toMap();
        if (c.value("race").toBool() && raceAt < 0)
            raceAt = i;
        if (c.value("missing").toBool() && gapAt < 0)
            gapAt = i;
    }
    REQUIRE(raceAt >= 0);
    REQUIRE(gapAt >= 0);
    const QVariantMap race = cells[raceAt].toMap(), gap = cells[gapAt].toMap();
    const QColor raceColour = map->property("raceColor").value<QColor>();
    const QColor gapColour = map->property("missingColor").value<QColor>();
    const QColor focusColour = map->property("focusColor").value<QColor>();
    REQUIRE(raceColour != gapColour);
    const qreal s = map->property("cell").toReal();
    REQUIRE(s >= 8);
    const int area = int(s * s);

    QTest::qWait(50);
    const QImage before = window->grabWindow();
    // Most of a racing block is the failure colour, most of a gap the problem
    // ground; neither is the other's colour, and nothing is outlined yet.
    CHECK(cellPixelsNear(before, map, race.value("row").toInt(), race.value("col").toInt(), raceColour) > area / 2);
    CHECK(cellPixelsNear(before, map, race.value("row").toInt(), race.value("col").toInt(), gapColour) < area / 8);
    CHECK(cellPixelsNear(before, map, gap.value("row").toInt(), gap.value("col").toInt(), gapColour) > area / 2);
    CHECK(cellPixelsNear(before, map, gap.value("row").toInt(), gap.value("col").toInt(), raceColour) < area / 4);
    CHECK(cellPixelsNear(before, map, 0, 0, focusColour) == 0);

    // A click on block (0, 0) outlines it; the arrow moves the outline one block right.
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, map->mapToScene(QPointF(s / 2, s / 2)).toPoint());
    WAIT_VERIFY(shown(shell, "ex09CellInfo").rfind("block (0, 0)", 0) == 0);
    QTest::qWait(50);
    const QImage first = window->grabWindow();
    CHECK(cellPixelsNear(first, map, 0, 0, focusColour) > int(2 * s));
    CHECK(cellPixelsNear(first, map, 0, 1, focusColour) == 0);
    QTest::keyClick(window, Qt::Key_Right);
    WAIT_VERIFY(shown(shell, "ex09CellInfo").rfind("block (0, 1)", 0) == 0);
    QTest::qWait(50);
    const QImage moved = window->grabWindow();
    CHECK(cellPixelsNear(moved, map, 0, 0, focusColour) == 0);
    CHECK(cellPixelsNear(moved, map, 0, 1, focusColour) > int(2 * s));
    CHECK(moved != first);
}

// Pointing at the time or the VMEM figure itself, not only at its small
// badge, opens the figure's card, and the card starts with the figure's
// own arithmetic: the launch, the copies and the steps that make the time;
// the buffers that make the VMEM.
TEST_CASE("EX09: pointing at a figure opens its card, its working first", "[ex09][qml]")
{
    ShellFixture shell;
    QQuickWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX09")));
    shell.waitUntilBuilt();
    const auto cardOf = [](QQuickItem *badge) -> QObject * {
        for (QObject *child : badge->findChildren<QObject *>())
            if (child->inherits("QQuickToolTip"))
                return child;
        return nullptr;
    };
    const struct
    {
        const char *figure, *badge, *firstWorking;
    } figures[] = {{"ex09Time", "ex09TimeBadge", " launch, the call's fixed cost"},
                   {"ex09Vmem", "ex09VmemBadge", "x block (256, 256) bf16: 2 × 128 KiB = 256 KiB"}};
    for (const auto &f : figures) {
        INFO(f.figure);
        auto *figure = qobject_cast<QQuickItem *>(shell.findShown(f.figure));
        auto *badge = qobject_cast<QQuickItem *>(shell.findShown(f.badge));
        REQUIRE(figure != nullptr);
        REQUIRE(badge != nullptr);
        QTest::mouseMove(window, figure->mapToScene(QPointF(figure->width() / 2, figure->height() / 2)).toPoint());
        WAIT_VERIFY(cardOf(badge) != nullptr);
        QObject *card = cardOf(badge);
        WAIT_VERIFY(card->property("visible").toBool());
        const QStringList lines = card->property("text").toString().split(QLatin1Char('\n'));
        REQUIRE(lines.size() > 3);
        CHECK(lines[0].startsWith(QStringLiteral("predicted · v5e")));
        CHECK(lines[1].endsWith(QString::fromUtf8(f.firstWorking)));
        QTest::mouseMove(window, QPoint(2, window->height() - 2));
        WAIT_VERIFY(!card->property("visible").toBool());
    }
}

TEST_CASE("EX09: the words after the VMEM figure keep their place while a block is scrubbed", "[ex09][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX09")));
    WAIT_VERIFY(shownItem(shell, "ex09Bm") != nullptr);
    WAIT_COMPARE(shown(shell, "ex09Vmem"), std::string("1 MiB"));
    QQuickItem *limit = item(shell, "ex09VmemLimit");
    const double before = limit->mapToScene(QPointF(0, 0)).x();

    drag(shell.window(), item(shell, "ex09Bm"), 17); // two bf16 row tiles up: 256 -> 288
    WAIT_COMPARE(intValue(item(shell, "ex09Bm")), 288);
    WAIT_VERIFY(shown(shell, "ex09Vmem").find('.') != std::string::npos);
    WAIT_COMPARE(limit->mapToScene(QPointF(0, 0)).x(), before);
}
