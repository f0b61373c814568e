#pragma once
// The one error the simulator reports: the learner (or a script) asked for
// something that cannot be answered. The message is one sentence, ready to
// show as it is in the command line or the app.
#include <stdexcept>
#include <string>

namespace tpusim {

class InputError : public std::invalid_argument {
public:
    explicit InputError(const std::string& sentence) : std::invalid_argument(sentence) {}
};

}  // namespace tpusim
