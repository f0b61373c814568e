// Block-shape legality and index-map coverage.
#include "tpusim/blockspec.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "tpusim/error.h"
#include "tpusim/roofline.h"

namespace tpusim {

namespace {

std::string str(std::int64_t v) {
    return std::to_string(v);
}

bool power_of_two(std::int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

Legality rank1(std::int64_t array, std::int64_t block, DType dtype) {
    const std::int64_t tiling = 128 * (32 / std::max(bits(dtype), 1));
    Legality l;
    if (block == array) {
        l.legal = true;
        l.reason = "legal: the rank-1 block equals the array's length (" + str(array) + ")";
    } else if (block % 1024 == 0) {
        l.legal = true;
        l.reason = "legal: the rank-1 block (" + str(block) + ") is a multiple of 1024 (8 × 128)";
    } else if (power_of_two(block) && block >= tiling) {
        l.legal = true;
        l.reason = "legal: the rank-1 block (" + str(block) + ") is a power of two of at least " + str(tiling) +
                   " for " + std::string(name(dtype));
    } else {
        l.reason = "the rank-1 block (" + str(block) + ") is not the array's length (" + str(array) +
                   "), not a multiple of 1024, and not a power of two of at least " + str(tiling) + " for " +
                   std::string(name(dtype));
    }
    return l;
}

}  // namespace

Legality check_block(const std::vector<std::int64_t>& array, const std::vector<std::int64_t>& block, DType dtype,
                     MemorySpace space) {
    if (array.size() != block.size())
        throw InputError("the block has rank " + str(static_cast<std::int64_t>(block.size())) +
                         " but the array has rank " + str(static_cast<std::int64_t>(array.size())));
    for (std::size_t d = 0; d < array.size(); ++d)
        if (array[d] < 1 || block[d] < 1)
            throw InputError("every array and block dimension must be a positive integer");
    Legality l;
    if (block.empty()) {
        l.reason = "blocks of rank 0 are not supported: the Pallas TPU lowering needs rank 1 or more";
        return l;
    }
    if (space == MemorySpace::smem) {
        l.legal = true;
        l.reason = "legal: blocks in SMEM are not subject to the (8,128) rule";
        return l;
    }
    if (space == MemorySpace::any) {
        l.legal = block == array;
        l.reason = l.legal ? "legal: in ANY (HBM) the block is the whole array; its index map "
                             "must return all zeros"
                           : "in ANY (HBM) memory the block must be the whole array (" + shape_text(array) + "), not " +
                                 shape_text(block);
        return l;
    }
    const std::size_t r = array.size();
    if (r == 1) {
        l = rank1(array[0], block[0], dtype);
    } else {
        const std::int64_t last = block[r - 1], second = block[r - 2];
        const bool last_ok = last % 128 == 0 || last == array[r - 1];
        const bool second_ok = second % 8 == 0 || second == array[r - 2];
        auto why_last = [&] {
            return last == array[r - 1] ? "equals the array's (" + str(last) + ")"
                                        : "(" + str(last) + ") is a multiple of 128";
        };
        auto why_second = [&] {
            return second == array[r - 2] ? "equals the array's (" + str(second) + ")"
                                          : "(" + str(second) + ") is a multiple of 8";
        };
        l.legal = last_ok && second_ok;
        if (l.legal) {
            l.reason = "legal: the last dimension " + why_last() + " and the second-to-last " + why_second();
        } else if (!last_ok && !second_ok) {
            l.reason = "the block's last two dimensions (" + str(second) + ", " + str(last) +
                       ") must be multiples of 8 and 128 or equal the array's (" + str(array[r - 2]) + ", " +
                       str(array[r - 1]) + ")";
        } else if (!last_ok) {
            l.reason = "the last dimension of the block (" + str(last) +
                       ") is neither a multiple of 128 nor equal to the array's (" + str(array[r - 1]) + ")";
        } else {
            l.reason = "the second-to-last dimension of the block (" + str(second) +
                       ") is neither a multiple of 8 nor equal to the array's (" + str(array[r - 2]) + ")";
        }
        // Packing is advice, not legality: narrow types pack rows into 32-bit words.
        const std::int64_t rows = 8 * (32 / std::max(bits(dtype), 1));
        if (l.legal && rows > 8 && second % rows != 0 && second != array[r - 2])
            l.notes.push_back(std::string(name(dtype)) + " packs " + str(rows) + " rows into a (" + str(rows) +
                              ",128) tile; " + str(second) + " rows leave part of the last tile empty");
    }
    for (std::size_t d = 0; d < r; ++d)
        if (block[d] > array[d])
            l.notes.push_back("on axis " + str(static_cast<std::int64_t>(d)) +
                              " the block is larger than the array: the rest is padding");
    return l;
}

Coverage check_coverage(const std::vector<std::int64_t>& grid, const std::vector<Semantics>& semantics,
                        const BlockSpec& output, std::int64_t window) {
    constexpr double limit = 16.0 * 1024 * 1024;
    Coverage c;
    const std::size_t rank = output.array_shape.size();
    if (rank == 0 || output.block_shape.size() != rank)
        throw InputError("the output's block must have the array's rank (at least 1)");
    if (!semantics.empty() && semantics.size() != grid.size())
        throw InputError("Length of grid does not match length of dimension semantics.");
    std::vector<std::int64_t> blocks(rank);
    double nblocks = 1, nsteps = 1;
    for (std::size_t d = 0; d < rank; ++d) {
        if (output.array_shape[d] < 1 || output.block_shape[d] < 1)
            throw InputError("every array and block dimension must be a positive integer");
        blocks[d] = (output.array_shape[d] + output.block_shape[d] - 1) / output.block_shape[d];
        nblocks *= static_cast<double>(blocks[d]);
    }
    for (std::int64_t g : grid) {
        if (g < 1) throw InputError("every grid axis must be a positive integer");
        nsteps *= static_cast<double>(g);
    }
    if (nblocks > limit || nsteps > limit)
        throw InputError("the coverage check walks every step and block: keep both under 16 million");
    if (output.index_map.coeffs.size() != rank || output.index_map.offsets.size() != rank)
        throw InputError("the index map must return one block index per array axis");
    for (const auto& row : output.index_map.coeffs)
        if (row.size() != grid.size()) throw InputError("the index map must take one index per grid axis");
    c.blocks = static_cast<std::int64_t>(nblocks);
    // The recorded window: its shape, and each block's place in it (or -1).
    std::size_t window_size = 0;
    if (window > 0) {
        window_size = 1;
        for (std::size_t d = 0; d < rank; ++d) {
            c.window_shape.push_back(std::min(blocks[d], window));
            window_size *= static_cast<std::size_t>(c.window_shape[d]);
        }
        c.visits.assign(window_size, BlockVisit{});
    }
    auto window_slot = [&](const std::vector<std::int64_t>& idx) -> BlockVisit* {
        if (window_size == 0) return nullptr;
        std::size_t slot = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            if (idx[d] >= c.window_shape[d]) return nullptr;
            slot = slot * static_cast<std::size_t>(c.window_shape[d]) + static_cast<std::size_t>(idx[d]);
        }
        return &c.visits[slot];
    };

