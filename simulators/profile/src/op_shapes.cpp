// Reading an HLO instruction's text as the op table needs it: the element
// type and the bytes of a result shape.
#include <cctype>
#include <string>

#include "tpuprofile/op_table.h"
#include "tpusim/ir.h"

namespace tpuprofile {

std::string element_of(std::string_view shape) {
    std::size_t i = 0;
    while (i < shape.size() && (shape[i] == '(' || shape[i] == ' ')) ++i;
    const std::size_t start = i;
    while (i < shape.size() && std::isalnum(static_cast<unsigned char>(shape[i]))) ++i;
    if (i >= shape.size() || shape[i] != '[') return {};
    return std::string(shape.substr(start, i - start));
}

double shape_bytes(std::string_view shape) {
    // Each "type[d0,d1,...]" in the text, layouts and tuples skipped over.
    double total = 0;
    bool any = false;
    std::size_t i = 0;
    while (i < shape.size()) {
        if (!std::isalpha(static_cast<unsigned char>(shape[i]))) {
            if (shape[i] == '{') {  // a layout: skip to its end
                int depth = 0;
                for (; i < shape.size(); ++i) {
                    if (shape[i] == '{')
                        ++depth;
                    else if (shape[i] == '}' && --depth == 0)
                        break;
                }
            }
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < shape.size() && std::isalnum(static_cast<unsigned char>(shape[i]))) ++i;
        const std::string element(shape.substr(start, i - start));
        if (i >= shape.size() || shape[i] != '[') break;  // the opcode: shapes end here
        const auto close = shape.find(']', i);
        if (close == std::string_view::npos) return -1;
        double n = 1;
        std::size_t j = i + 1;
        while (j < close) {
            std::size_t k = j;
            while (k < close && shape[k] != ',') ++k;
            const std::string dim(shape.substr(j, k - j));
            if (!dim.empty()) {
                try {
                    n *= std::stod(dim);
                } catch (const std::exception&) {
                    return -1;
                }
            }
            j = k + 1;
        }
        const double width = element == "pred" ? 1 : tpusim::ir::element_bytes(element);
        if (width <= 0) return -1;
        total += n * width;
        any = true;
        i = close + 1;
    }
    return any ? total : -1;
}

}  // namespace tpuprofile
