#include "profile_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/wire_format_lite.h>

namespace tpuprofile::bench {

namespace {

using google::protobuf::internal::WireFormatLite;

// A message built in memory, field by field, in the schema's numbers
// (xplane_schema.h in simulators/profile/src).
class Msg {
public:
    Msg& varint(int field, std::uint64_t v) {
        tag(field, WireFormatLite::WIRETYPE_VARINT);
        put_varint(v);
        return *this;
    }
    Msg& real(int field, double d) {
        tag(field, WireFormatLite::WIRETYPE_FIXED64);
        std::uint64_t bits;
        std::memcpy(&bits, &d, 8);
        for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(bits >> (8 * i)));
        return *this;
    }
    Msg& bytes(int field, const std::string& s) {
        tag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
        put_varint(s.size());
        out_ += s;
        return *this;
    }
    Msg& message(int field, const Msg& m) { return bytes(field, m.out_); }
    const std::string& str() const { return out_; }
    void clear() { out_.clear(); }

private:
    void tag(int field, WireFormatLite::WireType t) { put_varint(WireFormatLite::MakeTag(field, t)); }
    void put_varint(std::uint64_t v) {
        while (v >= 0x80) {
            out_.push_back(static_cast<char>(v | 0x80));
            v >>= 7;
        }
        out_.push_back(static_cast<char>(v));
    }
    std::string out_;
};

Msg stat_u(std::int64_t id, std::uint64_t v) {
    return std::move(Msg().varint(1, static_cast<std::uint64_t>(id)).varint(3, v));
}
Msg stat_s(std::int64_t id, const std::string& v) {
    return std::move(Msg().varint(1, static_cast<std::uint64_t>(id)).bytes(5, v));
}
Msg stat_d(std::int64_t id, double v) {
    return std::move(Msg().varint(1, static_cast<std::uint64_t>(id)).real(2, v));
}

Msg map_entry(std::int64_t key, const Msg& value) {
    return std::move(Msg().varint(1, static_cast<std::uint64_t>(key)).message(2, value));
}

// Stat ids of the device planes.
enum : std::int64_t {
    s_offset = 1,
    s_duration,
    s_category,
    s_program,
    s_flops,
    s_bytes,
    s_tf_op,
    s_shape,
    s_type,
    s_peak_flops,
    s_peak_bw
};

constexpr std::uint64_t program_id = 12190760917235803885ull;
constexpr int distinct_ops = 400;

Msg stat_names() {
    Msg m;
    const char* names[] = {"",
                           "device_offset_ps",
                           "device_duration_ps",
                           "hlo_category",
                           "program_id",
                           "flops",
                           "bytes_accessed",
                           "tf_op",
                           "shape_with_layout",
                           "device_type_string",
                           "peak_teraflops_per_second",
                           "peak_hbm_bw_gigabytes_per_second"};
    for (std::int64_t id = 1; id <= s_peak_bw; ++id)
        m.message(5, map_entry(id, Msg().varint(1, static_cast<std::uint64_t>(id)).bytes(2, names[id])));
    return m;
}

// Event metadata of the op mix: fusions, dots, copies, an all-reduce.
Msg op_metadata() {
    Msg m;
    const char* kinds[] = {"loop fusion", "convolution fusion", "output fusion",
                           "copy",        "all-reduce",         "data formatting"};
    for (int i = 0; i < distinct_ops; ++i) {
        const std::string name = std::string(i % 6 == 3   ? "copy."
                                             : i % 6 == 4 ? "all-reduce."
                                                          : "fusion.") +
                                 std::to_string(i);
        const std::string shape = "bf16[8,2048,4096]{2,1,0:T(8,128)(2,1)}";
        const std::string text = "%" + name + " = " + shape + " " +
                                 (i % 6 == 3   ? "copy"
                                  : i % 6 == 4 ? "all-reduce"
                                               : "fusion") +
                                 "(" + shape + " %param." + std::to_string(i) + ")" +
                                 (i % 6 == 4 ? ", replica_groups={{0,1,2,3}}, to_apply=%add"
                                             : ", kind=kLoop, calls=%fused_computation." + std::to_string(i));
        Msg md;
        md.varint(1, static_cast<std::uint64_t>(i + 1)).bytes(2, text).bytes(4, name);
        md.message(5, stat_s(s_category, kinds[i % 6]));
        md.message(5, stat_u(s_program, program_id));
        md.message(
            5,
            Msg().varint(1, s_flops).varint(4, static_cast<std::uint64_t>(i % 6 == 1 ? 137438953472ll : 67108864ll)));
        md.message(5, Msg().varint(1, s_bytes).varint(4, 201326592));
        md.message(5, stat_s(s_tf_op,
                             "jit(train_step)/jit(main)/transformer/layer_" + std::to_string(i % 32) + "/dot_general"));
        md.message(5, stat_s(s_shape, shape));
        m.message(4, map_entry(i + 1, md));
    }
    return m;
}

std::string hlo_proto() {
    // One module of one computation: a parameter and a negate, enough for
    // the reader to decode and print.
    Msg shape;
    shape.varint(2, 11).bytes(3, std::string("\x80\x01\x80\x01", 4));
    Msg param, neg;
    param.bytes(1, "p").bytes(2, "parameter").message(3, shape).varint(35, 1);
    neg.bytes(1, "n").bytes(2, "negate").message(3, shape).varint(35, 2).bytes(36, std::string("\x01", 1));
    Msg comp;
    comp.bytes(1, "main").message(2, param).message(2, neg).varint(5, 1).varint(6, 2);
    Msg module;
    module.bytes(1, "jit_train_step").bytes(2, "main").message(3, comp).varint(6, 1);
    return Msg().message(1, module).str();
}

class Out {
public:
    explicit Out(const std::string& path) : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644)) {
        if (fd_ < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    }
    ~Out() {
        if (fd_ >= 0) ::close(fd_);
    }
    void write(const std::string& s) {
        for (std::size_t done = 0; done < s.size();) {
            const ssize_t n = ::write(fd_, s.data() + done, s.size() - done);
            if (n <= 0) throw std::runtime_error(std::string("write failed: ") + std::strerror(errno));
            done += static_cast<std::size_t>(n);
        }
        bytes += s.size();
    }
    std::uint64_t bytes = 0;

private:
    int fd_;
};

