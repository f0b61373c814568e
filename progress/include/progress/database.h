#pragma once

// Thin RAII wrappers over the sqlite3 C API: one connection, one prepared
// statement, one write transaction. Every failure becomes a StoreError.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace progress::db {

enum class Access {
    // Reads the file as it is on disk, without locks and without creating
    // -wal or -shm files. Only sound while no other connection writes.
    ReadOnlySnapshot,
    // Reads with normal locking; on a WAL database this may create -shm.
    ReadOnly,
    // Reads and writes, creating the file if it is missing.
    ReadWriteCreate,
};

class Connection {
public:
    static Connection open(const std::filesystem::path& file, Access access);
    static Connection openInMemory();

    Connection(Connection&& other) noexcept;
    Connection& operator=(Connection&& other) noexcept;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection();

    // Runs one or more statements that return no rows the caller needs.
    void execute(std::string_view sql) const;
    // Runs a query whose first column of the first row is an integer (PRAGMAs, counts).
    std::int64_t queryInt64(std::string_view sql) const;
    std::string queryText(std::string_view sql) const;

    void setBusyTimeout(int milliseconds) const;
    // Rows changed by the most recent INSERT, UPDATE or DELETE.
    std::int64_t changes() const;
    std::int64_t lastInsertRowId() const;

    sqlite3* handle() const noexcept { return db_; }
    // The file this connection reads, or ":memory:"; used in every error sentence.
    const std::filesystem::path& file() const noexcept { return file_; }

    // Throws the StoreError that describes result code rc on this connection.
    [[noreturn]] void fail(int rc) const;

private:
    Connection(sqlite3* db, std::filesystem::path file) noexcept;
    void close() noexcept;

    sqlite3* db_ = nullptr;
    std::filesystem::path file_;
};

class Statement {
public:
    Statement(const Connection& connection, std::string_view sql);
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&&) = delete;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    // Positions start at 1, as in SQL.
    Statement& bind(int position, std::int64_t value);
    Statement& bind(int position, double value);
    Statement& bind(int position, std::string_view value);
    Statement& bindNull(int position);

    // Advances one row; false when the statement has finished.
    bool step();
    // Steps to the end, for statements that only write.
    void run();
    // Makes the statement ready to bind and step again.
    void reset();

    std::int64_t int64At(int column) const;
    std::optional<std::int64_t> optionalInt64At(int column) const;
    double doubleAt(int column) const;
    std::optional<double> optionalDoubleAt(int column) const;
    std::string textAt(int column) const;

private:
    const Connection* connection_;
    sqlite3_stmt* statement_ = nullptr;
};

// BEGIN IMMEDIATE on construction, so the write lock is taken up front and a
// busy database is reported at the start rather than half-way through.
// Rolls back unless commit() was reached.
class Transaction {
public:
    explicit Transaction(const Connection& connection);
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();

    void commit();

private:
    const Connection* connection_;
    bool open_ = true;
};

}  // namespace progress::db
