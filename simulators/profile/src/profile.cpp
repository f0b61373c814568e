#include <algorithm>
#include <cctype>

#include "tpuprofile/profile.h"

namespace tpuprofile {

const Program* Profile::program(std::uint64_t id) const {
    for (const Program& p : programs)
        if (p.id == id) return &p;
    return nullptr;
}

std::size_t first_device(const Profile& profile) {
    for (std::size_t i = 0; i < profile.devices.size(); ++i)
        if (profile.devices[i].kind == DeviceKind::tensor_core && !profile.devices[i].ops.empty()) return i;
    std::size_t best = 0;
    std::int64_t most = -1;
    for (std::size_t i = 0; i < profile.devices.size(); ++i) {
        std::int64_t self = 0;
        for (const Op& op : profile.devices[i].ops) self += op.self_ps;
        if (self > most) {
            most = self;
            best = i;
        }
    }
    return best;
}

const std::string& display_name(const Op& op) {
    return op.hlo_op.empty() ? op.name : op.hlo_op;
}

std::string_view kind_name(DeviceKind kind) {
    switch (kind) {
        case DeviceKind::tensor_core:
            return "TensorCore";
        case DeviceKind::sparse_core:
            return "SparseCore";
        case DeviceKind::gpu:
            return "GPU";
        case DeviceKind::other:
            return "other";
    }
    return "other";
}

std::string chip_for_device_type(std::string_view device_type) {
    // The device kinds JAX reports (jax.devices()[0].device_kind), which the
    // profiler writes as the plane's device_type_string; the lab records
    // use the same table (assets/labs/common/record.py).
    std::string key;
    bool space = false;
    for (char c : device_type) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !key.empty();
            continue;
        }
        if (space) key += ' ';
        space = false;
        key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    static const std::pair<const char*, const char*> table[] = {
        {"tpu v4", "v4"},       {"tpu v5 lite", "v5e"}, {"tpu v5e", "v5e"}, {"tpu v5", "v5p"}, {"tpu v5p", "v5p"},
        {"tpu v6 lite", "v6e"}, {"tpu v6e", "v6e"},     {"tpu7x", "v7"},    {"tpu v7", "v7"},  {"tpu v7x", "v7"}};
    for (const auto& [kind, chip] : table)
        if (key == kind) return chip;
    return {};
}

}  // namespace tpuprofile
