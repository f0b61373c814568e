#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/bench.h>

#include <QTest>

namespace {

QString shownTime(ShellFixture &shell, const std::string &rowId)
{
    // The stack's bench entry shows the same rows; take the one on screen.
    const QByteArray name = "benchTime_" + QByteArray::fromStdString(rowId);
    for (QObject *item : shell.findAll(name.constData()))
        if (ShellFixture::isShown(item))
            return item->property("text").toString();
    return {};
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

    // The full bench adds rows beyond the landing three.
    QMetaObject::invokeMethod(shell.findShown("fullBenchToggle"), "clicked");
    const auto full = tpusim::full_bench(tpusim::chip("v5e"));
    REQUIRE(full.size() > 3);
    WAIT_COMPARE(shownTime(shell, full.back().id), QString::fromStdString(tpusim::format_time(full.back().result.time_s)));
}
