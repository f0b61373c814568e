#include "chain.h"

#include "schema.h"

#include <gcrypt.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace progress::chain {

// libgcrypt, not OpenSSL: the Qt libraries the app loads bring libgcrypt
// already (through libsystemd), so the hash costs no library of its own at
// start-up. Its digests need no initialisation beyond the version check.
std::string sha256Hex(std::string_view text) {
    static const bool ready = gcry_check_version(nullptr) != nullptr;
    if (!ready) {
        throw std::runtime_error("SHA-256 is not available: libgcrypt did not start");
    }
    std::array<unsigned char, 32> digest{};
    gcry_md_hash_buffer(GCRY_MD_SHA256, digest.data(), text.data(), text.size());
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * digest.size());
    for (const unsigned char byte : digest) {
        hex += kHex[byte >> 4];
        hex += kHex[byte & 15];
    }
    return hex;
}

namespace {

// Appended to in this order when a file's existing history is chained.
constexpr std::array<std::string_view, 10> kHistoryTables{
    "event_log",       "run_records", "predictions",    "gate_attempts",    "drill_reviews",
    "profile_imports", "profile_ops", "drill_regrades", "profile_pricings", "profile_op_prices"};

// A row as one JSON array of its columns, in table order; reals printed
// with all 17 significant digits so the text is the stored value exactly.
std::string rowQuery(const db::Connection& connection, std::string_view table) {
    db::Statement columns(connection, "SELECT name, type FROM pragma_table_info(?1) ORDER BY cid");
    columns.bind(1, table);
    std::string select;
    while (columns.step()) {
        std::string name = "\"";
        name.append(columns.textAt(0)).append("\"");
        select += select.empty() ? "" : ", ";
        select += columns.textAt(1) == "REAL"
                      ? "CASE WHEN " + name + " IS NULL THEN NULL ELSE printf('%.17g', " + name + ") END"
                      : name;
    }
    return "SELECT json_array(" + select + ") FROM \"" + std::string(table) + "\" WHERE id = ?1";
}

// Hashes rows, one prepared statement per table for as long as it lives.
class RowHasher {
public:
    explicit RowHasher(const db::Connection& connection) : connection_(connection) {}
    // The SHA-256 of row `rowId` of `table`, or nullopt when there is none.
    std::optional<std::string> hash(std::string_view table, std::int64_t rowId) {
        auto it = rows_.find(std::string(table));
        if (it == rows_.end()) {
            it = rows_
                     .emplace(std::string(table),
                              std::make_unique<db::Statement>(connection_, rowQuery(connection_, table)))
                     .first;
        }
        db::Statement& row = *it->second;
        row.reset();
        row.bind(1, rowId);
        if (!row.step()) return std::nullopt;
        return sha256Hex(row.textAt(0));
    }

private:
    const db::Connection& connection_;
    std::map<std::string, std::unique_ptr<db::Statement>> rows_;
};

std::string link(const std::string& previous, std::string_view table, std::int64_t rowId, const std::string& rowSha) {
    return sha256Hex(previous + "\n" + std::string(table) + "\n" + std::to_string(rowId) + "\n" + rowSha);
}

std::string lastChainHash(const db::Connection& connection) {
    db::Statement last(connection, "SELECT chain_sha256 FROM history_chain ORDER BY id DESC LIMIT 1");
    return last.step() ? last.textAt(0) : std::string();
}

void appendWithPrevious(const db::Connection& connection, RowHasher& rows, std::string_view table, std::int64_t rowId,
                        std::string& previous) {
    const std::optional<std::string> rowSha = rows.hash(table, rowId);
    if (!rowSha) {
        throw std::logic_error("chain::append: no row " + std::to_string(rowId) + " in " + std::string(table));
    }
    const std::string chainSha = link(previous, table, rowId, *rowSha);
    db::Statement insert(
        connection, "INSERT INTO history_chain (source, row_id, row_sha256, chain_sha256) VALUES (?1, ?2, ?3, ?4)");
    insert.bind(1, table).bind(2, rowId).bind(3, *rowSha).bind(4, chainSha).run();
    previous = chainSha;
}

// What a learner calls a history table's rows: one, many.
std::pair<std::string_view, std::string_view> rowWords(std::string_view table) {
    if (table == "event_log") return {"activity entry", "activity entries"};
    if (table == "run_records") return {"run record", "run records"};
    if (table == "predictions") return {"prediction", "predictions"};
    if (table == "gate_attempts") return {"gate attempt", "gate attempts"};
    if (table == "drill_reviews") return {"drill review", "drill reviews"};
    if (table == "drill_regrades") return {"drill regrade", "drill regrades"};
    if (table == "profile_imports") return {"imported profile", "imported profiles"};
    if (table == "profile_ops") return {"profile op", "profile ops"};
    if (table == "profile_pricings") return {"profile pricing", "profile pricings"};
    if (table == "profile_op_prices") return {"profile op price", "profile op prices"};
    return {"row", "rows"};
}

std::string countOf(std::int64_t n, std::string_view table) {
    const auto [one, many] = rowWords(table);
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// "run_records_no_update" -> "the guard against changing run records".
std::string guard(const std::string& trigger) {
    static const std::array<std::pair<std::string_view, std::string_view>, 3> kinds{
        {{"_no_update", "changing"}, {"_no_delete", "deleting"}, {"_no_replace", "replacing"}}};
    for (const auto& [suffix, verb] : kinds) {
        if (trigger.size() > suffix.size() && trigger.ends_with(suffix)) {
            const std::string table = trigger.substr(0, trigger.size() - suffix.size());
            const std::string_view what =
                table == "history_chain" ? std::string_view("the chain's hashes") : rowWords(table).second;
            return "the guard against " + std::string(verb) + " " + std::string(what) + " was removed";
        }
    }
    return "the guard " + trigger + " was removed";
}

}  // namespace

struct Appender::State {
    explicit State(const db::Connection& c) : connection(c), rows(c), previous(lastChainHash(c)) {}
    const db::Connection& connection;
    RowHasher rows;
    std::string previous;
};

Appender::Appender(const db::Connection& connection) : state_(std::make_unique<State>(connection)) {}
Appender::~Appender() = default;

void Appender::add(std::string_view table, std::int64_t rowId) {
    appendWithPrevious(state_->connection, state_->rows, table, rowId, state_->previous);
}

void append(const db::Connection& connection, std::string_view table, std::int64_t rowId) {
    Appender(connection).add(table, rowId);
}

void appendExisting(const db::Connection& connection) {
    std::string previous = lastChainHash(connection);
    RowHasher hasher(connection);
    for (const std::string_view table : kHistoryTables) {
        db::Statement ids(connection, "SELECT id FROM \"" + std::string(table) + "\" ORDER BY id");
        std::vector<std::int64_t> rows;
        while (ids.step()) rows.push_back(ids.int64At(0));
        for (const std::int64_t id : rows) appendWithPrevious(connection, hasher, table, id, previous);
    }
}

std::string verify(const db::Connection& connection) {
    std::vector<std::string> findings;
    for (const std::string& trigger : schema::missingTriggers(connection)) {
        findings.push_back(guard(trigger));
    }
    std::map<std::string, std::int64_t> chained;  // table -> entries
    std::map<std::string, std::int64_t> changed, missing;
    bool broken = false;
    std::string previous;
    RowHasher rows(connection);
    db::Statement entries(connection, "SELECT source, row_id, row_sha256, chain_sha256 FROM history_chain ORDER BY id");
    while (entries.step()) {
        const std::string table = entries.textAt(0);
        const std::int64_t rowId = entries.int64At(1);
        const std::string rowSha = entries.textAt(2);
        const std::string chainSha = entries.textAt(3);
        ++chained[table];
        if (!broken && link(previous, table, rowId, rowSha) != chainSha) broken = true;
        previous = chainSha;
        const std::optional<std::string> now = rows.hash(table, rowId);
        if (!now)
            ++missing[table];
        else if (*now != rowSha)
            ++changed[table];
    }
    if (broken) findings.push_back("its chain of hashes was rewritten");
    for (const auto& [table, n] : changed) {
        findings.push_back(countOf(n, table) + (n == 1 ? " changed since it was" : " changed since they were") +
                           " kept");
    }
    for (const auto& [table, n] : missing) findings.push_back(countOf(n, table) + " deleted");
    for (const std::string_view table : kHistoryTables) {
        const std::int64_t held = connection.queryInt64("SELECT count(*) FROM \"" + std::string(table) + "\"");
        const std::int64_t extra = held - (chained.count(std::string(table)) ? chained[std::string(table)] : 0) +
                                   (missing.count(std::string(table)) ? missing[std::string(table)] : 0);
        if (extra > 0) findings.push_back(countOf(extra, table) + " added outside the app");
    }
    std::string sentence;
    for (const std::string& f : findings) {
        if (!sentence.empty()) sentence.append("; ");
        sentence.append(f);
    }
    return sentence;
}

}  // namespace progress::chain
