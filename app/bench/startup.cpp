// Start-up against a bare Qt Quick window, run alternately in one sitting so
// both see the same machine: the app showing its first frame (--first-frame),
// bare-window-yardstick doing the same for one rectangle, and the app again
// until its whole stack page is made (--screenshot). By default all three
// draw offscreen with the software renderer, the same on every machine;
// with --window they show real windows on the display in $DISPLAY (or
// $WAYLAND_DISPLAY), as a learner's window is: connecting to the display,
// loading the graphics stack and compiling shaders then count. The bare
// window is drawn as Qt picks there; tpu-course as it chooses (in software
// where no GPU is within reach, app/drawing), so the bare window is also
// timed drawn in software and printed for reference.
// Each process stamps the moment it reaches the frame on the clock it was
// spawned on (startuptrace::stamp), so the times run from the process's
// start, its libraries' loading included, to the frame on screen: saving
// the picture and closing down are not counted. Prints the medians and
// their ratios against the goals (first frame at most 1.25x the bare
// window's, the whole stack at most 1.5x), peak memory, and the wall time
// of each run for reference. A shared machine's speed drifts over a run by
// more than the difference sought, so each round's app run is also divided
// by the bare run beside it, and the median and quartiles of those paired
// ratios are printed.
//   bench_startup [ROUNDS] [--window]   (default 21 rounds; other arguments,
//                                        meant for the simulator's
//                                        benchmarks, are passed over)
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char **environ;

