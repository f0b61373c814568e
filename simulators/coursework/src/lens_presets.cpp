#include "coursework/lens_presets.h"

#include "tpusim/error.h"

namespace coursework {

const std::vector<LensPreset>& lens_presets() {
    using K = tpusim::RelayoutKind;
    static const std::vector<LensPreset> presets = {
        {"full-bf16",
         "(16, 128) bf16",
         "One whole native bf16 tile: 4 KiB of data in 4 KiB, no waste.",
         {16, 128},
         tpusim::DType::bf16,
         {}},
        {"half-bf16",
         "(8, 128) bf16",
         "Legal, but bf16 packs two rows a word: half of the (16, 128) tile is padding.",
         {8, 128},
         tpusim::DType::bf16,
         {}},
        {"int8-8rows",
         "(8, 128) int8",
         "int8 packs four rows a word: three quarters of the (32, 128) tile is padding. The fix is 32 rows.",
         {8, 128},
         tpusim::DType::int8,
         {}},
        {"lanes-100", "(256, 100) bf16", "100 lanes padded to 128 in every row.", {256, 100}, tpusim::DType::bf16, {}},
        {"column-f32",
         "(1000, 1) f32",
         "One useful lane of 128: each value costs a 512 B row of a tile.",
         {1000, 1},
         tpusim::DType::f32,
         {}},
        {"tiny-planes",
         "(8, 128, 1, 1) f32",
         "1024 planes of one scalar, one tile each; reshaped with the big dimensions last it is one tile.",
         {8, 128, 1, 1},
         tpusim::DType::f32,
         {K::reshape, {1, 1, 8, 128}, tpusim::DType::f32}},
        {"row-stats",
         "(512, 1) f32",
         "Attention's running statistics as (block_q, 1): nearly all padding; the kernel keeps them as (block_q, 128).",
         {512, 1},
         tpusim::DType::f32,
         {}},
        {"transpose-k",
         "k.T (512, 128) bf16",
         "q @ k.T written with a transpose: the k block crosses the transpose unit first.",
         {512, 128},
         tpusim::DType::bf16,
         {K::transpose, {}, tpusim::DType::bf16}},
        {"skinny",
         "(65536, 8) f32",
         "2 MiB with 8 of 128 lanes used; reshaped to (4096, 128) outside the kernel it fills its tiles.",
         {65536, 8},
         tpusim::DType::f32,
         {K::reshape, {4096, 128}, tpusim::DType::f32}},
        {"cast-bf16",
         "(8, 128) f32 to bf16",
         "A full f32 tile cast to bf16 half-fills its (16, 128) tile.",
         {8, 128},
         tpusim::DType::f32,
         {K::cast, {}, tpusim::DType::bf16}},
    };
    return presets;
}

const LensPreset& lens_preset(std::string_view id) {
    for (const LensPreset& p : lens_presets())
        if (p.id == id) return p;
    throw tpusim::InputError("there is no layout preset \"" + std::string(id) + "\"");
}

}  // namespace coursework
