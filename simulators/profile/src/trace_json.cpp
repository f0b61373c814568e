// The fallback reader: a trace in the Trace Event Format that the profiler's
// converter writes (perfetto_trace.json.gz, or a .trace.json), gzip or not.
// It carries names and times only: no FLOPs, no program ids, no HLO, so the
// op table it gives has measured times and no predictions from cost data.
//
// The file is streamed through zlib and nlohmann::json's SAX parser, so a
// large trace is never held whole. Facts of the format:
// [TRACE-EVENT] Google's "Trace Event Format" document: "X" complete events
//   with ts and dur in microseconds, "M" metadata events process_name and
//   thread_name naming a pid and a tid.
// [XPROF-JSON] openxla/xprof's trace-events-to-JSON converter caps the
//   events it writes (1,000,000 by default, 5,000,000 at most), so a file
//   with exactly that many complete events was cut by it.
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <istream>
#include <map>
#include <streambuf>

#include <nlohmann/json.hpp>

#include "nesting.h"
#include "tpuprofile/read.h"
#include "xplane_schema.h"

namespace tpuprofile {

namespace {

class GzBuf : public std::streambuf {
public:
    GzBuf(gzFile f, const ReadOptions& o, std::uint64_t size) : f_(f), o_(o), size_(size) {}
    std::string error;

protected:
    int_type underflow() override {
        if (o_.cancel && o_.cancel->load(std::memory_order_relaxed)) {
            error = "The reading was stopped before it finished.";
            return traits_type::eof();
        }
        const int n = gzread(f_, buf_, sizeof buf_);
        if (n < 0) {
            int code = 0;
            const char* msg = gzerror(f_, &code);
            error = std::string("the gzip data is damaged (") + (msg ? msg : "zlib error") + ")";
            return traits_type::eof();
        }
        if (n == 0) return traits_type::eof();
        setg(buf_, buf_, buf_ + n);
        if (o_.progress) {
            const auto at = static_cast<std::uint64_t>(std::max<z_off_t>(gzoffset(f_), 0));
            if (at >= next_) {
                o_.progress(std::min(at, size_), size_);
                next_ = at + (4u << 20);
            }
        }
        return traits_type::to_int_type(buf_[0]);
    }

private:
    gzFile f_;
    const ReadOptions& o_;
    std::uint64_t size_;
    std::uint64_t next_ = 0;
    char buf_[1 << 16];
};

// A JSON number as an integer id, when it is one in range.
bool whole(double v, std::int64_t& out) {
    if (!std::isfinite(v) || std::fabs(v) > 9.0e18 || v != std::floor(v)) return false;
    out = static_cast<std::int64_t>(v);
    return true;
}

struct RawX {
    std::int64_t pid = 0, tid = 0;
    double ts = 0, dur = 0;
    std::string name;
};

// Collects the top-level "traceEvents" array's events, one at a time.
class Sax : public nlohmann::json_sax<nlohmann::json> {
public:
    std::map<std::int64_t, std::string> processes;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threads;
    std::vector<RawX> events;   // only on device processes' op lines, once named
    std::vector<RawX> pending;  // events whose process was not yet named
    std::int64_t complete_events = 0;
    std::int64_t malformed_events = 0;  // ids or times not usable: left out
    bool saw_trace_events = false;
    std::string error;

    bool null() override { return scalar(Value{}); }
    bool boolean(bool) override { return scalar(Value{}); }
    bool number_integer(number_integer_t v) override { return scalar(Value{true, static_cast<double>(v), {}}); }
    bool number_unsigned(number_unsigned_t v) override { return scalar(Value{true, static_cast<double>(v), {}}); }
    bool number_float(number_float_t v, const string_t&) override { return scalar(Value{true, v, {}}); }
    bool string(string_t& v) override { return scalar(Value{false, 0, v}); }
    bool binary(binary_t&) override { return scalar(Value{}); }

