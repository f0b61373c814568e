#pragma once
// Reading a profile from disk. Every problem is a ProfileError whose message
// is one sentence for the learner: what the file is, and why it cannot be
// read. Nothing is kept from a file that fails.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tpuprofile/profile.h"
#include "tpusim/error.h"

namespace tpuprofile {

class ProfileError : public tpusim::InputError {
public:
    explicit ProfileError(const std::string& sentence) : tpusim::InputError(sentence) {}
};

struct ReadOptions {
    // Called now and then with the bytes read so far and the bytes to read
    // (both passes over the file count).
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    // Set from another thread to stop; the read then throws ProfileError.
    const std::atomic<bool>* cancel = nullptr;
};

// The largest file read: one protocol buffer message is at most 2 GiB, so
// an XSpace file above it cannot be whole.
inline constexpr std::uint64_t max_xplane_bytes = (1ull << 31) - 1;

// A profile from `path`: an .xplane.pb file, a trace JSON (.json or
// .json.gz) as the profiler's converter writes it, or a folder that
// jax.profiler.trace wrote (its newest run under plugins/profile/ is read,
// every host's file of it).
Profile read_profile(const std::string& path, const ReadOptions& options = {});

// The files read_profile reads for `path`: the path itself, or a folder's
// .xplane.pb files of its newest run. Empty for a folder without any.
std::vector<std::string> profile_files(const std::string& path);

// The two formats, for a file already known to be one.
Profile read_xplane(const std::string& path, const ReadOptions& options = {});
Profile read_trace_json(const std::string& path, const ReadOptions& options = {});

// What a file looks like from its first bytes, for error messages and for
// choosing a reader: "xplane", "json", "gzip", "mangled", "empty", "text".
std::string sniff(const std::string& first_bytes);

}  // namespace tpuprofile
