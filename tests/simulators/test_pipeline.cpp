#include <catch2/catch.hpp>

#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/roofline.h"

using namespace tpusim;

namespace {
Kernel matmul(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t bm, std::int64_t bk, std::int64_t bn,
              DType dtype = DType::bf16) {
    BlockedMatmul s;
    s.m = m;
    s.k = k;
    s.n = n;
    s.bm = bm;
    s.bk = bk;
    s.bn = bn;
    s.in = dtype;
    s.out = dtype;
    return blocked_matmul(s);
}
}  // namespace

// bf16 256^3 with 128^3 blocks: grid (2, 2, 2), k fastest.
//   x block (i,k): (0,0) (0,1) (0,0) (0,1) (1,0) (1,1) (1,0) (1,1) -> copied all 8 steps
//   y block (k,j): (0,0) (1,0) (0,1) (1,1) (0,0) (1,0) (0,1) (1,1) -> copied all 8 steps
//   out (i,j):     (0,0) (0,0) (0,1) (0,1) (1,0) (1,0) (1,1) (1,1) -> written after 1,3,5,7
// Each block is 128*128*2 = 32768 B: 16 reads + 4 writes = 655,360 B.
TEST_CASE("a pipeline small enough to count by hand: copies and bytes", "[pipeline]") {
    const PipelineResult r = simulate(chip("v5e"), matmul(256, 256, 256, 128, 128, 128));
    CHECK(r.steps == 8);
    CHECK(r.input_copies == 16);
    CHECK(r.output_copies == 4);
    CHECK(r.hbm_bytes == 20.0 * 32768);
    // 2 buffers x (x, y, out) x 32 KiB + a 64 KiB f32 accumulator
    CHECK(r.vmem_bytes == 2.0 * 3 * 32768 + 65536);
}

TEST_CASE("a pipeline small enough to count by hand: time", "[pipeline]") {
    // No overhead, no latency, and a bandwidth where 64 KiB take 1 µs:
    //   prologue: x + y of step 0 = 1 µs
    //   steps 0..6: DMA of the next x + y (1 µs), plus the out block finished
    //     the step before on steps 2, 4, 6 (1.5 µs): 4 x 1 + 3 x 1.5 = 8.5 µs
    //   step 7: nothing in flight, only compute c
    //   epilogue: the last out block, 0.5 µs
    // c = 2*128^3 / (1.97e14 / 4): one 128x128 weight tile keeps 1 of 4 MXUs busy.
    PipelineOptions o;
    o.step_overhead_s = 0;
    o.launch_s = 0;
    o.dma_latency_s = 0;
    o.hbm_bandwidth = 65536 / 1e-6;
    const double c = 2.0 * 128 * 128 * 128 / (1.97e14 / 4);
    const PipelineResult r = simulate(chip("v5e"), matmul(256, 256, 256, 128, 128, 128), o);
    CHECK(r.prologue_s == Approx(1e-6));
    CHECK(r.epilogue_s == Approx(0.5e-6));
    CHECK(r.time_s == Approx(1e-6 + 8.5e-6 + c + 0.5e-6));
    CHECK(r.compute_s == Approx(8 * c));

    // With the default assumptions: a step takes at least 0.35 µs, its copies
    // and compute run under that; the first and last copies pay the 0.5 µs
    // DMA latency; the call pays 110 µs of launch.
    const PipelineResult d = simulate(chip("v5e"), matmul(256, 256, 256, 128, 128, 128));
    const double in = 65536 / 8.2e11, in_out = 98304 / 8.2e11;
    REQUIRE(in < 0.35e-6);
    REQUIRE(in_out < 0.35e-6);
    REQUIRE(c < 0.35e-6);
    const double expected = 110e-6 + (0.5e-6 + in) + 8 * 0.35e-6 + (0.5e-6 + 32768 / 8.2e11);
    CHECK(d.time_s == Approx(expected));
    CHECK(d.launch_s == 110e-6);
    // The time steps stand idle: 64 KiB copy faster than one MXU tile computes (in < c), 96 KiB slower.
    REQUIRE(in < c);
    REQUIRE(in_out > c);
    CHECK(d.overhead_s == Approx(5 * (0.35e-6 - c) + 3 * (0.35e-6 - in_out)));
}

TEST_CASE("the timeline records which blocks move, and is capped", "[pipeline]") {
    PipelineOptions o;
    o.timeline_steps = 3;
    const PipelineResult r = simulate(chip("v5e"), matmul(256, 256, 256, 128, 128, 128), o);
    REQUIRE(r.timeline.size() == 3);
    CHECK(r.timeline[0].grid_index == std::vector<std::int64_t>{0, 0, 0});
    CHECK(r.timeline[0].fetched == std::vector<int>{0, 1});
    CHECK(r.timeline[0].written.empty());
    CHECK(r.timeline[1].written == std::vector<int>{0});
    CHECK(r.timeline[1].start_s == Approx(r.timeline[0].end_s));
    CHECK(simulate(chip("v5e"), matmul(256, 256, 256, 128, 128, 128)).timeline.empty());
}

