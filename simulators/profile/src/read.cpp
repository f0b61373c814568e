// Choosing the reader for a path, and the sentences for files that are not
// profiles at all.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tpuprofile/read.h"

namespace tpuprofile {

namespace fs = std::filesystem;

namespace {

std::string first_bytes(const std::string& path, std::size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string s(n, '\0');
    in.read(s.data(), static_cast<std::streamsize>(n));
    s.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return s;
}

bool ends_with(const std::string& s, const std::string& p) {
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// The newest run's .xplane.pb files in a folder jax.profiler.trace wrote:
// DIR/plugins/profile/<run>/<host>.xplane.pb, runs named by date and time.
std::vector<fs::path> xplanes_in(const fs::path& dir) {
    std::error_code ec;
    auto files_in = [&](const fs::path& folder) {
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(folder, ec))
            if (e.is_regular_file(ec) && ends_with(e.path().filename().string(), ".xplane.pb"))
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        return files;
    };
    std::vector<fs::path> runs;
    const fs::path profile_dir = dir / "plugins" / "profile";
    if (fs::is_directory(profile_dir, ec))
        for (const auto& e : fs::directory_iterator(profile_dir, ec))
            if (e.is_directory(ec)) runs.push_back(e.path());
    std::sort(runs.begin(), runs.end());
    for (auto it = runs.rbegin(); it != runs.rend(); ++it)
        if (auto files = files_in(*it); !files.empty()) return files;
    return files_in(dir);  // a run's folder, given directly
}

// U+FFFD characters in `b` when it is valid UTF-8 (a sequence cut by its
// end allowed), else 0.
std::size_t replacement_characters(const std::string& b) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < b.size();) {
        const auto c = static_cast<unsigned char>(b[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0) return 0;
        if (i + n > b.size()) break;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(b[i + k]) & 0xC0) != 0x80) return 0;
        if (n == 3 && c == 0xEF && static_cast<unsigned char>(b[i + 1]) == 0xBF &&
            static_cast<unsigned char>(b[i + 2]) == 0xBD)
            ++count;
        i += n;
    }
    return count;
}

}  // namespace

std::vector<std::string> profile_files(const std::string& path) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) return {path};
    std::vector<std::string> out;
    for (const fs::path& f : xplanes_in(path)) out.push_back(f.string());
    return out;
}

std::string sniff(const std::string& b) {
    if (b.empty()) return "empty";
    if (b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f && static_cast<unsigned char>(b[1]) == 0x8b)
        return "gzip";
    // A text conversion that met bytes it could not decode replaces each
    // with U+FFFD, written EF BF BD, and keeps what happened to be valid
    // UTF-8: the result is valid UTF-8 full of replacement characters,
    // which no binary protocol buffer of any size is.
    if (replacement_characters(b) >= 4) return "mangled";
    std::size_t i = 0;
    while (i < b.size() && std::isspace(static_cast<unsigned char>(b[i]))) ++i;
    if (i < b.size() && (b[i] == '{' || b[i] == '[')) return "json";
    // An XSpace starts with a plane: field 1, length-delimited (tag 0x0A).
    if (b[0] == 0x0A) return "xplane";
    const bool printable = std::all_of(b.begin(), b.end(), [](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return c >= 0x20 || c == '\n' || c == '\r' || c == '\t';
    });
    return printable ? "text" : "binary";
}

Profile read_profile(const std::string& path, const ReadOptions& options) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw ProfileError(path + " does not exist.");
    if (fs::is_directory(status)) {
        const std::vector<std::string> files = profile_files(path);
        if (files.empty())
            throw ProfileError(path +
                               " holds no .xplane.pb file, in it or under plugins/profile/: "
                               "give the folder jax.profiler.trace wrote, or the file itself.");
        Profile all;
        for (const std::string& file : files) {
            const fs::path f(file);
            Profile one = read_profile(file, options);
            if (all.format.empty()) {
                all = std::move(one);
                continue;
            }
            // Several hosts of one run: their devices side by side.
            const std::string host = f.filename().string();
            for (Device& d : one.devices) {
                d.plane = host.substr(0, host.size() - std::strlen(".xplane.pb")) + " " + d.plane;
                all.devices.push_back(std::move(d));
            }
            for (Program& p : one.programs)
                if (!all.program(p.id)) all.programs.push_back(std::move(p));
            for (std::string& h : one.hostnames) all.hostnames.push_back(std::move(h));
        }
        return all;
    }
    if (!fs::is_regular_file(status))
        throw ProfileError(path + " is not a regular file (a pipe, a device or a socket), so it is not read.");

    const std::string head = first_bytes(path, 1 << 20);
    const std::string kind = sniff(head);
    if (kind == "empty") throw ProfileError(path + " is empty: a profile holds at least one plane.");
    if (kind == "mangled")
        throw ProfileError(path +
                           " was damaged by a text conversion: its bytes were read as UTF-8 and "
                           "every one that did not decode was replaced by U+FFFD (EF BF BD), so its "
                           "data is lost; copy the original file again, as binary.");
    if (kind == "gzip" || kind == "json") return read_trace_json(path, options);
    if (kind == "text")
        throw ProfileError(path +
                           " is text, not a profile: jax.profiler writes a binary .xplane.pb "
                           "(or, with create_perfetto_trace=True, a trace JSON).");
    return read_xplane(path, options);
}

}  // namespace tpuprofile
