#pragma once
// What the XSpace reader (xplane_read.cpp) knows of a file between its two
// passes: each plane's names, lines and metadata (pass 1, xplane_planes.cpp),
// and what pass 2 (xplane_events.cpp) builds per device from the lines'
// events. Internal to libtpuprofile.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tpuprofile/profile.h"
#include "tpuprofile/read.h"
#include "wire.h"
#include "xplane_schema.h"

namespace tpuprofile::xplane_detail {

namespace x = xplane;
using wire::Fields;

struct RawStat {
    std::int64_t id = 0;
    int type = 0;  // the value's field number: 2 double ... 7 ref
    std::uint64_t u = 0;
    double d = 0;
    std::string s;
};

struct EventMeta {
    std::string name, display_name;
    std::vector<RawStat> stats;
};

struct LineInfo {
    std::string name;
    std::int64_t timestamp_ns = 0;
};

struct PlaneInfo {
    std::string name;
    std::vector<LineInfo> lines;
    std::unordered_map<std::int64_t, std::string> stat_names;
    std::vector<RawStat> stats;
    std::unordered_map<std::int64_t, EventMeta> events;
    bool keep_metadata = true;
};

struct SpaceInfo {
    std::vector<PlaneInfo> planes;
    std::vector<std::string> hostnames, errors, warnings;
};

inline bool starts_with(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

inline bool is_device_plane(std::string_view name) {
    return starts_with(name, "/device:");
}
inline bool keeps_metadata(std::string_view name) {
    return is_device_plane(name) || name == x::metadata_plane;
}

class Progress {
public:
    Progress(const ReadOptions& o, std::uint64_t total) : o_(o), total_(total) {}
    void at(std::uint64_t pass_base, wire::CodedInputStream& in) {
        if (o_.cancel && o_.cancel->load(std::memory_order_relaxed))
            throw ProfileError("The reading was stopped before it finished.");
        const std::uint64_t done = pass_base + static_cast<std::uint64_t>(in.CurrentPosition());
        if (o_.progress && done >= next_) {
            o_.progress(done, total_);
            next_ = done + (4u << 20);
        }
    }
    void finish() {
        if (o_.progress) o_.progress(total_, total_);
    }

private:
    const ReadOptions& o_;
    std::uint64_t total_;
    std::uint64_t next_ = 0;
};

enum class Role : std::uint8_t {
    none,
    device_offset_ps,
    device_duration_ps,
    hlo_op,
    hlo_module,
    program_id,
    hlo_category,
    flops,
    bytes_accessed,
    tf_op,
    source,
    shape_with_layout
};

// The role a stat's name gives it [XPLANE-SCHEMA].
Role role_of(std::string_view name);

class StatNames {
public:
    explicit StatNames(const PlaneInfo& p) : p_(p) {
        for (const auto& [id, name] : p.stat_names) {
            const Role r = role_of(name);
            if (id >= 0 && id < small_ids) {
                if (static_cast<std::size_t>(id) >= small_.size())
                    small_.resize(static_cast<std::size_t>(id) + 1, Role::none);
                small_[static_cast<std::size_t>(id)] = r;
            } else {
                roles_[id] = r;
            }
        }
    }
    // Called for every stat of every event: ids are small in practice.
    Role role(std::int64_t id) const {
        if (id >= 0 && static_cast<std::size_t>(id) < small_.size()) return small_[static_cast<std::size_t>(id)];
        const auto it = roles_.find(id);
        return it == roles_.end() ? Role::none : it->second;
    }
    const std::string* name(std::int64_t id) const {
        const auto it = p_.stat_names.find(id);
        return it == p_.stat_names.end() ? nullptr : &it->second;
    }
    // A stat's value as text: a string, or the name a ref points at.
    std::string text(const RawStat& s) const {
        if (s.type == x::stat_str) return s.s;
        if (s.type == x::stat_ref) {
            const std::string* n = name(static_cast<std::int64_t>(s.u));
            return n ? *n : std::string();
        }
        if (s.type == x::stat_uint64) return std::to_string(s.u);
        if (s.type == x::stat_int64) return std::to_string(static_cast<std::int64_t>(s.u));
        return {};
    }
    static std::int64_t integer(const RawStat& s) {
        if (s.type == x::stat_uint64 || s.type == x::stat_int64) return static_cast<std::int64_t>(s.u);
        if (s.type == x::stat_double) return static_cast<std::int64_t>(s.d);
        return -1;
    }
    static double real(const RawStat& s) {
        if (s.type == x::stat_double) return s.d;
        if (s.type == x::stat_uint64) return static_cast<double>(s.u);
        if (s.type == x::stat_int64) return static_cast<double>(static_cast<std::int64_t>(s.u));
        return 0;
    }

private:
    static constexpr std::int64_t small_ids = 1 << 16;
    const PlaneInfo& p_;
    std::vector<Role> small_;
    std::unordered_map<std::int64_t, Role> roles_;
};

// ---- pass 1 (xplane_planes.cpp) -------------------------------------------

RawStat read_stat(Fields& f);
// One plane's names, lines and, for device and metadata planes, metadata;
// its lines' events are skipped unread.
void scan_plane(Fields& f, PlaneInfo& p, Progress& progress, wire::CodedInputStream& in);
DeviceKind kind_of_plane(std::string_view name);
int ordinal_of(std::string_view name);
// The device type, peaks and chip a device plane's stats give.
void describe_device(Device& d, const PlaneInfo& p);
// The metadata plane's programs, each with its HLO text.
void read_programs(const PlaneInfo& p, Profile& profile);
// "jit_f(12190760917235803885)" -> name "jit_f", id 12190760917235803885.
bool split_program(const std::string& text, std::string& name, std::uint64_t& id);

// ---- pass 2 (xplane_events.cpp) -------------------------------------------

enum class LineUse { skip, ops, modules, steps };

// What pass 2 collects for one device before its ops are merged by name.
struct DeviceBuild {
    Device device;
    const PlaneInfo* plane = nullptr;
    std::vector<Op> ops;  // one per (event metadata, hlo_op) pair seen
    std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> op_index;
    std::unordered_map<std::int64_t, std::string> interned;  // negative ids: strings met inline
    std::unordered_map<std::string, std::int64_t> intern_ids;
    std::int64_t base_ns = 0;
    std::int64_t skipped = 0;  // events and lines with times no trace can hold
};

LineUse line_use(DeviceKind kind, std::string_view line);
// The events of the lines the course shows, into the device's ops, spans
// and timeline.
void read_device_lines(Fields& f, DeviceBuild& b, Progress& progress, std::uint64_t pass_base,
                       wire::CodedInputStream& in);
// Ops of the same program and name become one; the timeline follows.
void merge_ops(DeviceBuild& b);

}  // namespace tpuprofile::xplane_detail
