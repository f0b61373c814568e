#include <catch2/catch.hpp>

#include "labruns/labruns.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/bench.h>
#include "profilerows.h"

#include <algorithm>
#include <cmath>

#include <QTest>

namespace {

QString shownText(ShellFixture &shell, const char *what, const std::string &rowId)
{
    // The stack's bench entry shows the same rows; take the one on screen.
    const QByteArray name = what + QByteArray::fromStdString(rowId);
    for (QObject *item : shell.findAll(name.constData()))
        if (ShellFixture::isShown(item))
            return item->property("text").toString();
    return {};
}

QString shownTime(ShellFixture &shell, const std::string &rowId)
{
    return shownText(shell, "benchTime_", rowId);
}

} // namespace

TEST_CASE("the bench page shows libtpusim's floors, and the chip switcher changes them", "[bench][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("bench")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("bench"));

    for (const char *chipId : {"v5e", "v6e", "v4"}) {
        INFO(chipId);
        auto *button = shell.findShown((std::string("chip_") + chipId).c_str());
        REQUIRE(button != nullptr);
        QMetaObject::invokeMethod(button, "clicked");
        for (const auto &row : tpusim::landing_bench(tpusim::chip(chipId)))
            WAIT_COMPARE(shownTime(shell, row.id), QString::fromStdString(tpusim::format_time(row.result.time_s)));
    }
    // The landing page's figures, on v5e.
    QMetaObject::invokeMethod(shell.findShown("chip_v5e"), "clicked");
    WAIT_COMPARE(shownTime(shell, "matmul_nnn"), QStringLiteral("697.7 µs"));
    CHECK(shownTime(shell, "matmul_skinny") == QStringLiteral("41.1 µs"));
    CHECK(shownTime(shell, "elementwise_add") == QStringLiteral("122.8 µs"));
    // Intensities as the chapters write them: an add's 1/6 is 0.17, not 0.2.
    CHECK(shownText(shell, "benchBound_", "elementwise_add") == QStringLiteral("HBM bound · 0.17 FLOP/B"));
    CHECK(shownText(shell, "benchBound_", "matmul_nnn") == QStringLiteral("MXU bound · 1365 FLOP/B"));
    // Opened, a row's model line writes its ridge and times the same way.
    const auto landing = tpusim::landing_bench(tpusim::chip("v5e"));
    const auto add = std::find_if(landing.begin(), landing.end(),
                                  [](const tpusim::BenchRow &r) { return r.id == "elementwise_add"; });
    REQUIRE(add != landing.end());
    for (QObject *row : shell.findAll("benchRow_elementwise_add"))
        row->setProperty("expanded", true);
    const QString model = shownText(shell, "benchModel_", "elementwise_add");
    CHECK(model.contains(QStringLiteral(" · ridge 7.5 FLOP/B · ")));
    CHECK(model.contains(QString::fromStdString(" · compute " + tpusim::format_time(add->result.compute_s) +
                                                " · memory " + tpusim::format_time(add->result.memory_s))));

    // The full bench adds rows beyond the landing three.
    QMetaObject::invokeMethod(shell.findShown("fullBenchToggle"), "clicked");
    const auto full = tpusim::full_bench(tpusim::chip("v5e"));
    REQUIRE(full.size() > 3);
    WAIT_COMPARE(shownTime(shell, full.back().id),
                 QString::fromStdString(tpusim::format_time(full.back().result.time_s)));
}

TEST_CASE("a profiled op whose FLOPs and bytes are a bench row's fills that row with its device time",
          "[bench][qml][profile]")
{
    ShellFixture shell;
    const auto bench = tpusim::full_bench(tpusim::chip("v6e"));
    const auto nnn =
        std::find_if(bench.begin(), bench.end(), [](const tpusim::BenchRow &r) { return r.id == "matmul_nnn"; });
    REQUIRE(nnn != bench.end());
    // A v6e profile holding that matmul (as XLA counts it) and an op that is no row.
    const auto imported = profiledDevice("v6e", "TPU v6 Lite", "bench.xplane.pb", "2026-11-30T10:00:00Z",
                                         {profiledOp("jit_mm", "dot.1", "matmul", 20, 180'000'000,
                                                     std::llround(nnn->cost.flops), std::llround(nnn->cost.bytes)),
                                          profiledOp("jit_mm", "fusion.3", "loop fusion", 20, 180'000'000, 12345,
                                                     std::llround(nnn->cost.bytes))}); // 180 µs a call
    progress::ProfileLedger(shell.store()).addProfile(imported);

    const QVariantMap measured = shell.course().labRuns()->measuredBench(QStringLiteral("v6e"));
    REQUIRE(measured.contains(QStringLiteral("matmul_nnn")));
    CHECK(measured.size() == 1);
    const QVariantMap row = measured.value(QStringLiteral("matmul_nnn")).toMap();
    CHECK(row.value("medianS").toDouble() == Approx(180e-6));
    CHECK(row.value("fromProfile").toBool());
    CHECK(row.value("date").toString() == QStringLiteral("2026-11-30"));
    CHECK(row.value("details").toString().contains(QStringLiteral("dot.1 in your profile bench.xplane.pb")));
    // Another chip's bench takes nothing from a v6e profile.
    CHECK(shell.course().labRuns()->measuredBench(QStringLiteral("v5e")).isEmpty());
}
