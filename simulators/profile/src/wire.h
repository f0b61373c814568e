#pragma once
// Reading protocol buffers by field number with protobuf's own
// CodedInputStream, without generated classes: the course reads a handful of
// fields from XSpace and HloProto, and their numbers are facts of the two
// schemas (cited where each is read). Every failure is a WireError that says
// where the bytes stopped making sense; the readers turn it into a sentence.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <google/protobuf/io/coded_stream.h>

namespace tpuprofile::wire {

using google::protobuf::io::CodedInputStream;

struct WireError : std::runtime_error {
    WireError(const std::string& what, bool at_end) : std::runtime_error(what), ran_out(at_end) {}
    bool ran_out;  // the bytes ended before the message did
};

enum WireType { varint_type = 0, fixed64_type = 1, length_type = 2, fixed32_type = 5 };

// The fields of one message, in the order they come. Construct it right after
// entering the message (Fields::nested or the stream's start).
class Fields {
public:
    explicit Fields(CodedInputStream& in) : in_(in) {}

    // The next field, or false at the end of the message (its limit, or the
    // end of the stream at top level).
    bool next();
    int number() const { return number_; }
    int type() const { return type_; }

    std::uint64_t varint();
    std::int64_t int64() { return static_cast<std::int64_t>(varint()); }
    double float64();
    std::string bytes();
    void skip();
    // Skip to the end of the message: the current field and all after it.
    void skip_rest();
    // A repeated int64 field, packed or not; appends to `out`.
    void int64s(std::vector<std::int64_t>& out);

    // Read a nested message: `body` is called with the message's Fields.
    template <typename Body>
    void nested(Body&& body) {
        int size = 0;
        expect(length_type);
        if (!in_.ReadVarintSizeAsInt(&size)) fail("a message length");
        const auto limit = in_.PushLimit(size);
        Fields inner(in_);
        body(inner);
        if (in_.BytesUntilLimit() > 0) fail("a nested message");
        in_.PopLimit(limit);
    }

    [[noreturn]] void fail(const char* reading) const;
    CodedInputStream& stream() { return in_; }

private:
    void expect(int wire_type) const;
    CodedInputStream& in_;
    int number_ = 0;
    int type_ = 0;
};

}  // namespace tpuprofile::wire
