// The real dumps of tests/simulators/ir-corpus (printed by JAX, PyTorch/XLA,
// MaxText and openxla's tests; SOURCES.tsv says where each comes from):
// every dot decodes to the output shape and FLOPs of expected.tsv, worked out
// by a separate reader, and the files that state no sizes are refused at the
// right place for the right reason.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "ir_samples.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"

#ifndef TPUSIM_IR_CORPUS
#error "TPUSIM_IR_CORPUS must name the tests/simulators/ir-corpus directory"
#endif

using namespace tpusim::ir;

namespace {

// The tab-separated rows of a corpus table, '#' lines left out.
std::vector<std::vector<std::string>> table(const std::string& name) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(read_corpus(name));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line.front() == '#') continue;
        std::vector<std::string> cells;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
        rows.push_back(std::move(cells));
    }
    return rows;
}

struct ExpectedDot {
    std::string shape;  // "16,8,2048", "(scalar)"
    std::string flops;  // an integer, or "dynamic"/"unknown"
};

std::string shape_text(const std::vector<std::int64_t>& dims) {
    return dims.empty() ? "(scalar)" : dims_text(dims);
}

}  // namespace

TEST_CASE("every dot of the real dumps decodes to the independent expectation", "[ir][corpus]") {
    std::map<std::string, std::vector<ExpectedDot>> expected;
    for (const auto& row : table("expected.tsv")) {
        REQUIRE(row.size() == 4);
        expected[row[0]].push_back({row[2], row[3]});
    }
    std::map<std::string, std::vector<std::string>> refused;
    for (const auto& row : table("refused.tsv")) refused[row[0]] = row;
    std::vector<std::string> files;  // a file with no dot has no row in expected.tsv
    for (const auto& entry : std::filesystem::directory_iterator(TPUSIM_IR_CORPUS)) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".jaxpr" || ext == ".mlir" || ext == ".hlo") files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() == 25);

    int files_read = 0, dots_right = 0;
    for (const std::string& file : files) {
        INFO(file);
        const std::vector<ExpectedDot>& dots = expected[file];
        const std::string text = read_corpus(file);
        if (const auto r = refused.find(file); r != refused.end()) {
            try {
                (void)find_dots(parse(text));
                FAIL("the file was read, but its sizes are not stated");
            } catch (const ParseError& e) {
                CHECK(e.line() == std::stoi(r->second[1]));
                CHECK(e.column() == std::stoi(r->second[2]));
                CHECK_THAT(e.what(), Catch::Contains(r->second[3]));
            }
            continue;
        }
        const Module m = parse(text);
        const auto found = find_dots(m);
        ++files_read;
        REQUIRE(found.size() == dots.size());
        for (std::size_t i = 0; i < dots.size(); ++i) {
            INFO("dot " << i << " at line " << found[i].position.line);
            CHECK(shape_text(found[i].output_shape) == dots[i].shape);
            CHECK(std::to_string(found[i].flops) == dots[i].flops);
            dots_right +=
                shape_text(found[i].output_shape) == dots[i].shape && std::to_string(found[i].flops) == dots[i].flops;
        }
    }
    CHECK(files_read == 22);
    CHECK(dots_right == 975);
}
