#pragma once
// Waiting on the event loop inside Catch2 tests. QTest's QTRY_* macros
// report to QTest's own result log, which a Catch2 run never reads: a
// failure there just returns from the test, which then passes. These wait
// the same way, then assert through Catch2, so a wrong value fails.
#include <catch2/catch.hpp>

#include <QString>
#include <QTest>

namespace Catch {
template <>
struct StringMaker<QString>
{
    static std::string convert(const QString &s) { return '"' + s.toStdString() + '"'; }
};
} // namespace Catch

inline constexpr int qtWaitMs = 5000;

#define WAIT_VERIFY(expr)                                                         \
    do {                                                                          \
        (void)QTest::qWaitFor([&] { return static_cast<bool>(expr); }, qtWaitMs); \
        REQUIRE((expr));                                                          \
    } while (false)

#define WAIT_COMPARE(actual, expected)                                           \
    do {                                                                         \
        (void)QTest::qWaitFor([&] { return (actual) == (expected); }, qtWaitMs); \
        REQUIRE((actual) == (expected));                                         \
    } while (false)
