#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/chips.h>
#include <tpusim/layer_sharding.h>

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>

using namespace piece_input;

namespace {

std::set<std::string> goalsReached(ShellFixture &shell)
{
    return shell.store().masteryGoalsReached(9);
}

// The plan the piece shows, as libtpusim prices it on v5e.
tpusim::LayerShardingResult predicted(std::vector<tpusim::AxisRole> roles, tpusim::DataMode mode, std::int64_t batch)
{
    tpusim::LayerShardingSpec s;
    s.mesh = {16, 16};
    s.roles = std::move(roles);
    s.data_mode = mode;
    s.batch = batch;
    s.d_model = 8192;
    s.d_ff = 32768;
    return tpusim::shard_mlp_block(tpusim::chip("v5e"), s);
}

constexpr auto data = tpusim::AxisRole::data;
constexpr auto model = tpusim::AxisRole::model;

} // namespace

TEST_CASE("EX14: a sharded block's collectives, step and timeline as libtpusim says; goals from the learner's edits",
          "[ex14][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX14")));
    WAIT_VERIFY(shownItem(shell, "ex14Batch") != nullptr);

    // It opens on FSDP over axis 0 and TP over axis 1 of a v5e pod, 65,536 rows.
    tpusim::LayerShardingResult r = predicted({data, model}, tpusim::DataMode::fsdp, 65536);
    WAIT_COMPARE(shown(shell, "ex14Step"), tpusim::format_time(r.step_s));
    CHECK(shown(shell, "ex14Compute") == tpusim::format_time(r.compute_s));
    CHECK(shown(shell, "ex14Exposed").rfind(tpusim::format_time(r.exposed_s), 0) == 0);
    CHECK(shown(shell, "ex14Specs").find("x     = NamedSharding(mesh, P(\"data\", \"model\"))") != std::string::npos);
    CHECK(shown(shell, "ex14Verdict") == r.verdict);
    CHECK(shown(shell, "ex14Transfer_0_0") == "all-gather x");
    CHECK(shown(shell, "ex14Transfer_0_4") == "no: the matmul waits");
    CHECK(goalsReached(shell).empty());
    shell.shot("ex14_open");

    // Pointing at TP's gather names it, and says the MXU waits for it. The
    // timeline sits below the controls: scroll the page to it first.
    QQuickItem *timeline = item(shell, "ex14Timeline");
    QQuickItem *page = timeline->parentItem();
    while (page && !page->inherits("QQuickFlickable"))
        page = page->parentItem();
    REQUIRE(page != nullptr);
    page->setProperty("contentY",
                      timeline->mapToItem(page->property("contentItem").value<QQuickItem *>(), QPointF()).y());
    WAIT_VERIFY(at(timeline, 0.5, 1).y() < window->height());
    QQuickItem *gather = item(shell, "ex14Model_0");
    QTest::mouseMove(window, at(gather, 0.5) + QPoint(1, 0));
    QTest::mouseMove(window, at(gather, 0.5));
    WAIT_VERIFY(shown(shell, "ex14Pointed").rfind("all-gather x on the model axes: 64 MiB in", 0) == 0);
    CHECK(shown(shell, "ex14Pointed").find("on the critical path") != std::string::npos);
    // The MXU's waits are hatched, first of all before the first matmul: TP's gather of x.
    QQuickItem *wait = item(shell, "ex14Idle_0");
    QTest::mouseMove(window, at(wait, 0.5));
    WAIT_VERIFY(shown(shell, "ex14Pointed")
                    .rfind("The MXU waits " + tpusim::format_time(r.collectives[0].time_s) + " for all-gather x.", 0) ==
                0);

    // Both axes to data: FSDP over 256 chips at 256 rows each, far below the threshold.
    click(shell, "ex14Axis1_data");
    r = predicted({data, data}, tpusim::DataMode::fsdp, 65536);
    WAIT_COMPARE(shown(shell, "ex14Step"), tpusim::format_time(r.step_s));
    CHECK(r.exposed_s > 0);
    CHECK(shown(shell, "ex14Specs").find("W_in  = NamedSharding(mesh, P((\"data0\", \"data1\"), None))") !=
          std::string::npos);
    WAIT_VERIFY(goalsReached(shell).count("ch09-shard-it/fsdp-shows") == 1);
    CHECK(goalsReached(shell).count("ch09-shard-it/hidden") == 0);

    // A bigger batch, by the learner's drag, until every transfer hides.
    QObject *shardModel = shell.find("ex14Model");
    REQUIRE(shardModel != nullptr);
    QQuickItem *batch = item(shell, "ex14Batch");
    for (int i = 0; i < 12 && shardModel->property("batch").toDouble() < 524288; ++i)
        drag(window, batch, 40);
    const auto rows = static_cast<std::int64_t>(shardModel->property("batch").toDouble());
    REQUIRE(rows >= 524288);
    r = predicted({data, data}, tpusim::DataMode::fsdp, rows);
    WAIT_COMPARE(shown(shell, "ex14Step"), tpusim::format_time(r.step_s));
    CHECK(r.exposed_s == 0);
    CHECK(shown(shell, "ex14Exposed") == "nothing: every transfer hides");
    WAIT_VERIFY(goalsReached(shell).count("ch09-shard-it/hidden") == 1);
    shell.shot("ex14_hidden");

    // DP instead: two all-reduces of whole gradients, in the backward only.
    click(shell, "ex14Mode_dp");
    r = predicted({data, data}, tpusim::DataMode::dp, rows);
    WAIT_COMPARE(shown(shell, "ex14Step"), tpusim::format_time(r.step_s));
    REQUIRE(r.collectives.size() == 2);
    CHECK(shown(shell, "ex14Transfer_0_0") == "all-reduce dW_in (block above)");
    CHECK(shown(shell, "ex14Weights") == tpusim::format_bytes(r.weight_bytes_per_device));

    // A batch the data devices do not divide is refused in one sentence, and the figures step aside.
    shardModel->setProperty("batch", 1000.0);
    WAIT_VERIFY(shown(shell, "ex14Problem").find("does not split evenly over the 256 data devices") !=
                std::string::npos);
    CHECK_FALSE(item(shell, "ex14Problem")->property("text").toString().isEmpty());
    CHECK(shownItem(shell, "ex14Step") == nullptr);
}
