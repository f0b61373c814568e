#include "wire.h"

#include <cstring>

#include <google/protobuf/wire_format_lite.h>

namespace tpuprofile::wire {

using google::protobuf::internal::WireFormatLite;

bool Fields::next() {
    const std::uint32_t tag = in_.ReadTag();
    if (tag == 0) {
        // Zero is the end of the limit or of the stream, or an invalid tag
        // in the middle of a message; only the last is damage.
        if (in_.BytesUntilLimit() > 0 && !in_.ConsumedEntireMessage()) fail("a field tag");
        return false;
    }
    number_ = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    type_ = static_cast<int>(WireFormatLite::GetTagWireType(tag));
    if (number_ == 0) fail("a field tag");
    return true;
}

void Fields::expect(int wire_type) const {
    if (type_ != wire_type) {
        throw WireError("field " + std::to_string(number_) + " has wire type " + std::to_string(type_) +
                            " where the schema has " + std::to_string(wire_type),
                        false);
    }
}

std::uint64_t Fields::varint() {
    expect(varint_type);
    std::uint64_t v = 0;
    if (!in_.ReadVarint64(&v)) fail("a number");
    return v;
}

double Fields::float64() {
    expect(fixed64_type);
    std::uint64_t bits = 0;
    if (!in_.ReadLittleEndian64(&bits)) fail("a double");
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

std::string Fields::bytes() {
    expect(length_type);
    int size = 0;
    if (!in_.ReadVarintSizeAsInt(&size)) fail("a string length");
    std::string s;
    if (!in_.ReadString(&s, size)) fail("a string");
    return s;
}

void Fields::skip() {
    const std::uint32_t tag = WireFormatLite::MakeTag(number_, static_cast<WireFormatLite::WireType>(type_));
    if (!WireFormatLite::SkipField(&in_, tag)) fail("a field to skip");
}

void Fields::skip_rest() {
    const int left = in_.BytesUntilLimit();
    if (left < 0 || !in_.Skip(left)) fail("the rest of a message");
}

void Fields::int64s(std::vector<std::int64_t>& out) {
    if (type_ == varint_type) {
        out.push_back(int64());
        return;
    }
    expect(length_type);
    int size = 0;
    if (!in_.ReadVarintSizeAsInt(&size)) fail("a packed list length");
    const auto limit = in_.PushLimit(size);
    while (in_.BytesUntilLimit() > 0) {
        std::uint64_t v = 0;
        if (!in_.ReadVarint64(&v)) fail("a packed list");
        out.push_back(static_cast<std::int64_t>(v));
    }
    in_.PopLimit(limit);
}

void Fields::fail(const char* reading) const {
    // Whether the bytes ran out first is for the caller to tell: it knows
    // the file's size.
    throw WireError(std::string("reading ") + reading + " at byte " + std::to_string(in_.CurrentPosition()), false);
}

}  // namespace tpuprofile::wire