    bool start_object(std::size_t) override {
        ++depth_;
        if (depth_ == 3 && in_events_) event_ = Event{};
        return true;
    }
    bool end_object() override {
        if (depth_ == 3 && in_events_) finish_event();
        --depth_;
        key_.clear();
        return true;
    }
    bool start_array(std::size_t) override {
        ++depth_;
        if (depth_ == 2 && top_key_ == "traceEvents") {
            in_events_ = true;
            saw_trace_events = true;
        }
        return true;
    }
    bool end_array() override {
        if (depth_ == 2) in_events_ = false;
        --depth_;
        return true;
    }
    bool key(string_t& k) override {
        if (depth_ == 1) top_key_ = k;
        key_ = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        error = "it is not valid JSON at byte " + std::to_string(position) + " (" + e.what() + ")";
        return false;
    }

private:
    struct Value {
        bool number = false;
        double d = 0;
        std::string s;
    };
    struct Event {
        std::string ph, name, arg_name;
        std::int64_t pid = 0, tid = 0;
        double ts = 0, dur = 0;
        bool malformed = false;
    };

    bool scalar(const Value& v) {
        if (!in_events_) return true;
        if (depth_ == 3) {
            if (key_ == "ph")
                event_.ph = v.s;
            else if (key_ == "name")
                event_.name = v.s;
            else if (key_ == "pid")
                event_.malformed |= !(v.number && whole(v.d, event_.pid));
            else if (key_ == "tid")
                event_.malformed |= !(v.number && whole(v.d, event_.tid));
            else if (key_ == "ts")
                event_.ts = v.d;
            else if (key_ == "dur")
                event_.dur = v.d;
        } else if (depth_ == 4 && key_ == "name") {
            event_.arg_name = v.s;  // args.name of a metadata event
        }
        return true;
    }

    void finish_event() {
        // Microseconds, as ps below: a time past about 11 days of trace, a
        // negative span or a number that is not one is not an event.
        if (event_.malformed || !std::isfinite(event_.ts) || !std::isfinite(event_.dur) || event_.dur < 0 ||
            std::fabs(event_.ts) > 1e12 || event_.dur > 1e12) {
            if (event_.ph == "X" || event_.ph == "M") ++malformed_events;
            return;
        }
        if (event_.ph == "M") {
            if (event_.name == "process_name")
                processes[event_.pid] = event_.arg_name;
            else if (event_.name == "thread_name")
                threads[{event_.pid, event_.tid}] = event_.arg_name;
        } else if (event_.ph == "X") {
            ++complete_events;
            pending.push_back({event_.pid, event_.tid, event_.ts, event_.dur, std::move(event_.name)});
            if (pending.size() >= 65536) sort_pending();
        }
    }

    // Keep only events of device processes; drop host threads' as they come.
    void sort_pending() {
        std::vector<RawX> keep;
        for (RawX& e : pending) {
            const auto p = processes.find(e.pid);
            if (p == processes.end()) {
                keep.push_back(std::move(e));
                continue;
            }
            if (p->second.rfind("/device:", 0) == 0) events.push_back(std::move(e));
        }
        pending = std::move(keep);
    }

public:
    void flush() {
        sort_pending();
        pending.clear();
    }

private:
    int depth_ = 0;
    bool in_events_ = false;
    std::string top_key_, key_;
    Event event_;
};

DeviceKind kind_of(const std::string& process) {
    if (process.rfind(xplane::tpu_plane_prefix, 0) == 0)
        return process.find("SparseCore") != std::string::npos ? DeviceKind::sparse_core : DeviceKind::tensor_core;
    if (process.rfind(xplane::gpu_plane_prefix, 0) == 0) return DeviceKind::gpu;
    return DeviceKind::other;
}

}  // namespace

Profile read_trace_json(const std::string& path, const ReadOptions& options) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw ProfileError(path + " cannot be opened.");
    std::uint64_t size = 0;
    if (FILE* raw = std::fopen(path.c_str(), "rb")) {
        std::fseek(raw, 0, SEEK_END);
        size = static_cast<std::uint64_t>(std::max(0L, std::ftell(raw)));
        std::fclose(raw);
    }
    Sax sax;
    std::string read_error;
    {
        GzBuf buf(f, options, size);
        std::istream in(&buf);
        nlohmann::json::sax_parse(in, &sax);
        read_error = buf.error;
    }
    gzclose(f);
    if (!read_error.empty()) {
        if (read_error.back() == '.') throw ProfileError(read_error);
        throw ProfileError(path + " cannot be read: " + read_error + ".");
    }
    if (!sax.error.empty()) throw ProfileError(path + " is not a trace: " + sax.error + ".");
    if (!sax.saw_trace_events) throw ProfileError(path + " is JSON but not a trace: it has no \"traceEvents\" list.");
    sax.flush();

