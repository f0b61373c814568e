#pragma once
// Every subcommand of tpusim, its words and its options with their units and
// defaults: what the command line is parsed against (CLI11) and what each
// subcommand's --help lists.
#include <string_view>
#include <vector>

#include "args.h"

namespace tpusim::cli {

struct OptionSpec {
    std::string_view name;  // "m", "vmem-limit-mib" (written --m, --vmem-limit-mib)
    std::string_view help;  // what it is, its unit and its default
    bool flag = false;      // takes no value
};

struct SubcommandSpec {
    std::string_view name;
    int (*run)(const Args&);
    std::string_view summary;
    std::string_view example;
    std::string_view words;           // what the words after the name are, "" when it takes none
    std::vector<OptionSpec> options;  // --json and --help are every subcommand's
};

const std::vector<SubcommandSpec>& subcommands();

}  // namespace tpusim::cli