    struct Visit {
        std::int64_t first = -1, last = -1;
        std::vector<std::int64_t> parallel_index;  // grid indices on parallel axes, first visit
    };
    std::vector<Visit> visits(static_cast<std::size_t>(c.blocks));
    std::vector<std::int64_t> g(grid.size(), 0);
    auto is_parallel = [&](std::size_t a) { return !semantics.empty() && semantics[a] == Semantics::parallel; };
    for (std::int64_t step = 0;; ++step) {
        const std::vector<std::int64_t> idx = output.index_map.apply(g);
        std::int64_t key = 0;
        bool inside = true;
        for (std::size_t d = 0; d < rank; ++d) {
            inside = inside && idx[d] >= 0 && idx[d] < blocks[d];
            key = key * blocks[d] + idx[d];
        }
        ++c.writes;
        if (!inside) {
            c.problems.push_back("step " + format_tuple(g) + " writes block " + format_tuple(idx) +
                                 ", outside the array");
            c.ok = false;
            return c;
        }
        Visit& v = visits[static_cast<std::size_t>(key)];
        BlockVisit* drawn = window_slot(idx);
        std::vector<std::int64_t> par;
        for (std::size_t a = 0; a < grid.size(); ++a)
            if (is_parallel(a)) par.push_back(g[a]);
        if (v.first < 0) {
            v.first = step;
            v.parallel_index = par;
            ++c.blocks_written;
            if (drawn) drawn->first_step = step;
        } else {
            const bool race = par != v.parallel_index;
            const bool scattered = v.last != step - 1;
            if (!c.race && race) {
                c.race = true;
                c.problems.push_back("block " + format_tuple(idx) +
                                     " is written by steps that differ on a parallel axis: "
                                     "a race when the axis is split across cores");
            }
            if (!c.non_consecutive && scattered) {
                c.non_consecutive = true;
                c.problems.push_back("block " + format_tuple(idx) + " is revisited at step " + std::to_string(step) +
                                     " after other blocks were written: "
                                     "its partial result went back to HBM and is lost");
            }
            if (drawn) {
                drawn->race = drawn->race || race;
                drawn->non_consecutive = drawn->non_consecutive || scattered;
            }
        }
        if (drawn) {
            ++drawn->writes;
            drawn->last_step = step;
        }
        v.last = step;
        std::size_t a = grid.size();
        bool done = true;
        while (a-- > 0) {
            if (++g[a] < grid[a]) {
                done = false;
                break;
            }
            g[a] = 0;
        }
        if (done) break;
    }
    if (c.blocks_written < c.blocks) {
        std::vector<std::int64_t> idx(rank);
        for (std::int64_t key = 0; key < c.blocks && c.missing.size() < 8; ++key) {
            if (visits[static_cast<std::size_t>(key)].first >= 0) continue;
            std::int64_t rest = key;
            for (std::size_t d = rank; d-- > 0;) {
                idx[d] = rest % blocks[d];
                rest /= blocks[d];
            }
            c.missing.push_back(idx);
        }
        c.problems.insert(c.problems.begin(), std::to_string(c.blocks - c.blocks_written) + " of " +
                                                  std::to_string(c.blocks) +
                                                  " output blocks are never written, "
                                                  "the first " +
                                                  format_tuple(c.missing.front()));
    }
    c.ok = c.problems.empty();
    return c;
}

}  // namespace tpusim
