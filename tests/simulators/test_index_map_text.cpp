// The index-map language of the BlockSpec sandbox: what it reads, what it
// refuses and why, and that it reads back everything IndexMap::text() prints.
#include <catch2/catch.hpp>

#include <string>

#include "tpusim/blockspec.h"
#include "tpusim/error.h"
#include "tpusim/index_map_text.h"

using namespace tpusim;

namespace {

bool same(const IndexMap& a, const IndexMap& b) {
    return a.coeffs == b.coeffs && a.offsets == b.offsets;
}

// The refusal's sentence, or "" when the text parses.
std::string refusal(const std::string& text, int grid_rank = 3, int array_rank = 2) {
    try {
        (void)parse_index_map(text, grid_rank, array_rank);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("index maps: the docs' lambdas and the arrow form", "[index_map_text]") {
    CHECK(same(parse_index_map("lambda i, j, k: (i, k)", 3, 2), IndexMap::select({0, 2}, 3)));
    CHECK(same(parse_index_map("lambda i, j, k: (k, j)", 3, 2), IndexMap::select({2, 1}, 3)));
    CHECK(same(parse_index_map("(i, j, k) -> (i, j)", 3, 2), IndexMap::select({0, 1}, 3)));
    CHECK(same(parse_index_map("lambda a, b, c: (0, b)", 3, 2), IndexMap::select({-1, 1}, 3)));
    CHECK(same(parse_index_map("  lambda i,j,k:(i,k)  ", 3, 2), IndexMap::select({0, 2}, 3)));
    CHECK(same(parse_index_map("lambda i: (i,)", 1, 1), IndexMap::select({0}, 1)));
    CHECK(same(parse_index_map("lambda i: i", 1, 1), IndexMap::select({0}, 1)));
    CHECK(same(parse_index_map("lambda: (0, 0)", 0, 2), IndexMap::constant(2, 0)));
}

TEST_CASE("index maps: affine arithmetic", "[index_map_text]") {
    const IndexMap m = parse_index_map("lambda i, j, k: (2*i + 1, -(k - 3) * 2 + j)", 3, 2);
    CHECK(m.coeffs == std::vector<std::vector<std::int64_t>>{{2, 0, 0}, {0, 1, -2}});
    CHECK(m.offsets == std::vector<std::int64_t>{1, 6});
    const IndexMap n = parse_index_map("lambda i, j, k: (i * 3 - i, (j))", 3, 2);
    CHECK(n.coeffs == std::vector<std::vector<std::int64_t>>{{2, 0, 0}, {0, 1, 0}});
    CHECK(parse_index_map("lambda i, j, k: (i - i, 4 * 2)", 3, 2).offsets == std::vector<std::int64_t>{0, 8});
    CHECK(m.apply({1, 2, 5}) == std::vector<std::int64_t>{3, -2});
}

TEST_CASE("index maps: every refusal names the column and the fault", "[index_map_text]") {
    CHECK(refusal("lambda i, j, k: (i // 2, k)") ==
          "column 18: `i // 2` is not affine; the sandbox's index maps are sums of grid indices "
          "times whole numbers plus a constant");
    CHECK(refusal("lambda i, j, k: (i % 4, k)") ==
          "column 18: `i % 4` is not affine; the sandbox's index maps are sums of grid indices "
          "times whole numbers plus a constant");
    CHECK(refusal("lambda i, j, k: (i * j, k)") ==
          "column 18: `i * j` multiplies two grid indices, which is not affine; the sandbox's "
          "index maps are sums of grid indices times whole numbers plus a constant");
    CHECK(refusal("lambda i, j, k: (pl.cdiv(i, 2), k)")
              .rfind("column 18: `pl.cdiv(i, 2)` calls a function or reads an attribute", 0) == 0);
    CHECK(refusal("lambda i, j, k: (min(i, 2), k)").rfind("column 18: `min(i, 2)` calls a function", 0) == 0);
    CHECK(refusal("lambda i, j, k: (i, q)") == "column 21: `q` is not a grid index the map declares (i, j, k)");
    CHECK(refusal("lambda i, j: (i, j)") == "column 1: the map declares 2 grid indices but the grid has 3 axes");
    CHECK(refusal("lambda i, j, k: (i, j, k)") ==
          "column 17: the map returns 3 block indices but the array has rank 2");
    CHECK(refusal("lambda i, j, k: (i)") == "column 17: the map returns 1 block index but the array has rank 2");
    CHECK(refusal("lambda i, j, k: (i ** 2, k)").find("`i ** 2` raises to a power") != std::string::npos);
    CHECK(refusal("lambda i, j, k: (8 // 2, k)").find("`8 // 2` uses //: write the whole number") != std::string::npos);
    CHECK(refusal("lambda i, j, k: (i / 2, k)").find("`i / 2` is not affine") != std::string::npos);
    CHECK(refusal("lambda i, j, k: (1.5, k)") ==
          "column 18: `1.5` is not a whole number; block indices are whole numbers");
    CHECK(refusal("lambda i, i, k: (i, k)") == "column 11: `i` is declared twice");
    CHECK(refusal("") == "column 1: the index map is empty; write one such as `lambda i, j, k: (i, k)`");
    CHECK(refusal("i, k").rfind("column 1: an index map starts with `lambda`", 0) == 0);
    CHECK(refusal("lambda i, j, k (i, k)").rfind("column 16: expected `:` after the lambda's names", 0) == 0);
    CHECK(refusal("(i, j, k) (i, k)").rfind("column 11: expected `->`", 0) == 0);
    CHECK(refusal("lambda i, j, k: (i, k") == "column 22: expected `)` to close the block indices, found the end");
    CHECK(refusal("lambda i, j, k: (i, k) + 1").rfind("column 24: unexpected `+ 1`", 0) == 0);
    CHECK(refusal("lambda i, j, k: (i +, k)").rfind("column 21: unexpected `,`", 0) == 0);
    CHECK(refusal("lambda i, j, k: (99999999999, k)").find("is too large") != std::string::npos);
    CHECK(refusal("lambda i, j, k: (i, k)") == "");
}

TEST_CASE("index maps: nesting deep enough to overflow a stack is refused, not followed", "[index_map_text]") {
    // 8,000 open parentheses, well under the text field's 32,767 characters.
    const std::string deep = "lambda i, j, k: (" + std::string(8000, '(');
    CHECK(refusal(deep) ==
          "column 81: the map nests parentheses or signs more than 64 deep; write the "
          "expression flatter");
    CHECK(refusal("lambda i, j, k: (" + std::string(8000, '-') + "i, k)").find("more than 64 deep") !=
          std::string::npos);
    // Sixty levels is within the bound and reads as the plain index.
    const std::string sixty = "lambda i, j, k: (" + std::string(60, '(') + "i" + std::string(60, ')') + ", k)";
    CHECK(refusal(sixty) == "");
    // A long flat sum is iterative and stays readable.
    std::string flat = "lambda i, j, k: (i";
    for (int n = 0; n < 10000; ++n) flat += " + 0";
    CHECK(refusal(flat + ", k)") == "");
}

TEST_CASE("index maps: what text() prints parses back to the same map", "[index_map_text]") {
    const std::vector<IndexMap> maps = {
        IndexMap::select({0, 2}, 3),
        IndexMap::select({2, 1}, 3),
        IndexMap::select({-1, 1}, 3),
        IndexMap::constant(2, 3),
        IndexMap::select({0}, 1),
        IndexMap{{{2, 0, -1}, {0, -3, 1}}, {5, -7}},
        IndexMap{{{-1, 0, 0}, {0, 0, 0}}, {-2, 0}},
        IndexMap{{{1, 1, 1, 1, 1, 1, 1}}, {3}},
    };
    for (const IndexMap& m : maps) {
        const int grid_rank = static_cast<int>(m.coeffs.front().size());
        const int array_rank = static_cast<int>(m.coeffs.size());
        INFO(m.text());
        CHECK(same(parse_index_map(m.text(), grid_rank, array_rank), m));
    }
}

TEST_CASE("coverage records who wrote each block inside its window", "[index_map_text][blockspec]") {
    const std::vector<Semantics> sem = {Semantics::parallel, Semantics::parallel, Semantics::arbitrary};
    const BlockSpec out{"out", {256, 512}, {128, 128}, parse_index_map("lambda i, j, k: (i, j)", 3, 2)};
    const Coverage c = check_coverage({2, 4, 3}, sem, out, 3);
    REQUIRE(c.window_shape == std::vector<std::int64_t>{2, 3});
    REQUIRE(c.visits.size() == 6);
    CHECK(c.visits[0].writes == 3);
    CHECK(c.visits[0].first_step == 0);
    CHECK(c.visits[0].last_step == 2);
    CHECK(c.visits[4].first_step == 15);  // block (1, 1): step (1, 1, 0)
    CHECK_FALSE(c.visits[4].race);

    const BlockSpec racing{"out", {256, 512}, {128, 128}, parse_index_map("lambda i, j, k: (i, k)", 3, 2)};
    const std::vector<Semantics> all_parallel(3, Semantics::parallel);
    const Coverage r = check_coverage({2, 4, 3}, all_parallel, racing, 64);
    CHECK(r.race);
    CHECK(r.visits[0].writes == 4);
    CHECK(r.visits[0].race);
    CHECK(r.visits[3].writes == 0);  // column 3 of the output is never written
    CHECK(r.visits[3].first_step == -1);
    CHECK(r.blocks_written == 6);
}
