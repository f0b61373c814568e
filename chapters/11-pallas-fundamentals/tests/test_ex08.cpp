// g++ 12 reports false -Wrestrict overlaps inside std::string appends (GCC bug 105651).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <catch2/catch.hpp>

#include "pieceinput.h"
#include "qtwait.h"
#include "shellfixture.h"

#include "course.h"

#include <tpusim/error.h>
#include <tpusim/pipeline.h>
#include <tpusim/pipeline_schedule.h>
#include <tpusim/provenance.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace piece_input;

namespace {

struct Case
{
    std::int64_t m, k, n, bm, bk, bn;
    const char *order = "mnk";
};

tpusim::Kernel kernelOf(const Case &c)
{
    tpusim::BlockedMatmul s;
    s.m = c.m;
    s.k = c.k;
    s.n = c.n;
    s.bm = c.bm;
    s.bk = c.bk;
    s.bn = c.bn;
    s.order = c.order;
    return tpusim::blocked_matmul(s);
}

tpusim::PipelineResult expected(ShellFixture &shell, const Case &c)
{
    tpusim::PipelineOptions o;
    o.schedule = true;
    return tpusim::simulate(tpusim::chip(shell.course().chip().toStdString()), kernelOf(c), o);
}

std::string grouped(std::int64_t v)
{
    std::string digits = std::to_string(v);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

// libtpusim's sentence for inputs it refuses.
std::string refusal(ShellFixture &shell, const Case &c)
{
    try {
        expected(shell, c);
    } catch (const tpusim::InputError &e) {
        return std::string(e.what()) + ".";
    }
    return "<accepted>";
}

std::int64_t value(QQuickItem *scrub)
{
    return static_cast<std::int64_t>(std::llround(scrub->property("value").toDouble()));
}

std::set<std::string> goals(ShellFixture &shell)
{
    return shell.store().masteryGoalsReached(11);
}

} // namespace

TEST_CASE("EX08: a grid's steps on a timeline, driven by mouse and keys, goals only for the learner's own moves",
          "[ex08][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX08")));
    WAIT_VERIFY(shownItem(shell, "ex08Size_bm") != nullptr);

    // The piece opens on the docs' blocks: 512 x 1024 x 1024 of a 4096^3 bf16 matmul, 128 steps.
    tpusim::PipelineResult r = expected(shell, {4096, 4096, 4096, 512, 1024, 1024});
    WAIT_COMPARE(shown(shell, "ex08Time"), tpusim::format_time(r.time_s));
    CHECK(shown(shell, "ex08Steps") == "128");
    CHECK(goals(shell).empty());

    // Pointing at the middle of the MXU lane names the step there, with its times.
    QQuickItem *lanes = item(shell, "ex08Timeline");
    const qreal mxuY = (lanes->property("laneHeight").toDouble() * 1.5) / lanes->height();
    QTest::mouseMove(window, at(lanes, 0.45, mxuY));
    QTest::mouseMove(window, at(lanes, 0.5, mxuY));
    QObject *card = shell.find("ex08StepCard");
    REQUIRE(card != nullptr);
    WAIT_VERIFY(card->property("visible").toBool());
    {
        const double t = lanes->property("viewStart").toDouble() +
                         (at(lanes, 0.5, mxuY).x() - lanes->mapToScene(QPointF(0, 0)).x()) / lanes->width() *
                             (lanes->property("viewEnd").toDouble() - lanes->property("viewStart").toDouble());
        const std::int64_t index = tpusim::step_at(r, 0, t);
        const tpusim::StepDetail d = tpusim::step_detail(kernelOf({4096, 4096, 4096, 512, 1024, 1024}), r, index);
        CHECK(card->property("heading").toString().toStdString().rfind("step " + grouped(d.step) + " (", 0) == 0);
        const std::string text = card->property("text").toString().toStdString();
        CHECK(text.find(d.copies_in == "-" ? std::string("DMA in: none")
                                           : "DMA in: " + tpusim::format_time(d.dma_in_s)) != std::string::npos);
        CHECK(text.find("compute: " + tpusim::format_time(d.compute_s) + " on the MXU") != std::string::npos);
        CHECK(text.find(d.copies_out == "-" ? std::string("DMA out: none")
                                            : "DMA out: " + tpusim::format_time(d.dma_out_s)) != std::string::npos);
        CHECK(text.rfind("predicted · ", 0) == 0);
    }
    shell.shot("ex08_open_hover");
    QTest::mouseMove(window, QPoint(2, 2));
    WAIT_VERIFY(!card->property("visible").toBool());
    // Compute holds these steps: no bubble pointed at yet.
    CHECK(goals(shell).count("ch11-pipeline-bubbles/find") == 0);

    // The 128^3 preset is the course's: no goal for it. Its 32,768 steps are
    // held by the fixed time of a step, and pointing at one finds a bubble.
    click(shell, "ex08Preset_128");
    r = expected(shell, {4096, 4096, 4096, 128, 128, 128});
    WAIT_COMPARE(shown(shell, "ex08Steps"), std::string("32,768"));
    CHECK(shown(shell, "ex08Time") == tpusim::format_time(r.time_s));
    CHECK(shown(shell, "ex08Overhead") == tpusim::format_time(r.overhead_s));
    {
        double copies = r.prologue_s + r.epilogue_s;
        for (const tpusim::ScheduleStep &s : r.schedule)
            copies += s.dma_in_s + s.dma_out_s;
        CHECK(shown(shell, "ex08Dma") == tpusim::format_time(copies - r.exposed_dma_s) + " hidden · " +
                                             tpusim::format_time(r.exposed_dma_s) + " exposed");
    }
    CHECK(goals(shell).empty());
    QTest::mouseMove(window, at(lanes, 0.4, mxuY));
    WAIT_VERIFY(card->property("visible").toBool());
    WAIT_VERIFY(goals(shell).count("ch11-pipeline-bubbles/find") == 1);
    CHECK(card->property("text").toString().contains(QStringLiteral("for the step's fixed time")));
    QTest::mouseMove(window, QPoint(2, 2));

    // A click picks a step; the arrow keys walk the grid from it.
    click(shell, "ex08ViewFirst");
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, at(lanes, 0.3, mxuY));
    WAIT_VERIFY(lanes->property("pickedStep").toInt() >= 0);
    const int picked = lanes->property("pickedStep").toInt();
    QTest::mouseMove(window, QPoint(2, 2));
    QTest::keyClick(window, Qt::Key_Right);
    WAIT_COMPARE(lanes->property("pickedStep").toInt(), picked + 1);
    WAIT_VERIFY(card->property("visible").toBool());
    CHECK(card->property("heading").toString().toStdString().rfind("step " + std::to_string(picked + 1) + " (", 0) ==
          0);
    QTest::keyClick(window, Qt::Key_Left);
    QTest::keyClick(window, Qt::Key_Left);
    WAIT_COMPARE(lanes->property("pickedStep").toInt(), picked - 1);
    shell.shot("ex08_128_first_steps");

    // Growing the blocks by the learner's own hand removes the bubbles: bm
    // dragged one power up, then bk and bn typed.
    QQuickItem *bm = item(shell, "ex08Size_bm");
    drag(window, bm, 40);
    WAIT_COMPARE(value(bm), std::int64_t(256));
    r = expected(shell, {4096, 4096, 4096, 256, 128, 128});
    WAIT_COMPARE(shown(shell, "ex08Time"), tpusim::format_time(r.time_s));
    typeInto(window, item(shell, "ex08Size_bk"), "1024");
    typeInto(window, item(shell, "ex08Size_bn"), "1024");
    typeInto(window, bm, "512");
    r = expected(shell, {4096, 4096, 4096, 512, 1024, 1024});
    WAIT_COMPARE(shown(shell, "ex08Time"), tpusim::format_time(r.time_s));
    CHECK(shown(shell, "ex08Steps") == "128");
    WAIT_VERIFY(goals(shell).count("ch11-pipeline-bubbles/remove") == 1);

    // The grid order: K first, the output block goes back to HBM every step.
    click(shell, "ex08Order_kmn");
    r = expected(shell, {4096, 4096, 4096, 512, 1024, 1024, "kmn"});
    // (the same bytes as (m, n, k) here: x is copied a quarter as often, the output four times as often)
    WAIT_VERIFY(shownItem(shell, "ex08Wrong") != nullptr);
    CHECK(shown(shell, "ex08Hbm") == tpusim::format_bytes(r.hbm_bytes));
    CHECK(shown(shell, "ex08Time") == tpusim::format_time(r.time_s));
    CHECK(r.output_copies == 128);
    shell.shot("ex08_kfirst");
    WAIT_VERIFY(goals(shell).count("ch11-pipeline-bubbles/order") == 1);
    click(shell, "ex08Order_mnk");
    WAIT_VERIFY(shownItem(shell, "ex08Wrong") == nullptr);

    // Export the timeline as a Chrome trace, parsed back: every step's
    // compute, and the last event ending at the model's time.
    r = expected(shell, {4096, 4096, 4096, 512, 1024, 1024});
    WAIT_COMPARE(shown(shell, "ex08Time"), tpusim::format_time(r.time_s));
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("pipeline.json"));
    auto *field = qobject_cast<QQuickItem *>(shell.find("ex08TracePath"));
    REQUIRE(field != nullptr);
    field->setProperty("text", path);
    click(shell, "ex08Export");
    WAIT_COMPARE(shown(shell, "ex08ExportResult"), "Wrote " + path.toStdString() + ": open it at ui.perfetto.dev.");
    {
        QFile file(path);
        REQUIRE(file.open(QIODevice::ReadOnly));
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
        REQUIRE(error.error == QJsonParseError::NoError);
        int compute = 0;
        double end = 0;
        for (const QJsonValue &v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
            const QJsonObject e = v.toObject();
            if (e.value(QStringLiteral("ph")).toString() != QStringLiteral("X"))
                continue;
            end = std::max(end, e.value(QStringLiteral("ts")).toDouble() + e.value(QStringLiteral("dur")).toDouble());
            if (e.value(QStringLiteral("cat")).toString() == QStringLiteral("compute"))
                ++compute;
        }
        CHECK(compute == r.steps);
        CHECK(end == Approx(r.time_s * 1e6).margin(1e-3)); // the trace keeps nanoseconds
    }
    WAIT_VERIFY(goals(shell).count("ch11-pipeline-bubbles/export") == 1);
    CHECK(shell.store().masteryItemsDone(11).count("ch11-pipeline-bubbles") == 1);
    // A file that cannot be written: one sentence, and nothing left behind.
    const QString bad = dir.filePath(QStringLiteral("no-such-folder/pipeline.json"));
    field->setProperty("text", bad);
    click(shell, "ex08Export");
    WAIT_VERIFY(shown(shell, "ex08ExportResult").rfind("Could not write " + bad.toStdString() + ": ", 0) == 0);
    CHECK(!QFile::exists(bad));

    // Bad input, one sentence each in place, never a crash.
    typeInto(window, item(shell, "ex08Size_bk"), "64");
    WAIT_COMPARE(shown(shell, "ex08Problem"), refusal(shell, {4096, 4096, 4096, 512, 64, 1024}));
    CHECK(shown(shell, "ex08Problem").find("illegal") != std::string::npos);
    CHECK(shownItem(shell, "ex08Time") == nullptr);
    typeInto(window, item(shell, "ex08Size_bk"), "1024");
    typeInto(window, bm, "384");
    WAIT_COMPARE(shown(shell, "ex08Problem"), std::string("bm=384 does not divide M=4096."));
    typeInto(window, bm, "0");
    WAIT_COMPARE(shown(shell, "ex08Problem"), std::string("M, K, N and the blocks bm, bk, bn must be positive integers "
                                                          "(got M=4096 K=4096 N=4096, bm=0 bk=1024 bn=1024)."));
    bm->forceActiveFocus();
    QTest::keyClick(window, Qt::Key_Return);
    QTest::keyClick(window, '-');
    QTest::keyClick(window, '8');
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(value(bm), std::int64_t(0));
    typeInto(window, bm, "4096");
    typeInto(window, item(shell, "ex08Size_bk"), "4096");
    typeInto(window, item(shell, "ex08Size_bn"), "4096");
    WAIT_COMPARE(shown(shell, "ex08Problem"), refusal(shell, {4096, 4096, 4096, 4096, 4096, 4096}));
    CHECK(shown(shell, "ex08Problem").find("VMEM") != std::string::npos);
    shell.shot("ex08_problem");
    // The export hides with the timeline; asked anyway, the model says why not and writes nothing.
    CHECK(shownItem(shell, "ex08Export") == nullptr);
    QString why;
    REQUIRE(QMetaObject::invokeMethod(shell.find("ex08Model"), "exportTrace", Q_RETURN_ARG(QString, why),
                                      Q_ARG(QString, dir.filePath(QStringLiteral("none.json")))));
    CHECK(why.startsWith(QStringLiteral("There is no schedule to export: the kernel needs 256 MiB of VMEM")));
    CHECK(!QFile::exists(dir.filePath(QStringLiteral("none.json"))));

    // Leaving and coming back keeps the state.
    typeInto(window, bm, "256");
    typeInto(window, item(shell, "ex08Size_bk"), "512");
    typeInto(window, item(shell, "ex08Size_bn"), "256");
    r = expected(shell, {4096, 4096, 4096, 256, 512, 256});
    WAIT_COMPARE(shown(shell, "ex08Time"), tpusim::format_time(r.time_s));
    REQUIRE(shell.navigate(QStringLiteral("stack")));
    REQUIRE(shell.navigate(QStringLiteral("EX08")));
    WAIT_VERIFY(shownItem(shell, "ex08Size_bm") != nullptr);
    CHECK(value(item(shell, "ex08Size_bk")) == 512);
    CHECK(shown(shell, "ex08Time") == tpusim::format_time(r.time_s));
}

