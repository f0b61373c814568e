#pragma once
// The shipped IR samples, read for the benchmarks that parse them.
#include <fstream>
#include <sstream>
#include <string>

inline std::string read_ir_sample(const std::string& name) {
    std::ifstream in(std::string(TPUSIM_IR_SAMPLES) + "/" + name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
