// libtpuprofile against real profiles written elsewhere (profiles/README.md)
// and against files made broken on purpose.
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "tpuprofile/op_table.h"
#include "tpuprofile/read.h"
#include "tpusim/chips.h"
#include "tpusim/fusion.h"
#include "tpusim/ir.h"
#include "tpusim/published.h"
#include "tpusim/validation.h"

namespace fs = std::filesystem;
using namespace tpuprofile;

namespace {

const std::string samples = TPUPROFILE_SAMPLES;
const std::string tpu_file = samples + "/xprof_tpu_inference_2.xplane.pb";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/tpuprofile-test.XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { fs::remove_all(path); }
    std::string file(const std::string& name, const std::string& bytes) const {
        const fs::path p = path / name;
        std::ofstream(p, std::ios::binary) << bytes;
        return p.string();
    }
};

std::string refusal(const std::string& path) {
    try {
        read_profile(path);
    } catch (const ProfileError& e) {
        return e.what();
    }
    return "(read without complaint)";
}

const Profile& tpu_profile() {
    static const Profile p = read_profile(tpu_file);
    return p;
}

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, sep)) out.push_back(cell);
    if (!line.empty() && line.back() == sep) out.emplace_back();
    return out;
}

std::string microseconds(std::int64_t ps) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(ps) / 1e6);
    return buf;
}

}  // namespace

TEST_CASE("the v6e profile's TPU:0 op table matches the independent decode exactly", "[profile]") {
    const Profile& p = tpu_profile();
    REQUIRE(p.format == "xplane.pb");
    REQUIRE(p.devices.size() == 4);
    const Device& d = p.devices[0];
    CHECK(d.plane == "/device:TPU:0");
    CHECK(d.kind == DeviceKind::tensor_core);
    CHECK(d.device_type == "TPU v6 Lite");
    CHECK(d.chip == "v6e");
    CHECK(d.peak_flops == Approx(918e12));
    CHECK(d.peak_hbm_bandwidth == Approx(1638e9).epsilon(0.001));
    CHECK(d.ops_line == "XLA Ops");
    CHECK(d.events_read == 1504);
    CHECK(d.timeline.size() == 1504);
    CHECK(d.ops.size() == 17);

    std::ifstream expected(samples + "/ops_tpu_inference_2_TPU0.tsv");
    std::string line;
    std::getline(expected, line);  // "# /device:TPU:0 line='XLA Ops' events=1504 distinct_ops=17 sum_self_us=..."
    CHECK(line.find("events=1504") != std::string::npos);
    std::int64_t self_sum = 0;
    for (const Op& op : d.ops) self_sum += op.self_ps;
    CHECK(line.find("sum_self_us=" + std::string(microseconds(self_sum)).substr(0, 10)) != std::string::npos);
    std::getline(expected, line);  // header
    int rows = 0;
    while (std::getline(expected, line)) {
        if (line.empty()) continue;
        const auto cells = split(line, '\t');
        REQUIRE(cells.size() == 10);
        const Op* found = nullptr;
        for (const Op& op : d.ops)
            if (op.name == cells[0]) found = &op;
        INFO("op " << cells[0]);
        REQUIRE(found);
        CHECK(found->category == cells[1]);
        CHECK(std::to_string(found->program_id) == cells[2]);
        CHECK(std::to_string(found->occurrences) == cells[3]);
        CHECK(microseconds(found->total_ps) == cells[4]);
        CHECK(microseconds(found->self_ps) == cells[5]);
        CHECK(std::to_string(found->flops) == cells[7]);
        CHECK(std::to_string(found->bytes_accessed) == cells[8]);
        CHECK(found->tf_op == cells[9]);
        ++rows;
    }
    CHECK(rows == 12);
}

TEST_CASE("the validation rows taken from the v6e profile say what this reader reads in it", "[profile][validation]") {
    const Device& d = tpu_profile().devices[0];
    int checked = 0;
    for (const tpusim::PublishedRow& r : tpusim::published_rows()) {
        if (r.table != "profile-v6e.tsv") continue;
        INFO(r.id);
        const std::string name = r.source.substr(r.source.rfind("op ") + 3);
        const Op* found = nullptr;
        for (const Op& op : d.ops)
            if (op.name == name) found = &op;
        REQUIRE(found);
        CHECK(r.chip == d.chip);
        CHECK(r.timing == tpusim::Timing::device);
        CHECK(r.published_s == Approx(static_cast<double>(found->self_ps) / 1e12 / found->occurrences).epsilon(1e-8));
        const std::int64_t bytes = r.has("bytes_accessed") ? r.dim("bytes_accessed")
                                   : r.has("bytes")        ? r.dim("bytes")
                                                           : 2 * r.dim("in_bytes");
        CHECK(bytes == found->bytes_accessed);
        if (r.has("flops")) CHECK(r.dim("flops") == found->flops);
        ++checked;
    }
    CHECK(checked == 9);
}

