#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <coursework/lens_presets.h>
#include <tpusim/error.h>
#include <tpusim/layout.h>

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>

using namespace piece_input;

namespace {

std::int64_t intValue(QQuickItem *scrub)
{
    return static_cast<std::int64_t>(scrub->property("value").toDouble());
}

std::string percent(double fraction)
{
    return tpusim::format_fixed(100.0 * fraction, 1) + " %";
}

// The array the piece shows, as libtpusim takes it (rank 2).
std::vector<std::int64_t> shapeShown(ShellFixture &shell)
{
    return {intValue(item(shell, "ex12Dim_0")), intValue(item(shell, "ex12Dim_1"))};
}

std::set<std::string> goalsReached(ShellFixture &shell)
{
    return shell.store().masteryGoalsReached(7);
}

QQuickItem *piece(ShellFixture &shell)
{
    auto *root = qobject_cast<QQuickItem *>(shell.findShown("ex12Piece"));
    REQUIRE(root != nullptr);
    return root;
}

} // namespace

TEST_CASE("EX12: tiles, packing, waste and relayouts as libtpusim says; goals from the learner's own edits",
          "[ex12][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX12")));
    WAIT_VERIFY(shownItem(shell, "ex12Dim_1") != nullptr);
    const tpusim::Chip &v5e = tpusim::chip("v5e");

    // It opens on one whole bf16 tile: no waste, and nothing reached by the piece itself.
    WAIT_COMPARE(shown(shell, "ex12Waste"), percent(tpusim::tiled_layout({16, 128}, tpusim::DType::bf16).waste));
    CHECK(shown(shell, "ex12Tile").rfind("(16, 128)", 0) == 0);
    CHECK(shown(shell, "ex12TileCount") == "1");
    CHECK(goalsReached(shell).empty());
    shell.shot("ex12_open");

    // The half-filled bf16 case, from its button: half the tile is padding; a preset reaches nothing.
    click(shell, "ex12Preset_half-bf16");
    WAIT_COMPARE(shown(shell, "ex12Waste"), std::string("50.0 %"));
    CHECK(shown(shell, "ex12Bytes") == "2 KiB of 4 KiB");
    CHECK(shown(shell, "ex12PresetNote") == coursework::lens_preset("half-bf16").note);
    QTest::qWait(50);
    CHECK(goalsReached(shell).empty());

    // Rows dragged from 8 to 16: the packed tile is full, the learner's own doing.
    QQuickItem *rows = item(shell, "ex12Dim_0");
    drag(window, rows, 66);
    WAIT_COMPARE(intValue(rows), std::int64_t(16));
    WAIT_COMPARE(shown(shell, "ex12Waste"), std::string("0.0 %"));
    WAIT_VERIFY(goalsReached(shell).count("ch07-native-tiles/packed") == 1);
    CHECK(goalsReached(shell).count("ch07-native-tiles/boundary") == 0); // 8 and 16 rows fill one tile row

    // One lane past 128: a second tile column, mostly padding; the saw's boundary goal.
    QQuickItem *lanes = item(shell, "ex12Dim_1");
    drag(window, lanes, 12);
    WAIT_COMPARE(intValue(lanes), std::int64_t(129));
    tpusim::Layout l = tpusim::tiled_layout({16, 129}, tpusim::DType::bf16);
    WAIT_COMPARE(shown(shell, "ex12Waste"), percent(l.waste));
    CHECK(shown(shell, "ex12TileCount") == "2");
    CHECK(shown(shell, "ex12Padded") == "(16, 256)");
    CHECK(shown(shell, "ex12SawReadout").rfind("lanes 129 · waste " + percent(l.waste), 0) == 0);
    WAIT_VERIFY(goalsReached(shell).count("ch07-native-tiles/boundary") == 1);
    // The pointer on the second tile: one lane of data, the rest padding.
    QTest::mouseMove(window, at(item(shell, "ex12TilesCanvas"), 0.25, 0.5));
    QTest::mouseMove(window, at(item(shell, "ex12TilesCanvas"), 0.75, 0.5));
    QObject *card = shell.find("ex12TilesCard");
    REQUIRE(card != nullptr);
    INFO(card->property("text").toString().toStdString());
    WAIT_VERIFY(card->property("text").toString().startsWith(QStringLiteral("tile (0, 1): rows 0–15, lanes 128–255")));
    CHECK(card->property("text").toString().contains(
        QStringLiteral("data 16 of 16 rows × 1 of 128 lanes; 99 % of it padding")));
    WAIT_VERIFY(card->property("visible").toBool());
    shell.shot("ex12_boundary");
    QTest::mouseMove(window, QPoint(5, 5));

    // The saw takes the arrows: back to 128 lanes, and the waste with it.
    QQuickItem *saw = item(shell, "ex12Saw");
    saw->forceActiveFocus();
    QTest::keyClick(window, Qt::Key_Left);
    WAIT_COMPARE(intValue(lanes), std::int64_t(128));
    WAIT_COMPARE(shown(shell, "ex12Waste"), std::string("0.0 %"));
    // A click on the saw's far right picks its largest size, 512 lanes.
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, at(saw, 0.999));
    WAIT_COMPARE(intValue(lanes), std::int64_t(512));

    // int8 packs four rows a word: its tile is (32, 128), and 16 rows half-fill it.
    click(shell, "ex12Dtype_int8");
    WAIT_VERIFY(shown(shell, "ex12Tile").rfind("(32, 128)", 0) == 0);
    l = tpusim::tiled_layout(shapeShown(shell), tpusim::DType::int8);
    CHECK(shown(shell, "ex12Waste") == percent(l.waste));
    CHECK(l.waste == Approx(0.5));

    // Zero lanes: one sentence in place of the tiles, and the piece goes on.
    typeInto(window, lanes, "0");
    WAIT_COMPARE(intValue(lanes), std::int64_t(0));
    std::string refusal;
    try {
        (void)tpusim::tiled_layout({16, 0}, tpusim::DType::int8);
    } catch (const tpusim::InputError &e) {
        refusal = e.what();
    }
    REQUIRE_FALSE(refusal.empty());
    WAIT_COMPARE(shown(shell, "ex12TilesProblem"), refusal);
    CHECK(shownItem(shell, "ex12Waste") == nullptr);
    shell.shot("ex12_problem");
    typeInto(window, lanes, "100");
    WAIT_COMPARE(intValue(lanes), std::int64_t(100));
    WAIT_VERIFY(shownItem(shell, "ex12TilesProblem") == nullptr);
    CHECK(shown(shell, "ex12Waste") == percent(tpusim::tiled_layout({16, 100}, tpusim::DType::int8).waste));

    // A transpose of the learner's own array: bytes and time on the course's chip.
    CHECK(goalsReached(shell).count("ch07-native-tiles/relayout") == 0);
    click(shell, "ex12Relayout_transpose");
    tpusim::LayoutChangeSpec spec{tpusim::RelayoutKind::transpose, {}, tpusim::DType::int8};
    tpusim::LayoutChange c = tpusim::layout_change(v5e, {16, 100}, tpusim::DType::int8, spec);
    WAIT_COMPARE(shown(shell, "ex12Moved"), tpusim::format_bytes(c.bytes_moved));
    CHECK(shown(shell, "ex12Read") == tpusim::format_bytes(c.bytes_read));
    CHECK(shown(shell, "ex12Written") == tpusim::format_bytes(c.bytes_written));
    CHECK(shown(shell, "ex12Time") == tpusim::format_time(c.time_s));
    CHECK(shown(shell, "ex12Verdict") == c.verdict);
    CHECK(shown(shell, "ex12TilesAfterCaption").find("lanes 16 padded to 128") != std::string::npos);
    WAIT_VERIFY(goalsReached(shell).count("ch07-native-tiles/relayout") == 1);
    CHECK(shell.store().masteryItemsDone(7).count("ch07-native-tiles") == 1);
    WAIT_VERIFY(shell.findShown("goal_relayout")->property("reached").toBool());
    shell.shot("ex12_transpose");

    // A cast to f32, then another chip: the time follows Course.chip.
    click(shell, "ex12Relayout_cast");
    click(shell, "ex12CastTo_f32");
    spec = {tpusim::RelayoutKind::cast, {}, tpusim::DType::f32};
    c = tpusim::layout_change(v5e, {16, 100}, tpusim::DType::int8, spec);
    WAIT_COMPARE(shown(shell, "ex12Moved"), tpusim::format_bytes(c.bytes_moved));
    click(shell, "ex12Chip_v5p");
    WAIT_COMPARE(shell.course().chip(), QStringLiteral("v5p"));
    c = tpusim::layout_change(tpusim::chip("v5p"), {16, 100}, tpusim::DType::int8, spec);
    WAIT_COMPARE(shown(shell, "ex12Time"), tpusim::format_time(c.time_s));
    CHECK(shown(shell, "ex12Time") !=
          tpusim::format_time(tpusim::layout_change(v5e, {16, 100}, tpusim::DType::int8, spec).time_s));

    // The state is kept when the learner leaves and comes back.
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    REQUIRE(shell.navigate(QStringLiteral("EX12")));
    WAIT_VERIFY(shownItem(shell, "ex12Dim_1") != nullptr);
    CHECK(intValue(item(shell, "ex12Dim_1")) == 100);
    CHECK(shown(shell, "ex12Time") == tpusim::format_time(c.time_s));
}

