#include <catch2/catch.hpp>

#include <algorithm>

#include "tpusim/error.h"
#include "tpusim/roofline.h"

using namespace tpusim;

namespace {
MatmulSpec mm(std::int64_t m, std::int64_t k, std::int64_t n, DType in = DType::bf16) {
    MatmulSpec s;
    s.m = m;
    s.k = k;
    s.n = n;
    s.in = in;
    s.out = in == DType::int8 ? DType::bf16 : in;
    return s;
}
}  // namespace

TEST_CASE("matmul FLOPs and bytes by hand", "[roofline]") {
    // 2*M*K*N FLOPs; (M*K + K*N + M*N) * 2 bytes for bf16.
    const OpCost c = matmul_cost(mm(128, 256, 512));
    CHECK(c.flops == 2.0 * 128 * 256 * 512);
    CHECK(c.bytes == 2.0 * (128 * 256 + 256 * 512 + 128 * 512));
    CHECK(c.shapes == "M=128 K=256 N=512");
    CHECK(c.dtype_text == "bf16 in, f32 acc, bf16 out");

    MatmulSpec b = mm(128, 256, 512);
    b.batch = 4;
    const OpCost cb = matmul_cost(b);
    CHECK(cb.flops == 4 * c.flops);
    CHECK(cb.bytes == 4 * c.bytes);
    CHECK(cb.op == "batched matmul");
}

TEST_CASE("square bf16 matmul: intensity N/3 and the v5e ridge at about 240", "[roofline]") {
    const Chip& v5e = chip("v5e");
    // 2N^3 / (3 * 2N^2) = N/3: below the ridge (240.2) up to N = 720.
    const Roofline small = roofline(v5e, matmul_cost(mm(720, 720, 720)));
    CHECK(small.intensity == Approx(240.0));
    CHECK(small.bound == Bound::memory);
    const Roofline big = roofline(v5e, matmul_cost(mm(723, 723, 723)));
    CHECK(big.intensity == Approx(241.0));
    CHECK(big.bound == Bound::compute);
    CHECK(big.ridge == Approx(1.97e14 / 8.2e11));
}

TEST_CASE("skinny matmul intensity is about the batch size [SB-ROOF]", "[roofline]") {
    const Roofline r = roofline(chip("v5e"), matmul_cost(mm(8, 4096, 4096)));
    // 2*8*4096^2 / (2*(8*4096 + 4096^2 + 8*4096)) = 7.97
    CHECK(r.intensity == Approx(7.97).epsilon(0.001));
    CHECK(r.bound == Bound::memory);
}

TEST_CASE("int8 matmul uses the int8 rate", "[roofline]") {
    const Roofline r = roofline(chip("v5e"), matmul_cost(mm(4096, 4096, 4096, DType::int8)));
    CHECK(r.peak_flops == 3.94e14);
    CHECK(r.compute_s == Approx(2.0 * 4096 * 4096 * 4096 / 3.94e14));
}

TEST_CASE("elementwise and reductions run on the VPU", "[roofline]") {
    const Chip& v5e = chip("v5e");
    const OpCost add = elementwise_cost({1024, 1024}, 2, 1, DType::f32);
    CHECK(add.bytes == 3.0 * 4 * 1024 * 1024);
    CHECK(add.flops == 1024.0 * 1024);
    const Roofline r = roofline(v5e, add);
    CHECK(r.peak_flops == v5e.vpu_flops_per_core.value);
    CHECK(r.bound == Bound::memory);
    // The VPU rate is an assumption on v5e, and the answer lists it.
    bool listed = false;
    for (const auto& a : r.provenance.assumptions) listed = listed || a == v5e.vpu_flops_per_core.note;
    CHECK(listed);

    const OpCost sum = reduction_cost({4, 8, 16}, {2}, DType::f32);
    CHECK(sum.flops == 4.0 * 8 * 16);
    CHECK(sum.bytes == (4.0 * 8 * 16 + 4.0 * 8) * 4);

    // A VPU-heavy op can be compute bound: 1000 FLOPs per element.
    const Roofline heavy = roofline(v5e, elementwise_cost({1024, 1024}, 1, 1, DType::f32, 1000));
    CHECK(heavy.bound == Bound::compute);
    CHECK(heavy.resource == "VPU");
}

TEST_CASE("generic op from FLOPs and bytes", "[roofline]") {
    const Roofline r = roofline(chip("v5e"), generic_cost(1.97e14, 8.2e11, DType::bf16));
    CHECK(r.compute_s == Approx(1.0));
    CHECK(r.memory_s == Approx(1.0));
    CHECK(r.time_s == Approx(1.0));
}

TEST_CASE("bad sizes are refused, never clamped", "[roofline]") {
    CHECK_THROWS_AS(matmul_cost(mm(0, 4, 4)), InputError);
    CHECK_THROWS_WITH(matmul_cost(mm(4, -1, 4)), Catch::Contains("K must be a positive integer"));
    CHECK_THROWS_AS(elementwise_cost({4, 0}, 2, 1, DType::bf16), InputError);
    CHECK_THROWS_AS(elementwise_cost({}, 2, 1, DType::bf16), InputError);
    CHECK_THROWS_AS(reduction_cost({4, 4}, {2}, DType::bf16), InputError);
    CHECK_THROWS_AS(reduction_cost({4, 4}, {0, 0}, DType::bf16), InputError);
    CHECK_THROWS_AS(generic_cost(-1, 10, DType::bf16), InputError);
}

