#pragma once
// What the live-number kinds share: reading a placeholder's arguments and
// turning a model's answer into a Value. Private to chapters/api.
#include <chapters/livenumbers.h>

#include <tpusim/chips.h>
#include <tpusim/dtype.h>
#include <tpusim/error.h>
#include <tpusim/provenance.h>

#include <charconv>
#include <cstdint>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace course::live::detail {

using tpusim::InputError;

// Names the learner typed (a dtype, a chip, a collective) that the simulator
// does not know are mistakes in the text, not refusals by the model.
template <typename F>
auto named(F &&lookup) -> decltype(lookup())
{
    try {
        return lookup();
    } catch (const InputError &e) {
        throw PlaceholderError(e.what());
    }
}

// The arguments a placeholder reads, so a misspelt one is an error rather
// than silently ignored.
class Args
{
public:
    Args(const Placeholder &p, std::set<std::string> allowed) : p_(p)
    {
        allowed.insert("chip");
        for (const auto &[k, v] : p.args)
            if (!allowed.count(k))
                throw PlaceholderError("\"" + p.kind + "\" takes no argument \"" + k + "\".");
    }
    bool has(const std::string &k) const { return p_.args.count(k) > 0; }
    std::string text(const std::string &k, const std::string &fallback = {}) const
    {
        const auto it = p_.args.find(k);
        if (it != p_.args.end())
            return it->second;
        if (fallback.empty())
            throw PlaceholderError("\"" + p_.kind + "\" needs \"" + k + "=\".");
        return fallback;
    }
    std::int64_t integer(const std::string &k, std::int64_t fallback = 0) const
    {
        const std::string t = text(k, fallback > 0 ? std::to_string(fallback) : std::string());
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (ec != std::errc() || end != t.data() + t.size() || v < 1)
            throw PlaceholderError("\"" + k + "=" + t + "\" is not a whole number of at least 1.");
        return v;
    }
    std::vector<std::int64_t> shape(const std::string &k) const
    {
        std::vector<std::int64_t> dims;
        std::stringstream in(text(k));
        std::string part;
        while (std::getline(in, part, 'x')) {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
            if (ec != std::errc() || end != part.data() + part.size() || v < 1)
                throw PlaceholderError("\"" + k + "=" + text(k) + "\" is not a shape such as 4096x4096.");
            dims.push_back(v);
        }
        if (dims.empty())
            throw PlaceholderError("\"" + k + "=\" is empty.");
        return dims;
    }
    tpusim::DType dtype(const std::string &k = "dtype", const std::string &fallback = "bf16") const
    {
        const std::string t = text(k, fallback);
        return named([&] { return tpusim::parse_dtype(t); });
    }

private:
    const Placeholder &p_;
};

inline std::string percent(double fraction)
{
    return tpusim::format_fixed(100.0 * fraction, 1) + " %";
}
inline std::string perByte(double v)
{
    return tpusim::format_intensity(v);
}

inline Value answer(std::string text, const tpusim::Provenance &p)
{
    Value v;
    v.text = std::move(text);
    v.provenance = p;
    v.details = tpusim::describe(p);
    return v;
}

// An answer that is also a number, for sentences that compare live values.
inline Value numbered(std::string text, double number, const tpusim::Provenance &p)
{
    Value v = answer(std::move(text), p);
    v.number = number;
    return v;
}

[[noreturn]] inline void unknownField(const Placeholder &p, const char *fields)
{
    throw PlaceholderError("\"" + p.kind + "\" has no field \"" + p.field + "\" (it has " + fields + ").");
}

// A field of a kind's answer that reads as a number: its name, how it is
// written, and its value.
enum class Reads { time, bytes, count, percent, perByte };
struct NumberField
{
    const char *name;
    Reads reads;
    double value;
};

// The placeholder's field among `fields`, written as it reads; nullopt when
// it names none of them.
inline std::optional<Value> numberField(const Placeholder &p, std::initializer_list<NumberField> fields,
                                        const tpusim::Provenance &prov)
{
    for (const NumberField &f : fields) {
        if (p.field != f.name)
            continue;
        switch (f.reads) {
            case Reads::time:
                return numbered(tpusim::format_time(f.value), f.value, prov);
            case Reads::bytes:
                return numbered(tpusim::format_bytes(f.value), f.value, prov);
            case Reads::count:
                return numbered(std::to_string(static_cast<long long>(f.value)), f.value, prov);
            case Reads::percent:
                return numbered(percent(f.value), f.value, prov);
            case Reads::perByte:
                return numbered(perByte(f.value), f.value, prov);
        }
    }
    return std::nullopt;
}

// The kinds of the production kernels (livenumbers_kernels.cpp).
Value resolveQuantizedMatmul(const Placeholder &p, const tpusim::Chip &chip);
Value resolveDecode(const Placeholder &p, const tpusim::Chip &chip);
Value resolveGroupedMatmul(const Placeholder &p, const tpusim::Chip &chip);
// Chapter 9's block under a sharding (livenumbers_sharding.cpp).
Value resolveShardLayer(const Placeholder &p, const tpusim::Chip &chip);

} // namespace course::live::detail
