// Splitting a .sem line into tokens: names, numbers (with a fraction for
// durations), and the few symbols of the format.
#include <cctype>
#include <string>

#include "sem_detail.h"

namespace tpusim::semdetail {

std::vector<Token> lex(std::string_view line, int line_no) {
    std::vector<Token> out;
    std::size_t i = 0;
    auto at = [&](std::size_t k) { return Pos{line_no, static_cast<int>(k) + 1}; };
    while (i < line.size()) {
        const char c = line[i];
        if (c == '#') break;
        if (c == ' ' || c == '\t' || c == '\r') {
            ++i;
            continue;
        }
        Token t;
        t.pos = at(i);
        const auto uc = static_cast<unsigned char>(c);
        if (std::isalpha(uc) || c == '_') {
            const std::size_t b = i;
            while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
            t.type = Token::ident;
            t.text = std::string(line.substr(b, i - b));
        } else if (std::isdigit(uc)) {
            const std::size_t b = i;
            while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
            if (i + 1 < line.size() && line[i] == '.' && std::isdigit(static_cast<unsigned char>(line[i + 1]))) {
                t.integral = false;
                ++i;
                while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
            }
            t.type = Token::number;
            t.text = std::string(line.substr(b, i - b));
            t.number_value = std::stod(t.text);
            if (t.number_value > 1e15) fail(t.pos, "the number " + t.text + " is too large");
        } else {
            static const char* const two[] = {"->", "==", "!=", "<=", ">=", ".."};
            t.type = Token::symbol;
            for (const char* s : two)
                if (line.substr(i, 2) == s) t.text = s;
            if (t.text.empty()) {
                if (std::string_view("+-*/%()[],<>").find(c) == std::string_view::npos)
                    fail(t.pos, std::string("unexpected character '") + c + "'");
                t.text = std::string(1, c);
            }
            i += t.text.size();
        }
        out.push_back(t);
    }
    Token e;
    e.pos = at(line.size());
    out.push_back(e);
    return out;
}

}  // namespace tpusim::semdetail