TEST_CASE("the profile's programs are decoded from their Hlo Proto into HLO the course reads", "[profile]") {
    const Profile& p = tpu_profile();
    REQUIRE(p.programs.size() == 4);
    const Program* f = p.program(12190760917235803885ull);
    REQUIRE(f);
    CHECK(f->name == "jit_f");
    CHECK(f->hlo_error.empty());
    const tpusim::ir::Module m = tpusim::ir::parse_hlo(f->hlo_text);
    CHECK(m.name == "jit_f");
    bool found = false;
    for (const tpusim::ir::Op* op : tpusim::ir::all_ops(m))
        if (!op->results.empty() && op->results[0] == "broadcast_add_fusion.1") {
            found = true;
            CHECK(op->name == "fusion");
            CHECK(op->result_types[0].dims == std::vector<std::int64_t>{5, 1024, 1024, 256});
            CHECK(op->metadata.op_name == "jit(f)/jit(main)/add");
        }
    CHECK(found);
    const tpusim::fusion::HloCost cost = tpusim::fusion::cost_hlo_kernels(m, tpusim::chip("v6e"));
    CHECK_FALSE(cost.kernels.empty());
    for (const Program& prog : p.programs) {
        INFO(prog.name);
        CHECK(prog.hlo_error.empty());
        CHECK_NOTHROW(tpusim::ir::parse_hlo(prog.hlo_text));
    }
}

TEST_CASE("each op of the v6e profile is predicted on v6e, or says why not", "[profile]") {
    const OpTable t = op_table(tpu_profile(), 0);
    REQUIRE(t.chip);
    CHECK(t.chip->id == "v6e");
    // Priced as the validation prices a published v6e run.
    const tpusim::DeviceConstants& k = tpusim::validation().per_chip.at("v6e");
    REQUIRE(t.rows.size() == 17);
    CHECK(tpu_profile().devices[0].ops[static_cast<std::size_t>(t.rows.front().op)].name == "copy-done.4");
    for (const OpRow& r : t.rows) {
        const Op& op = tpu_profile().devices[0].ops[static_cast<std::size_t>(r.op)];
        INFO(op.name);
        if (r.family == Family::async_start) {
            CHECK_FALSE(r.predicted.available);
            CHECK_FALSE(r.predicted.reason.empty());
            continue;
        }
        CHECK(r.predicted.available);
        if (op.name.rfind("broadcast_add_fusion", 0) == 0) {
            CHECK(r.family == Family::fusion);
            // Memory-bound: the profile's bytes over v6e's attainable HBM
            // bandwidth, plus the least time of an op.
            CHECK(r.predicted.time_s == Approx(10737418240.0 / (1.64e12 * k.hbm_efficiency) + k.op_floor_s));
            CHECK(k.hbm_efficiency < 1);
            CHECK(r.predicted.bound == "HBM");
            CHECK(r.error == Approx((r.predicted.time_s - r.self_per_call_s) / r.self_per_call_s));
            // The peaks alone missed them by 17-20%.
            CHECK(std::abs(r.error) < 0.05);
        }
        if (op.name == "copy-done") {
            CHECK(r.family == Family::host_transfer);
            CHECK(r.kind == "copy-done, host→HBM");
            CHECK(r.predicted.bound == "PCIe");
            CHECK(r.start_op >= 0);
            // Its copy-start issues just before it: it waits for the whole copy.
            CHECK(r.predicted.time_s ==
                  Approx(5368709120.0 / (3.2e10 * k.link_efficiency) + k.op_floor_s).epsilon(0.01));
            CHECK(k.link_efficiency < 1);
            CHECK(std::abs(r.error) < 0.05);
        }
        if (op.name == "all-reduce") {
            // Four pairs {i, i+4} of a v6e-8, two apart along its axis of
            // four, sharing the link between: the measured 121.7 ms.
            CHECK(r.predicted.model.find("pairs 2 chips apart along an axis of 4 of a 2x4 slice") != std::string::npos);
            CHECK(r.predicted.bound == "ICI");
            CHECK(std::abs(r.error) < 0.05);
        }
    }
    CHECK(t.summary.busy_ps > 0);
    CHECK(t.summary.span_ps >= t.summary.busy_ps);
    CHECK(t.summary.idle_ps == t.summary.span_ps - t.summary.busy_ps);
    REQUIRE(t.summary.host_link.size() == 2);
    CHECK(t.summary.finding.rfind("Copies between host memory and HBM took 96%", 0) == 0);
    CHECK(t.summary.finding.find("PCIe") != std::string::npos);
}

