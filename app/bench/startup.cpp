// Start-up against a bare Qt Quick window, run alternately in one sitting so
// both see the same machine: the app saving its first frame offscreen to a
// PNG and exiting (--first-frame), and bare-window-yardstick doing the same
// for one rectangle. Prints the median wall time and peak memory of each
// and their ratios; then, for reference, the app saving its stack page once
// the whole page is made (--screenshot), which the goal does not cover.
// A shared machine's speed drifts over a run by more than the difference
// sought, so each round's app run is also divided by the bare run beside
// it, and the median and quartiles of those paired ratios are printed.
//   bench_startup [ROUNDS]   (default 21; other arguments, meant for the
//                             simulator's benchmarks, are passed over)
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

extern char **environ;

namespace {

struct Run
{
    double seconds = 0;
    long peakKiB = 0;
    bool ok = false;
};

Run timed(std::vector<std::string> args)
{
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
        return {};
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        return {};
    Run run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.peakKiB = usage.ru_maxrss;
    run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return run;
}

template <typename T>
T median(std::vector<T> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char *argv[])
{
    const bool counted = argc > 1 && std::string(argv[1]).find_first_not_of("0123456789") == std::string::npos;
    const int rounds = counted ? std::max(1, std::atoi(argv[1])) : 21;
    const std::filesystem::path bin = std::filesystem::canonical("/proc/self/exe").parent_path();
    const std::filesystem::path scratch = std::filesystem::temp_directory_path() / ("tpu-course-startup-" + std::to_string(getpid()));
    std::filesystem::create_directories(scratch);
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    setenv("QT_QUICK_BACKEND", "software", 1);
    // Both runs find a runtime directory, as under a desktop session, and
    // neither spends its start warning that there is none.
    if (!std::getenv("XDG_RUNTIME_DIR")) {
        const std::filesystem::path runtime = scratch / "runtime";
        std::filesystem::create_directories(runtime);
        std::filesystem::permissions(runtime, std::filesystem::perms::owner_all, std::filesystem::perm_options::replace);
        setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
    }

    const std::string db = (scratch / "progress.sqlite").string();
    std::vector<double> appTimes, bareTimes, wholeTimes, pairedRatios;
    std::vector<long> appPeaks, barePeaks, wholePeaks;
    for (int i = 0; i < rounds; ++i) {
        const Run app = timed({(bin / "tpu-course").string(), "--db", db, "--first-frame", (scratch / "app.png").string()});
        const Run bare = timed({(bin / "bare-window-yardstick").string(), (scratch / "bare.png").string()});
        const Run whole = timed({(bin / "tpu-course").string(), "--db", db, "--screenshot", (scratch / "whole.png").string()});
        if (!app.ok || !bare.ok || !whole.ok) {
            std::fprintf(stderr, "bench_startup: a run failed (first frame %s, bare window %s, whole page %s).\n",
                         app.ok ? "ok" : "failed", bare.ok ? "ok" : "failed", whole.ok ? "ok" : "failed");
            return 1;
        }
        appTimes.push_back(app.seconds);
        pairedRatios.push_back(app.seconds / bare.seconds);
        bareTimes.push_back(bare.seconds);
        wholeTimes.push_back(whole.seconds);
        appPeaks.push_back(app.peakKiB);
        barePeaks.push_back(bare.peakKiB);
        wholePeaks.push_back(whole.peakKiB);
    }
    std::filesystem::remove_all(scratch);

    const double appT = median(appTimes), bareT = median(bareTimes), wholeT = median(wholeTimes);
    const long appM = median(appPeaks), bareM = median(barePeaks), wholeM = median(wholePeaks);
    std::printf("start-up to the first frame saved as a PNG, and exit; median of %d alternating rounds\n", rounds);
    std::printf("  tpu-course, first frame     %7.0f ms   peak %6.1f MB\n", appT * 1e3, appM / 1024.0);
    std::printf("  bare Qt Quick window        %7.0f ms   peak %6.1f MB\n", bareT * 1e3, bareM / 1024.0);
    std::printf("  ratio                       %7.2fx       %6.2fx   (goal: at most 1.5x time, 2x memory)\n",
                appT / bareT, double(appM) / double(bareM));
    std::sort(pairedRatios.begin(), pairedRatios.end());
    const auto quartile = [&](double q) { return pairedRatios[static_cast<size_t>(q * double(pairedRatios.size() - 1) + 0.5)]; };
    std::printf("  round by round              %7.2fx   (quartiles %.2fx to %.2fx)\n", quartile(0.5), quartile(0.25),
                quartile(0.75));
    std::printf("  tpu-course, whole stack page made, then saved (for reference)\n");
    std::printf("                              %7.0f ms   peak %6.1f MB   (%.2fx, %.2fx)\n", wholeT * 1e3,
                wholeM / 1024.0, wholeT / bareT, double(wholeM) / double(bareM));
    return 0;
}
