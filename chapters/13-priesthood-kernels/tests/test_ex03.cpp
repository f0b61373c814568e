#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/attention.h>
#include <tpusim/online_softmax.h>

#include <QQuickItem>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace {

// The instrument's small example: 8 query rows, 16 keys in blocks of 4,
// head dimension 4, seed 7, all of Q in one block.
tpusim::OnlineSoftmaxStepper example()
{
    return tpusim::OnlineSoftmaxStepper(tpusim::random_attention_problem(8, 16, 4, 8, 4, false, 7));
}

QString shown(ShellFixture &shell, const char *name)
{
    for (QObject *item : shell.findAll(name))
        if (ShellFixture::isShown(item))
            return item->property("text").toString().trimmed();
    return QStringLiteral("<not shown: %1>").arg(QString::fromLatin1(name));
}

QString fixed3(double v)
{
    return QString::number(v, 'f', 3);
}

// Drags along the step track from the first stop to stop `to` of `stops`.
void dragStep(ShellFixture &shell, QQuickItem *scrubber, int stops, int to)
{
    const qreal margin = scrubber->property("trackMargin").toReal();
    const qreal width = scrubber->width() - 2 * margin;
    const auto at = [&](int stop) {
        return scrubber->mapToScene(QPointF(margin + width * stop / (stops - 1), scrubber->height() / 2)).toPoint();
    };
    QTest::mousePress(shell.window(), Qt::LeftButton, {}, at(0));
    for (int s = 1; s <= to; ++s)
        QTest::mouseMove(shell.window(), at(s));
    QTest::mouseRelease(shell.window(), Qt::LeftButton, {}, at(to));
}

// Drags a scrub number sideways by `dx` pixels from its value box (the
// right end of the control: it has no unit text).
void dragScrub(ShellFixture &shell, QQuickItem *scrub, int dx)
{
    const QPoint start = scrub->mapToScene(QPointF(scrub->width() - 12, scrub->height() / 2)).toPoint();
    QTest::mousePress(shell.window(), Qt::LeftButton, {}, start);
    for (int i = 1; i <= 4; ++i)
        QTest::mouseMove(shell.window(), start + QPoint(dx * i / 4, 0));
    QTest::mouseRelease(shell.window(), Qt::LeftButton, {}, start + QPoint(dx, 0));
}

} // namespace

TEST_CASE("EX03 shows libtpusim's online-softmax state at the scrubbed step", "[ex03][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX03")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));
    auto *scrubber = qobject_cast<QQuickItem *>(shell.find("ex03Step"));
    REQUIRE(scrubber != nullptr);
    WAIT_VERIFY(ShellFixture::isShown(scrubber));
    const int stops = scrubber->property("stops").toInt();
    REQUIRE(stops == 5);

    // End at once, as the page opens, then Home: each step rewrites the
    // formulas and the table's headings in place (made again, they crashed
    // Qt 6.4's layouts here). End shows the last block and its check, but
    // the goal is to step every block, and none was seen on the way.
    scrubber->forceActiveFocus();
    QTest::keyClick(shell.window(), Qt::Key_End);
    WAIT_COMPARE(scrubber->property("value").toInt(), stops - 1);
    WAIT_VERIFY(ShellFixture::isShown(shell.find("ex03Check")));
    CHECK(shell.store().masteryGoalsReached(13).empty());
    QTest::keyClick(shell.window(), Qt::Key_Home);
    WAIT_COMPARE(scrubber->property("value").toInt(), 0);

    tpusim::OnlineSoftmaxStepper stepper = example();
    stepper.step();
    stepper.step();
    dragStep(shell, scrubber, stops, 2);
    WAIT_COMPARE(scrubber->property("value").toInt(), 2);
    for (int r = 0; r < 8; ++r) {
        INFO("row " << r);
        const auto i = static_cast<std::size_t>(r);
        CHECK(shown(shell, ("ex03State_m_" + std::to_string(r)).c_str()) == fixed3(stepper.m()[i]));
        CHECK(shown(shell, ("ex03State_l_" + std::to_string(r)).c_str()) == fixed3(stepper.l()[i]));
        CHECK(shown(shell, ("ex03State_alpha_" + std::to_string(r)).c_str()) == fixed3(stepper.alpha()[i]));
    }
    CHECK_FALSE(ShellFixture::isShown(shell.find("ex03Check")));
    CHECK(shell.store().masteryItemsDone(13).count("ch13-online-softmax") == 0);

    // The last step: the equality with the direct softmax, and the mastery item.
    stepper.run();
    dragStep(shell, scrubber, stops, stops - 1);
    WAIT_COMPARE(scrubber->property("value").toInt(), stops - 1);
    for (int r = 0; r < 8; ++r)
        CHECK(shown(shell, ("ex03State_l_" + std::to_string(r)).c_str()) ==
              fixed3(stepper.l()[static_cast<std::size_t>(r)]));
    const std::vector<double> got = stepper.output();
    const std::vector<double> want = tpusim::attention_reference(stepper.problem());
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - want[i]));
    CHECK(worst < 1e-12);
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", worst);
    WAIT_VERIFY(ShellFixture::isShown(shell.find("ex03Check")));
    CHECK(shown(shell, "ex03Check") == QString::fromLatin1(text));
    // One of the item's two goals: the causal run is the other.
    CHECK(shell.store().masteryGoalsReached(13) == std::set<std::string>{"ch13-online-softmax/full"});
    CHECK(shell.store().masteryItemsDone(13).count("ch13-online-softmax") == 0);
}