TEST_CASE("the docs' blocked matmul: traffic formula and high utilization", "[pipeline]") {
    // [JAX-MM]: (m*k*n/bn + k*n*m/bm + m*n) * bytes
    const PipelineResult r = simulate(chip("v5e"), matmul(4096, 4096, 4096, 512, 1024, 1024));
    const double n = 4096;
    CHECK(r.hbm_bytes == (n * n * n / 1024 + n * n * n / 512 + n * n) * 2);
    CHECK(r.steps == 8 * 4 * 4);
    CHECK(r.utilization > 0.85);
    CHECK(r.utilization < 1.0);
    // 2 x (1 MiB + 2 MiB + 1 MiB) + 2 MiB of f32 accumulator [JAX-MM]
    CHECK(r.vmem_bytes == 10.0 * 1024 * 1024);
}

TEST_CASE("VMEM past the scoped limit is an error, and the limit can be raised", "[pipeline]") {
    const Kernel big = matmul(4096, 4096, 4096, 1024, 2048, 1024);
    CHECK_THROWS_WITH(simulate(chip("v5e"), big), Catch::Contains("scoped limit"));
    PipelineOptions o;
    o.vmem_limit_bytes = 64.0 * 1024 * 1024;
    CHECK(simulate(chip("v5e"), big, o).vmem_bytes > 16.0 * 1024 * 1024);
    o.vmem_limit_bytes = 512.0 * 1024 * 1024;  // more than the 128 MiB v5e has
    CHECK_THROWS_AS(simulate(chip("v5e"), big, o), InputError);
}

TEST_CASE("blocks must divide and be legal", "[pipeline]") {
    CHECK_THROWS_WITH(matmul(4096, 4096, 4096, 100, 128, 128), Catch::Contains("does not divide"));
    CHECK_THROWS_WITH(matmul(4096, 4096, 4096, 128, 64, 128), Catch::Contains("illegal"));
    CHECK_THROWS_AS(matmul(0, 4096, 4096, 128, 128, 128), InputError);
}

TEST_CASE("bad kernels are refused with a sentence", "[pipeline]") {
    Kernel k = matmul(256, 256, 256, 128, 128, 128);
    k.semantics.pop_back();
    CHECK_THROWS_WITH(simulate(chip("v5e"), k), Catch::Contains("dimension semantics"));
    k = matmul(256, 256, 256, 128, 128, 128);
    k.inputs[0].index_map.offsets[0] = 1;  // reaches block 2 of 2
    CHECK_THROWS_WITH(simulate(chip("v5e"), k), Catch::Contains("index map of 'x'"));
}

TEST_CASE("megacore splits a parallel axis on v4 and v5p only", "[pipeline]") {
    const Kernel k = matmul(2048, 2048, 2048, 512, 512, 512);
    CHECK(simulate(chip("v5p"), k).cores == 2);
    CHECK(simulate(chip("v4"), k).cores == 2);
    CHECK(simulate(chip("v5e"), k).cores == 1);
    CHECK(simulate(chip("v7"), k).cores == 1);
    Kernel serial = k;
    serial.semantics.clear();  // every axis arbitrary
    const PipelineResult one = simulate(chip("v5p"), serial);
    const PipelineResult two = simulate(chip("v5p"), k);
    CHECK(one.cores == 1);
    CHECK(two.time_s < one.time_s);
    CHECK(one.hbm_bytes == two.hbm_bytes);
}

TEST_CASE("an elementwise pipeline stays above the landing row", "[pipeline]") {
    const PipelineResult r = simulate(chip("v5e"), blocked_elementwise(4096, 4096, 256, 4096, 2, DType::bf16));
    CHECK(r.hbm_bytes == 3.0 * 2 * 4096 * 4096);
    CHECK(r.floor_s == Approx(3.0 * 2 * 4096 * 4096 / 8.2e11));
    CHECK(r.time_s > r.floor_s);
}

TEST_CASE("property: a pipeline is never below the roofline floor", "[pipeline][property]") {
    for (const Chip& c : all_chips())
        for (std::int64_t b : {128, 256, 512})
            for (std::int64_t size : {512, 2048}) {
                const Kernel k = matmul(size, size, size, b, b, b);
                const PipelineResult r = simulate(c, k);
                MatmulSpec spec;
                spec.m = spec.k = spec.n = size;
                INFO(c.id << " size " << size << " block " << b);
                CHECK(r.time_s >= r.floor_s);
                CHECK(r.time_s >= roofline(c, matmul_cost(spec)).time_s);
                CHECK(r.utilization <= 1.0);
            }
}

