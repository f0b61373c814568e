#pragma once

// The learner's progress: which chapters they opened, which mastery items
// they finished, and an append-only log of what happened when. One SQLite
// file; the app picks the path (the user's data folder, or --db PATH).
//
// A Store is one connection. Use it from one thread at a time; give each
// thread or process its own Store. SQLite's locking (WAL, a busy timeout,
// BEGIN IMMEDIATE for every write) keeps several Stores on one file safe.

#include "progress/database.h"
#include "progress/migrations.h"
#include "progress/store_error.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace progress {

struct ChapterRow {
    int number = 0;
    std::string slug;
    std::string title;
};

struct ChapterState {
    int number = 0;
    std::string slug;
    std::string title;
    std::optional<std::int64_t> firstOpenedMs;  // empty until the chapter is first opened
    std::optional<std::int64_t> lastOpenedMs;
};

struct Event {
    std::int64_t id = 0;    // grows with every append
    std::int64_t atMs = 0;  // ms since the Unix epoch, UTC
    std::string kind;
    std::string subject;
    std::string detail;
};

struct EventSummary {
    std::size_t total = 0;
    std::map<std::string, std::size_t> countByKind;
    std::optional<std::int64_t> firstAtMs;  // empty when the log is empty
    std::optional<std::int64_t> lastAtMs;
};

// The kinds the store itself writes.
namespace event_kind {
inline constexpr std::string_view kSchemaMigrated = "schema.migrated";  // subject: new version
inline constexpr std::string_view kChapterOpened = "chapter.opened";    // subject: chapter number
inline constexpr std::string_view kMasteryDone = "mastery.done";        // subject: item id
inline constexpr std::string_view kMasteryUndone = "mastery.undone";    // subject: item id
inline constexpr std::string_view kGoalReached = "mastery.goal";        // subject: item/goal
}  // namespace event_kind

class Store {
public:
    static constexpr int kLatestSchema = progress::kLatestSchema;
    static constexpr int kBusyTimeoutMs = 5000;

    // Milliseconds since the Unix epoch, UTC.
    using Clock = std::function<std::int64_t()>;
    static std::int64_t systemClockMs();

    // Opens or creates the database, creating missing parent folders.
    // An existing file is checked read-only first (SQLite header, quick_check,
    // owner and schema version); a file that is not SQLite, is damaged, belongs
    // to another program or is newer than this build is refused with a
    // StoreError and left exactly as it was. Then WAL, foreign keys and the
    // busy timeout are set and pending migrations run.
    static Store open(const std::filesystem::path& file);
    // A private database that vanishes with the Store; for tests.
    static Store openInMemory();

    // Checks the history's hash chain and its append-only triggers (see
    // src/chain.h): "" when every row is as it was kept, else what is not,
    // in clauses fit to follow "the history does not verify: ". Read once
    // when the store opens; verifyHistory() checks again.
    const std::string& historyFinding() const noexcept { return history_; }

    // Writes the whole store, its write-ahead log folded in, to `target` as
    // one SQLite file (VACUUM INTO): what to copy elsewhere, since the
    // .sqlite file alone may lack what is still in its -wal. Its folders are
    // made; it is written beside the target and renamed into place, so
    // `target` is whole or untouched.
    // Throws StoreError with one sentence; never writes over the store itself.
    void copyTo(const std::filesystem::path& target) const;
    const std::string& verifyHistory();

    Store(Store&&) noexcept = default;
    Store& operator=(Store&&) noexcept = default;
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;
    ~Store() = default;

    int schemaVersion() const;
    const std::filesystem::path& file() const noexcept { return connection_.file(); }

    // Timestamps for every later write come from this clock.
    void setClock(Clock clock);
    // The clock's reading now, for modules layered on the store.
    std::int64_t nowMs() const { return now(); }

    // From now on this connection refuses every write with a StoreError
    // (SQLite's query_only): for a run that shows progress and must make
    // none, such as a picture of a page. What the app writes unasked (a
    // chapter opened, the place read to) checks writesRefused() first.
    void refuseWrites();
    bool writesRefused() const noexcept { return writesRefused_; }

    // Chapters: the app passes the chapters it found at start. Known numbers get
    // the new slug and title; chapters missing from the list are kept, so a
    // plugin absent for one run does not lose its progress.
    void syncChapters(const std::vector<ChapterRow>& chapters);
    // Stamps first/last opened and logs chapter.opened. Unknown chapter: Constraint.
    void noteChapterOpened(int number);
    std::vector<ChapterState> chapterStates() const;  // by chapter number

    // Mastery items: done is a set per chapter. Marking done twice, or undone
    // when not done, changes nothing and logs nothing. Unknown chapter: Constraint.
    void setMasteryItemDone(int chapter, const std::string& itemId, bool done);
    std::set<std::string> masteryItemsDone() const;
    std::set<std::string> masteryItemsDone(int chapter) const;

    // The goals of mastery items that a piece has seen reached, as
    // "item/goal". Reaching one twice is a no-op; goals are never unset.
    void reachMasteryGoal(int chapter, const std::string& itemId, const std::string& goalId);

    // The learner's settings: a value per key, empty when never set.
    std::string setting(const std::string& key) const;
    void setSetting(const std::string& key, const std::string& value);

    // Bookmarks and notes on paragraphs of a chapter's text. A mark with no
    // bookmark and an empty note is removed. A note longer than 10,000
    // characters, or a block name longer than 200, is refused (Constraint).
    struct ReadingMark {
        int chapter = 0;
        std::string block;  // "heading-anchor/3": the third block after that heading
        bool bookmarked = false;
        std::string note;
        std::string excerpt;  // the paragraph's first words, as it read when marked
        std::int64_t updatedMs = 0;
    };
    void setBookmark(int chapter, const std::string& block, bool bookmarked, const std::string& excerpt);
    void setNote(int chapter, const std::string& block, const std::string& note, const std::string& excerpt);
    // Every mark, by chapter then block; or one chapter's.
    std::vector<ReadingMark> readingMarks() const;
    std::vector<ReadingMark> readingMarks(int chapter) const;
    std::set<std::string> masteryGoalsReached() const;
    std::set<std::string> masteryGoalsReached(int chapter) const;

    // Event log, append-only.
    void logEvent(std::string_view kind, std::string_view subject, std::string_view detail);
    // Newest first (the most recent `limit` events).
    std::vector<Event> events(std::size_t limit = SIZE_MAX) const;
    EventSummary eventSummary() const;

    // The underlying connection, for modules layered on the store and for
    // tests. Keep any write inside a db::Transaction.
    const db::Connection& connection() const noexcept { return connection_; }

private:
    explicit Store(db::Connection connection);
    std::int64_t now() const;

    db::Connection connection_;
    Clock clock_;
    std::string history_;
    bool writesRefused_ = false;
};

}  // namespace progress
