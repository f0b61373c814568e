#pragma once

// Text helpers the drills' questions and answer reading share. Private to
// libtpusim's drills.

#include <cctype>
#include <string>

namespace coursework::drills {

inline std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline std::string trim(const std::string& s) {
    std::string t = s;
    // Non-breaking and thin spaces count as spaces.
    for (const char* sp : {"\xc2\xa0", "\xe2\x80\x89", "\xe2\x80\xaf"}) {
        for (std::size_t at = t.find(sp); at != std::string::npos; at = t.find(sp))
            t.replace(at, std::string(sp).size(), " ");
    }
    const auto first = t.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const auto last = t.find_last_not_of(" \t\r\n");
    return t.substr(first, last - first + 1);
}

}  // namespace coursework::drills