namespace {

struct Run
{
    double seconds = 0; // from the spawn to the stamped frame
    double toMain = 0;  // from the spawn to main(), which both programs stamp
    double wall = 0;    // from the spawn to the exit
    long peakKiB = 0;
    bool ok = false;
};

// Runs `args` to its end, with `extraEnv` ("NAME=value") added to this
// process's environment; its time is to the stamp named `frame`, which the
// process writes to `stamps` (steady_clock is CLOCK_MONOTONIC, the stamps' clock).
Run timed(std::vector<std::string> args, const std::filesystem::path &stamps, const std::string &frame,
          std::vector<std::string> extraEnv = {})
{
    std::filesystem::remove(stamps);
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (char **e = environ; *e; ++e)
        envp.push_back(*e);
    for (auto &e : extraEnv)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()) != 0)
        return {};
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        return {};
    Run run;
    run.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.peakKiB = usage.ru_maxrss;
    std::ifstream in(stamps);
    std::string what;
    long long ns = 0;
    const long long spawned = std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
    while (in >> what >> ns) {
        if (what == "main")
            run.toMain = double(ns - spawned) / 1e9;
        if (what == frame) {
            run.seconds = double(ns - spawned) / 1e9;
            run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && run.seconds > 0;
        }
    }
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
    int rounds = 21;
    bool window = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--window")
            window = true;
        else if (!arg.empty() && arg.find_first_not_of("0123456789") == std::string::npos)
            rounds = std::max(1, std::atoi(arg.c_str()));
    }
    const auto named = [](const char *variable) {
        const char *value = std::getenv(variable);
        return value && *value;
    };
    if (window && !named("DISPLAY") && !named("WAYLAND_DISPLAY")) {
        std::fprintf(stderr,
                     "bench_startup: --window needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is "
                     "set (under no desktop, run it with xvfb-run).\n");
        return 2;
    }
    const std::filesystem::path bin = std::filesystem::canonical("/proc/self/exe").parent_path();
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("tpu-course-startup-" + std::to_string(getpid()));
    std::filesystem::create_directories(scratch);
    if (window) {
        setenv("TPU_COURSE_FRAME_ON_DISPLAY", "1", 1);
    } else {
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        setenv("QT_QUICK_BACKEND", "software", 1);
    }
    // Both runs find a runtime directory, as under a desktop session, and
    // neither spends its start warning that there is none.
    if (!std::getenv("XDG_RUNTIME_DIR")) {
        const std::filesystem::path runtime = scratch / "runtime";
        std::filesystem::create_directories(runtime);
        std::filesystem::permissions(runtime, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::replace);
        setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
    }

    const std::string db = (scratch / "progress.sqlite").string();
    const std::filesystem::path stamps = scratch / "stamps";
    setenv("TPU_COURSE_FRAME_STAMPS", stamps.c_str(), 1);
    std::vector<double> appTimes, bareTimes, wholeTimes, pairedRatios, wholeRatios, appWalls, bareWalls, wholeWalls,
        appToMain, bareToMain, softTimes;
    std::vector<long> appPeaks, barePeaks, wholePeaks;
    for (int i = 0; i < rounds; ++i) {
        const Run app =
            timed({(bin / "tpu-course").string(), "--db", db, "--first-frame", (scratch / "app.png").string()}, stamps,
                  "first-frame");
        const Run bare =
            timed({(bin / "bare-window-yardstick").string(), (scratch / "bare.png").string()}, stamps, "first-frame");
        const Run whole =
            timed({(bin / "tpu-course").string(), "--db", db, "--screenshot", (scratch / "whole.png").string()}, stamps,
                  "page-ready");
        // In a window, the bare window drawn in software as well, for
        // reference: where no GPU is within reach, tpu-course draws so.
        if (window) {
            const Run soft = timed({(bin / "bare-window-yardstick").string(), (scratch / "bare.png").string()}, stamps,
                                   "first-frame", {"QT_QUICK_BACKEND=software"});
            if (soft.ok)
                softTimes.push_back(soft.seconds);
        }
        if (!app.ok || !bare.ok || !whole.ok) {
            std::fprintf(stderr, "bench_startup: a run failed (first frame %s, bare window %s, whole page %s).\n",
                         app.ok ? "ok" : "failed", bare.ok ? "ok" : "failed", whole.ok ? "ok" : "failed");
            return 1;
        }
        appTimes.push_back(app.seconds);
        pairedRatios.push_back(app.seconds / bare.seconds);
        wholeRatios.push_back(whole.seconds / bare.seconds);
        appWalls.push_back(app.wall);
        appToMain.push_back(app.toMain);
        bareToMain.push_back(bare.toMain);
        bareWalls.push_back(bare.wall);
        wholeWalls.push_back(whole.wall);
        bareTimes.push_back(bare.seconds);
        wholeTimes.push_back(whole.seconds);
        appPeaks.push_back(app.peakKiB);
        barePeaks.push_back(bare.peakKiB);
        wholePeaks.push_back(whole.peakKiB);
    }
    std::filesystem::remove_all(scratch);

    const double appT = median(appTimes), bareT = median(bareTimes), wholeT = median(wholeTimes);
    const long appM = median(appPeaks), bareM = median(barePeaks), wholeM = median(wholePeaks);
    const auto quartiles = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const auto at = [&v](double q) { return v[static_cast<size_t>(q * double(v.size() - 1) + 0.5)]; };
        std::printf("   round by round %.2fx (quartiles %.2fx to %.2fx)\n", at(0.5), at(0.25), at(0.75));
    };
    std::printf("start-up, from the process's start to the frame on screen; median of %d alternating rounds\n", rounds);
    std::printf("  %s\n", window ? "in windows on the display: the bare window as Qt draws there, tpu-course as it "
                                   "chooses to draw there"
                                 : "offscreen, software renderer (--window: on the display)");
    std::printf("  bare Qt Quick window, first frame   %6.0f ms   peak %6.1f MB\n", bareT * 1e3, bareM / 1024.0);
    std::printf("  tpu-course, first frame             %6.0f ms   peak %6.1f MB   %.2fx (goal: at most 1.25x),",
                appT * 1e3, appM / 1024.0, appT / bareT);
    quartiles(pairedRatios);
    std::printf("  tpu-course, the whole stack made    %6.0f ms   peak %6.1f MB   %.2fx (goal: at most 1.5x),",
                wholeT * 1e3, wholeM / 1024.0, wholeT / bareT);
    quartiles(wholeRatios);
    if (!softTimes.empty()) {
        const double softT = median(softTimes);
        std::printf(
            "  for reference, the bare window drawn in software %6.0f ms: tpu-course's first frame %.2fx, "
            "its whole stack %.2fx\n"
            "    (tpu-course draws in software where no GPU is within reach; its About page says how it draws)\n",
            softT * 1e3, appT / softT, wholeT / softT);
    }
    std::printf(
        "  main() reached at %.1f ms by tpu-course, %.1f ms by the bare window: loading libraries, "
        "static initialisers\n",
        median(appToMain) * 1e3, median(bareToMain) * 1e3);
    std::printf("  memory: %.2fx the bare window's at the first frame, %.2fx with the whole stack\n",
                double(appM) / double(bareM), double(wholeM) / double(bareM));
    std::printf(
        "  to the exit, saving the picture included (for reference): bare %.0f ms, first frame %.0f ms, "
        "whole stack %.0f ms\n",
        median(bareWalls) * 1e3, median(appWalls) * 1e3, median(wholeWalls) * 1e3);
    return 0;
}
