#include "tpusim/trace.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include "tpusim/error.h"

namespace tpusim {

namespace {

void append_string(std::string& out, const std::string& s) {
    out += '"';
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '"')
            out += "\\\"";
        else if (ch == '\\')
            out += "\\\\";
        else if (ch == '\n')
            out += "\\n";
        else if (ch == '\t')
            out += "\\t";
        else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    out += '"';
}

// Microseconds with nanosecond resolution: enough for ICI hops and DMAs,
// short enough to keep a trace of a pod small.
void append_micros(std::string& out, double seconds) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e6);
    out += buf;
}

struct TrackIds {
    std::map<std::string, int> pids;
    std::map<std::pair<int, std::string>, int> tids;
};

void append_metadata(std::string& out, const char* what, int pid, int tid, const std::string& name, int sort_index) {
    out += "{\"ph\":\"M\",\"name\":\"";
    out += what;
    out += "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":";
    append_string(out, name);
    out += "}},\n";
    // Perfetto orders tracks by these, so they appear as the model listed them.
    out += "{\"ph\":\"M\",\"name\":\"";
    out += what;
    out += "_sort_index\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
           ",\"args\":{\"sort_index\":" + std::to_string(sort_index) + "}},\n";
}

}  // namespace

std::string chrome_trace_json(const std::vector<TraceEvent>& events) {
    TrackIds ids;
    std::string meta;
    std::string body;
    for (const TraceEvent& e : events) {
        if (!std::isfinite(e.start_s) || !std::isfinite(e.duration_s) || e.start_s < 0 || e.duration_s < 0)
            throw InputError("trace event '" + e.name + "' has a negative or non-finite start or duration");
        auto [p, new_process] = ids.pids.emplace(e.process, static_cast<int>(ids.pids.size()) + 1);
        const int pid = p->second;
        if (new_process) append_metadata(meta, "process_name", pid, 0, e.process, pid);
        auto [t, new_thread] = ids.tids.emplace(std::make_pair(pid, e.thread), static_cast<int>(ids.tids.size()) + 1);
        const int tid = t->second;
        if (new_thread) append_metadata(meta, "thread_name", pid, tid, e.thread, tid);

        body += "{\"ph\":\"X\",\"name\":";
        append_string(body, e.name);
        body += ",\"cat\":";
        append_string(body, e.category.empty() ? std::string("default") : e.category);
        body += ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":";
        append_micros(body, e.start_s);
        body += ",\"dur\":";
        append_micros(body, e.duration_s);
        if (!e.args.empty()) {
            body += ",\"args\":{";
            for (std::size_t i = 0; i < e.args.size(); ++i) {
                if (i) body += ',';
                append_string(body, e.args[i].first);
                body += ':';
                append_string(body, e.args[i].second);
            }
            body += '}';
        }
        body += "},\n";
    }
    std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    out += meta;
    out += body;
    if (out.size() >= 2 && out[out.size() - 2] == ',') out.erase(out.size() - 2, 1);
    out += "]}\n";
    return out;
}

void write_chrome_trace(const std::string& path, const std::vector<TraceEvent>& events) {
    const std::string text = chrome_trace_json(events);
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) throw InputError("cannot write the trace file '" + path + "'");
    file << text;
    file.flush();
    if (!file) throw InputError("writing the trace file '" + path + "' failed");
}

}  // namespace tpusim
