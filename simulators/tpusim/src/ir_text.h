#pragma once
// Reading text with positions: the cursor every IR parser walks with. All
// failures go through fail(), which throws a ParseError at the cursor.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/ir.h"

namespace tpusim::ir::detail {

// jaxpr has none; MLIR has `//` lines; HLO has `/* */` inside shapes and `//`
// lines in test files.
enum class Comments { none, slashes, slashes_and_blocks };

class Cursor {
public:
    Cursor(std::string_view text, Comments comments);

    bool at_end() const { return pos_ >= text_.size(); }
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
    std::size_t offset() const { return pos_; }
    Position position() const { return {line_, column_}; }
    std::string_view text() const { return text_; }
    void advance(std::size_t count = 1);

    // Skips blanks and comments; returns true when a newline was crossed.
    bool skip_space();
    // After skip_space(): true (and consumed) when the text continues with `word`.
    bool accept(std::string_view word);
    void expect(std::string_view word, std::string_view context);
    bool starts_with(std::string_view word) const { return text_.substr(pos_).starts_with(word); }

    // [A-Za-z_][A-Za-z0-9_.-]* (HLO names carry dots and dashes); `extra`
    // widens the set. Fails with `what` when none is there.
    std::string_view name(std::string_view what, std::string_view extra = "");
    std::int64_t integer(std::string_view what);
    // A quoted string with its escapes resolved.
    std::string quoted();
    // From an opening bracket to its partner, strings skipped, nesting capped.
    // With angles, `<` and `>` count too (but not the `>` of `->`).
    std::string_view balanced(bool angles = false);

    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] static void fail_at(Position at, const std::string& what);

private:
    std::string_view text_;
    Comments comments_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int column_ = 1;
};

bool is_name_start(char c);
bool is_name_char(char c);
bool is_digit(char c);

// Guards the input size before any parsing.
void check_size(std::string_view text);

// "i32" -> "s32", "i1"/"bool" -> "pred", "ui8" -> "u8", "f8E4M3FN" -> "f8e4m3fn".
std::string canonical_element(std::string_view element);
bool is_element_type(std::string_view word);

// "{1}", "[0, 1]", "(1,)" or "()" -> the integers inside; InputError otherwise.
std::vector<std::int64_t> int_list(std::string_view text);

}  // namespace tpusim::ir::detail
