#pragma once

// Shared by the progress store tests: scratch folders and raw file access.

#include "progress/runs.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace progress_test {

// A fresh folder under the system temp folder, removed with everything in it.
class ScratchDir {
public:
    ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    ~ScratchDir();

    const std::filesystem::path& path() const noexcept { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

std::vector<unsigned char> readBytes(const std::filesystem::path& file);
void writeBytes(const std::filesystem::path& file, const std::vector<unsigned char>& bytes);
void writeText(const std::filesystem::path& file, const std::string& text);

// Names of the -wal, -shm and -journal files that exist beside `file`.
std::vector<std::string> sidecarFiles(const std::filesystem::path& file);

// A measured L07 run record of 4096^3 bf16 on v5e, identified by `sha`.
progress::RunRecordRow sampleRecord(const std::string& sha);

// A clock that starts at `startMs` and moves one millisecond per reading.
struct SteppingClock {
    std::int64_t nextMs;
    std::int64_t operator()() { return nextMs++; }
};

}  // namespace progress_test
