// libFuzzer target for the BlockSpec sandbox's index-map language: any text
// must parse or fail with an InputError, and what parses must print and
// parse back to the same map. A crash, a sanitizer report, another
// exception or a round trip that changes the map is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tpusim/error.h"
#include "tpusim/index_map_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    // The first two bytes pick the ranks, as the sandbox's grid and arrays have them.
    const int grid_rank = 1 + data[0] % 4;
    const int array_rank = 1 + data[1] % 4;
    const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
    try {
        const tpusim::IndexMap map = tpusim::parse_index_map(text, grid_rank, array_rank);
        const tpusim::IndexMap again = tpusim::parse_index_map(map.text(), grid_rank, array_rank);
        if (again.coeffs != map.coeffs || again.offsets != map.offsets) std::abort();
    } catch (const tpusim::InputError&) {
    }
    return 0;
}
