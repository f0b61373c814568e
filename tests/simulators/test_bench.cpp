// The landing page's three rows, derived by hand for v5e
// (1.97e14 FLOP/s bf16, 8.2e11 B/s HBM):
//   matmul 4096^3:    2 * 4096^3 = 1.374e11 FLOP / 1.97e14 = 697.7 µs (compute bound;
//                     bytes 3 * 2 * 4096^2 = 1.007e8 B take only 122.8 µs)
//   skinny 8x4096x4096: bytes 2 * (8*4096 + 4096*4096 + 8*4096) = 33,685,504 B
//                     / 8.2e11 = 41.08 µs (FLOPs take 1.36 µs: HBM bound)
//   add 4096x4096:    3 arrays * 2 B * 4096^2 = 100,663,296 B / 8.2e11 = 122.76 µs
#include <catch2/catch.hpp>

#include "tpusim/bench.h"

using namespace tpusim;

TEST_CASE("the landing page's bench rows on v5e", "[bench]") {
    const auto rows = landing_bench(chip("v5e"));
    REQUIRE(rows.size() == 3);

    CHECK(rows[0].label == "matmul NxNxN");
    CHECK(rows[0].result.time_s == Approx(2.0 * 4096 * 4096 * 4096 / 1.97e14));
    CHECK(format_time(rows[0].result.time_s) == "697.7 µs");
    CHECK(rows[0].result.bound == Bound::compute);
    CHECK(rows[0].result.resource == "MXU");

    CHECK(rows[1].label == "matmul skinny 8xNxN");
    CHECK(rows[1].result.bytes == 2.0 * (8 * 4096 + 4096 * 4096 + 8 * 4096));
    CHECK(rows[1].result.bytes == 33685504.0);
    CHECK(format_time(rows[1].result.time_s) == "41.1 µs");
    CHECK(rows[1].result.bound == Bound::memory);

    CHECK(rows[2].label == "elementwise add");
    CHECK(rows[2].result.bytes == 100663296.0);
    CHECK(format_time(rows[2].result.time_s) == "122.8 µs");
    CHECK(rows[2].result.bound == Bound::memory);
    CHECK(rows[2].result.resource == "HBM");
}

TEST_CASE("every bench row is a prediction with its provenance", "[bench]") {
    for (const Chip& c : all_chips()) {
        const auto rows = full_bench(c);
        REQUIRE(rows.size() >= 10);
        for (const BenchRow& r : rows) {
            CHECK(r.result.provenance.kind == Kind::predicted);
            CHECK(r.result.provenance.chip == c.id);
            CHECK_FALSE(r.result.provenance.shapes.empty());
            CHECK_FALSE(r.result.provenance.assumptions.empty());
            CHECK(r.result.time_s > 0);
        }
    }
}

TEST_CASE("rows without a published rate are left out of the full bench", "[bench]") {
    auto has = [](const std::vector<BenchRow>& rows, const std::string& id) {
        for (const auto& r : rows)
            if (r.id == id) return true;
        return false;
    };
    CHECK_FALSE(has(full_bench(chip("v5e")), "matmul_nnn_fp8"));  // no fp8 rate on v5e
    CHECK(has(full_bench(chip("v5e")), "matmul_nnn_int8"));
    CHECK_FALSE(has(full_bench(chip("v7")), "matmul_nnn_int8"));  // no int8 rate on 7x
    CHECK(has(full_bench(chip("v7")), "matmul_nnn_fp8"));
}

TEST_CASE("time formatting keeps the landing page's digits", "[bench]") {
    CHECK(format_time(697.68e-6) == "697.7 µs");
    CHECK(format_time(41.08e-6) == "41.1 µs");
    CHECK(format_time(1.25e-3) == "1.25 ms");
    CHECK(format_time(2.5) == "2.50 s");
}

TEST_CASE("a whole number of its unit is written without decimals; a rounded one keeps them", "[bench]") {
    // As the chapters write constants and sizes: "350 ns", "16 MiB".
    CHECK(format_time(850e-9) == "850 ns");
    CHECK(format_time(350e-9) == "350 ns");
    CHECK(format_time(3e-6) == "3 µs");
    CHECK(format_time(2.0) == "2 s");
    CHECK(format_bytes(16.0 * 1024 * 1024) == "16 MiB");
    CHECK(format_bytes(1536) == "1.5 KiB");
    CHECK(format_rate(4.5e10, "B/s") == "45 GB/s");
    // A figure that only rounds to a whole keeps its decimals, so one that
    // moves under a scrub keeps its width.
    CHECK(format_time(119.96e-6) == "120.0 µs");
    CHECK(format_time(2.999e-6) == "3.00 µs");
    CHECK(format_bytes(16.02 * 1024 * 1024) == "16.0 MiB");
    CHECK(format_rate(4.4999e10, "B/s") == "45.0 GB/s");
}

TEST_CASE("byte counts step up to the next binary unit, TiB included", "[bench]") {
    CHECK(format_bytes(512) == "512 B");
    CHECK(format_bytes(64.0 * 1024 * 1024) == "64 MiB");
    CHECK(format_bytes(1000.0 * 1024 * 1024 * 1024) == "1000 GiB");
    // A profile's host copies: 1,500 GiB reads as TiB, not "1500 GiB".
    CHECK(format_bytes(1500.0 * 1024 * 1024 * 1024) == "1.46 TiB");
}

TEST_CASE("rates keep three figures, and none is 0.00", "[bench]") {
    CHECK(format_rate(1.97e14, "FLOP/s") == "197 TFLOP/s");
    CHECK(format_rate(4.55e10, "B/s") == "45.5 GB/s");
    CHECK(format_rate(0, "FLOP") == "0 FLOP");  // a collective's FLOPs in EX·05's card
}
