#pragma once
// The published tables as built into the library (see embed_tables.cmake).
#include <string_view>
#include <vector>

namespace tpusim::detail {

struct EmbeddedTable {
    std::string_view name;  // "matmul.tsv"
    std::string_view text;
};

const std::vector<EmbeddedTable>& published_tables();

}  // namespace tpusim::detail
