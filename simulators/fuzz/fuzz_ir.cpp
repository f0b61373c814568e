// One libFuzzer target per IR: any input must parse or fail with an
// InputError (ParseError is one), and the sharding reader must not throw. Anything else - a crash, a sanitizer report,
// another exception, a hang - is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tpusim/chips.h"
#include "tpusim/error.h"
#include "tpusim/fusion.h"
#include "tpusim/ir.h"
#include "tpusim/ir_dot.h"
#include "tpusim/ir_sharding.h"
#include "tpusim/ir_xref.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    using tpusim::ir::Format;
    // The sharding reader lists what it cannot read instead of throwing.
    (void)tpusim::ir::find_shardings(text);
    try {
        const tpusim::ir::Module m = tpusim::ir::parse(text, Format::FUZZ_FORMAT);
        (void)tpusim::ir::all_ops(m);
        (void)tpusim::ir::correspond(m, m.format == Format::stablehlo ? m : tpusim::ir::Module{}, m);
        (void)tpusim::ir::find_dots(m);
        if (m.format == Format::hlo) (void)tpusim::fusion::cost_hlo_kernels(m, tpusim::chip("v5e"));
    } catch (const tpusim::InputError&) {
    }
    return 0;
}
