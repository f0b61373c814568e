#pragma once

// The sentences the store says when it refuses a file or fails, kept in one
// place so they read alike.

#include "progress/store_error.h"

#include <filesystem>
#include <string_view>

namespace progress::errors {

// Maps an SQLite result code (primary or extended) and SQLite's own message
// to the StoreError a learner should see.
StoreError fromSqlite(const std::filesystem::path& file, int resultCode, std::string_view sqliteMessage);

StoreError notSqlite(const std::filesystem::path& file, std::string_view why);
StoreError otherProgram(const std::filesystem::path& file);
StoreError damaged(const std::filesystem::path& file, std::string_view firstProblem);
StoreError tooNew(const std::filesystem::path& file, long long fileSchema, int latestSchema);
StoreError cannotOpen(const std::filesystem::path& file, std::string_view why);
StoreError incomplete(const std::filesystem::path& file, std::string_view what);
StoreError ioFailure(const std::filesystem::path& file, std::string_view why);

}  // namespace progress::errors
