// Reads an XSpace (.xplane.pb) in two passes over the file, streamed from
// disk so that memory follows what is kept, not the file's size:
//   1. every plane's name, its lines' names and timestamps, its stat names
//      and, for device and metadata planes, its event metadata; lines'
//      events are skipped unread;
//   2. the events of the lines the course shows (XLA Ops, XLA Modules and
//      Steps on a TPU; the streams of a GPU), now that stat ids have names.
// Two passes because a plane's stat names follow its lines in the file
// (XPlane fields 3 then 5 [XPLANE-PROTO]).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include <google/protobuf/io/zero_copy_stream_impl.h>

#include "tpuprofile/read.h"
#include "xplane_detail.h"

namespace tpuprofile {

using namespace xplane_detail;
using wire::WireError;

namespace {

class File {
public:
    explicit File(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
    ~File() {
        if (fd_ >= 0) ::close(fd_);
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

std::string plane_list(const SpaceInfo& space) {
    std::string text;
    for (const PlaneInfo& p : space.planes) {
        if (!text.empty()) text += ", ";
        text += p.name.empty() ? "(unnamed)" : p.name;
    }
    return text;
}

}  // namespace

Profile read_xplane(const std::string& path, const ReadOptions& options) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw ProfileError(path + " cannot be opened: " + std::strerror(errno) + ".");
    if (!S_ISREG(st.st_mode)) throw ProfileError(path + " is not a regular file, so it is not read.");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size == 0) throw ProfileError(path + " is empty: a profile holds at least one plane.");
    if (size > max_xplane_bytes)
        throw ProfileError(path + " is " + std::to_string(size / 1000000) +
                           " MB: one protocol buffer is at most 2 GiB, so this cannot be a whole XSpace.");

    Progress progress(options, 2 * size);
    SpaceInfo space;
    auto pass = [&](auto&& body) {
        File file(path);
        if (file.fd() < 0) throw ProfileError(path + " cannot be opened: " + std::strerror(errno) + ".");
        google::protobuf::io::FileInputStream raw(file.fd(), 1 << 16);
        wire::CodedInputStream in(&raw);
        in.SetTotalBytesLimit(std::numeric_limits<int>::max());
        try {
            body(in);
        } catch (const WireError& e) {
            const auto at = static_cast<std::uint64_t>(in.CurrentPosition());
            if (at + 16 >= size)
                throw ProfileError(path + " ends in the middle of its data (" + std::to_string(size) +
                                   " bytes): it was cut short, perhaps by a copy that did not finish.");
            throw ProfileError(path + " is not a profile: its bytes stop following the XSpace format " + "(" +
                               e.what() + ").");
        }
    };

    pass([&](wire::CodedInputStream& in) {
        Fields top(in);
        while (top.next()) {
            switch (top.number()) {
                case x::space_planes: {
                    if (top.type() != wire::length_type) throw WireError("a plane that is not a message", false);
                    PlaneInfo p;
                    scan_plane(top, p, progress, in);
                    space.planes.push_back(std::move(p));
                    progress.at(0, in);
                    break;
                }
                case x::space_errors:
                    space.errors.push_back(top.bytes());
                    break;
                case x::space_warnings:
                    space.warnings.push_back(top.bytes());
                    break;
                case x::space_hostnames:
                    space.hostnames.push_back(top.bytes());
                    break;
                default:
                    throw WireError("field " + std::to_string(top.number()) + " at the top level", false);
            }
        }
        if (static_cast<std::uint64_t>(in.CurrentPosition()) != size) throw WireError("the end of the data", false);
    });

    std::vector<DeviceBuild> builds;
    Profile profile;
    profile.format = "xplane.pb";
    profile.hostnames = space.hostnames;
    for (const std::string& e : space.errors) profile.notes.push_back("The profiler reported an error: " + e);
    for (const std::string& w : space.warnings) profile.notes.push_back("The profiler warned: " + w);
    bool named = false;
    for (const PlaneInfo& p : space.planes) {
        named = named || !p.name.empty();
        if (p.name == x::metadata_plane) {
            read_programs(p, profile);
        } else if (p.name == x::task_environment_plane) {
            const StatNames names(p);
            for (const RawStat& s : p.stats) {
                const std::string* n = names.name(s.id);
                if (n && *n == "profile_start_time") profile.start_ns = StatNames::integer(s);
                if (n && *n == "profile_stop_time") profile.stop_ns = StatNames::integer(s);
            }
        }
    }
    if (space.planes.empty() || !named) throw ProfileError(path + " is not a profile: it holds no named planes.");

    std::vector<std::int32_t> build_of_plane(space.planes.size(), -1);
    for (std::size_t i = 0; i < space.planes.size(); ++i) {
        const PlaneInfo& p = space.planes[i];
        const DeviceKind kind = kind_of_plane(p.name);
        if (kind == DeviceKind::other || !is_device_plane(p.name)) {
            profile.other_planes.push_back(p.name);
            continue;
        }
        DeviceBuild b;
        b.plane = &p;
        b.device.plane = p.name;
        b.device.kind = kind;
        b.device.ordinal = ordinal_of(p.name);
        describe_device(b.device, p);
        std::int64_t base = std::numeric_limits<std::int64_t>::max();
        for (const LineInfo& l : p.lines)
            if (line_use(kind, l.name) != LineUse::skip) base = std::min(base, l.timestamp_ns);
        b.base_ns = base == std::numeric_limits<std::int64_t>::max() ? 0 : base;
        b.device.line_start_ns = b.base_ns;
        build_of_plane[i] = static_cast<std::int32_t>(builds.size());
        builds.push_back(std::move(b));
    }
    if (builds.empty())
        throw ProfileError(path + " holds no accelerator: its planes are " + plane_list(space) +
                           ", so JAX ran on the host's CPU.");

    pass([&](wire::CodedInputStream& in) {
        Fields top(in);
        std::size_t plane_index = 0;
        while (top.next()) {
            if (top.number() != x::space_planes) {
                top.skip();
                continue;
            }
            const std::int32_t bi = build_of_plane.at(plane_index++);
            if (bi < 0) {
                top.skip();
                continue;
            }
            read_device_lines(top, builds[static_cast<std::size_t>(bi)], progress, size, in);
        }
    });
    progress.finish();

    for (DeviceBuild& b : builds) {
        if (b.skipped > 0)
            profile.notes.push_back(b.device.plane + ": " + std::to_string(b.skipped) +
                                    " events or lines were left out: their times are not ones a trace can hold.");
        merge_ops(b);
        profile.devices.push_back(std::move(b.device));
    }
    return profile;
}

}  // namespace tpuprofile
