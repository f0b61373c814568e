#include "progress/store_error.h"

#include "errors.h"

#include <sqlite3.h>

#include <string>

namespace progress {

StoreError::StoreError(Kind kind, std::filesystem::path file, const std::string& sentence)
    : std::runtime_error(sentence), kind_(kind), file_(std::move(file)) {}

const char* toString(StoreError::Kind kind) noexcept {
    switch (kind) {
        case StoreError::Kind::NotSqlite:
            return "not-sqlite";
        case StoreError::Kind::Corrupt:
            return "corrupt";
        case StoreError::Kind::TooNew:
            return "too-new";
        case StoreError::Kind::CannotOpen:
            return "cannot-open";
        case StoreError::Kind::Busy:
            return "busy";
        case StoreError::Kind::Constraint:
            return "constraint";
        case StoreError::Kind::Io:
            return "io";
    }
    return "unknown";
}

namespace errors {
namespace {

using Kind = StoreError::Kind;

StoreError make(Kind kind, const std::filesystem::path& file, std::string_view middle) {
    std::string sentence = file.string();
    sentence += ' ';
    sentence += middle;
    sentence += '.';
    return StoreError(kind, file, sentence);
}

// SQLite's messages sometimes end in a full stop; ours add their own.
std::string trimmed(std::string_view message) {
    while (!message.empty() && (message.back() == '.' || message.back() == '\n' || message.back() == ' ')) {
        message.remove_suffix(1);
    }
    return std::string(message);
}

// quick_check reports can span lines and open with a banner; a sentence cannot.
std::string oneLine(std::string_view report) {
    constexpr std::string_view banner = "*** in database main ***";
    if (report.substr(0, banner.size()) == banner) {
        report.remove_prefix(banner.size());
    }
    std::string line;
    for (const char c : report) {
        if (c == '\n' || c == '\r' || c == '\t') {
            if (!line.empty() && line.back() != ' ') {
                line += line.back() == ';' ? " " : "; ";
            }
        } else {
            line += c;
        }
    }
    while (!line.empty() && (line.front() == ' ' || line.front() == ';')) {
        line.erase(line.begin());
    }
    return trimmed(line);
}

}  // namespace

StoreError fromSqlite(const std::filesystem::path& file, int resultCode, std::string_view sqliteMessage) {
    const std::string said = trimmed(sqliteMessage);
    switch (resultCode & 0xff) {
        case SQLITE_NOTADB:
            return notSqlite(file, "SQLite cannot read it as a database: " + said);
        case SQLITE_CORRUPT:
            return damaged(file, said);
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return make(Kind::Busy, file,
                        "is locked by another tpu-course window or program (" + said + "); close it and try again");
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
        case SQLITE_READONLY:
        case SQLITE_AUTH:
            return cannotOpen(file, said);
        case SQLITE_CONSTRAINT:
            return make(Kind::Constraint, file, "refused the change (" + said + ")");
        default:
            return ioFailure(file, said);
    }
}

StoreError notSqlite(const std::filesystem::path& file, std::string_view why) {
    return make(Kind::NotSqlite, file, "is not a tpu-course progress database (" + trimmed(why) + ")");
}

StoreError otherProgram(const std::filesystem::path& file) {
    return make(Kind::NotSqlite, file,
                "is not a tpu-course progress database (it is an SQLite database that belongs to another program)");
}

StoreError damaged(const std::filesystem::path& file, std::string_view firstProblem) {
    return make(Kind::Corrupt, file, "is damaged (SQLite's integrity check failed: " + oneLine(firstProblem) + ")");
}

StoreError tooNew(const std::filesystem::path& file, long long fileSchema, int latestSchema) {
    return make(Kind::TooNew, file,
                "was written by a newer version of tpu-course (schema " + std::to_string(fileSchema) +
                    "; this version understands up to " + std::to_string(latestSchema) + ")");
}

StoreError cannotOpen(const std::filesystem::path& file, std::string_view why) {
    return make(Kind::CannotOpen, file, "cannot be opened (" + trimmed(why) + ")");
}

StoreError incomplete(const std::filesystem::path& file, std::string_view what) {
    return make(Kind::Corrupt, file, "was changed outside tpu-course (" + trimmed(what) + "); it was left as it is");
}

StoreError ioFailure(const std::filesystem::path& file, std::string_view why) {
    return make(Kind::Io, file, "could not be read or written (" + trimmed(why) + ")");
}

}  // namespace errors
}  // namespace progress
