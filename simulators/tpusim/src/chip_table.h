#pragma once
#include <vector>

#include "tpusim/chips.h"

namespace tpusim::detail {
std::vector<Chip> build_chip_table();
}
