#pragma once
// One function per subcommand; each prints to stdout and returns the exit
// status. Bad input is thrown as InputError and handled in main().
#include <string>

#include "args.h"
#include "json.h"
#include "tpusim/chips.h"
#include "tpusim/roofline.h"

namespace tpusim::cli {

int cmd_chips(const Args& args);
int cmd_roofline(const Args& args);
int cmd_bench(const Args& args);
int cmd_pipeline(const Args& args);
int cmd_blockspec(const Args& args);
int cmd_layout(const Args& args);
int cmd_mxu(const Args& args);
int cmd_attention(const Args& args);
int cmd_collective(const Args& args);
int cmd_collective_matmul(const Args& args);
int cmd_shard_layer(const Args& args);
int cmd_grouped_matmul(const Args& args);
int cmd_quantized_matmul(const Args& args);
int cmd_decode_attention(const Args& args);
int cmd_ir(const Args& args);
int cmd_semaphores(const Args& args);
int cmd_fusion(const Args& args);
int cmd_validate(const Args& args);
int cmd_vmem(const Args& args);
int cmd_profile(const Args& args);

// Shared helpers.
std::string read_dump(const std::string& path);  // a dump's text, size-checked (commands_ir.cpp)
int ir_shardings(const Args& args);              // tpusim ir shardings FILE (commands_ir_sharding.cpp)
std::string fact_text(const Fact& f);
void write_roofline_fields(Json& j, const Roofline& r);
void print_provenance(const Provenance& p);

}  // namespace tpusim::cli
