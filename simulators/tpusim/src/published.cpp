// Reads the published tables: tab-separated, one header line, one run a
// row. Strict, because a silently misread row would validate the models
// against a number nobody published.
#include "tpusim/published.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "published_tables.h"
#include "tpusim/chips.h"
#include "tpusim/dtype.h"
#include "tpusim/error.h"

namespace tpusim {

namespace {

constexpr std::string_view header =
    "id\tfamily\twhat\tchip\tdtype\tshape\ttiming\tpublished_s\tsource\tquote\tnote\tdoubt";
constexpr std::size_t field_count = 12;

struct FamilyName {
    Family family;
    std::string_view key, title;
};
constexpr FamilyName family_names[] = {
    {Family::matmul, "matmul", "matmul"},
    {Family::attention_fwd, "attention-fwd", "attention forward"},
    {Family::attention_bwd, "attention-bwd", "attention backward"},
    {Family::attention_fwdbwd, "attention-fwdbwd", "attention forward and backward"},
    {Family::memory, "memory", "memory-bound ops"},
    {Family::host_link, "host-link", "copies over the host link"},
    {Family::collective, "collective", "collectives"},
};

std::vector<std::string_view> split(std::string_view line, char by) {
    std::vector<std::string_view> out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t at = line.find(by, from);
        out.push_back(line.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from));
        if (at == std::string_view::npos) return out;
        from = at + 1;
    }
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

[[noreturn]] void refuse(std::string_view table, int line, const std::string& what) {
    throw InputError(std::string(table) + ":" + std::to_string(line) + ": " + what + ".");
}

}  // namespace

std::string_view family_key(Family family) {
    for (const FamilyName& f : family_names)
        if (f.family == family) return f.key;
    return "?";
}

std::string_view family_title(Family family) {
    for (const FamilyName& f : family_names)
        if (f.family == family) return f.title;
    return "?";
}

const std::vector<Family>& all_families() {
    static const std::vector<Family> families = [] {
        std::vector<Family> out;
        for (const FamilyName& f : family_names) out.push_back(f.family);
        return out;
    }();
    return families;
}

bool PublishedRow::has(std::string_view key) const {
    return shape.find(key) != shape.end();
}

std::string PublishedRow::text(std::string_view key) const {
    const auto it = shape.find(key);
    return it == shape.end() ? std::string() : it->second;
}

std::int64_t PublishedRow::dim(std::string_view key, std::int64_t fallback) const {
    const auto it = shape.find(key);
    if (it == shape.end()) return fallback;
    std::int64_t v = 0;
    const std::string& s = it->second;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        throw InputError(table + ":" + std::to_string(line) + ": " + std::string(key) + "=" + s + " in row " + id +
                         " is not a whole number.");
    return v;
}

