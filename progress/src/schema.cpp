#include "schema.h"

#include "errors.h"
#include "event_log.h"
#include "progress/migrations.h"
#include "progress/store.h"

#include <string>

namespace progress::schema {

FileIdentity readIdentity(const db::Connection& connection) {
    FileIdentity identity;
    identity.applicationId = connection.queryInt64("PRAGMA application_id");
    identity.userVersion = connection.queryInt64("PRAGMA user_version");
    identity.schemaObjects = connection.queryInt64("SELECT count(*) FROM sqlite_schema");
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
