#include <catch2/catch.hpp>

#include "tpusim/collective_matmul.h"
#include "tpusim/error.h"

using namespace tpusim;

namespace {
// Chapter 14's problem: x bf16[8192, 8192] by rows, w bf16[8192, 32768] by
// columns, over four devices: 2048-row chunks of 32 MiB, 8192 local columns.
CollectiveMatmulSpec chapter_problem() {
    CollectiveMatmulSpec s;
    s.m = 8192;
    s.k = 8192;
    s.n = 32768;
    s.devices = 4;
    return s;
}
}  // namespace

// v5e: C = 2 x 2048 x 8192 x 8192 / peak (compute-bound: 1365 FLOP/B of
// intensity); X = 32 MiB / one-way link + 3 hops, since a ring of four on v5e
// is a line (axes wrap only at 16) and the transfer back to device 0 crosses
// three links. X < C, so the schedule costs exactly the compute: nothing exposed.
TEST_CASE("collective matmul: on v5e the chapter's transfers hide completely", "[collective_matmul]") {
    const Chip& c = chip("v5e");
    const CollectiveMatmulResult r = collective_matmul(c, chapter_problem());
    const double C = 2.0 * 2048 * 8192 * 8192 / c.peak_bf16.value;
    const double X = 33554432.0 / c.ici_link_bandwidth.value + 3 * c.ici_hop_latency.value;
    CHECK_FALSE(r.wraps);
    CHECK(r.hops == 3);
    CHECK(r.chunk_bytes == 33554432.0);
    CHECK(r.step_compute_s == Approx(C));
    CHECK(r.step_transfer_s == Approx(X));
    REQUIRE(X < C);
    CHECK(r.time_s == Approx(4 * C));
    CHECK(r.compute_only_s == Approx(4 * C));
    CHECK(r.exposed_s == Approx(0).margin(1e-12));
    // The direct program pays the whole gather before the first FLOP.
    CHECK(r.gather_then_matmul_s > r.time_s);
}

// v6e: the peak grew faster than the link. X > C, and each of the three
// transfers after the first matmul shows by X - C. Step 0's transfer is not
// the exposed one: it runs under step 0's matmul.
TEST_CASE("collective matmul: exposure is (n - 1)(X - C) where the link is slower", "[collective_matmul]") {
    const Chip& c = chip("v6e");
    const CollectiveMatmulResult r = collective_matmul(c, chapter_problem());
    REQUIRE(r.step_transfer_s > r.step_compute_s);
    const double C = r.step_compute_s, X = r.step_transfer_s;
    CHECK(r.time_s == Approx(3 * X + C));
    CHECK(r.exposed_s == Approx(3 * (X - C)));
    CHECK(r.exposed_fraction == Approx(3 * (X - C) / (4 * C)));
    CHECK(r.exposed_fraction > 0.15);  // fails gate G4 at these shapes

    // Twice the local columns doubles C, not X: hidden again.
    CollectiveMatmulSpec wider = chapter_problem();
    wider.n *= 2;
    CHECK(collective_matmul(c, wider).exposed_s == Approx(0).margin(1e-12));
}

// Cutting the same matmul into more, smaller steps does not shrink the
// exposed fraction: C and the bandwidth part of X both scale with the chunk,
// and the per-step latency makes it slightly worse.
TEST_CASE("collective matmul: more steps do not hide more", "[collective_matmul]") {
    const Chip& c = chip("v6e");
    CollectiveMatmulSpec four = chapter_problem();
    CollectiveMatmulSpec eight = four;
    eight.devices = 8;
    eight.n = four.n * 2;  // the same local columns per device, so the same C / X per row
    const CollectiveMatmulResult r4 = collective_matmul(c, four), r8 = collective_matmul(c, eight);
    // Per step, C halves (half the rows) and so does the bandwidth part of X.
    CHECK(r8.step_compute_s == Approx(r4.step_compute_s / 2));
    CHECK(r8.exposed_fraction >= r4.exposed_fraction * 0.99);
}

// Half of each chunk each way halves X on a ring with wraparound (v6e axes of
// 16 wrap) and saves nothing on a line.
TEST_CASE("collective matmul: both directions pay off only on a ring", "[collective_matmul]") {
    const Chip& c = chip("v6e");
    CollectiveMatmulSpec line = chapter_problem();
    CollectiveMatmulSpec line2 = line;
    line2.directions = 2;
    CHECK(collective_matmul(c, line2).step_transfer_s == Approx(collective_matmul(c, line).step_transfer_s));

    CollectiveMatmulSpec ring;
    ring.m = 16 * 2048;
    ring.k = 8192;
    ring.n = 16 * 8192;
    ring.devices = 16;
    CollectiveMatmulSpec ring2 = ring;
    ring2.directions = 2;
    const CollectiveMatmulResult one = collective_matmul(c, ring), two = collective_matmul(c, ring2);
    CHECK(one.wraps);
    CHECK(one.hops == 1);
    const double latency = c.ici_hop_latency.value;
    CHECK(two.step_transfer_s - latency == Approx((one.step_transfer_s - latency) / 2));
}

TEST_CASE("collective matmul: bad sizes are refused", "[collective_matmul]") {
    CollectiveMatmulSpec s = chapter_problem();
    s.devices = 1;
    CHECK_THROWS_AS(collective_matmul(chip("v5e"), s), InputError);
    s = chapter_problem();
    s.m = 8190;
    CHECK_THROWS_AS(collective_matmul(chip("v5e"), s), InputError);
    s = chapter_problem();
    s.directions = 3;
    CHECK_THROWS_AS(collective_matmul(chip("v5e"), s), InputError);
    s = chapter_problem();
    s.devices = 512;
    s.m = s.n = 512 * 16;
    CHECK_THROWS_AS(collective_matmul(chip("v5e"), s), InputError);  // larger than a v5e pod
}
