#pragma once
// Reads a sample dump from assets/ir-samples, or a real dump from
// tests/simulators/ir-corpus.
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

inline std::string read_dump_file(const std::string& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("missing " + what + " " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

#ifdef TPUSIM_IR_SAMPLES
inline std::string read_sample(const std::string& name) {
    return read_dump_file(std::string(TPUSIM_IR_SAMPLES) + "/" + name, "sample");
}
#endif

#ifdef TPUSIM_IR_CORPUS
inline std::string read_corpus(const std::string& name) {
    return read_dump_file(std::string(TPUSIM_IR_CORPUS) + "/" + name, "corpus file");
}
#endif
