#include <catch2/catch.hpp>

#include <set>

#include "mini_json.h"
#include "tpusim/collective.h"
#include "tpusim/collective_groups.h"
#include "tpusim/error.h"

using namespace tpusim;

namespace {
CollectiveSpec spec(CollectiveKind kind, std::vector<int> axes, double bytes, int chunks = 4) {
    CollectiveSpec s;
    s.kind = kind;
    s.axes = std::move(axes);
    s.bytes = bytes;
    s.chunks = chunks;
    return s;
}
bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("mesh: wraparound follows each chip's rule", "[mesh]") {
    // v5e and v6e wrap only axes of 16 [SB-TPU][MT-SPEC].
    CHECK(make_mesh(chip("v5e"), {16}).axes[0].wraps);
    CHECK_FALSE(make_mesh(chip("v5e"), {8}).axes[0].wraps);
    const Mesh mixed = make_mesh(chip("v5e"), {16, 8});
    CHECK(mixed.axes[0].wraps);
    CHECK_FALSE(mixed.axes[1].wraps);
    CHECK(make_mesh(chip("v6e"), {16, 16}).axes[1].wraps);
    // v4 and v5p wrap every axis of whole 4x4x4 cubes, and none otherwise.
    for (const char* id : {"v4", "v5p"}) {
        const Mesh cube = make_mesh(chip(id), {4, 4, 4});
        for (const MeshAxis& a : cube.axes) CHECK(a.wraps);
        for (const MeshAxis& a : make_mesh(chip(id), {2, 2, 1}).axes) CHECK_FALSE(a.wraps);
        for (const MeshAxis& a : make_mesh(chip(id), {4, 4, 6}).axes) CHECK_FALSE(a.wraps);
        for (const MeshAxis& a : make_mesh(chip(id), {8, 8}).axes) CHECK_FALSE(a.wraps);
        CHECK(make_mesh(chip(id), {4, 8, 12}).axes[2].wraps);
    }
    // Links: a ring of 16 has 32 directed links, a line of 8 has 14.
    CHECK(mesh_links(make_mesh(chip("v5e"), {16})).size() == 32);
    CHECK(mesh_links(make_mesh(chip("v5e"), {8})).size() == 14);
    // 4x4x4 torus: 64 chips x 6 directed links.
    CHECK(mesh_links(make_mesh(chip("v5p"), {4, 4, 4})).size() == 384);
}

TEST_CASE("mesh: shapes the chip cannot build are refused", "[mesh]") {
    CHECK_THROWS_AS(make_mesh(chip("v5e"), {4, 4, 4}), InputError);     // a 2D torus
    CHECK_THROWS_AS(make_mesh(chip("v5e"), {32}), InputError);          // pods are 16x16
    CHECK_THROWS_AS(make_mesh(chip("v5p"), {16, 20, 32}), InputError);  // more than 8960
    CHECK_THROWS_AS(make_mesh(chip("v5p"), {}), InputError);
    CHECK_THROWS_AS(make_mesh(chip("v5p"), {4, 0, 4}), InputError);
}

TEST_CASE("mesh: the largest axis each chip accepts, the others as they are", "[mesh]") {
    // v5e's 256 chips form a 16x16 torus: a side of 16 whatever the other axis.
    CHECK(largest_axis(chip("v5e"), {8, 4}, 0) == 16);
    CHECK(largest_axis(chip("v5e"), {8, 4}, 1) == 16);
    CHECK_NOTHROW(make_mesh(chip("v5e"), {16, 4}));
    CHECK_THROWS_AS(make_mesh(chip("v5e"), {17, 4}), InputError);
    // A 3D pod is bounded by its chips over the other axes': 8960 / (16 x 20) = 28.
    CHECK(largest_axis(chip("v5p"), {16, 20, 4}, 2) == 28);
    CHECK_NOTHROW(make_mesh(chip("v5p"), {16, 20, 28}));
    CHECK_THROWS_AS(make_mesh(chip("v5p"), {16, 20, 29}), InputError);
    CHECK(largest_axis(chip("v5p"), {16}, 3) == 1);  // no such axis
}

// A ring of 4 (axis 0 of a v5p 4x4x4 torus, which wraps): W = 9e10 B/s one
// way, 1 µs per hop. Each device's block B = 180,000 B is cut into 2 chunks of
// 90,000 B, 1 µs on a link. Bidirectional: each device sends chunk a two hops
// + and chunk b one hop +, and the mirror image -; the device opposite gets a
// from one side and the other half from the other.
//   link i -> i+1:  [0,1] a_i   [1,2] b_i   [2,3] a_(i-1) (arrived at t = 2)
//   a_(i-1) reaches i+1 at 3 + 1 = 4 µs; b_i reached i+1 at 2 + 1 = 3 µs.
//   The - side is the mirror image: done at 4 µs.
// Closed form: max(latency 2 hops x 1 µs, (4-1)/2 x B / W = 3 µs) = 3 µs.
// Unidirectional: both chunks go 3 hops +:
//   link: [0,1] a_i [1,2] b_i [2,3] a_(i-1) [3,4] b_(i-1) [4,5] a_(i-2) [5,6] b_(i-2)
//   the last arrives at 6 + 1 = 7 µs. Closed form: max(3 µs, 3 x B / W = 6 µs) = 6 µs.
TEST_CASE("collective: a 4-chip ring all-gather counted by hand", "[collective]") {
    const Mesh m = make_mesh(chip("v5p"), {4, 4, 4});
    CollectiveSpec s = spec(CollectiveKind::all_gather, {0}, 4 * 180000.0, 2);
    const CollectiveResult bi = collective(m, s);
    CHECK(bi.simulated_s == Approx(4e-6));
    CHECK(bi.analytic_s == Approx(3e-6));
    CHECK(bi.group_size == 4);
    CHECK(bi.groups == 16);
    // Every directed link of axis 0 carries 1.5 blocks; axes 1 and 2 carry nothing.
    for (const LinkLoad& l : bi.links) CHECK(l.bytes == Approx(l.link.axis == 0 ? 1.5 * 180000 : 0.0));
    CHECK(bi.busiest_link_bytes == Approx(270000));
    // One representative ring stands for the 16 rings along axis 0.
    CHECK(bi.lines_simulated == 1);
    CHECK(bi.lines_total == 16);
    // Latency is a third of the time here: the words say so.
    CHECK_FALSE(bi.agrees);
    CHECK(contains(bi.explanation, "latency"));

    s.bidirectional = false;
    const CollectiveResult uni = collective(m, s);
    CHECK(uni.simulated_s == Approx(7e-6));
    CHECK(uni.analytic_s == Approx(6e-6));
    CHECK(uni.busiest_link_bytes == Approx(3 * 180000));
}

TEST_CASE("collective: bidirectional rings halve the bandwidth term", "[collective]") {
    // 64 MiB over a ring of 16 on v5e: bandwidth-bound.
    const Mesh m = make_mesh(chip("v5e"), {16, 16});
    CollectiveSpec s = spec(CollectiveKind::all_gather, {1}, 64.0 * 1024 * 1024);
    const CollectiveResult bi = collective(m, s);
    s.bidirectional = false;
    const CollectiveResult uni = collective(m, s);
    // (N-1) blocks per link one way against (N-1)/2 both ways.
    CHECK(uni.busiest_link_bytes == Approx(2 * bi.busiest_link_bytes));
    CHECK(uni.simulated_s / bi.simulated_s == Approx(2).epsilon(0.02));
    // The book's number: V / W_bidi x (N-1)/N, with W_bidi = 2 x 4.5e10.
    CHECK(bi.analytic_s == Approx(64.0 * 1024 * 1024 * 15 / 16 / 9e10));
}

TEST_CASE("collective: the two models agree within 5% where the closed form holds", "[collective]") {
    struct Case {
        const char* chip;
        std::vector<std::int64_t> mesh;
        std::vector<int> axes;
        CollectiveKind kind;
    };
    const double bytes = 256.0 * 1024 * 1024;
    const Case cases[] = {
        {"v5e", {16, 16}, {0}, CollectiveKind::all_gather},
        {"v5e", {16, 16}, {1}, CollectiveKind::reduce_scatter},
        {"v5e", {16, 16}, {0, 1}, CollectiveKind::all_reduce},
        {"v5e", {16, 16}, {0, 1}, CollectiveKind::all_to_all},
        {"v6e", {16, 16}, {1}, CollectiveKind::all_to_all},
        {"v5p", {8, 8, 8}, {0, 1, 2}, CollectiveKind::all_reduce},
        {"v5p", {16, 20, 28}, {0, 1, 2}, CollectiveKind::all_reduce},
        {"v5p", {4, 4, 16}, {2}, CollectiveKind::all_gather},
        // A line: the end chips' single links set the pace, as the formula says.
        {"v5e", {8, 4}, {1}, CollectiveKind::all_gather},
    };
    for (const Case& c : cases) {
        const Mesh m = make_mesh(chip(c.chip), c.mesh);
        const CollectiveResult r = collective(m, spec(c.kind, c.axes, bytes));
        INFO(c.chip << " " << m.shape() << " " << collective_name(c.kind) << ": simulated " << r.simulated_s
                    << " closed form " << r.analytic_s);
        CHECK(r.agrees);
        CHECK(std::abs(r.difference) <= 0.05);
        CHECK(contains(r.explanation, "within"));
        // The simulation never beats the busiest link's transfer time.
        CHECK(r.simulated_s >= r.busiest_link_bytes / m.link_bandwidth * (1 - 1e-9));
    }
}

TEST_CASE("collective: where the models differ, the result says why", "[collective]") {
    // 768 kB over a ring of 16: the closed form's bandwidth term (2 x 15/16 x V / 9e10 =
    // 16 µs) equals its latency term (2 x 8 hops x 1 µs); the simulation pays both.
    const CollectiveResult tiny =
        collective(make_mesh(chip("v5e"), {16}), spec(CollectiveKind::all_reduce, {0}, 768e3));
    CHECK(tiny.simulated_s > 1.2 * tiny.analytic_s);
    CHECK_FALSE(tiny.agrees);
    CHECK(contains(tiny.explanation, "latency-bound"));
    // All-to-all over two lines (v5e 8x4 has no wraparound).
    const CollectiveResult lines =
        collective(make_mesh(chip("v5e"), {8, 4}), spec(CollectiveKind::all_to_all, {0, 1}, 32e6));
    CHECK_FALSE(lines.agrees);
    CHECK(contains(lines.explanation, "no wraparound"));
    CHECK(contains(lines.explanation, "Axis 0 (8 chips)"));
    // A cyclic shift on a line: device 3's block goes back three hops.
    CollectiveSpec shift = spec(CollectiveKind::permute, {1}, 32e6);
    const CollectiveResult back = collective(make_mesh(chip("v5e"), {8, 4}), shift);
    CHECK_FALSE(back.agrees);
    CHECK(contains(back.explanation, "travel back"));
}

TEST_CASE("collective: permute on a ring moves each block shift hops", "[collective]") {
    // Ring of 16, shift 3, bidirectional: every block crosses 3 links, so
    // every + link carries 3 blocks of V / 16, and - links carry nothing.
    CollectiveSpec s = spec(CollectiveKind::permute, {0}, 16e6);
    s.shift = 3;
    const CollectiveResult r = collective(make_mesh(chip("v5e"), {16}), s);
    for (const LinkLoad& l : r.links) CHECK(l.bytes == Approx(l.link.direction > 0 ? 3e6 : 0.0));
    // Shift 13 is the same as -3: the - links carry it.
    s.shift = 13;
    for (const LinkLoad& l : collective(make_mesh(chip("v5e"), {16}), s).links)
        CHECK(l.bytes == Approx(l.link.direction < 0 ? 3e6 : 0.0));
}

TEST_CASE("collective: the trace has a track per link and per device", "[collective][trace]") {
    CollectiveOptions o;
    o.trace = true;
    const Mesh m = make_mesh(chip("v5e"), {4});
    const CollectiveResult r = collective(m, spec(CollectiveKind::all_gather, {0}, 4e6), o);
    const mini_json::Value doc = mini_json::parse(chrome_trace_json(r.trace));
    std::map<int, std::string> processes;
    std::set<std::string> threads;
    for (const auto& e : doc["traceEvents"].a)
        if (e["ph"].s == "M" && e["name"].s == "process_name")
            processes[static_cast<int>(e["pid"].n)] = e["args"]["name"].s;
    for (const auto& e : doc["traceEvents"].a)
        if (e["ph"].s == "M" && e["name"].s == "thread_name")
            threads.insert(processes[static_cast<int>(e["pid"].n)] + "/" + e["args"]["name"].s);
    // A line of 4 has 6 directed links; 4 devices.
    CHECK(threads.count("links along axis 0/(0) -> (1)") == 1);
    CHECK(threads.count("links along axis 0/(3) -> (2)") == 1);
    CHECK(threads.count("devices/(2)") == 1);
    CHECK(threads.size() == 6 + 4);
}

TEST_CASE("collective: bad requests are refused", "[collective]") {
    const Mesh m = make_mesh(chip("v5e"), {8, 4});
    CHECK_THROWS_AS(collective(m, spec(CollectiveKind::all_gather, {2}, 1e6)), InputError);
    CHECK_THROWS_AS(collective(m, spec(CollectiveKind::all_gather, {1, 1}, 1e6)), InputError);
    CHECK_THROWS_AS(collective(m, spec(CollectiveKind::all_gather, {1}, 0)), InputError);
    CHECK_THROWS_AS(collective(m, spec(CollectiveKind::all_gather, {1}, 1e6, 0)), InputError);
    CHECK_THROWS_AS(collective(m, spec(CollectiveKind::permute, {0, 1}, 1e6)), InputError);
    CollectiveSpec s = spec(CollectiveKind::permute, {1}, 1e6);
    s.shift = 4;
    CHECK_THROWS_AS(collective(m, s), InputError);
    CHECK_THROWS_AS(parse_collective("all-sum"), InputError);
    CHECK(parse_collective("AllReduce") == CollectiveKind::all_reduce);
}

TEST_CASE("device groups read from either form of replica_groups", "[collective]") {
    const DeviceGroups iota = device_groups("all-reduce(f32[8] %p), replica_groups=[4,2]<=[2,4]T(1,0), to_apply=%add");
    CHECK(iota.size == 2);
    CHECK(iota.devices == 8);
    REQUIRE(iota.first.size() >= 2);
    CHECK(iota.first[0] == std::vector<std::int64_t>{0, 4});
    CHECK(iota.first[1] == std::vector<std::int64_t>{1, 5});
    const DeviceGroups listed = device_groups("replica_groups={{0,1,2,3},{4,5,6,7}}");
    CHECK(listed.size == 4);
    CHECK(listed.devices == 8);
    CHECK(device_groups("all-reduce(f32[8] %p), to_apply=%add").size == 0);  // every device: not counted
}

TEST_CASE("a strided pair exchange is a permute by the stride, once or twice", "[collective]") {
    const Mesh mesh = make_mesh(chip("v6e"), {2, 4});
    const double v = 16.0 * 1024 * 1024;
    const PairExchange gather = pair_exchange(mesh, 1, 2, CollectiveKind::all_gather, v);
    const PairExchange reduce = pair_exchange(mesh, 1, 2, CollectiveKind::all_reduce, v);
    CHECK(gather.exchanges == 1);
    CHECK(reduce.exchanges == 2);
    CHECK(reduce.time_s == Approx(2 * gather.time_s));
    CollectiveSpec permute;
    permute.kind = CollectiveKind::permute;
    permute.axes = {1};
    permute.shift = 2;
    permute.bytes = v / 2 * 4;  // each of the axis's four chips sends its partner V / 2
    CHECK(gather.time_s == Approx(collective(mesh, permute).time_s));
    CHECK_THROWS_AS(pair_exchange(mesh, 1, 3, CollectiveKind::all_gather, v), InputError);  // no axis of 6
    CHECK_THROWS_AS(pair_exchange(mesh, 1, 2, CollectiveKind::all_to_all, v), InputError);
}

TEST_CASE("collective: HBM traffic and a reduction's adds, hidden unless they are slower than the links",
          "[collective]") {
    const Mesh m = make_mesh(chip("v5e"), {8, 4});
    const double v = 32.0 * 1024 * 1024;
    // An all-reduce over 4 chips: each sends and receives 3/4 V twice (its
    // reduce-scatter, then its all-gather), and adds 3/4 V of bf16.
    const CollectiveResult ar = collective(m, spec(CollectiveKind::all_reduce, {1}, v));
    CHECK(ar.hbm_bytes == Approx(6 * 0.75 * v));
    CHECK(ar.reduce_adds == Approx(0.75 * v / 2));
    CHECK(ar.hbm_s == Approx(ar.hbm_bytes / chip("v5e").hbm_bandwidth.value));
    CHECK(ar.reduce_s > 0);
    CHECK(ar.bound == "the links");
    CHECK(ar.time_s == ar.simulated_s);
    CHECK(ar.memory_note.find("hidden under the transfers") != std::string::npos);
    // An all-gather reads what it sends and writes what it receives; no adds.
    const CollectiveResult ag = collective(m, spec(CollectiveKind::all_gather, {1}, v));
    CHECK(ag.hbm_bytes == Approx(2 * 0.75 * v));
    CHECK(ag.reduce_adds == 0);
    // A chip whose HBM were slower than its links would wait on HBM.
    Mesh slow = m;
    slow.hbm_bandwidth = 10e9;
    const CollectiveResult waits = collective(slow, spec(CollectiveKind::all_reduce, {1}, v));
    CHECK(waits.bound == "HBM");
    CHECK(waits.time_s == Approx(6 * 0.75 * v / 10e9));
    CHECK(waits.time_s > waits.simulated_s);
    CHECK(waits.memory_note.find("HBM, not the links, sets the time") != std::string::npos);
}

// A collective card's working: the closed form's two terms, the
// simulation, and the longest of the three times, which is the time.
TEST_CASE("a collective's working names the terms its times come from", "[collective][working]") {
    const Mesh mesh = make_mesh(chip("v5e"), {4});
    CollectiveSpec spec;
    spec.kind = CollectiveKind::all_gather;
    spec.axes = {0};
    spec.bytes = 32.0 * 1024 * 1024;
    const CollectiveResult r = collective(mesh, spec);
    CHECK(r.time_s == std::max({r.simulated_s, r.hbm_s, r.reduce_s}));
    CHECK(r.analytic_s == std::max(r.analytic_bandwidth_s, r.analytic_latency_s));
    const auto lines = collective_working(r);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "closed form: the larger of 559.2 µs of bandwidth and 3 µs of hop latency, 559.2 µs");
    CHECK(lines[1] == "hop by hop: 48 chunk hops, 560.2 µs");
    CHECK(lines[2] == "the longest of the links' 560.2 µs, HBM's 61.4 µs: 560.2 µs, set by the links");

    spec.kind = CollectiveKind::all_reduce;  // a reduction adds on the VPU too
    CHECK(collective_working(collective(mesh, spec))[2].find("the adds'") != std::string::npos);
}
