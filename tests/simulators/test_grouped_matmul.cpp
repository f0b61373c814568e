#include <catch2/catch.hpp>

#include "tpusim/chips.h"
#include "tpusim/error.h"
#include "tpusim/grouped_matmul.h"
#include "tpusim/pipeline.h"
#include "tpusim/roofline.h"

using namespace tpusim;

namespace {
// Chapter 5's routing: 4096 tokens to 8 experts.
const std::vector<std::int64_t> kRouting{1200, 300, 0, 900, 700, 500, 296, 200};

GroupedMatmulSpec spec(GroupedPass pass, std::int64_t tm = 128) {
    GroupedMatmulSpec s;
    s.groups = kRouting;
    s.k = s.n = 4096;
    s.tm = tm;
    s.pass = pass;
    return s;
}

double dense_tiled(const Chip& chip, std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t bm, std::int64_t bk,
                   std::int64_t bn) {
    BlockedMatmul b;
    b.m = m, b.k = k, b.n = n, b.bm = bm, b.bk = bk, b.bn = bn;
    PipelineOptions device;
    device.launch_s = 0;
    return simulate(chip, blocked_matmul(b), device).time_s;
}
}  // namespace

// The group ends fall at 1200, 1500, 2400, 3100, 3600, 3896 and 4096; all
// but the last lie inside a 128-row tile, so 32 tiles take 38 visits.
TEST_CASE("grouped matmul: tiles and rows counted by hand", "[kernels][grouped]") {
    const Chip& v5e = chip("v5e");
    const GroupedMatmulResult r = grouped_matmul(v5e, spec(GroupedPass::forward));
    CHECK(r.m == 4096);
    CHECK(r.row_tiles == 32);
    CHECK(r.boundaries_inside == 6);
    CHECK(r.empty_groups == 1);
    CHECK(r.visits == 38);
    CHECK(r.rows == 4864);
    CHECK(r.overhead == Approx(4864.0 / 4096 - 1));
    CHECK(r.steps == 38 * 8 * 8);
    CHECK(r.flops == Approx(2.0 * 4096 * 4096 * 4096));
    // Priced as the dense tiled matmul over the rows it computes.
    CHECK(r.time_s == Approx(dense_tiled(v5e, 4864, 4096, 4096, 128, 512, 512)));
    CHECK(r.call_s == Approx(r.time_s + v5e.kernel_launch.value));
    // XLA's static shapes: 8 groups padded to 1200 rows, or 8 x 4096 rows.
    MatmulSpec padded;
    padded.batch = 8, padded.m = 1200, padded.k = padded.n = 4096;
    CHECK(r.padded_time_s == Approx(roofline_time(v5e, matmul_cost(padded))));
    CHECK(r.dense_time_s > 3 * r.padded_time_s);
    // Bigger row tiles reload each weight tile less, and compute more rows past the boundaries.
    const GroupedMatmulResult wide = grouped_matmul(v5e, spec(GroupedPass::forward, 512));
    CHECK(wide.rows == 14 * 512);
    CHECK(wide.hbm_bytes < r.hbm_bytes);
    CHECK(wide.time_s < r.time_s);
}

TEST_CASE("grouped matmul: tgmm reduces over the ragged rows and writes a dW per group", "[kernels][grouped]") {
    const Chip& v5e = chip("v5e");
    const GroupedMatmulResult r = grouped_matmul(v5e, spec(GroupedPass::tgmm));
    CHECK(r.rows == 4864);
    // dW[g] = x_g^T dy_g: (K x rows) @ (rows x N), plus seven more groups' dW tiles
    // written, the empty group's zeros among them.
    const double extra = 7.0 * 4096 * 4096 * 2;
    CHECK(r.time_s == Approx(dense_tiled(v5e, 4096, 4864, 4096, 512, 128, 512) +
                             extra / (v5e.hbm_bandwidth.value * v5e.hbm_attainable.value)));
    CHECK(r.steps == 8 * 8 * 38 + 8 * 8);  // the empty group's zero tiles take a step each
    CHECK(r.provenance.shapes.rfind("tgmm: M=4096 in 8 groups", 0) == 0);
}

TEST_CASE("grouped matmul: bad routings and tiles are refused in one sentence", "[kernels][grouped]") {
    const Chip& v5e = chip("v5e");
    CHECK(parse_groups("1200,300,0") == std::vector<std::int64_t>{1200, 300, 0});
    CHECK_THROWS_WITH(parse_groups("1200,-3"), Catch::Contains("\"-3\" in \"1200,-3\" is not a group size"));
    CHECK_THROWS_AS(parse_groups("12,,4"), InputError);
    GroupedMatmulSpec empty = spec(GroupedPass::forward);
    empty.groups = {0, 0};
    CHECK_THROWS_WITH(grouped_matmul(v5e, empty), Catch::Contains("every group is empty"));
    GroupedMatmulSpec odd = spec(GroupedPass::forward);
    odd.tk = 500;
    CHECK_THROWS_WITH(grouped_matmul(v5e, odd), Catch::Contains("tk=500 into k=4096"));
    CHECK_THROWS_AS(parse_grouped_pass("backward"), InputError);
}
