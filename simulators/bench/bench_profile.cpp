// bench_profile: reading a large profile to its first op table, with the
// reader's peak memory. Profiles of 100 MB and 1 GB (or the sizes given, in
// MB) are written by profile_writer into $TMPDIR, read in a child process
// (so its peak resident memory is the reader's alone), and removed.
// Goal: at most 1 s per 100 MB, memory at most twice the file.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "profile_writer.h"
#include "tpuprofile/op_table.h"
#include "tpuprofile/read.h"

namespace {

struct Run {
    double seconds = 0;
    long peak_kib = 0;
    std::size_t ops = 0;
    bool ok = false;
};

Run read_in_child(const std::string& path) {
    int fds[2];
    if (pipe(fds) != 0) return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const auto start = std::chrono::steady_clock::now();
        const tpuprofile::Profile p = tpuprofile::read_profile(path);
        const tpuprofile::OpTable t = tpuprofile::op_table(p, tpuprofile::first_device(p));
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double msg[2] = {s, static_cast<double>(t.rows.size())};
        if (write(fds[1], msg, sizeof msg) != sizeof msg) _exit(1);
        _exit(0);
    }
    close(fds[1]);
    Run r;
    double msg[2] = {0, 0};
    const bool got = read(fds[0], msg, sizeof msg) == sizeof msg;
    close(fds[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    r.ok = got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    r.seconds = msg[0];
    r.ops = static_cast<std::size_t>(msg[1]);
    r.peak_kib = usage.ru_maxrss;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::uint64_t> sizes_mb;
    for (int i = 1; i < argc; ++i) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(argv[i], &end, 10);
        if (end && *end == '\0' && v > 0) sizes_mb.push_back(v);
    }
    if (sizes_mb.empty()) sizes_mb = {100, 1000};
    const char* tmp = std::getenv("TMPDIR");
    const std::filesystem::path dir = tmp && *tmp ? tmp : "/tmp";
    std::printf("bench_profile: an .xplane.pb read to its first op table (4 TPU planes, host threads, metadata)\n");
    std::printf("%10s %14s %12s %9s %11s %11s %9s\n", "file MB", "device events", "host events", "read s", "s / 100 MB",
                "peak MB", "x file");
    for (const std::uint64_t mb : sizes_mb) {
        const std::string path = (dir / ("tpu-course-bench-" + std::to_string(mb) + "mb.xplane.pb")).string();
        const tpuprofile::bench::Written w = tpuprofile::bench::write_profile(path, mb * 1000000);
        const Run r = read_in_child(path);
        std::filesystem::remove(path);
        if (!r.ok) {
            std::printf("%10.1f  the read failed\n", static_cast<double>(w.bytes) / 1e6);
            return 1;
        }
        const double file_mb = static_cast<double>(w.bytes) / 1e6;
        const double peak_mb = static_cast<double>(r.peak_kib) * 1024 / 1e6;
        std::printf("%10.1f %14lld %12lld %9.3f %11.3f %11.1f %9.2f\n", file_mb,
                    static_cast<long long>(w.device_events), static_cast<long long>(w.host_events), r.seconds,
                    r.seconds / (file_mb / 100), peak_mb, peak_mb / file_mb);
    }
    return 0;
}
