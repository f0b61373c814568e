#include "schema.h"

#include "errors.h"
#include "event_log.h"
#include "progress/migrations.h"
#include "progress/store.h"

#include <string>

namespace progress::schema {

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

}  // namespace progress::schema