    Profile profile;
    profile.format = "trace.json";
    profile.notes.push_back(
        "A trace JSON names ops and times them but gives no FLOPs, bytes or program ids: "
        "predictions from cost data need the .xplane.pb file.");
    if (sax.malformed_events > 0)
        profile.notes.push_back(std::to_string(sax.malformed_events) +
                                " events were left out: their ids or times are not numbers a trace can hold.");
    for (const std::int64_t cap : {1000000, 5000000})
        if (sax.complete_events == cap)
            profile.notes.push_back("The trace holds exactly " + std::to_string(cap) +
                                    " events, the converter's cap: it was cut, and the ops after the cut are missing.");

    std::map<std::int64_t, std::size_t> device_of_pid;
    for (const auto& [pid, name] : sax.processes) {
        const DeviceKind kind = kind_of(name);
        if (kind == DeviceKind::other) {
            profile.other_planes.push_back(name);
            continue;
        }
        Device d;
        d.plane = name;
        d.kind = kind;
        const auto colon = name.rfind(':');
        try {
            d.ordinal = std::stoi(name.substr(colon + 1));
        } catch (const std::exception&) {
            d.ordinal = -1;
        }
        device_of_pid[pid] = profile.devices.size();
        profile.devices.push_back(std::move(d));
    }
    if (profile.devices.empty())
        throw ProfileError(path +
                           " holds no accelerator: its processes are not devices, so JAX ran on the host's CPU.");

    // Ops from each device's op lines, named the same way as in an XSpace.
    std::vector<std::map<std::string, std::int32_t>> op_index(profile.devices.size());
    double base = INFINITY;
    for (const RawX& e : sax.events) base = std::min(base, e.ts);
    for (const RawX& e : sax.events) {
        const auto dev = device_of_pid.find(e.pid);
        if (dev == device_of_pid.end()) continue;
        Device& d = profile.devices[dev->second];
        const auto th = sax.threads.find({e.pid, e.tid});
        const std::string line = th == sax.threads.end() ? std::string() : th->second;
        const bool ops_line = d.kind == DeviceKind::gpu ? line.rfind(xplane::gpu_stream_line_prefix, 0) == 0
                                                        : line == xplane::xla_ops_line;
        const auto start = static_cast<std::int64_t>(std::llround((e.ts - base) * 1e6));
        const auto duration = static_cast<std::int64_t>(std::llround(e.dur * 1e6));
        if (line == xplane::xla_modules_line) {
            d.modules.push_back({e.name, 0, start, duration});
            continue;
        }
        if (line == xplane::steps_line) {
            d.steps.push_back({e.name, 0, start, duration});
            continue;
        }
        if (!ops_line) continue;
        auto lane_it = std::find(d.lanes.begin(), d.lanes.end(), line);
        if (lane_it == d.lanes.end()) {
            d.lanes.push_back(line);
            lane_it = d.lanes.end() - 1;
        }
        auto it = op_index[dev->second].find(e.name);
        if (it == op_index[dev->second].end()) {
            Op op;
            op.name = e.name;
            it = op_index[dev->second].emplace(e.name, static_cast<std::int32_t>(d.ops.size())).first;
            d.ops.push_back(std::move(op));
        }
        Op& op = d.ops[static_cast<std::size_t>(it->second)];
        ++op.occurrences;
        op.total_ps = saturating_add(op.total_ps, duration);
        ++d.events_read;
        d.timeline.push_back({start, duration, it->second, 0, static_cast<std::int32_t>(lane_it - d.lanes.begin())});
    }
    for (Device& d : profile.devices) {
        d.ops_line.clear();
        for (const std::string& l : d.lanes) d.ops_line += (d.ops_line.empty() ? "" : ", ") + l;
        // Self time line by line, as the XSpace reader does it.
        std::stable_sort(d.timeline.begin(), d.timeline.end(),
                         [](const OpEvent& a, const OpEvent& b) { return a.lane < b.lane; });
        for (std::size_t begin = 0; begin < d.timeline.size();) {
            std::size_t end = begin;
            while (end < d.timeline.size() && d.timeline[end].lane == d.timeline[begin].lane) ++end;
            nest_events(d.timeline, begin, end, d.ops);
            begin = end;
        }
        std::sort(d.timeline.begin(), d.timeline.end(),
                  [](const OpEvent& a, const OpEvent& b) { return a.start_ps < b.start_ps; });
    }
    if (options.progress) options.progress(size, size);
    return profile;
}

}  // namespace tpuprofile
