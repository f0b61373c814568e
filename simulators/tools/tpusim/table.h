#pragma once
// Aligned text tables for the human-readable output.
#include <iosfwd>
#include <string>
#include <vector>

namespace tpusim::cli {

class Table {
public:
    explicit Table(std::vector<std::string> headers, std::vector<bool> right_aligned = {});
    void add(std::vector<std::string> row);
    void print(std::ostream& out) const;

private:
    std::vector<std::string> headers_;
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;
};

// Prints "label   value" lines with aligned values.
void print_pairs(std::ostream& out, const std::vector<std::pair<std::string, std::string>>& pairs);

}  // namespace tpusim::cli