TEST_CASE("EX08: 262,144 steps come off the GUI thread and draw by buckets; presets are the course's doing",
          "[ex08][qml]")
{
    ShellFixture shell;
    QWindow *window = shell.window();
    REQUIRE(shell.navigate(QStringLiteral("EX08")));
    WAIT_VERIFY(shownItem(shell, "ex08Size_bm") != nullptr);
    for (const char *preset :
         {"ex08Preset_512", "ex08Preset_kfirst", "ex08Preset_launch", "ex08Preset_uneven", "ex08Preset_docs"})
        click(shell, preset);
    // Setting the preset returns before the run is done: the GUI thread never waits on it.
    QObject *model = shell.find("ex08Model");
    REQUIRE(model != nullptr);
    QVariant applied;
    REQUIRE(QMetaObject::invokeMethod(shell.find("ex08"), "applyPresetNamed", Q_RETURN_ARG(QVariant, applied),
                                      Q_ARG(QVariant, QStringLiteral("huge"))));
    CHECK(applied.toBool());
    // The call is back, and the figures are still the last run's: the new one lands from the worker.
    CHECK(shown(shell, "ex08Steps") != "262,144");
    click(shell, "ex08Preset_huge");
    const tpusim::PipelineResult r = expected(shell, {8192, 8192, 8192, 128, 128, 128});
    WAIT_COMPARE(shown(shell, "ex08Steps"), std::string("262,144"));
    CHECK(shown(shell, "ex08Time") == tpusim::format_time(r.time_s));
    QQuickItem *lanes = item(shell, "ex08Timeline");
    const qreal mxuY = (lanes->property("laneHeight").toDouble() * 1.5) / lanes->height();
    QTest::mouseMove(window, at(lanes, 0.999, mxuY));
    QObject *card = shell.find("ex08StepCard");
    WAIT_VERIFY(card->property("visible").toBool());
    INFO("heading " << card->property("heading").toString().toStdString());
    CHECK(card->property("heading").toString().startsWith(QStringLiteral("step 261,")));
    // Zoomed in: the view narrows, buckets are remade for it.
    click(shell, "ex08ZoomIn");
    WAIT_VERIFY(lanes->property("viewEnd").toDouble() - lanes->property("viewStart").toDouble() < r.time_s * 0.51);
    shell.shot("ex08_huge");

    // On a megacore chip the parallel rows split over two TensorCores: 3 row blocks split 2 and 1.
    click(shell, "ex08Chip_v5p");
    click(shell, "ex08Preset_uneven");
    const tpusim::PipelineResult mega = expected(shell, {1536, 4096, 4096, 512, 1024, 1024});
    REQUIRE(shell.course().chip() == QStringLiteral("v5p"));
    REQUIRE(mega.cores == 2);
    WAIT_COMPARE(shown(shell, "ex08Cores"),
                 std::string("split over 2 TensorCores: 32 and 16 steps; uneven, the longer one sets the time"));
    CHECK(shown(shell, "ex08Time") == tpusim::format_time(mega.time_s));
    CHECK(lanes->property("cores").toInt() == 2);
    shell.shot("ex08_megacore");
    CHECK(shell.store().masteryGoalsReached(11).count("ch11-pipeline-bubbles/remove") == 0);
    CHECK(shell.store().masteryGoalsReached(11).count("ch11-pipeline-bubbles/order") == 0);
}
