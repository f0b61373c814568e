#include <catch2/catch.hpp>

#include "tpusim/chips.h"
#include "tpusim/error.h"

using namespace tpusim;

TEST_CASE("the five chips in teaching order", "[chips]") {
    const auto& chips = all_chips();
    REQUIRE(chips.size() == 5);
    CHECK(chips[0].id == "v4");
    CHECK(chips[1].id == "v5e");
    CHECK(chips[2].id == "v5p");
    CHECK(chips[3].id == "v6e");
    CHECK(chips[4].id == "v7");
    CHECK(&chip("ironwood") == &chip("v7"));
    CHECK(&chip("7x") == &chip("v7"));
}

TEST_CASE("unknown chips are refused with a sentence", "[chips]") {
    CHECK_THROWS_AS(chip("v9"), InputError);
    CHECK_THROWS_WITH(chip("v9"), Catch::Contains("unknown chip 'v9'"));
}

TEST_CASE("v5e uses the figures behind the bench rows", "[chips]") {
    const Chip& c = chip("v5e");
    CHECK(c.peak_bf16.value == 1.97e14);
    CHECK(c.hbm_bandwidth.value == 8.2e11);
    CHECK(c.hbm_bandwidth.source.find("[JAX-INFO]") != std::string::npos);
    // The alternatives are recorded next to the choice.
    CHECK(c.hbm_bandwidth.note.find("819") != std::string::npos);
    CHECK(c.hbm_bandwidth.note.find("8.1e11") != std::string::npos);
}

TEST_CASE("every published figure carries a source, and assumptions say so", "[chips]") {
    for (const Chip& c : all_chips()) {
        for (const FactRow& row : fact_rows(c)) {
            INFO(c.id << " " << row.label);
            if (row.fact.published()) {
                CHECK_FALSE(row.fact.source.empty());
            } else {
                CHECK_FALSE(row.fact.note.empty());  // says why it is missing
            }
        }
        CHECK(c.scoped_vmem_default.assumption);
        CHECK(c.grid_step_overhead.assumption);
        CHECK(c.grid_step_overhead.value == 0.35e-6);
        CHECK(c.dma_latency.assumption);
        CHECK_FALSE(c.peak_bf16.assumption);
        CHECK_FALSE(c.topology.source.empty());
    }
}

TEST_CASE("scoped VMEM defaults: 16 MiB on v4/v5e/v5p, 32 MiB on v6e/v7", "[chips]") {
    const double MiB = 1024.0 * 1024.0;
    CHECK(chip("v4").scoped_vmem_default.value == 16 * MiB);
    CHECK(chip("v5e").scoped_vmem_default.value == 16 * MiB);
    CHECK(chip("v5p").scoped_vmem_default.value == 16 * MiB);
    CHECK(chip("v6e").scoped_vmem_default.value == 32 * MiB);
    CHECK(chip("v7").scoped_vmem_default.value == 32 * MiB);
    for (const Chip& c : all_chips()) CHECK(c.scoped_vmem_default.value <= c.vmem_per_core.value);
}

TEST_CASE("megacore only on v4 and v5p; v7's cores are separate devices", "[chips]") {
    CHECK(chip("v4").megacore);
    CHECK(chip("v5p").megacore);
    CHECK_FALSE(chip("v5e").megacore);
    CHECK_FALSE(chip("v6e").megacore);
    CHECK_FALSE(chip("v7").megacore);
    CHECK(device_fraction(chip("v5p")) == 1.0);
    CHECK(device_fraction(chip("v7")) == 0.5);
    CHECK(chip("v6e").mxu_size.value == 256);
    CHECK(chip("v5e").mxu_size.value == 128);
}

TEST_CASE("peak rates per dtype", "[chips]") {
    CHECK(peak_flops(chip("v5e"), DType::int8).value == 3.94e14);
    CHECK(peak_flops(chip("v7"), DType::fp8).value == 4.60e15);
    // f32 at the bf16 rate is an assumption, and it says so.
    const Fact f32 = peak_flops(chip("v5e"), DType::f32);
    CHECK(f32.value == 1.97e14);
    CHECK(f32.assumption);
    CHECK_THROWS_AS(peak_flops(chip("v5e"), DType::fp8), InputError);
    CHECK_THROWS_AS(peak_flops(chip("v7"), DType::int8), InputError);
    CHECK_THROWS_AS(peak_flops(chip("v4"), DType::int32), InputError);
}

TEST_CASE("ridge points match JAX's tpu_info peaks over HBM bandwidth [JAX-INFO]", "[chips]") {
    // peak bf16 / HBM bandwidth, by hand: 2.75e14/1.23e12 = 223.6,
    // 1.97e14/8.2e11 = 240.2, 4.59e14/2.46e12 = 186.6, 9.2e14/1.64e12 = 561.0,
    // 2.31e15/7.4e12 = 312.2
    CHECK(ridge_point(chip("v4"), DType::bf16) == Approx(223.6).epsilon(0.001));
    CHECK(ridge_point(chip("v5e"), DType::bf16) == Approx(240.2).epsilon(0.001));
    CHECK(ridge_point(chip("v5p"), DType::bf16) == Approx(186.6).epsilon(0.001));
    CHECK(ridge_point(chip("v6e"), DType::bf16) == Approx(561.0).epsilon(0.001));
    CHECK(ridge_point(chip("v7"), DType::bf16) == Approx(312.2).epsilon(0.001));
}
