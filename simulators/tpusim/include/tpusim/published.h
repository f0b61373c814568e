#pragma once
// Published timings of real TPU runs, as tables kept beside the library
// (simulators/tpusim/data/published/*.tsv) and built into it. Each row says
// what ran, on which chip, in which shapes and dtype, how the source timed
// it, the time, where it was printed and the excerpt the number stands in,
// so anyone can find it again. The tables are data; what predicts them is
// validation.h.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tpusim {

enum class Family { matmul, attention_fwd, attention_bwd, attention_fwdbwd, memory, host_link, collective };
std::string_view family_key(Family family);    // "matmul", "attention-fwd", ...
std::string_view family_title(Family family);  // "matmul", "attention forward", ...
const std::vector<Family>& all_families();

enum class Timing { device, host };  // on-device timer or profile; Python's clock around the call

struct PublishedRow {
    std::string id;  // "amb-matmul-v6e-8192-bf16"
    Family family = Family::matmul;
    std::string what;                                       // "XLA jnp.matmul"
    std::string chip;                                       // "v6e"
    std::string dtype;                                      // "bf16"
    std::map<std::string, std::string, std::less<>> shape;  // "m" -> "8192", "impl" -> "xla"
    Timing timing = Timing::device;
    std::string timing_how;  // how the source timed it
    double published_s = 0;  // 0: the source printed a rate, not a time (see note)
    std::string source;      // repository@commit path:line, or an address and section
    std::string quote;       // the excerpt the number stands in
    std::string note;
    // Why no fit may use the row, when its own source contradicts it; empty
    // for most. A row in doubt is still predicted, and still held out when
    // the rule says so.
    std::string doubt;
    std::string table;  // "matmul.tsv"
    int line = 0;       // in that table

    // A shape key as a whole number; `fallback` when absent. Throws
    // InputError naming the row when present but not a whole number.
    std::int64_t dim(std::string_view key, std::int64_t fallback = 0) const;
    std::string text(std::string_view key) const;  // "" when absent
    bool has(std::string_view key) const;
};

// Parses one table. Throws InputError "<table>:<line>: <what is wrong>" for a
// header that is not the expected one, a row with the wrong number of
// fields, an unknown family, chip syntax, timing or a time that is not a
// positive number.
std::vector<PublishedRow> parse_published_table(std::string_view text, std::string_view table_name);

// Every table built into the library, in file-name order, rows in the order
// their table lists them. Parsed once; a damaged table throws on first use.
const std::vector<PublishedRow>& published_rows();

// The document a row's source names, without the place within it: a web
// address alone, or "owner/repo@commit path" without its ":L66" line or
// ", key ..." detail. Rows from one table or thread share it.
std::string source_document(std::string_view source);

}  // namespace tpusim