TEST_CASE("EX12: the chapter's worked cases by name, inline and compact, and never a goal from a preset", "[ex12][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX12")));
    WAIT_VERIFY(shownItem(shell, "ex12Dim_1") != nullptr);
    QQuickItem *root = piece(shell);

    QVariant applied;
    REQUIRE(QMetaObject::invokeMethod(root, "applyPresetNamed", Q_RETURN_ARG(QVariant, applied),
                                      Q_ARG(QVariant, QStringLiteral("skinny"))));
    CHECK(applied.toBool());
    const coursework::LensPreset &skinny = coursework::lens_preset("skinny");
    const tpusim::LayoutChange c =
        tpusim::layout_change(tpusim::chip("v5e"), skinny.shape, skinny.dtype, skinny.change);
    WAIT_COMPARE(shown(shell, "ex12Moved"), tpusim::format_bytes(c.bytes_moved));
    CHECK(shown(shell, "ex12Waste") == percent(c.from.waste));
    CHECK(shown(shell, "ex12Verdict") == c.verdict);
    CHECK(item(shell, "ex12ReshapeTo")->property("text").toString() == QStringLiteral("(4096, 128)"));
    REQUIRE(QMetaObject::invokeMethod(root, "applyPresetNamed", Q_RETURN_ARG(QVariant, applied),
                                      Q_ARG(QVariant, QStringLiteral("no-such-case"))));
    CHECK_FALSE(applied.toBool());
    CHECK(shown(shell, "ex12Moved") == tpusim::format_bytes(c.bytes_moved)); // unchanged

    // Every worked case from its button: each shows what libtpusim says, none counts as the learner's.
    for (const coursework::LensPreset &p : coursework::lens_presets()) {
        INFO(p.id);
        click(shell, ("ex12Preset_" + p.id).c_str());
        const tpusim::LayoutChange pc = tpusim::layout_change(tpusim::chip("v5e"), p.shape, p.dtype, p.change);
        WAIT_COMPARE(shown(shell, "ex12PresetNote"), p.note);
        CHECK(shown(shell, "ex12Waste") == percent(pc.from.waste));
        if (p.change.kind != tpusim::RelayoutKind::none)
            CHECK(shown(shell, "ex12Moved") == tpusim::format_bytes(pc.bytes_moved));
        shell.shot(("ex12_preset_" + p.id).c_str());
    }
    QTest::qWait(100);
    CHECK(goalsReached(shell).empty());

    // A relayout chosen on a worked case is the learner's, but the case's full tile is not.
    click(shell, "ex12Preset_full-bf16");
    WAIT_COMPARE(shown(shell, "ex12Waste"), std::string("0.0 %"));
    click(shell, "ex12Relayout_transpose");
    WAIT_VERIFY(goalsReached(shell).count("ch07-native-tiles/relayout") == 1);
    QTest::qWait(50);
    CHECK(goalsReached(shell).count("ch07-native-tiles/packed") == 0);

    // Compact and 640 px wide, as inline in the text: no header, one column,
    // its height its content's, nothing to scroll inside it.
    CHECK(shownItem(shell, "ex12Header") != nullptr);
    QObject *columns = shell.findShown("ex12Columns");
    REQUIRE(columns != nullptr);
    CHECK(columns->property("sideBySide").toBool());
    root->setProperty("compact", true);
    root->setWidth(640);
    WAIT_VERIFY(!columns->property("sideBySide").toBool());
    WAIT_VERIFY(shownItem(shell, "ex12Header") == nullptr);
    const qreal content = columns->property("implicitHeight").toReal();
    CHECK(content > 0);
    CHECK(root->implicitHeight() == content);
    root->setHeight(root->implicitHeight());
    QQuickItem *tiles = item(shell, "ex12TilesCanvas");
    CHECK(tiles->width() <= 640);
    CHECK(tiles->height() > 0);
    QTest::qWait(200); // the layouts settle at the new width
    shell.shot("ex12_compact_640");
}