TEST_CASE("provenance of a roofline answer", "[roofline]") {
    const Roofline r = roofline(chip("v6e"), matmul_cost(mm(256, 256, 256)));
    CHECK(r.provenance.kind == Kind::predicted);
    CHECK(r.provenance.chip == "v6e");
    CHECK(r.provenance.dtype == "bf16 in, f32 acc, bf16 out");
    CHECK(r.provenance.shapes == "M=256 K=256 N=256");
    CHECK(r.provenance.model.find("roofline") != std::string::npos);
    CHECK(r.provenance.assumptions.size() >= 2);
    const Estimate e = to_estimate(r, "matmul");
    CHECK(e.value == r.time_s);
    CHECK(e.unit == "s");
    CHECK(e.details.size() == 6);
}

TEST_CASE("property: the time is never below either floor", "[roofline][property]") {
    for (const Chip& c : all_chips())
        for (std::int64_t m : {1, 8, 100, 1024, 8192})
            for (std::int64_t n : {128, 1000, 4096}) {
                const Roofline r = roofline(c, matmul_cost(mm(m, 4096, n)));
                CHECK(r.time_s >= r.compute_s);
                CHECK(r.time_s >= r.memory_s);
                CHECK(roofline_time(c, matmul_cost(mm(m, 4096, n))) == r.time_s);
            }
}

TEST_CASE("property: more bandwidth is never slower", "[roofline][property]") {
    for (const Chip& base : all_chips()) {
        Chip faster = base;
        faster.hbm_bandwidth.value *= 1.5;
        for (std::int64_t m : {1, 64, 512, 4096}) {
            const OpCost cost = matmul_cost(mm(m, 2048, 2048));
            CHECK(roofline(faster, cost).time_s <= roofline(base, cost).time_s);
        }
        const OpCost add = elementwise_cost({2048, 2048}, 2, 1, DType::bf16);
        CHECK(roofline(faster, add).time_s < roofline(base, add).time_s);
    }
}

TEST_CASE("the attainable roofline: the chip's fitted fractions of the MXU peak and of HBM", "[roofline]") {
    const Chip& c = chip("v5e");
    MatmulSpec big;
    big.m = big.k = big.n = 4096;
    const Roofline compute = roofline(c, matmul_cost(big));
    REQUIRE(compute.bound == Bound::compute);
    CHECK(compute.attainable_s == Approx(compute.time_s / c.mxu_attainable.value));
    CHECK(compute.attainable_peak_flops == Approx(compute.peak_flops * c.mxu_attainable.value));
    const Roofline memory = roofline(c, elementwise_cost({4096, 4096}, 2, 1, DType::bf16));
    REQUIRE(memory.bound == Bound::memory);
    CHECK(memory.attainable_s == Approx(memory.time_s / c.hbm_attainable.value));
    CHECK(memory.attainable_s > memory.time_s);
    // Each says which peak its attainable time takes: the add runs on the
    // VPU, whose peak is kept whole.
    const auto says = [](const Roofline& r, const std::string& words) {
        const auto& a = r.provenance.assumptions;
        return std::any_of(a.begin(), a.end(),
                           [&](const std::string& s) { return s.find(words) != std::string::npos; });
    };
    CHECK(memory.attainable_peak_flops == Approx(memory.peak_flops));
    CHECK(says(memory, "the whole VPU peak"));
    CHECK_FALSE(says(memory, "MXU peak"));
    CHECK(says(compute, "of the MXU peak"));
}

// A roofline card's working: the two times, the larger, the intensity.
TEST_CASE("a roofline's working is the arithmetic a learner does by hand", "[roofline][working]") {
    MatmulSpec s;
    s.m = s.k = s.n = 4096;
    const Roofline r = roofline(chip("v5e"), matmul_cost(s));
    const auto lines = roofline_working(r);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "137 GFLOP ÷ 197 TFLOP/s = 697.7 µs");
    CHECK(lines[1] == format_bytes(r.bytes) + " ÷ 820 GB/s = " + format_time(r.memory_s));
    CHECK(lines[2] == "the larger: 697.7 µs, bound by MXU");
    CHECK(lines[3] == "intensity 1365 FLOP/B against the ridge 240 FLOP/B");
    // An elementwise add's 1/6 as a learner works it out: 0.17, not 0.2.
    CHECK(format_intensity(1.0 / 6.0) == "0.17 FLOP/B");
    CHECK(format_intensity(2.5) == "2.5 FLOP/B");

    // A matmul bound by the MXU, then an add bound by HBM: each op's larger,
    // added, which is neither sum alone.
    const Roofline seq =
        roofline_sequence(chip("v5e"), {matmul_cost(s), elementwise_cost({4096, 4096}, 2, 1, DType::bf16)});
    CHECK(roofline_working(seq)[2] == "each op the larger of its own two, added: " + format_time(seq.time_s));
    CHECK(seq.time_s > std::max(seq.compute_s, seq.memory_s));
}