// A plane written as a length-prefixed field of the XSpace; its lines are
// built one at a time so memory stays small however large the file.
void write_plane(Out& out, const std::vector<std::string>& parts) {
    std::uint64_t size = 0;
    for (const std::string& p : parts) size += p.size();
    Msg head;
    std::string prefix;
    prefix.push_back(static_cast<char>(WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)));
    for (std::uint64_t v = size;; v >>= 7) {
        if (v < 0x80) {
            prefix.push_back(static_cast<char>(v));
            break;
        }
        prefix.push_back(static_cast<char>(v | 0x80));
    }
    out.write(prefix);
    for (const std::string& p : parts) out.write(p);
}

// One line of `events` device ops, as a field of its plane.
std::string ops_line(std::int64_t events, std::uint64_t seed) {
    Msg line;
    line.varint(1, 3).bytes(2, "XLA Ops").varint(3, 1741722099081044120ull);
    std::uint64_t t = 1000000, x = seed;
    Msg e;
    for (std::int64_t i = 0; i < events; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint64_t op = (x >> 33) % distinct_ops + 1;
        const std::uint64_t dur = 1000000 + (x >> 40) % 9000000;  // 1 to 10 µs
        e.clear();
        e.varint(1, op).varint(2, t).varint(3, dur);
        e.message(4, stat_u(s_offset, t)).message(4, stat_u(s_duration, dur));
        line.message(4, e);
        t += dur + (x >> 50) % 200000;
    }
    return Msg().message(3, line).str();
}

std::string host_line(int thread, std::int64_t events) {
    Msg line;
    line.varint(1, static_cast<std::uint64_t>(100 + thread))
        .bytes(2,
               (thread == 0 ? std::string("main/") : std::string("py_xla_execute/")) + std::to_string(3116817 + thread))
        .varint(3, 1741722099081044120ull);
    Msg e;
    std::uint64_t t = 0;
    for (std::int64_t i = 0; i < events; ++i) {
        e.clear();
        e.varint(1, static_cast<std::uint64_t>(1 + i % 50)).varint(2, t).varint(3, 25000 + i % 1000);
        e.message(4, stat_u(1, static_cast<std::uint64_t>(i)));
        line.message(4, e);
        t += 40000;
    }
    return Msg().message(3, line).str();
}

}  // namespace

Written write_profile(const std::string& path, std::uint64_t target_bytes) {
    Out out(path);
    Written w;
    // About 47 bytes a device event and 20 a host event; device ops take
    // two thirds of the file, the host's threads the rest.
    const auto device_events = static_cast<std::int64_t>(static_cast<double>(target_bytes) * 0.75 / 4 / 47);
    const auto host_events = static_cast<std::int64_t>(static_cast<double>(target_bytes) * 0.4 / 20);
    const std::int64_t chunk = 1 << 18;
    const std::string names = stat_names().str();
    const std::string metadata = op_metadata().str();
    for (int device = 0; device < 4; ++device) {
        std::vector<std::string> parts;
        parts.push_back(Msg()
                            .varint(1, static_cast<std::uint64_t>(device + 1))
                            .bytes(2, "/device:TPU:" + std::to_string(device))
                            .str());
        parts.push_back(ops_line(device_events, static_cast<std::uint64_t>(device * 7919 + 1)));
        parts.push_back(metadata);
        parts.push_back(names);
        parts.push_back(Msg()
                            .message(6, stat_s(s_type, "TPU v6 Lite"))
                            .message(6, stat_d(s_peak_flops, 918))
                            .message(6, stat_d(s_peak_bw, 1638))
                            .str());
        write_plane(out, parts);
        w.device_events += device_events;
    }
    {
        std::vector<std::string> parts;
        parts.push_back(Msg().varint(1, 5).bytes(2, "/host:CPU").str());
        int thread = 0;
        for (std::int64_t done = 0; done < host_events; done += chunk, ++thread)
            parts.push_back(host_line(thread, std::min(chunk, host_events - done)));
        Msg md;
        for (int i = 1; i <= 50; ++i)
            md.message(
                4, map_entry(i, Msg().varint(1, static_cast<std::uint64_t>(i)).bytes(2, "PjitFunction(train_step)")));
        parts.push_back(md.str());
        write_plane(out, parts);
        w.host_events = host_events;
    }
    {
        Msg meta;
        meta.varint(1, 6).bytes(2, "/host:metadata");
        Msg md;
        md.varint(1, program_id).bytes(2, "jit_train_step(" + std::to_string(program_id) + ")");
        md.message(5, Msg().varint(1, 1).bytes(6, hlo_proto()));
        meta.message(4, map_entry(static_cast<std::int64_t>(program_id), md));
        meta.message(5, map_entry(1, Msg().varint(1, 1).bytes(2, "Hlo Proto")));
        write_plane(out, {meta.str()});
    }
    w.bytes = out.bytes;
    return w;
}

}  // namespace tpuprofile::bench
