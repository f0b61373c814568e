// Pass 1 of the XSpace reader: each plane's names, its lines' names and
// timestamps, its stat names and, for device and metadata planes, its event
// metadata; and what a device plane's own stats say of the device.
#include <algorithm>
#include <map>

#include "hlo_proto.h"
#include "xplane_detail.h"

namespace tpuprofile::xplane_detail {

RawStat read_stat(Fields& f) {
    RawStat st;
    f.nested([&](Fields& s) {
        while (s.next()) {
            switch (s.number()) {
                case x::stat_metadata_id:
                    st.id = s.int64();
                    break;
                case x::stat_double:
                    st.type = x::stat_double;
                    st.d = s.float64();
                    break;
                case x::stat_uint64:
                    st.type = x::stat_uint64;
                    st.u = s.varint();
                    break;
                case x::stat_int64:
                    st.type = x::stat_int64;
                    st.u = s.varint();
                    break;
                case x::stat_str:
                    st.type = x::stat_str;
                    st.s = s.bytes();
                    break;
                case x::stat_bytes:
                    st.type = x::stat_bytes;
                    st.s = s.bytes();
                    break;
                case x::stat_ref:
                    st.type = x::stat_ref;
                    st.u = s.varint();
                    break;
                default:
                    s.skip();
            }
        }
    });
    return st;
}

void scan_plane(Fields& f, PlaneInfo& p, Progress& progress, wire::CodedInputStream& in) {
    f.nested([&](Fields& pf) {
        while (pf.next()) {
            switch (pf.number()) {
                case x::plane_name:
                    p.name = pf.bytes();
                    p.keep_metadata = keeps_metadata(p.name);
                    break;
                case x::plane_lines: {
                    LineInfo line;
                    pf.nested([&](Fields& lf) {
                        bool named = false, timed = false;
                        while (lf.next()) {
                            if (lf.number() == x::line_name) {
                                line.name = lf.bytes();
                                named = true;
                            } else if (lf.number() == x::line_timestamp_ns) {
                                line.timestamp_ns = lf.int64();
                                timed = true;
                            } else if (lf.number() == x::line_events && named && timed) {
                                // Name and time come before the events [XPLANE-PROTO
                                // field order]; the rest of the line is not needed now.
                                lf.skip_rest();
                            } else {
                                lf.skip();
                            }
                        }
                    });
                    p.lines.push_back(std::move(line));
                    progress.at(0, in);
                    break;
                }
                case x::plane_event_metadata:
                    if (!p.keep_metadata) {
                        pf.skip();
                        break;
                    }
                    pf.nested([&](Fields& entry) {
                        std::int64_t key = 0;
                        EventMeta meta;
                        while (entry.next()) {
                            if (entry.number() == 1) {
                                key = entry.int64();
                            } else if (entry.number() == 2) {
                                entry.nested([&](Fields& m) {
                                    while (m.next()) {
                                        if (m.number() == x::event_md_name)
                                            meta.name = m.bytes();
                                        else if (m.number() == x::event_md_display_name)
                                            meta.display_name = m.bytes();
                                        else if (m.number() == x::event_md_stats)
                                            meta.stats.push_back(read_stat(m));
                                        else
                                            m.skip();
                                    }
                                });
                            } else {
                                entry.skip();
                            }
                        }
                        p.events[key] = std::move(meta);
                    });
                    break;
                case x::plane_stat_metadata:
                    pf.nested([&](Fields& entry) {
                        std::int64_t key = 0;
                        std::string name;
                        while (entry.next()) {
                            if (entry.number() == 1) {
                                key = entry.int64();
                            } else if (entry.number() == 2) {
                                entry.nested([&](Fields& m) {
                                    while (m.next()) {
                                        if (m.number() == x::stat_md_name)
                                            name = m.bytes();
                                        else
                                            m.skip();
                                    }
                                });
                            } else {
                                entry.skip();
                            }
                        }
                        p.stat_names[key] = std::move(name);
                    });
                    break;
                case x::plane_stats:
                    p.stats.push_back(read_stat(pf));
                    break;
                default:
                    pf.skip();
            }
        }
    });
    if (!p.keep_metadata) p.events.clear();
}

Role role_of(std::string_view n) {
    // Stat names [XPLANE-SCHEMA].
    static const std::map<std::string_view, Role> roles{{"device_offset_ps", Role::device_offset_ps},
                                                        {"device_duration_ps", Role::device_duration_ps},
                                                        {"hlo_op", Role::hlo_op},
                                                        {"hlo_module", Role::hlo_module},
                                                        {"program_id", Role::program_id},
                                                        {"hlo_category", Role::hlo_category},
                                                        {"flops", Role::flops},
                                                        {"bytes_accessed", Role::bytes_accessed},
                                                        {"tf_op", Role::tf_op},
                                                        {"source", Role::source},
                                                        {"shape_with_layout", Role::shape_with_layout}};
    const auto it = roles.find(n);
    return it == roles.end() ? Role::none : it->second;
}

bool split_program(const std::string& text, std::string& name, std::uint64_t& id) {
    const auto open = text.rfind('(');
    if (open == std::string::npos || text.back() != ')') return false;
    const std::string digits = text.substr(open + 1, text.size() - open - 2);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
    try {
        id = std::stoull(digits);
    } catch (const std::exception&) {
        return false;
    }
    name = text.substr(0, open);
    return true;
}

DeviceKind kind_of_plane(std::string_view name) {
    if (starts_with(name, x::tpu_plane_prefix))
        return name.find("SparseCore") != std::string_view::npos ? DeviceKind::sparse_core : DeviceKind::tensor_core;
    if (starts_with(name, x::gpu_plane_prefix)) return DeviceKind::gpu;
    return DeviceKind::other;
}

int ordinal_of(std::string_view name) {
    const auto colon = name.rfind(':');
    if (colon == std::string_view::npos) return -1;
    int n = 0;
    bool any = false;
    for (std::size_t i = colon + 1; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) {
        n = n * 10 + (name[i] - '0');
        any = true;
        if (n > 1000000) return -1;
    }
    return any ? n : -1;
}

namespace {

std::string gpu_description(const PlaneInfo& p, const StatNames& names) {
    std::string vendor;
    std::int64_t major = -1, minor = -1, cores = -1;
    double bandwidth = 0;
    for (const RawStat& s : p.stats) {
        const std::string* n = names.name(s.id);
        if (!n) continue;
        if (*n == "device_vendor")
            vendor = names.text(s);
        else if (*n == "compute_cap_major")
            major = StatNames::integer(s);
        else if (*n == "compute_cap_minor")
            minor = StatNames::integer(s);
        else if (*n == "core_count")
            cores = StatNames::integer(s);
        else if (*n == "memory_bandwidth")
            bandwidth = StatNames::real(s);
    }
    std::string text = vendor.empty() ? "GPU" : vendor + " GPU";
    if (major >= 0)
        text +=
            ", compute capability " + std::to_string(major) + "." + std::to_string(std::max<std::int64_t>(minor, 0));
    if (cores > 0) text += ", " + std::to_string(cores) + " cores";
    if (bandwidth > 0) text += ", " + std::to_string(static_cast<std::int64_t>(bandwidth / 1e9 + 0.5)) + " GB/s";
    return text;
}

}  // namespace

void describe_device(Device& d, const PlaneInfo& p) {
    const StatNames names(p);
    for (const RawStat& s : p.stats) {
        const std::string* n = names.name(s.id);
        if (!n) continue;
        // Plane stats of a TPU [XPLANE-SCHEMA]: peaks in TFLOP/s and GB/s.
        if (*n == "device_type_string")
            d.device_type = names.text(s);
        else if (*n == "peak_teraflops_per_second")
            d.peak_flops = StatNames::real(s) * 1e12;
        else if (*n == "peak_hbm_bw_gigabytes_per_second")
            d.peak_hbm_bandwidth = StatNames::real(s) * 1e9;
    }
    if (d.kind == DeviceKind::gpu && d.device_type.empty()) d.device_type = gpu_description(p, names);
    if (d.kind == DeviceKind::tensor_core) d.chip = chip_for_device_type(d.device_type);
}

void read_programs(const PlaneInfo& p, Profile& profile) {
    const StatNames names(p);
    std::vector<std::pair<std::int64_t, const EventMeta*>> sorted;
    for (const auto& [id, md] : p.events) sorted.emplace_back(id, &md);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [id, md] : sorted) {
        for (const RawStat& s : md->stats) {
            const std::string* n = names.name(s.id);
            if (!n || *n != "Hlo Proto" || s.type != x::stat_bytes) continue;
            Program program;
            program.id = static_cast<std::uint64_t>(id);
            std::uint64_t parsed = 0;
            if (!split_program(md->name, program.name, parsed)) program.name = md->name;
            try {
                program.hlo_text = hlo_text_from_proto(s.s);
            } catch (const std::exception& e) {
                program.hlo_error = e.what();
            }
            profile.programs.push_back(std::move(program));
        }
    }
}

}  // namespace tpuprofile::xplane_detail
