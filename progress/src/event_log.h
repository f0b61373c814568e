#pragma once

#include "progress/database.h"

#include <cstdint>
#include <string_view>

namespace progress::event_log {

// Appends one row; the caller owns the transaction.
void append(const db::Connection& connection, std::int64_t atMs, std::string_view kind, std::string_view subject,
            std::string_view detail);

}  // namespace progress::event_log