TEST_CASE("a profile's op is bound by what binds at the attainable rates, not at the peaks", "[profile]") {
    // A bf16 matmul whose intensity lies between v6e's ridge at the peaks
    // and its ridge at the fitted fractions: one unit binds at the peaks,
    // the other at the rates real runs reach.
    const tpusim::Chip& v6e = tpusim::chip("v6e");
    const tpusim::DeviceConstants& k = tpusim::validation().per_chip.at("v6e");
    const double peak_ridge = v6e.peak_bf16.value / v6e.hbm_bandwidth.value;
    const double fitted_ridge = peak_ridge * k.mxu_efficiency / k.hbm_efficiency;
    REQUIRE(std::abs(fitted_ridge / peak_ridge - 1) > 0.05);
    Profile p = tpu_profile();
    Device& d = p.devices[0];
    const auto fusion =
        std::find_if(d.ops.begin(), d.ops.end(), [](const Op& o) { return o.name == "broadcast_add_fusion"; });
    REQUIRE(fusion != d.ops.end());
    fusion->opcode = "dot";
    fusion->category.clear();
    fusion->shape_with_layout = "bf16[8192,8192]{1,0}";
    fusion->bytes_accessed = 1'000'000'000;
    fusion->flops = static_cast<std::int64_t>(std::sqrt(peak_ridge * fitted_ridge) * 1e9);
    const OpTable t = op_table(p, 0);
    const auto row = std::find_if(t.rows.begin(), t.rows.end(), [&](const OpRow& r) {
        return d.ops[static_cast<std::size_t>(r.op)].name == fusion->name;
    });
    REQUIRE(row != t.rows.end());
    REQUIRE(row->predicted.available);
    CHECK(row->predicted.bound == (fitted_ridge < peak_ridge ? "MXU" : "HBM"));
    // At the peaks the other unit binds, and the time is the fitted one.
    const double mxu_s = static_cast<double>(fusion->flops) / v6e.peak_bf16.value;
    const double hbm_s = 1e9 / v6e.hbm_bandwidth.value;
    CHECK((mxu_s > hbm_s) == (fitted_ridge > peak_ridge));
    CHECK(row->predicted.time_s == Approx(std::max(mxu_s / k.mxu_efficiency, hbm_s / k.hbm_efficiency) + k.op_floor_s));
}

TEST_CASE("a profile mangled by a text conversion is refused with that reason", "[profile]") {
    const std::string why = refusal(samples + "/xprof_tpu_inference_2.CORRUPT_utf8_mangled.xplane.pb");
    CHECK(why.find("text conversion") != std::string::npos);
    CHECK(why.find("U+FFFD") != std::string::npos);
}

TEST_CASE("GPU profiles open with their devices named and no TPU prediction", "[profile]") {
    struct Case {
        const char* file;
        std::size_t gpus;
        const char* type;
    };
    for (const Case& c : {Case{"xprof_gpu_multi_worker.xplane.pb", 8, "compute capability 7.0"},
                          Case{"tracelens_mi300_jax08_gemm.xplane.pb", 8, "AMD GPU"},
                          Case{"tracelens_mi300_jax_conv_minimal_08.xplane.pb", 8, "AMD GPU"},
                          Case{"tracelens_jax_te_fused_attn.xplane.pb", 8, "GPU"}}) {
        INFO(c.file);
        const Profile p = read_profile(samples + "/" + c.file);
        REQUIRE(p.devices.size() == c.gpus);
        for (std::size_t i = 0; i < p.devices.size(); ++i) {
            CHECK(p.devices[i].kind == DeviceKind::gpu);
            CHECK(p.devices[i].plane == "/device:GPU:" + std::to_string(i));
        }
        const std::size_t first = first_device(p);
        CHECK_FALSE(p.devices[first].ops.empty());
        CHECK(p.devices[first].device_type.find(c.type) != std::string::npos);
        const OpTable t = op_table(p, first);
        CHECK(t.chip == nullptr);
        CHECK(t.chip_note == "GPU kernels have no TPU prediction.");
        for (const OpRow& r : t.rows) CHECK_FALSE(r.predicted.available);
    }
    // The V100 run computed on GPU:4 and GPU:6; GPU:6's ops took longer.
    const Profile v100 = read_profile(samples + "/xprof_gpu_multi_worker.xplane.pb");
    CHECK(v100.devices[first_device(v100)].plane == "/device:GPU:6");
    CHECK(v100.devices[4].events_read == 759);
    CHECK(v100.devices[6].events_read == 778);
    // MI300 kernels name the HLO op they run.
    const Profile mi300 = read_profile(samples + "/tracelens_mi300_jax08_gemm.xplane.pb");
    bool copy = false;
    for (const Op& op : mi300.devices[0].ops) copy = copy || op.hlo_op == "copy.1";
    CHECK(copy);
}

