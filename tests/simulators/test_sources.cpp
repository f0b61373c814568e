// Every source tag a file of the project cites has its entry in SOURCES.md,
// the key at the top of the repository: a citation always resolves inside it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("every cited source tag is in SOURCES.md", "[sources]") {
    const fs::path root = TPUSIM_SOURCE_ROOT;
    const std::string key = read(root / "SOURCES.md");
    REQUIRE_FALSE(key.empty());
    // A tag is capitals, then a dash and more: [SB-TPU], [CL-v5e-new].
    const std::regex tag(R"(\[([A-Z][A-Z0-9]*-[A-Za-z0-9-]+)\])");
    std::set<std::string> cited, missing;
    for (const char* dir : {"simulators", "app", "progress", "chapters"}) {
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const auto ext = entry.path().extension();
            // Code, and the course's text: chapters, exhibits and their notes.
            const bool courseText = dir == std::string("chapters") && (ext == ".md" || ext == ".json");
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".qml" && !courseText)) continue;
            const std::string text = read(entry.path());
            for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
                const std::string name = (*it)[1];
                if (name == "A-Za-z" || name == "G-1" || name == "N-1") continue;  // a regex class, index arithmetic
                cited.insert(name);
                if (key.find("[" + name + "]") == std::string::npos)
                    missing.insert(name + " (" + entry.path().filename().string() + ")");
            }
        }
    }
    std::string list;
    for (const auto& m : missing) list += m + " ";
    INFO("not in SOURCES.md: " << list);
    CHECK(missing.empty());
    CHECK(cited.size() >= 30);
}
