#pragma once
// Reads a sample dump from assets/ir-samples.
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#ifndef TPUSIM_IR_SAMPLES
#error "TPUSIM_IR_SAMPLES must name the assets/ir-samples directory"
#endif

inline std::string read_sample(const std::string& name) {
    std::ifstream in(std::string(TPUSIM_IR_SAMPLES) + "/" + name, std::ios::binary);
    if (!in) throw std::runtime_error("missing sample " + name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
