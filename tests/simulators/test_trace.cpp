#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "mini_json.h"
#include "tpusim/error.h"
#include "tpusim/pipeline.h"
#include "tpusim/pipeline_trace.h"
#include "tpusim/trace.h"

using namespace tpusim;

namespace {
std::vector<TraceEvent> two_tracks() {
    return {
        {"step 0", "compute", "chip 0", "TensorCore", 0.0, 2e-6, {{"grid", "(0,0)"}}},
        {"copy x", "dma", "chip 0", "DMA engine", 1e-6, 0.5e-6, {}},
        {"step 1", "compute", "chip 0", "TensorCore", 2e-6, 2e-6, {}},
        {"hop \"a\"", "link", "links", "(0)->(1)", 0.25e-6, 1e-6, {{"bytes", "1024"}}},
    };
}
}  // namespace

TEST_CASE("trace: parses, one track per (process, thread), times in microseconds", "[trace]") {
    const mini_json::Value doc = mini_json::parse(chrome_trace_json(two_tracks()));
    const auto& events = doc["traceEvents"].a;
    std::map<std::pair<int, int>, std::string> thread_names;
    std::map<int, std::string> process_names;
    std::vector<const mini_json::Value*> spans;
    for (const auto& e : events) {
        const std::string ph = e["ph"].s;
        const int pid = static_cast<int>(e["pid"].n);
        const int tid = static_cast<int>(e["tid"].n);
        if (ph == "M" && e["name"].s == "process_name") process_names[pid] = e["args"]["name"].s;
        if (ph == "M" && e["name"].s == "thread_name") thread_names[{pid, tid}] = e["args"]["name"].s;
        if (ph == "X") spans.push_back(&e);
    }
    // Two processes, three tracks.
    CHECK(process_names.size() == 2);
    REQUIRE(thread_names.size() == 3);
    std::set<std::string> tracks;
    for (const auto& [key, name] : thread_names) tracks.insert(process_names[key.first] + "/" + name);
    CHECK(tracks == std::set<std::string>{"chip 0/TensorCore", "chip 0/DMA engine", "links/(0)->(1)"});
    REQUIRE(spans.size() == 4);
    // Every span sits on a named track; the quote in a name survives escaping.
    for (const auto* s : spans)
        CHECK(thread_names.count({static_cast<int>((*s)["pid"].n), static_cast<int>((*s)["tid"].n)}));
    CHECK((*spans[3])["name"].s == "hop \"a\"");
    // 1 µs start and 0.5 µs duration become ts 1 and dur 0.5.
    CHECK((*spans[1])["ts"].n == Approx(1.0));
    CHECK((*spans[1])["dur"].n == Approx(0.5));
    CHECK((*spans[3])["args"]["bytes"].s == "1024");
    // The two steps share a track; the DMA has its own.
    CHECK((*spans[0])["tid"].n == (*spans[2])["tid"].n);
    CHECK((*spans[0])["tid"].n != (*spans[1])["tid"].n);
}

TEST_CASE("trace: an empty trace is still valid JSON", "[trace]") {
    const mini_json::Value doc = mini_json::parse(chrome_trace_json({}));
    CHECK(doc["traceEvents"].a.empty());
}

TEST_CASE("trace: bad times and unwritable paths are refused", "[trace]") {
    CHECK_THROWS_AS(chrome_trace_json({{"x", "c", "p", "t", -1.0, 1.0, {}}}), InputError);
    CHECK_THROWS_AS(chrome_trace_json({{"x", "c", "p", "t", 0.0, std::nan(""), {}}}), InputError);
    CHECK_THROWS_AS(write_chrome_trace("/nonexistent-dir/trace.json", two_tracks()), InputError);
}

TEST_CASE("trace: the file holds the same text", "[trace]") {
    const std::string path = "tpusim_test_trace.json";
    write_chrome_trace(path, two_tracks());
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    CHECK(ss.str() == chrome_trace_json(two_tracks()));
    std::remove(path.c_str());
}

// The pipeline small enough to count by hand (test_pipeline.cpp): 8 steps on
// one core, so 8 compute spans and 8 step overheads on "compute", and the
// prologue, the copies of steps 0-6 and the epilogue on "DMA engine".
TEST_CASE("trace: a pipeline run has compute and DMA tracks", "[trace][pipeline]") {
    BlockedMatmul s;
    s.m = s.k = s.n = 256;
    s.bm = s.bk = s.bn = 128;
    const Kernel kernel = blocked_matmul(s);
    PipelineOptions o;
    o.timeline_steps = 100;
    const PipelineResult r = simulate(chip("v5e"), kernel, o);
    const mini_json::Value doc = mini_json::parse(chrome_trace_json(pipeline_trace(kernel, r)));
    std::map<std::string, int> spans;  // per thread name
    std::map<std::pair<int, int>, std::string> thread_names;
    for (const auto& e : doc["traceEvents"].a)
        if (e["ph"].s == "M" && e["name"].s == "thread_name")
            thread_names[{static_cast<int>(e["pid"].n), static_cast<int>(e["tid"].n)}] = e["args"]["name"].s;
    for (const auto& e : doc["traceEvents"].a)
        if (e["ph"].s == "X") ++spans[thread_names.at({static_cast<int>(e["pid"].n), static_cast<int>(e["tid"].n)})];
    CHECK(spans["compute"] == 16);
    CHECK(spans["DMA engine"] == 1 + 7 + 1);
    CHECK(thread_names.size() == 2);
}
