#pragma once
// What the command line gave a subcommand, as CLI11 parsed it against the
// subcommand's options (options.h): its words (the subcommand, its verb,
// files), --name value pairs and bare --flags, read here with the units'
// checks. Every problem is an InputError with one sentence, which main()
// prints before exiting with status 2.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/dtype.h"

namespace tpusim::cli {

class Args {
public:
    Args(std::vector<std::string> words, std::map<std::string, std::string, std::less<>> options,
         std::vector<std::string> flags)
        : words_(std::move(words)), options_(std::move(options)), flags_(std::move(flags)) {}

    const std::vector<std::string>& words() const { return words_; }
    bool flag(std::string_view name) const;
    bool has(std::string_view name) const;
    // Reject any option or flag not in `allowed` (plus --json and --help).
    void allow_only(std::initializer_list<std::string_view> allowed, const std::string& command) const;
    // Reject extra words after the first `count`.
    void max_words(std::size_t count, const std::string& command) const;

    std::string text(std::string_view name, std::string fallback) const;
    std::int64_t positive(std::string_view name) const;  // required
    std::int64_t positive(std::string_view name, std::int64_t fallback) const;
    double number(std::string_view name, std::optional<double> fallback = std::nullopt) const;
    DType dtype(std::string_view name, DType fallback) const;
    const Chip& chip(std::string_view fallback = "v5e") const;
    std::vector<std::int64_t> shape(std::string_view name) const;  // "1024x1000"

private:
    std::vector<std::string> words_;
    std::map<std::string, std::string, std::less<>> options_;
    std::vector<std::string> flags_;
};

// Strict parsing: the whole text must be the number.
std::int64_t parse_int(std::string_view text, std::string_view what);
double parse_double(std::string_view text, std::string_view what);
std::vector<std::int64_t> parse_shape(std::string_view text, std::string_view what);

}  // namespace tpusim::cli
