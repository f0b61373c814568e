// The shared op model: format names and detection, types as text, lookups.
#include <functional>

#include "ir_text.h"
#include "tpusim/ir.h"

namespace tpusim::ir {

ParseError::ParseError(int line, int column, const std::string& what)
    : InputError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what),
      line_(line),
      column_(column) {}

std::string_view format_name(Format format) {
    switch (format) {
        case Format::jaxpr:
            return "jaxpr";
        case Format::stablehlo:
            return "stablehlo";
        case Format::hlo:
            return "hlo";
    }
    return "?";
}

Format parse_format(std::string_view text) {
    if (text == "jaxpr") return Format::jaxpr;
    if (text == "stablehlo" || text == "mlir" || text == "shlo") return Format::stablehlo;
    if (text == "hlo") return Format::hlo;
    throw InputError("unknown IR format '" + std::string(text) + "': use jaxpr, stablehlo or hlo");
}

namespace {

// `_take = { lambda`: a shared sub-jaxpr that a jaxpr prints ahead of itself.
bool jaxpr_follows(std::string_view text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos) return false;
    std::size_t i = eq + 1;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n')) ++i;
    if (!text.substr(i).starts_with("{")) return false;
    ++i;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n')) ++i;
    return text.substr(i).starts_with("lambda");
}

}  // namespace

Format detect_format(std::string_view text) {
    // The first meaningful word decides; comments and MLIR aliases come first sometimes.
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
        const std::string_view rest = text.substr(i);
        if (rest.starts_with("//") || rest.starts_with("#")) {
            while (i < text.size() && text[i] != '\n') ++i;
            continue;
        }
        if (rest.starts_with("{")) {
            std::size_t j = 1;
            while (j < rest.size() && (rest[j] == ' ' || rest[j] == '\n')) ++j;
            if (rest.substr(j).starts_with("lambda")) return Format::jaxpr;
        }
        if (rest.starts_with("let ") && jaxpr_follows(rest.substr(4))) return Format::jaxpr;
        if (rest.starts_with("HloModule") || rest.starts_with("ENTRY")) return Format::hlo;
        if (rest.starts_with("module") || rest.starts_with("func.func") || rest.starts_with("\"builtin.module\""))
            return Format::stablehlo;
        break;
    }
    if (text.find("stablehlo.") != std::string_view::npos) return Format::stablehlo;
    if (text.find("ENTRY") != std::string_view::npos) return Format::hlo;
    throw InputError(
        "cannot tell which IR this is: a jaxpr starts with '{ lambda', StableHLO "
        "with 'module', HLO with 'HloModule'; pass --format");
}

std::int64_t TensorType::element_count() const {
    std::int64_t n = 1;
    for (auto d : dims) {
        if (d < 0) return -1;
        if (d != 0 && n > INT64_MAX / d) return -1;
        n *= d;
    }
    return n;
}

std::string dims_text(const std::vector<std::int64_t>& dims) {
    std::string s;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ',';
        s += dims[i] < 0 ? "?" : std::to_string(dims[i]);
    }
    return s;
}

std::string type_text(const TensorType& type, bool with_layout) {
    if (type.is_tuple) {
        std::string s = "(";
        for (std::size_t i = 0; i < type.elements.size(); ++i) {
            if (i) s += ", ";
            s += type_text(type.elements[i], with_layout);
        }
        return s + ")";
    }
    std::string s = type.element + "[" + dims_text(type.dims) + "]";
    if (with_layout && type.has_layout) {
        s += '{';
        for (std::size_t i = 0; i < type.minor_to_major.size(); ++i) {
            if (i) s += ',';
            s += std::to_string(type.minor_to_major[i]);
        }
        if (!type.tiles.empty() || type.memory_space != 0) s += ':';
        if (!type.tiles.empty()) {
            s += 'T';
            for (const auto& tile : type.tiles) {
                s += '(';
                for (std::size_t i = 0; i < tile.size(); ++i) {
                    if (i) s += ',';
                    s += std::to_string(tile[i]);
                }
                s += ')';
            }
        }
        if (type.memory_space != 0) s += "S(" + std::to_string(type.memory_space) + ")";
        s += '}';
    }
    return s;
}

const std::string* Op::attribute(std::string_view attr_name) const {
    for (const auto& a : attributes)
        if (a.name == attr_name) return &a.value;
    return nullptr;
}

const Computation& Module::entry() const {
    for (const auto& c : computations)
        if (c.is_entry) return c;
    if (computations.size() == 1) return computations.front();
    throw InputError("the module has no entry computation (ENTRY, @main or a top-level jaxpr)");
}

const Computation* Module::find(std::string_view computation_name) const {
    for (const auto& c : computations)
        if (c.name == computation_name) return &c;
    return nullptr;
}

Module parse(std::string_view text, Format format) {
    switch (format) {
        case Format::jaxpr:
            return parse_jaxpr(text);
        case Format::stablehlo:
            return parse_stablehlo(text);
        case Format::hlo:
            return parse_hlo(text);
    }
    throw InputError("unknown IR format");
}

Module parse(std::string_view text) {
    detail::check_size(text);
    return parse(text, detect_format(text));
}

std::vector<const Op*> all_ops(const Module& module) {
    std::vector<const Op*> out;
    std::function<void(const Computation&)> walk = [&](const Computation& c) {
        for (const auto& op : c.ops) {
            out.push_back(&op);
            for (const auto& r : op.regions) walk(r);
        }
    };
    for (const auto& c : module.computations) walk(c);
    return out;
}

}  // namespace tpusim::ir
