// Published timings of real TPU runs. Every figure is copied from its source
// as printed; the ids say what ran: jax-mm-<size>-b<block> is the Pallas
// matmul of the JAX docs on <size>^3 bf16 with 128^3 blocks (b128) or
// 512x1024x1024 blocks (b512); -t fuses a transposed right operand, -relu a
// ReLU; xla-mm is jnp.matmul.
#include "tpusim/validation.h"

namespace tpusim {

namespace {

constexpr const char* docs_timing =
    "mean of 100 calls, each waited for with block_until_ready, timed with Python's timeit after "
    "one compiling call; inputs jnp.ones; the source says this includes Python dispatch";

std::string cell(const char* id) {
    return std::string("jax-ml/jax@1082251cde876f91608b403d1995b5e0025f0398 "
                       "docs/pallas/tpu/matmul.ipynb, output of cell ") + id + " [JAX-MM]";
}

Measurement pallas(const char* id, const char* what, std::int64_t size, std::int64_t bm, std::int64_t bk,
                   std::int64_t bn, double seconds, const char* cell_id, bool fitted = false) {
    Measurement m;
    m.id = id;
    m.model = ValidatedModel::pipeline;
    m.what = what;
    m.chip = "v5e";
    m.dtype = "bf16";
    m.m = m.k = m.n = size;
    m.bm = bm;
    m.bk = bk;
    m.bn = bn;
    m.published_s = seconds;
    m.timing = docs_timing;
    m.source = cell(cell_id);
    m.fitted = fitted;
    return m;
}

Measurement xla(const char* id, std::int64_t size, double seconds) {
    Measurement m;
    m.id = id;
    m.model = ValidatedModel::roofline;
    m.what = "XLA jnp.matmul";
    m.chip = "v5e";
    m.dtype = "bf16";
    m.m = m.k = m.n = size;
    m.published_s = seconds;
    m.timing = docs_timing;
    m.source = cell("OpU7I7BNXQYg");
    return m;
}

std::vector<Measurement> table() {
    const char* plain = "Pallas blocked matmul, x @ y";
    const char* transposed = "Pallas blocked matmul, x @ y.T with the transpose fused";
    const char* relu = "Pallas blocked matmul, relu(x @ y) with the ReLU fused";
    return {
        pallas("jax-mm-1024-b128", plain, 1024, 128, 128, 128, 0.00029766598949208854, "RjU3sSTUWzIk"),
        pallas("jax-mm-4096-b128", plain, 4096, 128, 128, 128, 0.011771515250438824, "RjU3sSTUWzIk"),
        pallas("jax-mm-8192-b128", plain, 8192, 128, 128, 128, 0.09183577066054567, "RjU3sSTUWzIk", true),
        pallas("jax-mm-1024-b512", plain, 1024, 512, 1024, 1024, 0.00012708659982308746, "RjU3sSTUWzIk", true),
        pallas("jax-mm-4096-b512", plain, 4096, 512, 1024, 1024, 0.00088908776990138, "RjU3sSTUWzIk"),
        pallas("jax-mm-8192-b512", plain, 8192, 512, 1024, 1024, 0.006099433819763363, "RjU3sSTUWzIk"),
        xla("xla-mm-1024", 1024, 0.00011943008983507753),
        xla("xla-mm-4096", 4096, 0.0008272899803705514),
        xla("xla-mm-8192", 8192, 0.006047147869830951),
        pallas("jax-mm-t-1024-b128", transposed, 1024, 128, 128, 128, 0.0003029372810851783, "AcBMHhKLhkDp"),
        pallas("jax-mm-t-4096-b128", transposed, 4096, 128, 128, 128, 0.012017967159627005, "AcBMHhKLhkDp"),
        pallas("jax-mm-t-8192-b128", transposed, 8192, 128, 128, 128, 0.09500920018996112, "AcBMHhKLhkDp"),
        pallas("jax-mm-t-1024-b512", transposed, 1024, 512, 1024, 1024, 0.00012131539988331496, "AcBMHhKLhkDp"),
        pallas("jax-mm-t-4096-b512", transposed, 4096, 512, 1024, 1024, 0.0008790623804088682, "AcBMHhKLhkDp"),
        pallas("jax-mm-t-8192-b512", transposed, 8192, 512, 1024, 1024, 0.006107717020204291, "AcBMHhKLhkDp"),
        pallas("jax-mm-relu-1024-b128", relu, 1024, 128, 128, 128, 0.00030103540048003196, "BOu7WBCBlHpN"),
        pallas("jax-mm-relu-4096-b128", relu, 4096, 128, 128, 128, 0.011807117109419778, "BOu7WBCBlHpN"),
        pallas("jax-mm-relu-8192-b128", relu, 8192, 128, 128, 128, 0.09181861146935262, "BOu7WBCBlHpN"),
        pallas("jax-mm-relu-1024-b512", relu, 1024, 512, 1024, 1024, 0.00012622540001757442, "BOu7WBCBlHpN"),
        pallas("jax-mm-relu-4096-b512", relu, 4096, 512, 1024, 1024, 0.000896632740041241, "BOu7WBCBlHpN"),
        pallas("jax-mm-relu-8192-b512", relu, 8192, 512, 1024, 1024, 0.006130605939542875, "BOu7WBCBlHpN"),
    };
}

}  // namespace

const std::vector<Measurement>& published_measurements() {
    static const std::vector<Measurement> rows = table();
    return rows;
}

}  // namespace tpusim