TEST_CASE("EX03 with a causal mask steps libtpusim's masked stepper", "[ex03][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX03")));
    auto *scrubber = qobject_cast<QQuickItem *>(shell.find("ex03Step"));
    REQUIRE(scrubber != nullptr);
    WAIT_VERIFY(ShellFixture::isShown(scrubber));
    QMetaObject::invokeMethod(shell.findShown("ex03Mask_causal"), "clicked");
    // Row r sees keys 0..r: 8 keys in 4 blocks of 2.
    tpusim::OnlineSoftmaxStepper stepper(tpusim::random_attention_problem(8, 8, 4, 8, 2, true, 7));
    const int stops = static_cast<int>(stepper.kv_blocks()) + 1;
    WAIT_COMPARE(scrubber->property("stops").toInt(), stops);
    stepper.step();
    dragStep(shell, scrubber, stops, 1);
    WAIT_COMPARE(scrubber->property("value").toInt(), 1);
    // The first block holds keys 0 and 1: every row sees key 0, row 0 is
    // masked on key 1.
    for (int r = 0; r < 8; ++r) {
        INFO("row " << r);
        const auto i = static_cast<std::size_t>(r);
        CHECK(shown(shell, ("ex03State_m_" + std::to_string(r)).c_str()) == fixed3(stepper.m()[i]));
        CHECK(shown(shell, ("ex03State_l_" + std::to_string(r)).c_str()) == fixed3(stepper.l()[i]));
    }
    // Row 0 sees nothing after key 0: its state never moves again.
    const double l0 = stepper.l()[0];
    stepper.run();
    CHECK(stepper.l()[0] == l0);
    dragStep(shell, scrubber, stops, stops - 1);
    WAIT_COMPARE(scrubber->property("value").toInt(), stops - 1);
    for (int r = 0; r < 8; ++r)
        CHECK(shown(shell, ("ex03State_l_" + std::to_string(r)).c_str()) ==
              fixed3(stepper.l()[static_cast<std::size_t>(r)]));
    WAIT_VERIFY(ShellFixture::isShown(shell.find("ex03Check")));
    shell.shot("ex03_causal_end");
    WAIT_VERIFY(shell.store().masteryGoalsReached(13).count("ch13-online-softmax/causal") == 1);
    // Then the unmasked run to the end: both goals, and the item is done.
    QMetaObject::invokeMethod(shell.findShown("ex03Mask_full"), "clicked");
    tpusim::OnlineSoftmaxStepper full(tpusim::random_attention_problem(8, 16, 4, 8, 4, false, 7));
    const int fullStops = static_cast<int>(full.kv_blocks()) + 1;
    WAIT_COMPARE(scrubber->property("stops").toInt(), fullStops);
    dragStep(shell, scrubber, fullStops, fullStops - 1);
    WAIT_VERIFY(shell.store().masteryItemsDone(13).count("ch13-online-softmax") == 1);
}

