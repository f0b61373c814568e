#include "event_log.h"
#include "chain.h"

#include "progress/store.h"

#include <algorithm>
#include <limits>

namespace progress {

namespace event_log {

void append(const db::Connection& connection, std::int64_t atMs, std::string_view kind, std::string_view subject,
            std::string_view detail) {
    db::Statement insert(connection, "INSERT INTO event_log (at_ms, kind, subject, detail) VALUES (?1, ?2, ?3, ?4)");
    insert.bind(1, atMs).bind(2, kind).bind(3, subject).bind(4, detail).run();
    chain::append(connection, "event_log", connection.lastInsertRowId());
}

}  // namespace event_log

void Store::logEvent(std::string_view kind, std::string_view subject, std::string_view detail) {
    const std::int64_t at = now();
    db::Transaction transaction(connection_);
    event_log::append(connection_, at, kind, subject, detail);
    transaction.commit();
}

std::vector<Event> Store::events(std::size_t limit) const {
    // SQLite limits are signed 64-bit; anything larger means "all".
    const auto cap = static_cast<std::int64_t>(
        std::min<std::size_t>(limit, static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())));
    db::Statement query(connection_,
                        "SELECT id, at_ms, kind, subject, detail FROM event_log ORDER BY id DESC LIMIT ?1");
    query.bind(1, cap);
    std::vector<Event> events;
    while (query.step()) {
        Event event;
        event.id = query.int64At(0);
        event.atMs = query.int64At(1);
        event.kind = query.textAt(2);
        event.subject = query.textAt(3);
        event.detail = query.textAt(4);
        events.push_back(std::move(event));
    }
    return events;
}

EventSummary Store::eventSummary() const {
    EventSummary summary;
    db::Statement byKind(connection_, "SELECT kind, count(*) FROM event_log GROUP BY kind");
    while (byKind.step()) {
        const auto count = static_cast<std::size_t>(byKind.int64At(1));
        summary.countByKind[byKind.textAt(0)] = count;
        summary.total += count;
    }
    // By id, not by timestamp: the log's order is the order of appends, even
    // if the clock stepped backwards between two of them.
    db::Statement ends(connection_, R"sql(
        SELECT (SELECT at_ms FROM event_log ORDER BY id ASC LIMIT 1),
               (SELECT at_ms FROM event_log ORDER BY id DESC LIMIT 1))sql");
    if (ends.step()) {
        summary.firstAtMs = ends.optionalInt64At(0);
        summary.lastAtMs = ends.optionalInt64At(1);
    }
    return summary;
}

}  // namespace progress
