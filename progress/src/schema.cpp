#include "schema.h"

#include "chain.h"
#include "errors.h"
#include "event_log.h"
#include "progress/migrations.h"
#include "progress/store.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace progress::schema {

namespace {
constexpr int kChainSchema = 6;  // the migration that brings history_chain
}  // namespace

FileIdentity readIdentity(const db::Connection& connection) {
    // One statement, so one snapshot: read apart, the three could straddle
    // another connection's migration (a header not yet stamped, then the
    // schema it stamped with) and an own file would look like another's.
    db::Statement query(connection, R"sql(
        SELECT (SELECT application_id FROM pragma_application_id()),
               (SELECT user_version FROM pragma_user_version()),
               (SELECT count(*) FROM sqlite_schema))sql");
    FileIdentity identity;
    if (query.step()) {
        identity.applicationId = query.int64At(0);
        identity.userVersion = query.int64At(1);
        identity.schemaObjects = query.int64At(2);
    }
    return identity;
}

void requireWritable(const std::filesystem::path& file, const FileIdentity& identity) {
    const bool ours = identity.applicationId == kApplicationId;
    const bool unmarked = identity.applicationId == 0;
    if (!ours && !unmarked) {
        throw errors::otherProgram(file);
    }
    if (identity.userVersion > kLatestSchema) {
        throw errors::tooNew(file, identity.userVersion, kLatestSchema);
    }
    // An unmarked file is ours to claim only while it is blank.
    if (unmarked && (identity.userVersion != 0 || identity.schemaObjects != 0)) {
        throw errors::otherProgram(file);
    }
}

int migrate(const db::Connection& connection, std::int64_t nowMs) {
    // The usual case, an up-to-date file, needs no write lock at all.
    const FileIdentity seen = readIdentity(connection);
    requireWritable(connection.file(), seen);
    if (seen.userVersion == kLatestSchema) {
        return kLatestSchema;
    }

    db::Transaction transaction(connection);
    const FileIdentity identity = readIdentity(connection);
    requireWritable(connection.file(), identity);
    const int before = static_cast<int>(identity.userVersion);
    if (before == kLatestSchema) {
        return before;  // another process migrated first; the destructor ends the transaction
    }

    connection.execute("PRAGMA application_id = " + std::to_string(kApplicationId));
    for (const Migration& step : kMigrations) {
        if (step.version <= before) {
            continue;
        }
        connection.execute(step.sql);
        connection.execute("PRAGMA user_version = " + std::to_string(step.version));
    }
    // History kept before the chain arrived is chained as it stands.
    if (before < kChainSchema) {
        chain::appendExisting(connection);
    }
    // Logged after the last step, since the log itself arrives in migration 1.
    for (const Migration& step : kMigrations) {
        if (step.version > before) {
            event_log::append(connection, nowMs, "schema.migrated", std::to_string(step.version),
                              std::string(step.summary));
        }
    }
    transaction.commit();
    return before;
}

namespace {

struct Shape {
    std::map<std::string, std::vector<std::string>> columns;  // table -> its columns, in order
    std::set<std::string> triggers;
};

Shape shapeOf(const db::Connection& connection) {
    Shape shape;
    db::Statement tables(connection, R"sql(
        SELECT m.name, p.name FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
        WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid)sql");
    while (tables.step()) shape.columns[tables.textAt(0)].push_back(tables.textAt(1));
    db::Statement triggers(connection, "SELECT name FROM sqlite_schema WHERE type = 'trigger'");
    while (triggers.step()) shape.triggers.insert(triggers.textAt(0));
    return shape;
}

// What the migrations make, read once from a database they built in memory.
const Shape& expectedShape() {
    static const Shape shape = [] {
        const db::Connection memory = db::Connection::openInMemory();
        migrate(memory, 0);
        return shapeOf(memory);
    }();
    return shape;
}

}  // namespace

void requireComplete(const db::Connection& connection) {
    const Shape found = shapeOf(connection);
    for (const auto& [table, columns] : expectedShape().columns) {
        const auto it = found.columns.find(table);
        if (it == found.columns.end()) {
            throw errors::incomplete(connection.file(), "the table " + table + " is missing");
        }
        for (const std::string& column : columns) {
            if (std::find(it->second.begin(), it->second.end(), column) == it->second.end()) {
                throw errors::incomplete(connection.file(),
                                         "the column " + column + " of the table " + table + " is missing");
            }
        }
    }
}

std::vector<std::string> missingTriggers(const db::Connection& connection) {
    const Shape found = shapeOf(connection);
    std::vector<std::string> missing;
    for (const std::string& trigger : expectedShape().triggers) {
        if (!found.triggers.count(trigger)) missing.push_back(trigger);
    }
    return missing;
}

}  // namespace progress::schema
