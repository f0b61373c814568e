#pragma once
// The shipped IR samples and the real dumps of the test corpus, read for the
// benchmarks that parse them; empty when missing.
#include <fstream>
#include <sstream>
#include <string>

inline std::string read_ir_sample(const std::string& name) {
    std::ifstream in(std::string(TPUSIM_IR_SAMPLES) + "/" + name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::string read_ir_corpus(const std::string& name) {
    std::ifstream in(std::string(TPUSIM_IR_CORPUS) + "/" + name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
