#include "progress/database.h"

#include "errors.h"

#include <sqlite3.h>

#include <climits>
#include <cstdint>
#include <string>
#include <utility>

namespace progress::db {
namespace {

// SQLITE_TRANSIENT spelled without the C-style cast inside SQLite's macro:
// SQLite copies the bytes before bind returns.
sqlite3_destructor_type copyOnBind() {
    return reinterpret_cast<sqlite3_destructor_type>(static_cast<std::intptr_t>(-1));
}

// A URI filename lets us ask for immutable=1; every byte that could be read
// as URI syntax is percent-encoded.
std::string uriFor(const std::filesystem::path& file, Access access) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string uri = "file://";
    for (const unsigned char c : std::filesystem::absolute(file).string()) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                           c == '-' || c == '.' || c == '_' || c == '~';
        if (plain) {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 0x0f];
        }
    }
    switch (access) {
        case Access::ReadOnlySnapshot:
            return uri + "?mode=ro&immutable=1";
        case Access::ReadOnly:
            return uri + "?mode=ro";
        case Access::ReadWriteCreate:
            return uri + "?mode=rwc";
    }
    return uri;
}

int flagsFor(Access access) {
    const int common = SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX;
    return access == Access::ReadWriteCreate ? common | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                             : common | SQLITE_OPEN_READONLY;
}

int checkedLength(std::string_view text) {
    return text.size() > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(text.size());
}

}  // namespace

Connection::Connection(sqlite3* db, std::filesystem::path file) noexcept : db_(db), file_(std::move(file)) {}

Connection Connection::open(const std::filesystem::path& file, Access access) {
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(uriFor(file, access).c_str(), &db, flagsFor(access), nullptr);
    if (rc != SQLITE_OK) {
        // SQLite hands back a handle even on failure, carrying the message.
        const std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_close_v2(db);
        throw errors::fromSqlite(file, rc, message);
    }
    sqlite3_extended_result_codes(db, 1);
    // SQLite quietly falls back to read-only when the file is not writable.
    if (access == Access::ReadWriteCreate && sqlite3_db_readonly(db, "main") == 1) {
        sqlite3_close_v2(db);
        throw errors::cannotOpen(file, "it is read-only");
    }
    return Connection(db, file);
}

Connection Connection::openInMemory() {
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_close_v2(db);
        throw errors::fromSqlite(":memory:", rc, sqlite3_errstr(rc));
    }
    sqlite3_extended_result_codes(db, 1);
    return Connection(db, ":memory:");
}

Connection::Connection(Connection&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), file_(std::move(other.file_)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
    if (this != &other) {
        close();
        db_ = std::exchange(other.db_, nullptr);
        file_ = std::move(other.file_);
    }
    return *this;
}

Connection::~Connection() {
    close();
}

void Connection::close() noexcept {
    if (db_) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
    }
}

void Connection::execute(std::string_view sql) const {
    const std::string text(sql);
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) {
        fail(rc);
    }
}

std::int64_t Connection::queryInt64(std::string_view sql) const {
    Statement query(*this, sql);
    if (!query.step()) {
        throw errors::ioFailure(file_, "a query returned no rows: " + std::string(sql));
    }
    return query.int64At(0);
}

std::string Connection::queryText(std::string_view sql) const {
    Statement query(*this, sql);
    if (!query.step()) {
        throw errors::ioFailure(file_, "a query returned no rows: " + std::string(sql));
    }
    return query.textAt(0);
}

void Connection::setBusyTimeout(int milliseconds) const {
    const int rc = sqlite3_busy_timeout(db_, milliseconds);
    if (rc != SQLITE_OK) {
        fail(rc);
    }
}

std::int64_t Connection::changes() const {
    return sqlite3_changes64(db_);
}

std::int64_t Connection::lastInsertRowId() const {
    return sqlite3_last_insert_rowid(db_);
}

void Connection::fail(int rc) const {
    throw errors::fromSqlite(file_, rc, sqlite3_errmsg(db_));
}

Statement::Statement(const Connection& connection, std::string_view sql) : connection_(&connection) {
    const int rc = sqlite3_prepare_v2(connection.handle(), sql.data(), checkedLength(sql), &statement_, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(statement_);
        statement_ = nullptr;
        connection.fail(rc);
    }
}

Statement::Statement(Statement&& other) noexcept
    : connection_(other.connection_), statement_(std::exchange(other.statement_, nullptr)) {}

Statement::~Statement() {
    sqlite3_finalize(statement_);
}

Statement& Statement::bind(int position, std::int64_t value) {
    const int rc = sqlite3_bind_int64(statement_, position, value);
    if (rc != SQLITE_OK) {
        connection_->fail(rc);
    }
    return *this;
}

Statement& Statement::bind(int position, double value) {
    const int rc = sqlite3_bind_double(statement_, position, value);
    if (rc != SQLITE_OK) {
        connection_->fail(rc);
    }
    return *this;
}

Statement& Statement::bind(int position, std::string_view value) {
    const int rc = sqlite3_bind_text64(statement_, position, value.data(), value.size(), copyOnBind(), SQLITE_UTF8);
    if (rc != SQLITE_OK) {
        connection_->fail(rc);
    }
    return *this;
}

Statement& Statement::bindNull(int position) {
    const int rc = sqlite3_bind_null(statement_, position);
    if (rc != SQLITE_OK) {
        connection_->fail(rc);
    }
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc == SQLITE_DONE) {
        return false;
    }
    connection_->fail(rc);
}

void Statement::run() {
    while (step()) {
    }
}

void Statement::reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
}

std::int64_t Statement::int64At(int column) const {
    return sqlite3_column_int64(statement_, column);
}

std::optional<std::int64_t> Statement::optionalInt64At(int column) const {
    if (sqlite3_column_type(statement_, column) == SQLITE_NULL) {
        return std::nullopt;
    }
    return sqlite3_column_int64(statement_, column);
}

double Statement::doubleAt(int column) const {
    return sqlite3_column_double(statement_, column);
}

std::optional<double> Statement::optionalDoubleAt(int column) const {
    if (sqlite3_column_type(statement_, column) == SQLITE_NULL) {
        return std::nullopt;
    }
    return sqlite3_column_double(statement_, column);
}

std::string Statement::textAt(int column) const {
    const unsigned char* text = sqlite3_column_text(statement_, column);
    const int bytes = sqlite3_column_bytes(statement_, column);
    if (!text) {
        return {};
    }
    return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(bytes));
}

Transaction::Transaction(const Connection& connection) : connection_(&connection) {
    connection.execute("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    // SQLite may already have rolled back after some errors (a full disk,
    // for one); only roll back when a transaction is still open.
    if (open_ && sqlite3_get_autocommit(connection_->handle()) == 0) {
        sqlite3_exec(connection_->handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
}

void Transaction::commit() {
    connection_->execute("COMMIT");
    open_ = false;
}

}  // namespace progress::db
