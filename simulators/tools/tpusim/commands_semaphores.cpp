// tpusim semaphores FILE [--devices N] [--chip ID] [--trace out.json] [--events COUNT] [--json]
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "table.h"
#include "tpusim/error.h"
#include "tpusim/semaphores.h"
#include "tpusim/trace.h"

namespace tpusim::cli {

namespace {

constexpr std::size_t kMaxProgramBytes = 1 << 20;

std::string read_program(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().size() > kMaxProgramBytes)
        throw InputError("'" + path + "' is larger than 1 MiB; programs that large are refused");
    return text.str();
}

void write_run(Json& j, const SemRun& r) {
    j.begin_object();
    j.field("status", sem_status_name(r.status));
    j.field("summary", r.summary);
    j.field("devices", r.devices);
    j.field("end_s", r.end_s).field("end", format_time(r.end_s));
    j.key("deadlock").begin_array();
    for (const SemWaiter& w : r.deadlock) {
        j.begin_object().field("device", w.device).field("line", w.line);
        j.field("statement", w.statement).field("semaphore", w.semaphore);
        j.field("value", w.value).field("needed", w.needed);
        j.key("waits_for").begin_array();
        for (int d : w.waits_for) j.value(d);
        j.end_array().field("reason", w.reason).end_object();
    }
    j.end_array();
    j.key("cycle").begin_array();
    for (int d : r.cycle) j.value(d);
    j.end_array();
    j.key("races").begin_array();
    for (const SemRace& x : r.races) {
        j.begin_object().field("kind", x.kind).field("device", x.device);
        j.field("buffer", x.buffer).field("time_s", x.time_s).field("line", x.line);
        j.field("dma_line", x.dma_line).field("dma_from", x.dma_from).field("dma_to", x.dma_to);
        j.field("text", x.text).end_object();
    }
    j.end_array();
    j.key("nonzero").begin_array();
    for (const SemNonzero& z : r.nonzero) {
        j.begin_object().field("device", z.device).field("semaphore", z.semaphore);
        j.field("value", z.value).field("text", z.text).end_object();
    }
    j.end_array();
    j.key("events").begin_array();
    for (const SemEvent& e : r.events) {
        j.begin_object().field("time_s", e.time_s).field("device", e.device);
        j.field("kind", e.kind).field("text", e.text).field("line", e.line).end_object();
    }
    j.end_array();
    j.key("provenance");
    write_provenance(j, r.provenance);
    j.end_object();
}

void print_run(const SemRun& r, std::size_t events) {
    print_pairs(std::cout, {{"status", std::string(sem_status_name(r.status))},
                            {"devices", std::to_string(r.devices)},
                            {"end", format_time(r.end_s)},
                            {"events", std::to_string(r.events.size())}});
    std::cout << "\n" << r.summary << "\n";
    for (const SemWaiter& w : r.deadlock) std::cout << "  " << w.reason << "\n";
    for (const SemRace& x : r.races) std::cout << "  at " << format_time(x.time_s) << ": " << x.text << "\n";
    for (const SemNonzero& z : r.nonzero) std::cout << "  " << z.text << "\n";
    if (events > 0) {
        std::cout << "\n";
        Table t({"#", "time", "line", "event"}, {true, true, true, false});
        for (std::size_t i = 0; i < r.events.size() && i < events; ++i)
            t.add({std::to_string(i), format_time(r.events[i].time_s), std::to_string(r.events[i].line),
                   r.events[i].text});
        t.print(std::cout);
    }
    print_provenance(r.provenance);
}

}  // namespace

int cmd_semaphores(const Args& args) {
    const std::string command = "tpusim semaphores";
    args.max_words(2, command);
    args.allow_only({"chip", "devices", "trace", "events"}, command);
    if (args.words().size() < 2)
        throw InputError("tpusim semaphores needs a program file, like assets/semaphores/ring_all_gather.sem");
    const std::string path = args.words()[1];
    const SemProgram program = parse_semaphore_program(read_program(path), path);
    const std::int64_t devices = args.has("devices") ? args.positive("devices") : 0;
    if (devices > 4096) throw InputError("--devices must be at most 4096");
    const SemRun r = run_semaphores(program, args.chip(), static_cast<int>(devices));
    if (args.has("trace")) write_chrome_trace(args.text("trace", ""), semaphore_trace(r));
    if (args.flag("json")) {
        Json j;
        write_run(j, r);
        std::cout << j.str() << "\n";
    } else {
        print_run(r, args.has("events") ? static_cast<std::size_t>(args.positive("events")) : 0);
    }
    return 0;
}

}  // namespace tpusim::cli