TEST_CASE("EX03 prices naive and streaming attention as libtpusim does", "[ex03][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX03")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));

    tpusim::AttentionSpec s;
    s.batch = 1;
    s.heads = 8;
    s.seq_q = s.seq_kv = 4096;
    s.head_dim = 128;
    s.block_q = s.block_k = 512;
    s.dtype = tpusim::DType::bf16;
    const auto check = [&](const char *chipId) {
        INFO(chipId << " seq " << s.seq_q);
        const tpusim::AttentionResult r = tpusim::attention(tpusim::chip(chipId), s);
        const auto q = [](const std::string &t) { return QString::fromStdString(t); };
        WAIT_COMPARE(shown(shell, "ex03TimeNaive"), q(tpusim::format_time(r.naive.time_s)));
        CHECK(shown(shell, "ex03TimeFlash") == q(tpusim::format_time(r.flash.time_s)));
        CHECK(shown(shell, "ex03BytesNaive") == q(tpusim::format_bytes(r.naive.hbm_bytes)));
        CHECK(shown(shell, "ex03BytesFlash") == q(tpusim::format_bytes(r.flash.hbm_bytes)));
        // f32 scores, as the naive program's first contraction writes them: 4 B each.
        CHECK(shown(shell, "ex03ScoreNaive") == q(tpusim::format_bytes(4096.0 * 4096 * 8 * 4)));
    };
    check("v5e");

    // Another chip, then a longer sequence dragged in with the mouse.
    QMetaObject::invokeMethod(shell.find("ex03Chip_v5p"), "clicked");
    check("v5p");
    auto *seq = qobject_cast<QQuickItem *>(shell.find("ex03Seq"));
    REQUIRE(seq != nullptr);
    dragScrub(shell, seq, 45); // one power of two: 4096 -> 8192
    WAIT_COMPARE(seq->property("value").toInt(), 8192);
    s.seq_q = s.seq_kv = 8192;
    const tpusim::AttentionResult r = tpusim::attention(tpusim::chip("v5p"), s);
    WAIT_COMPARE(shown(shell, "ex03TimeNaive"), QString::fromStdString(tpusim::format_time(r.naive.time_s)));
    CHECK(shown(shell, "ex03TimeFlash") == QString::fromStdString(tpusim::format_time(r.flash.time_s)));

    // A causal mask: the streaming form skips the tiles above the diagonal.
    QMetaObject::invokeMethod(shell.findShown("ex03Mask_causal"), "clicked");
    s.causal = true;
    const tpusim::AttentionResult causal = tpusim::attention(tpusim::chip("v5p"), s);
    REQUIRE(causal.flash.time_s < r.flash.time_s);
    WAIT_COMPARE(shown(shell, "ex03TimeFlash"), QString::fromStdString(tpusim::format_time(causal.flash.time_s)));
    CHECK(shown(shell, "ex03BytesFlash") == QString::fromStdString(tpusim::format_bytes(causal.flash.hbm_bytes)));

    // A training step: the backward pass's kernels priced with the forward's.
    QMetaObject::invokeMethod(shell.findShown("ex03Pass_both"), "clicked");
    s.pass = tpusim::AttentionPass::forward_backward;
    const tpusim::AttentionResult both = tpusim::attention(tpusim::chip("v5p"), s);
    REQUIRE(both.naive.time_s > 2 * causal.naive.time_s);
    WAIT_COMPARE(shown(shell, "ex03TimeNaive"), QString::fromStdString(tpusim::format_time(both.naive.time_s)));
    CHECK(shown(shell, "ex03TimeFlash") == QString::fromStdString(tpusim::format_time(both.flash.time_s)));
    CHECK(shown(shell, "ex03BytesNaive") == QString::fromStdString(tpusim::format_bytes(both.naive.hbm_bytes)));
}

TEST_CASE("the stack's live EX03 card holds still offscreen and opens the instrument", "[ex03][qml]")
{
    ShellFixture shell;
    auto *card = qobject_cast<QQuickItem *>(shell.find("liveAttentionCard"));
    REQUIRE(card != nullptr);
    WAIT_VERIFY(ShellFixture::isShown(card));
    // Rendered offscreen it stays on one step, so screenshots are the same every time.
    QQuickItem *frame = card->parentItem();
    REQUIRE(frame != nullptr);
    CHECK(frame->property("step").toInt() == 2);
    CHECK_FALSE(frame->property("animate").toBool());

    const QPoint centre = card->mapToScene(QPointF(card->width() / 2, card->height() / 2)).toPoint();
    QTest::mouseClick(shell.window(), Qt::LeftButton, {}, centre);
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));
    WAIT_VERIFY(ShellFixture::isShown(shell.find("ex03Step")));
}
