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

progress::RunRecordRow sampleRecord(const std::string& sha) {
    progress::RunRecordRow r;
    r.recordSha256 = sha;
    r.lab = "L07";
    r.kind = "measured";
    r.chip = "v5e";
    r.dtype = "bf16";
    r.shapesJson = R"({"m":4096,"k":4096,"n":4096})";
    r.measuredAt = "2026-11-20T10:00:00Z";
    r.medianS = 7.5e-4;
    r.baselineMedianS = 7.2e-4;
    r.correct = true;
    r.sourceFile = "/tmp/run-L07.json";
    r.recordJson = R"({"timing":{"samples":[7.5e-4]}})";
    return r;
}

}  // namespace progress_test
