#pragma once
// What the op table (op_table.cpp) shares with its pairing of asynchronous
// transfers (op_async.cpp). Internal to libtpuprofile.
#include <string>
#include <string_view>

#include "tpuprofile/op_table.h"

namespace tpuprofile::op_detail {

// The op's result type (with its layout): the profile's shape_with_layout,
// else the instruction text after its name.
std::string result_shape_of(const Op& op);
// The start op an asynchronous done waits for: its last operand,
// "copy-done((...) %copy-start.4)" -> "copy-start.4".
std::string start_of(const Op& op);
// Signed error of a prediction against a measurement; NaN where both are
// under a microsecond.
double relative_error(double predicted_s, double measured_s);
// Each asynchronous done set against what its start began: measured from
// the start's beginning to the done's end, predicted by what is left of
// its transfer when the done is reached.
void pair_async(const Device& d, OpTable& t);

}  // namespace tpuprofile::op_detail