TEST_CASE("bad files get one sentence each", "[profile][bad-input]") {
    TempDir dir;
    const std::string whole = slurp(tpu_file);
    CHECK(refusal(dir.file("cut.xplane.pb", whole.substr(0, whole.size() / 2))).find("cut short") != std::string::npos);
    CHECK(refusal(dir.file("cut2.xplane.pb", whole.substr(0, whole.size() - 3))).find("cut short") !=
          std::string::npos);
    CHECK(refusal(dir.file("empty.xplane.pb", "")).find("is empty") != std::string::npos);
    CHECK(refusal(dir.file("notes.txt", "HloModule jit_f\n\nENTRY %main {}\n")).find("is text, not a profile") !=
          std::string::npos);
    std::string png = "\x89PNG\r\n\x1a\n";
    png += std::string(64, '\x07');
    CHECK(refusal(dir.file("picture.png", png)).find("not a profile") != std::string::npos);
    CHECK(refusal((dir.path / "missing.xplane.pb").string()).find("does not exist") != std::string::npos);
    fs::create_directories(dir.path / "run");
    CHECK(refusal((dir.path / "run").string()).find("holds no .xplane.pb") != std::string::npos);
    CHECK(refusal(dir.file("broken.json", "{\"traceEvents\": [ {\"ph\": ")).find("not valid JSON") !=
          std::string::npos);
    CHECK(refusal(dir.file("other.json", "{\"rows\": []}")).find("no \"traceEvents\"") != std::string::npos);

    const std::string fifo = (dir.path / "pipe.xplane.pb").string();
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(refusal(fifo).find("not a regular file") != std::string::npos);

    // Larger than one protocol buffer can be: refused before reading (sparse).
    const std::string huge = (dir.path / "huge.xplane.pb").string();
    {
        std::ofstream out(huge, std::ios::binary);
        out << whole.substr(0, 16);
    }
    REQUIRE(truncate(huge.c_str(), static_cast<off_t>(max_xplane_bytes) + 1) == 0);
    CHECK(refusal(huge).find("at most 2 GiB") != std::string::npos);
}

TEST_CASE("a profile of a chip the simulator does not know is read, with no prediction", "[profile]") {
    std::string bytes = slurp(tpu_file);
    const std::string from = "TPU v6 Lite", to = "TPU v9 Lite";
    for (std::size_t at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at + 1))
        bytes.replace(at, from.size(), to);
    TempDir dir;
    const Profile p = read_profile(dir.file("v9.xplane.pb", bytes));
    REQUIRE_FALSE(p.devices.empty());
    CHECK(p.devices[0].chip.empty());
    const OpTable t = op_table(p, 0);
    CHECK(t.chip == nullptr);
    CHECK(t.chip_note == "No prediction: the simulator does not know a \"TPU v9 Lite\".");
    CHECK(t.rows.size() == 17);
    // Asked for a chip, it predicts on that one.
    CHECK(op_table(p, 0, "v6e").chip != nullptr);
}

TEST_CASE("the folder jax.profiler.trace wrote is read through its newest run", "[profile]") {
    TempDir dir;
    fs::create_directories(dir.path / "plugins/profile/2025_01_01_00_00_00");
    fs::create_directories(dir.path / "plugins/profile/2025_03_11_19_41_39");
    dir.file("plugins/profile/2025_01_01_00_00_00/old.xplane.pb", "not read");
    fs::copy_file(tpu_file, dir.path / "plugins/profile/2025_03_11_19_41_39/host.xplane.pb");
    const Profile p = read_profile(dir.path.string());
    CHECK(p.devices.size() == 4);
}