TEST_CASE("property: a pipeline with more bandwidth is never slower", "[pipeline][property]") {
    for (const Chip& c : all_chips())
        for (std::int64_t b : {128, 512}) {
            const Kernel k = matmul(2048, 2048, 2048, b, b, b);
            PipelineOptions slow, fast;
            slow.hbm_bandwidth = c.hbm_bandwidth.value;
            fast.hbm_bandwidth = c.hbm_bandwidth.value * 2;
            CHECK(simulate(c, k, fast).time_s <= simulate(c, k, slow).time_s);
        }
}

TEST_CASE("property: bigger blocks never copy more bytes", "[pipeline][property]") {
    const Chip& c = chip("v6e");
    PipelineOptions o;
    o.vmem_limit_bytes = c.vmem_per_core.value;
    double previous = 1e300;
    for (std::int64_t bm : {128, 256, 512, 1024, 2048}) {
        const double bytes = simulate(c, matmul(2048, 2048, 2048, bm, 256, 256), o).hbm_bytes;
        CHECK(bytes <= previous);
        previous = bytes;
    }
    previous = 1e300;
    for (std::int64_t bn : {128, 256, 512, 1024, 2048}) {
        const double bytes = simulate(c, matmul(2048, 2048, 2048, 256, 256, bn), o).hbm_bytes;
        CHECK(bytes <= previous);
        previous = bytes;
    }
    previous = 1e300;
    for (std::int64_t bk : {128, 256, 512, 1024, 2048}) {
        const double bytes = simulate(c, matmul(2048, 2048, 2048, 256, bk, 256), o).hbm_bytes;
        CHECK(bytes <= previous);
        previous = bytes;
    }
}

// The working on a figure's card adds up to the figure, on one core and on
// two, for blocks stored as they are and blocks padded to their tiles.
TEST_CASE("a pipeline's working adds up to its VMEM and its time", "[pipeline][working]") {
    const Chip& v5e = chip("v5e");
    const Kernel k = matmul(1024, 1024, 1024, 256, 256, 256);
    const auto vmem = vmem_working(v5e, k);
    REQUIRE(vmem.size() == 5);  // x, y, out, the accumulator, the sum
    CHECK(vmem[0] == "x block (256, 256) bf16: 2 × 128 KiB = 256 KiB");
    CHECK(vmem[3] == "acc scratch (256, 256) f32: 256 KiB");
    CHECK(vmem.back() == "in all: " + format_bytes(vmem_bytes(v5e, k)) + " per core");
    CHECK(vmem.back() == "in all: 1 MiB per core");

    // A bf16 block of 12 rows (the whole array's) sits in 16 rows of tiles:
    // padded, and said so.
    const auto padded = vmem_working(v5e, matmul(12, 1024, 1024, 12, 256, 256));
    CHECK(padded[0] == "x block (12, 256) bf16: 2 × 8 KiB (6 KiB padded to tiles) = 16 KiB");

    for (const char* id : {"v5e", "v5p"}) {  // one TensorCore, then two
        INFO(id);
        const PipelineResult r = simulate(chip(id), k);
        const auto lines = time_working(r);
        CHECK(lines.back() == "= " + format_time(r.time_s));
        // The launch, the first copies, the steps and the last copy make the
        // time; the MXU's work is a part of the steps', never more.
        const double steps_s = r.time_s - r.launch_s - r.prologue_s - r.epilogue_s;
        CHECK(steps_s >= r.compute_s);
        CHECK(lines.front() == format_time(r.launch_s) + " launch, the call's fixed cost");
        REQUIRE(lines.size() == 6);
        CHECK(lines[1] == "+ " + format_time(r.prologue_s) + " first copies in, before any step");
        CHECK(lines[2].rfind("+ " + format_time(steps_s) + " for the grid's steps", 0) == 0);
        CHECK((r.cores > 1) == (lines[2].find("TensorCores") != std::string::npos));
        CHECK(lines[3] == "  the MXU works " + format_time(r.compute_s) + " of them");
        CHECK(lines[4] == "+ " + format_time(r.epilogue_s) + " the last copy out, after the last step");
        const auto hbm = hbm_working(r);
        CHECK(hbm.back() == "= " + format_bytes(r.hbm_bytes) + " through HBM");
    }
    // Shown first on the card, after its kind, chip and dtype.
    Provenance p = with_working(simulate(v5e, k).provenance, vmem);
    const std::string card = describe(p);
    CHECK(card.find("\nx block (256, 256) bf16") < card.find("\nmodel:"));
}
