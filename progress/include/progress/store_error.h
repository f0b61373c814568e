#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace progress {

// Everything the progress store can refuse or fail at. what() is one plain
// sentence that names the file, fit to print as-is before the app exits.
class StoreError : public std::runtime_error {
public:
    enum class Kind {
        NotSqlite,   // not an SQLite file, or an SQLite file of another program
        Corrupt,     // SQLite's integrity check failed or a page is damaged
        TooNew,      // written by a newer tpu-course (schema beyond ours)
        CannotOpen,  // missing permissions, a folder, an unreachable path
        Busy,        // another connection held the lock past the timeout
        Constraint,  // a change broke a rule of the schema (unknown chapter, append-only log)
        Io,          // any other failure to read or write
    };

    StoreError(Kind kind, std::filesystem::path file, const std::string& sentence);

    Kind kind() const noexcept { return kind_; }
    const std::filesystem::path& file() const noexcept { return file_; }

private:
    Kind kind_;
    std::filesystem::path file_;
};

// A short name for a kind, for logs and test output ("not-sqlite", "corrupt", ...).
const char* toString(StoreError::Kind kind) noexcept;

}  // namespace progress
