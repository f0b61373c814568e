#pragma once
// Chrome trace-event JSON, the format Perfetto and chrome://tracing open:
// a "traceEvents" array of complete events (ph "X", ts and dur in
// microseconds) plus metadata events naming each process and thread.
// Every model with a timeline (pipeline steps, collective chunks on links,
// semaphore waits) turns it into TraceEvents and hands them here.
#include <string>
#include <utility>
#include <vector>

namespace tpusim {

// One span of time on one track. `process` groups tracks ("chip (0,1)",
// "links"); `thread` is the track itself ("DMA engine", "(0,1)->(0,2)").
// Tracks keep the order in which they first appear.
struct TraceEvent {
    std::string name;      // what happened: "step 3", "chunk 2 of device 5"
    std::string category;  // "compute", "dma", "link", ...
    std::string process;
    std::string thread;
    double start_s = 0;
    double duration_s = 0;
    std::vector<std::pair<std::string, std::string>> args;  // shown in the details pane
};

// The whole trace as one JSON object {"traceEvents": [...], "displayTimeUnit": "ns"}.
// Throws InputError for a negative or non-finite start or duration.
std::string chrome_trace_json(const std::vector<TraceEvent>& events);

// Writes chrome_trace_json(events) to `path`. Throws InputError when the file
// cannot be written.
void write_chrome_trace(const std::string& path, const std::vector<TraceEvent>& events);

}  // namespace tpusim
