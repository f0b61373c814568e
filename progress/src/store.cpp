#include "progress/store.h"

#include "chain.h"
#include "errors.h"
#include "event_log.h"
#include "preflight.h"
#include "schema.h"

#include <chrono>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace progress {
namespace {

// Settings SQLite keeps per connection, so every connection must set them.
void configure(const db::Connection& connection) {
    connection.setBusyTimeout(Store::kBusyTimeoutMs);
    connection.execute("PRAGMA foreign_keys = ON");
    if (connection.queryInt64("PRAGMA foreign_keys") != 1) {
        throw errors::ioFailure(connection.file(), "this SQLite build cannot enforce foreign keys");
    }
}

void useWriteAheadLog(const db::Connection& connection) {
    // Switching a new file to WAL needs an exclusive lock, and SQLite answers
    // "busy" at once rather than waiting when another connection is switching
    // it too (the busy timeout does not cover this), so wait here.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(Store::kBusyTimeoutMs);
    std::string mode;
    for (;;) {
        try {
            mode = connection.queryText("PRAGMA journal_mode = WAL");
            break;
        } catch (const StoreError& error) {
            if (error.kind() != StoreError::Kind::Busy || std::chrono::steady_clock::now() > deadline) {
                throw;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    if (mode != "wal") {
        throw errors::ioFailure(connection.file(),
                                "write-ahead logging could not be turned on; the journal mode is " + mode);
    }
}

void createParentFolders(const std::filesystem::path& file) {
    const std::filesystem::path parent = file.parent_path();
    if (parent.empty()) {
        return;
    }
    std::error_code error;
    std::filesystem::create_directories(parent, error);
    if (error) {
        throw errors::cannotOpen(file, "its folder could not be created: " + error.message());
    }
}

}  // namespace

std::int64_t Store::systemClockMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

Store::Store(db::Connection connection) : connection_(std::move(connection)), clock_(&Store::systemClockMs) {}

Store Store::open(const std::filesystem::path& file) {
    preflight::checkBeforeWriting(file);
    std::error_code ignored;
    if (!std::filesystem::exists(file, ignored)) {
        createParentFolders(file);
    }
    db::Connection connection = db::Connection::open(file, db::Access::ReadWriteCreate);
    configure(connection);
    useWriteAheadLog(connection);
    schema::migrate(connection, systemClockMs());
    Store store(std::move(connection));
    store.verifyHistory();
    return store;
}

Store Store::openInMemory() {
    db::Connection connection = db::Connection::openInMemory();
    configure(connection);
    schema::migrate(connection, systemClockMs());
    return Store(std::move(connection));
}

void Store::refuseWrites() {
    connection_.execute("PRAGMA query_only = ON");
    writesRefused_ = true;
}

const std::string& Store::verifyHistory() {
    history_ = chain::verify(connection_);
    return history_;
}

void Store::copyTo(const std::filesystem::path& target) const {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(target, ec) && fs::equivalent(target, file(), ec)) {
        throw StoreError(StoreError::Kind::CannotOpen, target,
                         target.string() + " is the progress file itself; choose another file for the copy.");
    }
    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    fs::create_directories(folder, ec);  // as a report is written: its folders made
    if (!fs::is_directory(folder, ec)) {
        throw StoreError(StoreError::Kind::CannotOpen, target,
                         "The folder " + folder.string() + " could not be created, so the copy was not written.");
    }
    if (fs::is_directory(target, ec)) {
        throw StoreError(StoreError::Kind::CannotOpen, target,
                         target.string() + " is a folder; name a file for the copy.");
    }
    // Appended piece by piece: GCC 12 warns falsely on "." + string (bug 105651).
    std::string hidden(".");
    hidden.append(target.filename().string()).append(".partial");
    const fs::path partial = folder / hidden;
    fs::remove(partial, ec);
    try {
        db::Statement vacuum(connection_, "VACUUM INTO ?1");
        vacuum.bind(1, partial.string()).run();
    } catch (const StoreError& e) {
        fs::remove(partial, ec);
        throw StoreError(e.kind(), target,
                         "The copy of " + file().string() + " was not written to " + target.string() + ": " + e.what());
    }
    fs::rename(partial, target, ec);
    if (ec) {
        fs::remove(partial, ec);
        throw StoreError(StoreError::Kind::Io, target,
                         "The copy could not be put in place as " + target.string() + ": " + ec.message() + ".");
    }
}

int Store::schemaVersion() const {
    return static_cast<int>(connection_.queryInt64("PRAGMA user_version"));
}

void Store::setClock(Clock clock) {
    clock_ = clock ? std::move(clock) : Clock(&Store::systemClockMs);
}

std::int64_t Store::now() const {
    return clock_();
}

void Store::syncChapters(const std::vector<ChapterRow>& chapters) {
    db::Transaction transaction(connection_);
    db::Statement upsert(connection_, R"sql(
        INSERT INTO chapters (number, slug, title) VALUES (?1, ?2, ?3)
        ON CONFLICT (number) DO UPDATE SET slug = excluded.slug, title = excluded.title
        WHERE slug IS NOT excluded.slug OR title IS NOT excluded.title)sql");
    for (const ChapterRow& chapter : chapters) {
        upsert.bind(1, std::int64_t{chapter.number}).bind(2, chapter.slug).bind(3, chapter.title);
        upsert.run();
        upsert.reset();
    }
    transaction.commit();
}

void Store::noteChapterOpened(int number) {
    const std::int64_t at = now();
    db::Transaction transaction(connection_);
    db::Statement stamp(connection_, R"sql(
        UPDATE chapters SET first_opened_ms = coalesce(first_opened_ms, ?2), last_opened_ms = ?2
        WHERE number = ?1)sql");
    stamp.bind(1, std::int64_t{number}).bind(2, at).run();
    if (connection_.changes() == 0) {
        throw StoreError(StoreError::Kind::Constraint, file(),
                         "Chapter " + std::to_string(number) + " is not in " + file().string() +
                             ", so it cannot be marked as opened.");
    }
    event_log::append(connection_, at, event_kind::kChapterOpened, std::to_string(number), "");
    transaction.commit();
}

std::vector<ChapterState> Store::chapterStates() const {
    db::Statement query(connection_, R"sql(
        SELECT number, slug, title, first_opened_ms, last_opened_ms FROM chapters ORDER BY number)sql");
    std::vector<ChapterState> states;
    while (query.step()) {
        ChapterState state;
        state.number = static_cast<int>(query.int64At(0));
        state.slug = query.textAt(1);
        state.title = query.textAt(2);
        state.firstOpenedMs = query.optionalInt64At(3);
        state.lastOpenedMs = query.optionalInt64At(4);
        states.push_back(std::move(state));
    }
    return states;
}

}  // namespace progress
