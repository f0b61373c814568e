#pragma once

// The history's hash chain. Every row appended to a history table (the
// event log, run records, predictions, gate attempts, drill reviews,
// profile imports, their ops and pricings) gets an entry in history_chain: the
// SHA-256 of the row's content, and a chain hash over that and the
// previous entry's chain hash. Verifying the chain on open makes an edit,
// a deletion or a row inserted by hand evident, even with the append-only
// triggers dropped. It cannot stop someone who rewrites the chain too; it
// makes the history's state something the app can state honestly.

#include "progress/database.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace progress::chain {

// The SHA-256 of `text`, as 64 lowercase hex digits.
std::string sha256Hex(std::string_view text);

// Appends the entry for row `rowId` of history table `table`, just
// inserted, inside the caller's write transaction.
void append(const db::Connection& connection, std::string_view table, std::int64_t rowId);

// Appends many entries in one write transaction (a profile's thousands of
// ops), reading the chain's last hash once and preparing each table's
// statement once.
class Appender {
public:
    explicit Appender(const db::Connection& connection);
    ~Appender();
    Appender(const Appender&) = delete;
    Appender& operator=(const Appender&) = delete;
    void add(std::string_view table, std::int64_t rowId);

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Chains every row the history tables hold, in the order they were added:
// run once, when the chain arrives in a file that already has history.
void appendExisting(const db::Connection& connection);

// "" when every row of every history table is in the chain unchanged and
// the append-only triggers are all there; else one clause per finding.
std::string verify(const db::Connection& connection);

}  // namespace progress::chain
