// The names of the op table's families, as its summary and the profile page
// print them.
#include "tpuprofile/op_table.h"

namespace tpuprofile {

std::string_view family_plural(Family f) {
    switch (f) {
        case Family::fusion:
            return "Fusions";
        case Family::matmul:
            return "Matmuls";
        case Family::pallas:
            return "Pallas kernels";
        case Family::custom_call:
            return "Custom calls";
        case Family::copy:
            return "Copies in HBM";
        case Family::host_transfer:
            return "Copies between host memory and HBM";
        case Family::collective:
            return "Collectives";
        case Family::async_start:
            return "Async starts";
        case Family::control:
            return "Loops and calls";
        case Family::gpu_kernel:
            return "GPU kernels";
        case Family::other:
            return "Other ops";
    }
    return "Other ops";
}

std::string_view family_name(Family f) {
    switch (f) {
        case Family::fusion:
            return "fusion";
        case Family::matmul:
            return "matmul";
        case Family::pallas:
            return "Pallas kernel";
        case Family::custom_call:
            return "custom call";
        case Family::copy:
            return "copy";
        case Family::host_transfer:
            return "host transfer";
        case Family::collective:
            return "collective";
        case Family::async_start:
            return "async start";
        case Family::control:
            return "control";
        case Family::gpu_kernel:
            return "GPU kernel";
        case Family::other:
            return "other";
    }
    return "other";
}

}  // namespace tpuprofile
