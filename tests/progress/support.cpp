#include "support.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <system_error>

namespace progress_test {

ScratchDir::ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tpu-course-progress-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("could not create a scratch folder");
    }
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::vector<unsigned char> readBytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + file.string());
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::filesystem::path& file, const std::vector<unsigned char>& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        throw std::runtime_error("cannot write " + file.string());
    }
}

void writeText(const std::filesystem::path& file, const std::string& text) {
    writeBytes(file, std::vector<unsigned char>(text.begin(), text.end()));
}

std::vector<std::string> sidecarFiles(const std::filesystem::path& file) {
    std::vector<std::string> found;
    for (const char* suffix : {"-wal", "-shm", "-journal"}) {
        std::filesystem::path sidecar = file;
        sidecar += suffix;
        if (std::filesystem::exists(sidecar)) {
            found.push_back(sidecar.filename().string());
        }
    }
    return found;
}

}  // namespace progress_test
