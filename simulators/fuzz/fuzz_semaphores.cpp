// libFuzzer target for the semaphore language: any text must parse and run
// or fail with an InputError. A crash, a sanitizer report, a hang or
// another exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tpusim/chips.h"
#include "tpusim/error.h"
#include "tpusim/semaphores.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    // The first byte picks the device count when the program names none.
    const int devices = 1 + data[0] % 8;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const tpusim::SemProgram program = tpusim::parse_semaphore_program(text);
        (void)tpusim::run_semaphores(program, tpusim::chip("v5e"), devices);
    } catch (const tpusim::InputError&) {
    }
    return 0;
}
