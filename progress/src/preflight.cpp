#include "preflight.h"

#include "errors.h"
#include "progress/database.h"
#include "progress/migrations.h"
#include "progress/store.h"
#include "schema.h"

#include <array>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>

namespace progress::preflight {
namespace {

namespace fs = std::filesystem;

constexpr std::array<char, 16> kSqliteHeader{'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                             'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};

fs::path besides(const fs::path& file, const char* suffix) {
    fs::path sibling = file;
    sibling += suffix;
    return sibling;
}

bool present(const fs::path& file) {
    std::error_code ignored;
    return fs::exists(file, ignored);
}

// The files another connection leaves while it works on the database.
bool anotherConnectionMayBeActive(const fs::path& file) {
    return present(besides(file, "-wal")) || present(besides(file, "-journal"));
}

// Size and modification time: enough to notice that someone wrote meanwhile.
struct Fingerprint {
    std::uintmax_t size = 0;
    fs::file_time_type modified;
    bool operator==(const Fingerprint&) const = default;
};

std::optional<Fingerprint> fingerprint(const fs::path& file) {
    std::error_code error;
    Fingerprint print;
    print.size = fs::file_size(file, error);
    if (error) {
        return std::nullopt;
    }
    print.modified = fs::last_write_time(file, error);
    if (error) {
        return std::nullopt;
    }
    return print;
}

void requireSqliteHeader(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw errors::cannotOpen(file, "it cannot be read");
    }
    std::array<char, 16> header{};
    in.read(header.data(), static_cast<std::streamsize>(header.size()));
    if (in.gcount() != static_cast<std::streamsize>(header.size()) || header != kSqliteHeader) {
        throw errors::notSqlite(file, "it is not an SQLite file");
    }
}

void runReadOnlyChecks(const fs::path& file, db::Access access) {
    const db::Connection connection = db::Connection::open(file, access);
    connection.setBusyTimeout(Store::kBusyTimeoutMs);

    db::Statement check(connection, "PRAGMA quick_check(1)");
    if (check.step()) {
        const std::string verdict = check.textAt(0);
        if (verdict != "ok") {
            throw errors::damaged(file, verdict);
        }
    }
    const schema::FileIdentity identity = schema::readIdentity(connection);
    schema::requireWritable(file, identity);
    // A file at an older schema lacks the later tables until it migrates.
    if (identity.userVersion == kLatestSchema) {
        schema::requireComplete(connection);
    }
}

}  // namespace

void checkBeforeWriting(const fs::path& file) {
    std::error_code error;
    const fs::file_status status = fs::status(file, error);
    if (status.type() == fs::file_type::not_found) {
        return;
    }
    if (error) {
        throw errors::cannotOpen(file, error.message());
    }
    if (status.type() != fs::file_type::regular) {
        throw errors::cannotOpen(file, "it is a folder or a device, not a file");
    }
    const std::optional<Fingerprint> before = fingerprint(file);
    if (before && before->size == 0) {
        return;  // SQLite treats an empty file as a new database
    }
    requireSqliteHeader(file);

    // With no -wal or -journal beside it the main file is complete, so read it
    // as an immutable snapshot: no locks, and no -shm or -wal created next to
    // a file we may be about to refuse.
    if (anotherConnectionMayBeActive(file)) {
        runReadOnlyChecks(file, db::Access::ReadOnly);
        return;
    }
    try {
        runReadOnlyChecks(file, db::Access::ReadOnlySnapshot);
    } catch (const StoreError&) {
        // A snapshot can catch another process half-way through creating or
        // checkpointing the file. If it changed, look again with locking.
        const bool changedMeanwhile = anotherConnectionMayBeActive(file) || fingerprint(file) != before;
        if (!changedMeanwhile) {
            throw;
        }
        runReadOnlyChecks(file, db::Access::ReadOnly);
    }
}

}  // namespace progress::preflight
