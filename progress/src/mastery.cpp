#include "progress/store.h"

#include "event_log.h"

#include <string>

namespace progress {

namespace {

// Runs an insert of a row that belongs to a chapter. The foreign key to
// chapters is what refuses an unknown chapter; this says so in the
// learner's terms, ending with what could not be done.
void insertForChapter(db::Statement& insert, int chapter, const std::filesystem::path& file, const std::string& what) {
    try {
        insert.run();
    } catch (const StoreError& error) {
        if (error.kind() != StoreError::Kind::Constraint) {
            throw;
        }
        throw StoreError(StoreError::Kind::Constraint, file,
                         "Chapter " + std::to_string(chapter) + " is not in " + file.string() + ", so " + what);
    }
}

}  // namespace

void Store::setMasteryItemDone(int chapter, const std::string& itemId, bool done) {
    const std::int64_t at = now();
    db::Transaction transaction(connection_);
    if (done) {
        db::Statement insert(connection_, R"sql(
            INSERT INTO mastery_items (chapter, item_id, done_at_ms) VALUES (?1, ?2, ?3)
            ON CONFLICT (chapter, item_id) DO NOTHING)sql");
        insert.bind(1, std::int64_t{chapter}).bind(2, itemId).bind(3, at);
        insertForChapter(insert, chapter, file(), "its mastery item \"" + itemId + "\" cannot be marked done.");
    } else {
        db::Statement remove(connection_, "DELETE FROM mastery_items WHERE chapter = ?1 AND item_id = ?2");
        remove.bind(1, std::int64_t{chapter}).bind(2, itemId).run();
    }
    if (connection_.changes() == 0) {
        return;  // already in the requested state; nothing to log
    }
    event_log::append(connection_, at, done ? event_kind::kMasteryDone : event_kind::kMasteryUndone, itemId,
                      "chapter " + std::to_string(chapter));
    transaction.commit();
}

void Store::reachMasteryGoal(int chapter, const std::string& itemId, const std::string& goalId) {
    const std::int64_t at = now();
    db::Transaction transaction(connection_);
    db::Statement insert(connection_, R"sql(
        INSERT INTO mastery_goals (chapter, item_id, goal_id, reached_at_ms) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (chapter, item_id, goal_id) DO NOTHING)sql");
    insert.bind(1, std::int64_t{chapter}).bind(2, itemId).bind(3, goalId).bind(4, at);
    insertForChapter(insert, chapter, file(),
                     "the goal \"" + goalId + "\" of its mastery item \"" + itemId + "\" cannot be recorded.");
    if (connection_.changes() == 0) {
        return;  // reached before
    }
    event_log::append(connection_, at, event_kind::kGoalReached, itemId + "/" + goalId,
                      "chapter " + std::to_string(chapter));
    transaction.commit();
}

namespace {

std::set<std::string> goalKeys(db::Statement& query) {
    std::set<std::string> keys;
    while (query.step()) {
        keys.insert(query.textAt(0) + "/" + query.textAt(1));
    }
    return keys;
}

}  // namespace

std::set<std::string> Store::masteryGoalsReached() const {
    db::Statement query(connection_, "SELECT item_id, goal_id FROM mastery_goals");
    return goalKeys(query);
}

std::set<std::string> Store::masteryGoalsReached(int chapter) const {
    db::Statement query(connection_, "SELECT item_id, goal_id FROM mastery_goals WHERE chapter = ?1");
    query.bind(1, std::int64_t{chapter});
    return goalKeys(query);
}

std::string Store::setting(const std::string& key) const {
    db::Statement query(connection_, "SELECT value FROM settings WHERE key = ?1");
    query.bind(1, key);
    return query.step() ? query.textAt(0) : std::string();
}

void Store::setSetting(const std::string& key, const std::string& value) {
    db::Transaction transaction(connection_);
    db::Statement upsert(connection_, R"sql(
        INSERT INTO settings (key, value) VALUES (?1, ?2)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value)sql");
    upsert.bind(1, key).bind(2, value).run();
    transaction.commit();
}

std::set<std::string> Store::masteryItemsDone() const {
    db::Statement query(connection_, "SELECT item_id FROM mastery_items");
    std::set<std::string> items;
    while (query.step()) {
        items.insert(query.textAt(0));
    }
    return items;
}

std::set<std::string> Store::masteryItemsDone(int chapter) const {
    db::Statement query(connection_, "SELECT item_id FROM mastery_items WHERE chapter = ?1");
    query.bind(1, std::int64_t{chapter});
    std::set<std::string> items;
    while (query.step()) {
        items.insert(query.textAt(0));
    }
    return items;
}

}  // namespace progress
