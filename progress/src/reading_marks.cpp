#include "progress/store.h"

#include <string>

namespace progress {

namespace {

constexpr std::size_t kMaxNote = 10000;
constexpr std::size_t kMaxBlock = 200;
constexpr std::size_t kMaxExcerpt = 200;

// The excerpt is for lists only: cut at the column's limit, never refused.
std::string clipped(const std::string& excerpt) {
    if (excerpt.size() <= kMaxExcerpt) return excerpt;
    std::size_t end = kMaxExcerpt;
    while (end > 0 && (static_cast<unsigned char>(excerpt[end]) & 0xC0) == 0x80) --end;  // not inside a UTF-8 character
    return excerpt.substr(0, end);
}

void checkBlock(const std::filesystem::path& file, const std::string& block, const char* what) {
    if (block.empty() || block.size() > kMaxBlock)
        throw StoreError(
            StoreError::Kind::Constraint, file,
            std::string("A paragraph's name must be 1 to 200 characters, so the ") + what + " was not kept.");
}

// Sets one column of a paragraph's mark (the bookmark or the note), keeping
// the other, and removes the row once it holds neither.
template <typename Value>
void keepMark(const db::Connection& connection, std::int64_t at, int chapter, const std::string& block,
              std::string_view column, Value value, const std::string& excerpt) {
    db::Transaction transaction(connection);
    const std::string c(column);
    db::Statement upsert(connection, "INSERT INTO reading_marks (chapter, block, " + c +
                                         ", excerpt, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5) "
                                         "ON CONFLICT (chapter, block) DO UPDATE SET " +
                                         c + " = excluded." + c +
                                         ", excerpt = excluded.excerpt, updated_ms = excluded.updated_ms");
    upsert.bind(1, std::int64_t{chapter}).bind(2, block).bind(3, value).bind(4, clipped(excerpt)).bind(5, at).run();
    db::Statement prune(connection,
                        "DELETE FROM reading_marks WHERE chapter = ?1 AND block = ?2 AND bookmarked = 0 AND note = ''");
    prune.bind(1, std::int64_t{chapter}).bind(2, block).run();
    transaction.commit();
}

}  // namespace

void Store::setBookmark(int chapter, const std::string& block, bool bookmarked, const std::string& excerpt) {
    checkBlock(file(), block, "bookmark");
    keepMark(connection_, now(), chapter, block, "bookmarked", std::int64_t{bookmarked ? 1 : 0}, excerpt);
}

void Store::setNote(int chapter, const std::string& block, const std::string& note, const std::string& excerpt) {
    checkBlock(file(), block, "note");
    if (note.size() > kMaxNote)
        throw StoreError(StoreError::Kind::Constraint, file(),
                         "A note holds at most 10,000 characters; this one has " + std::to_string(note.size()) +
                             ", so it was not kept.");
    keepMark(connection_, now(), chapter, block, "note", std::string_view(note), excerpt);
}

std::vector<Store::ReadingMark> Store::readingMarks() const {
    return readingMarks(0);
}

std::vector<Store::ReadingMark> Store::readingMarks(int chapter) const {
    db::Statement query(connection_, R"sql(
        SELECT chapter, block, bookmarked, note, excerpt, updated_ms FROM reading_marks
        WHERE ?1 = 0 OR chapter = ?1 ORDER BY chapter, block)sql");
    query.bind(1, std::int64_t{chapter});
    std::vector<ReadingMark> out;
    while (query.step()) {
        ReadingMark m;
        m.chapter = static_cast<int>(query.int64At(0));
        m.block = query.textAt(1);
        m.bookmarked = query.int64At(2) != 0;
        m.note = query.textAt(3);
        m.excerpt = query.textAt(4);
        m.updatedMs = query.int64At(5);
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace progress