TEST_CASE("progress is reported and a read can be stopped", "[profile]") {
    std::uint64_t last = 0, total = 0;
    int calls = 0;
    ReadOptions options;
    options.progress = [&](std::uint64_t done, std::uint64_t all) {
        CHECK(done >= last);
        last = done;
        total = all;
        ++calls;
    };
    read_profile(tpu_file, options);
    CHECK(calls >= 2);
    CHECK(last == total);
    std::atomic<bool> stop{true};
    ReadOptions stopped;
    stopped.cancel = &stop;
    try {
        read_profile(tpu_file, stopped);
        FAIL("a stopped read returned");
    } catch (const ProfileError& e) {
        CHECK(std::string(e.what()).find("stopped") != std::string::npos);
    }
}

namespace {

std::string trace_json(const std::string& events) {
    return R"({"displayTimeUnit":"ns","traceEvents":[)"
           R"({"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:TPU:0"}},)"
           R"({"ph":"M","pid":1,"tid":2,"name":"thread_name","args":{"name":"XLA Ops"}},)"
           R"({"ph":"M","pid":9,"name":"process_name","args":{"name":"/host:CPU"}},)" +
           events + "]}";
}

void write_gz(const std::string& path, const std::string& text) {
    gzFile f = gzopen(path.c_str(), "wb1");
    REQUIRE(f);
    REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
    gzclose(f);
}

}  // namespace

TEST_CASE("a trace JSON is read as a fallback, nested events' self time excluded", "[profile][trace-json]") {
    const std::string events = R"({"ph":"X","pid":1,"tid":2,"ts":100,"dur":10,"name":"while.1"},)"
                               R"({"ph":"X","pid":1,"tid":2,"ts":102,"dur":3,"name":"fusion.2"},)"
                               R"({"ph":"X","pid":1,"tid":2,"ts":106,"dur":2.5,"name":"fusion.2"},)"
                               R"({"ph":"X","pid":9,"tid":1,"ts":90,"dur":50,"name":"PjitFunction"},)"
                               R"({"ph":"X","pid":1,"tid":2,"ts":120,"dur":1,"name":"copy.3"})";
    TempDir dir;
    for (const bool gz : {false, true}) {
        INFO("gzip " << gz);
        const std::string path = (dir.path / (gz ? "t.json.gz" : "t.json")).string();
        if (gz)
            write_gz(path, trace_json(events));
        else
            dir.file("t.json", trace_json(events));
        const Profile p = read_profile(path);
        CHECK(p.format == "trace.json");
        REQUIRE(p.devices.size() == 1);
        const Device& d = p.devices[0];
        CHECK(d.plane == "/device:TPU:0");
        std::map<std::string, const Op*> ops;
        for (const Op& op : d.ops) ops[op.name] = &op;
        REQUIRE(ops.size() == 3);
        CHECK(ops["while.1"]->total_ps == 10'000'000);
        CHECK(ops["while.1"]->self_ps == 4'500'000);
        CHECK(ops["fusion.2"]->occurrences == 2);
        CHECK(ops["fusion.2"]->self_ps == 5'500'000);
        CHECK(ops["copy.3"]->self_ps == 1'000'000);
        CHECK(d.timeline.size() == 4);
        CHECK(p.other_planes == std::vector<std::string>{"/host:CPU"});
        CHECK(p.notes.size() == 1);  // no FLOPs in a trace; not at the cap
    }
}

TEST_CASE("a trace JSON cut at the converter's event cap says so", "[profile][trace-json]") {
    std::string events;
    events.reserve(60u * 1000000u);
    for (int i = 0; i < 1000000; ++i) {
        if (i) events += ',';
        events += R"({"ph":"X","pid":1,"tid":2,"ts":)" + std::to_string(i) + R"(,"dur":1,"name":"f"})";
    }
    TempDir dir;
    const std::string path = (dir.path / "capped.json.gz").string();
    write_gz(path, trace_json(events));
    const Profile p = read_profile(path);
    REQUIRE(p.notes.size() == 2);
    CHECK(p.notes[1].find("converter's cap") != std::string::npos);
    CHECK(p.devices[0].ops[0].occurrences == 1000000);
}
