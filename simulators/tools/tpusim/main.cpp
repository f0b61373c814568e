// tpusim: the command line of libtpusim.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "args.h"
#include "options.h"
#include "tpusim/error.h"

#ifndef TPUSIM_VERSION
#define TPUSIM_VERSION "unknown"
#endif

namespace {

using tpusim::cli::subcommands;

void print_help() {
    std::cout << "tpusim " TPUSIM_VERSION
                 " - a TPU performance simulator (predictions, not "
                 "measurements)\n\n"
                 "usage: tpusim <subcommand> [words] [--option value ...] [--json]\n"
                 "       tpusim <subcommand> --help   (its words and options, with units and defaults)\n\n"
                 "subcommands:\n";
    std::size_t column = 0;  // the summaries line up after the longest name
    for (const auto& s : subcommands()) column = std::max(column, s.name.size() + 2);
    for (const auto& s : subcommands()) {
        std::cout << "  " << s.name << std::string(column - s.name.size(), ' ') << s.summary << "\n"
                  << std::string(column + 2, ' ') << "e.g. " << s.example << "\n";
    }
    std::cout << "\noptions for every subcommand:\n"
                 "  --chip ID   v4, v5e, v5p, v6e or v7 (default v5e)\n"
                 "  --json      machine-readable output\n"
                 "  --help      this text\n"
                 "  --version   the version\n\n"
                 "Options may come before, between or after the words, as --name value or\n"
                 "--name=value. Sizes are positive integers; shapes are written 1024x1000. Bad\n"
                 "input prints one line on stderr and exits with status 2.\n";
}

// The subcommand's parser: its words, its options and flags (options.h),
// and --json. Values are kept as text; Args reads them with their checks.
CLI::App* add_subcommand(CLI::App& app, const tpusim::cli::SubcommandSpec& spec, std::vector<std::string>& words) {
    CLI::App* sub = app.add_subcommand(std::string(spec.name), std::string(spec.summary));
    sub->set_help_flag("-h,--help", "its words and options, with units and defaults");
    sub->footer("example: " + std::string(spec.example));
    if (!spec.words.empty()) sub->add_option("words", words, std::string(spec.words))->type_name("");
    for (const auto& o : spec.options) {
        const std::string name = "--" + std::string(o.name);
        if (o.flag)
            sub->add_flag(name)->description(std::string(o.help));
        else
            sub->add_option(name)->description(std::string(o.help))->type_name("VALUE");
    }
    sub->add_flag("--json")->description("machine-readable output");
    return sub;
}

// What CLI11 parsed for `sub`, as the subcommands read it.
tpusim::cli::Args args_of(const CLI::App& sub, const std::vector<std::string>& words) {
    std::vector<std::string> all{sub.get_name()};
    all.insert(all.end(), words.begin(), words.end());
    std::map<std::string, std::string, std::less<>> options;
    std::vector<std::string> flags;
    for (const CLI::Option* o : sub.get_options()) {
        if (o->count() == 0 || o->get_positional() || o->get_name() == "--help") continue;
        const std::string name = o->get_name().substr(2);
        if (o->get_expected_min() == 0)
            flags.push_back(name);
        else
            options[name] = o->as<std::string>();
    }
    return tpusim::cli::Args(std::move(all), std::move(options), std::move(flags));
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"", "tpusim"};
    app.set_help_flag();  // tpusim --help is print_help(); a subcommand's --help is CLI11's
    bool help = false;
    app.add_flag("-h,--help", help, "this text");
    app.set_version_flag("--version", "tpusim " TPUSIM_VERSION);
    // One subcommand: a later word that names another ("fusion attention")
    // is the first one's word, not a second subcommand.
    app.require_subcommand(0, 1);
    std::map<std::string, std::vector<std::string>> words;
    std::map<const CLI::App*, const tpusim::cli::SubcommandSpec*> spec_of;
    for (const auto& spec : subcommands()) spec_of[add_subcommand(app, spec, words[std::string(spec.name)])] = &spec;
    try {
        // A first word that names no subcommand: said so, rather than as a stray argument.
        if (argc >= 2 && argv[1][0] != '-' && !words.count(argv[1]))
            throw tpusim::InputError(std::string("unknown subcommand '") + argv[1] + "': try 'tpusim --help'");
        try {
            app.parse(argc, argv);
        } catch (const CLI::Success& e) {  // --version, a subcommand's --help
            return app.exit(e);
        } catch (const CLI::ParseError& e) {
            const auto parsed = app.get_subcommands();
            const std::string where =
                parsed.empty() ? "tpusim --help" : "tpusim " + parsed.front()->get_name() + " --help";
            throw tpusim::InputError(std::string(e.what()) + " (try '" + where + "')");
        }
        const auto parsed = app.get_subcommands();
        if (parsed.empty()) {
            if (help) {
                print_help();
                return 0;
            }
            throw tpusim::InputError("no subcommand given: try 'tpusim --help'");
        }
        const CLI::App* sub = parsed.front();
        return spec_of.at(sub)->run(args_of(*sub, words[sub->get_name()]));
    } catch (const tpusim::InputError& e) {
        std::cerr << "tpusim: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tpusim: internal error: " << e.what() << "\n";
        return 1;
    }
}
