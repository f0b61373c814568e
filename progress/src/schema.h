#pragma once

// Reading what a database file is, and bringing its schema up to date.

#include "progress/database.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace progress::schema {

struct FileIdentity {
    std::int64_t applicationId = 0;
    std::int64_t userVersion = 0;
    std::int64_t schemaObjects = 0;  // tables, indexes, views and triggers
};

FileIdentity readIdentity(const db::Connection& connection);

// Throws unless the file is ours at a schema we understand, or a blank
// SQLite database we may claim.
void requireWritable(const std::filesystem::path& file, const FileIdentity& identity);

// Applies every pending migration in one BEGIN IMMEDIATE transaction,
// re-reading user_version under the write lock so that two processes
// migrating at once apply each step exactly once. Returns the version the
// file had before.
int migrate(const db::Connection& connection, std::int64_t nowMs);

// Throws unless every table and column the migrations make is in the file:
// one removed by hand would otherwise fail the first statement that needs
// it, long after the file was opened.
void requireComplete(const db::Connection& connection);

// The triggers that keep history append-only which the file no longer has.
std::vector<std::string> missingTriggers(const db::Connection& connection);

}  // namespace progress::schema