std::vector<PublishedRow> parse_published_table(std::string_view text, std::string_view table_name) {
    std::vector<PublishedRow> rows;
    const std::vector<std::string_view> lines = split(text, '\n');
    if (lines.empty() || trim(lines[0]) != header)
        refuse(table_name, 1,
               "the header is not the published tables' twelve columns (id, family, what, chip, "
               "dtype, shape, timing, published_s, source, quote, note, doubt)");
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const int n = static_cast<int>(i) + 1;
        const std::string_view line = trim(lines[i]);
        if (line.empty()) continue;
        const std::vector<std::string_view> f = split(line, '\t');
        if (f.size() != field_count)
            refuse(table_name, n, "the row has " + std::to_string(f.size()) + " fields where the header has 12");
        PublishedRow r;
        r.table = table_name;
        r.line = n;
        r.id = trim(f[0]);
        if (r.id.empty()) refuse(table_name, n, "the row has no id");
        const auto family = std::find_if(std::begin(family_names), std::end(family_names),
                                         [&](const FamilyName& fn) { return fn.key == trim(f[1]); });
        if (family == std::end(family_names))
            refuse(table_name, n, "'" + std::string(trim(f[1])) + "' is not a family of the tables");
        r.family = family->family;
        r.what = trim(f[2]);
        r.chip = trim(f[3]);
        const bool known =
            std::any_of(all_chips().begin(), all_chips().end(), [&](const Chip& c) { return c.id == r.chip; });
        if (!known) refuse(table_name, n, "'" + r.chip + "' is not a chip of the chip table");
        r.dtype = trim(f[4]);
        // Empty where the source states none, so "not stated" has one spelling.
        if (!r.dtype.empty()) {
            try {
                parse_dtype(r.dtype);
            } catch (const InputError&) {
                refuse(table_name, n,
                       "'" + r.dtype + "' is not a dtype: leave the column empty where the source states none");
            }
        }
        for (const std::string_view pair : split(trim(f[5]), ' ')) {
            if (pair.empty()) continue;
            const std::size_t eq = pair.find('=');
            if (eq == std::string_view::npos || eq == 0 || eq + 1 == pair.size())
                refuse(table_name, n, "the shape item '" + std::string(pair) + "' is not key=value");
            r.shape.emplace(std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1)));
        }
        const std::string_view timing = trim(f[6]);
        const std::size_t colon = timing.find(':');
        const std::string_view kind = trim(timing.substr(0, colon));
        if (kind == "device")
            r.timing = Timing::device;
        else if (kind == "host")
            r.timing = Timing::host;
        else
            refuse(table_name, n, "the timing must start with 'device' or 'host', not '" + std::string(kind) + "'");
        r.timing_how = colon == std::string_view::npos ? std::string() : std::string(trim(timing.substr(colon + 1)));
        const std::string_view seconds = trim(f[7]);
        if (!seconds.empty()) {
            // from_chars for double is in libstdc++ 11 and later.
            const auto [end, ec] = std::from_chars(seconds.data(), seconds.data() + seconds.size(), r.published_s);
            if (ec != std::errc() || end != seconds.data() + seconds.size() || !(r.published_s > 0) ||
                !std::isfinite(r.published_s))
                refuse(table_name, n, "the time '" + std::string(seconds) + "' is not a positive number of seconds");
        }
        r.source = trim(f[8]);
        if (r.source.empty()) refuse(table_name, n, "row " + r.id + " names no source");
        r.quote = trim(f[9]);
        r.note = trim(f[10]);
        r.doubt = trim(f[11]);
        rows.push_back(std::move(r));
    }
    return rows;
}

const std::vector<PublishedRow>& published_rows() {
    static const std::vector<PublishedRow> rows = [] {
        std::vector<PublishedRow> all;
        for (const detail::EmbeddedTable& t : detail::published_tables()) {
            std::vector<PublishedRow> some = parse_published_table(t.text, t.name);
            std::move(some.begin(), some.end(), std::back_inserter(all));
        }
        for (std::size_t i = 0; i < all.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (all[i].id == all[j].id)
                    refuse(all[i].table, all[i].line,
                           "the id " + all[i].id + " is already used at " + all[j].table + ":" +
                               std::to_string(all[j].line));
        return all;
    }();
    return rows;
}

std::string source_document(std::string_view source) {
    const auto word_end = [&source](std::size_t from) {
        const std::size_t space = source.find(' ', from);
        return space == std::string_view::npos ? source.size() : space;
    };
    if (source.starts_with("http")) return std::string(source.substr(0, word_end(0)));
    // "owner/repo@commit path...": the first two words.
    const std::size_t repo_end = word_end(0);
    if (repo_end >= source.size()) return std::string(source);
    std::string path(source.substr(repo_end + 1, word_end(repo_end + 1) - repo_end - 1));
    while (!path.empty() && (path.back() == ',' || path.back() == ';')) path.pop_back();
    // A trailing ":76", ":L66" or ":L66-L70" is a place in the file.
    const std::size_t colon = path.rfind(':');
    if (colon != std::string::npos && colon + 1 < path.size() &&
        path.find_first_not_of("0123456789L-", colon + 1) == std::string::npos)
        path.erase(colon);
    return std::string(source.substr(0, repo_end)) + " " + path;
}

}  // namespace tpusim
