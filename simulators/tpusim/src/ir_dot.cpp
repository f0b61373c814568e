#include "tpusim/ir_dot.h"

#include <algorithm>
#include <map>

#include "ir_dot_detail.h"
#include "ir_text.h"

namespace tpusim::ir {

namespace {

std::string list_text(const std::vector<std::int64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::int64_t times(std::int64_t product, std::int64_t size) {
    if (size != 0 && product > INT64_MAX / size)
        throw InputError("the dot's sizes multiply past 2^63; they cannot be real");
    return product * size;
}

// The bracket groups that hold no other group, in order.
std::vector<std::string_view> leaf_groups(std::string_view text) {
    std::vector<std::string_view> out;
    std::vector<std::size_t> open;
    bool nested = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[') {
            if (open.size() > 64) throw InputError("the dimension numbers nest too deeply");
            open.push_back(i);
            nested = false;
        } else if (c == ')' || c == ']') {
            if (open.empty()) throw InputError("unbalanced brackets in '" + std::string(text) + "'");
            if (!nested) out.push_back(text.substr(open.back(), i - open.back() + 1));
            open.pop_back();
            nested = true;
        }
    }
    if (!open.empty()) throw InputError("unbalanced brackets in '" + std::string(text) + "'");
    return out;
}

// The list after `key =` (or `key=`) in `text`; empty when the key is absent.
std::vector<std::int64_t> list_after(std::string_view text, std::string_view key, bool* found = nullptr) {
    std::size_t at = 0;
    while ((at = text.find(key, at)) != std::string_view::npos) {
        const bool starts_word = at == 0 || !detail::is_name_char(text[at - 1]);
        std::size_t i = at + key.size();
        while (i < text.size() && text[i] == ' ') ++i;
        if (starts_word && i < text.size() && text[i] == '=') {
            ++i;
            while (i < text.size() && text[i] == ' ') ++i;
            const char close = i < text.size() && text[i] == '{' ? '}' : ']';
            const std::size_t end = text.find(close, i);
            if (end == std::string_view::npos)
                throw InputError("'" + std::string(key) + "' has no closing '" + close + "'");
            if (found) *found = true;
            return detail::int_list(text.substr(i, end - i + 1));
        }
        at += key.size();
    }
    return {};
}

// `[0] x [0]` after `key =`.
void pair_after(std::string_view text, std::string_view key, std::vector<std::int64_t>& lhs,
                std::vector<std::int64_t>& rhs) {
    const std::size_t at = text.find(key);
    if (at == std::string_view::npos) return;
    const std::size_t l = text.find('[', at), x = text.find(']', l == std::string_view::npos ? at : l);
    const std::size_t r = text.find('[', x == std::string_view::npos ? at : x);
    const std::size_t e = text.find(']', r == std::string_view::npos ? at : r);
    if (l == std::string_view::npos || x == std::string_view::npos || r == std::string_view::npos ||
        e == std::string_view::npos || text.substr(x + 1, r - x - 1).find('x') == std::string_view::npos)
        throw InputError("expected '" + std::string(key) + " = [...] x [...]'");
    lhs = detail::int_list(text.substr(l, x - l + 1));
    rhs = detail::int_list(text.substr(r, e - r + 1));
}

}  // namespace

DotDims parse_jaxpr_dimension_numbers(std::string_view text) {
    const auto groups = leaf_groups(text);
    if (groups.size() != 4)
        throw InputError(
            "dimension_numbers must be ((lhs_contracting, rhs_contracting), "
            "(lhs_batch, rhs_batch)), got '" +
            std::string(text) + "'");
    DotDims d;
    d.lhs_contracting = detail::int_list(groups[0]);
    d.rhs_contracting = detail::int_list(groups[1]);
    d.lhs_batch = detail::int_list(groups[2]);
    d.rhs_batch = detail::int_list(groups[3]);
    return d;
}

DotDims parse_stablehlo_dot_dims(std::string_view text) {
    DotDims d;
    if (text.find("contracting_dimensions") != std::string_view::npos ||
        text.find("batching_dimensions") != std::string_view::npos) {
        d.lhs_batch = list_after(text, "lhs_batching_dimensions");
        d.rhs_batch = list_after(text, "rhs_batching_dimensions");
        d.lhs_contracting = list_after(text, "lhs_contracting_dimensions");
        d.rhs_contracting = list_after(text, "rhs_contracting_dimensions");
        return d;
    }
    pair_after(text, "batching_dims", d.lhs_batch, d.rhs_batch);
    pair_after(text, "contracting_dims", d.lhs_contracting, d.rhs_contracting);
    return d;
}

DotShape dot_general_shape(const std::vector<std::int64_t>& lhs, const std::vector<std::int64_t>& rhs,
                           const DotDims& dims) {
    const std::vector<const std::vector<std::int64_t>*> shapes{&lhs, &rhs};
    const char* side[] = {"lhs", "rhs"};
    const std::vector<std::int64_t>* batch[] = {&dims.lhs_batch, &dims.rhs_batch};
    const std::vector<std::int64_t>* contract[] = {&dims.lhs_contracting, &dims.rhs_contracting};
    if (dims.lhs_batch.size() != dims.rhs_batch.size())
        throw InputError("the batch dims " + list_text(dims.lhs_batch) + " x " + list_text(dims.rhs_batch) +
                         " differ in count");
    if (dims.lhs_contracting.size() != dims.rhs_contracting.size())
        throw InputError("the contracting dims " + list_text(dims.lhs_contracting) + " x " +
                         list_text(dims.rhs_contracting) + " differ in count");
    std::vector<bool> used[2];
    for (int s = 0; s < 2; ++s) {
        const auto& shape = *shapes[s];
        used[s].assign(shape.size(), false);
        for (auto d : shape)
            if (d < 0)
                throw InputError(std::string(side[s]) + " shape [" + dims_text(shape) +
                                 "] has a dynamic size; the FLOPs need static sizes");
        for (const auto* list : {batch[s], contract[s]}) {
            for (auto d : *list) {
                if (d < 0 || d >= static_cast<std::int64_t>(shape.size()))
                    throw InputError(std::string(side[s]) + " dim " + std::to_string(d) +
                                     " is out of range for a rank-" + std::to_string(shape.size()) + " operand");
                if (used[s][static_cast<std::size_t>(d)])
                    throw InputError(std::string(side[s]) + " dim " + std::to_string(d) +
                                     " is listed twice among the batch and contracting dims");
                used[s][static_cast<std::size_t>(d)] = true;
            }
        }
    }
    DotShape out;
    auto pairwise = [&](const std::vector<std::int64_t>& l, const std::vector<std::int64_t>& r, const char* what,
                        std::int64_t& product) {
        for (std::size_t i = 0; i < l.size(); ++i) {
            const auto a = lhs[static_cast<std::size_t>(l[i])], b = rhs[static_cast<std::size_t>(r[i])];
            if (a != b)
                throw InputError(std::string(what) + " dims do not match: lhs dim " + std::to_string(l[i]) +
                                 " has size " + std::to_string(a) + " but rhs dim " + std::to_string(r[i]) +
                                 " has size " + std::to_string(b));
            product = times(product, a);
        }
    };
    pairwise(dims.lhs_batch, dims.rhs_batch, "batch", out.batch);
    pairwise(dims.lhs_contracting, dims.rhs_contracting, "contracting", out.contracting);
    for (auto d : dims.lhs_batch) out.output.push_back(lhs[static_cast<std::size_t>(d)]);
    for (std::size_t i = 0; i < lhs.size(); ++i)
        if (!used[0][i]) {
            out.output.push_back(lhs[i]);
            out.lhs_free = times(out.lhs_free, lhs[i]);
        }
    for (std::size_t i = 0; i < rhs.size(); ++i)
        if (!used[1][i]) {
            out.output.push_back(rhs[i]);
            out.rhs_free = times(out.rhs_free, rhs[i]);
        }
    out.flops = times(times(times(times(2, out.batch), out.lhs_free), out.rhs_free), out.contracting);
    return out;
}

namespace detail {

std::optional<DotDims> hlo_dot_dims(const Op& op) {
    DotDims d;
    bool any = false;
    const auto read = [&](const char* key, std::vector<std::int64_t>& into) {
        if (const std::string* v = op.attribute(key)) {
            into = int_list(*v);
            any = true;
        }
    };
    read("lhs_contracting_dims", d.lhs_contracting);
    read("rhs_contracting_dims", d.rhs_contracting);
    read("lhs_batch_dims", d.lhs_batch);
    read("rhs_batch_dims", d.rhs_batch);
    if (!any) return std::nullopt;
    return d;
}

}  // namespace detail

bool is_ragged_dot(const Op& op) {
    return op.name == "ragged_dot" || op.name == "ragged-dot" || op.name == "ragged_dot_general";
}

RaggedDotDims ragged_dot_dims_of(const Op& op, Format format) {
    RaggedDotDims d;
    if (format == Format::hlo) {
        const auto read = [&op](const char* key) {
            const std::string* v = op.attribute(key);
            return v ? detail::int_list(*v) : std::vector<std::int64_t>{};
        };
        d.dot = detail::hlo_dot_dims(op).value_or(DotDims{});
        d.lhs_ragged = read("lhs_ragged_dims");
        d.rhs_group = read("rhs_group_dims");
    } else {
        const std::string* numbers = op.attribute("ragged_dot_dimension_numbers");
        if (format == Format::jaxpr && !numbers) {  // the old primitive: ragged over m
            d.dot.lhs_contracting = {1};
            d.dot.rhs_contracting = {1};
            d.lhs_ragged = {0};
            d.rhs_group = {0};
            return d;
        }
        // StableHLO prints the numbers as one attribute or, pretty, as several.
        std::string text = numbers ? *numbers : std::string();
        if (!numbers)
            for (const Attribute& a : op.attributes) text += a.name + " = " + a.value + ", ";
        if (format == Format::jaxpr) {
            // RaggedDotDimensionNumbers(dot_dimension_numbers=((...), (...)), lhs_ragged_dimensions=[0], ...)
            const std::size_t at = text.find("dot_dimension_numbers=");
            if (at == std::string::npos) throw InputError("ragged_dot_dimension_numbers has no dot_dimension_numbers");
            std::size_t i = text.find('(', at), depth = 0, end = i;
            for (; end < text.size(); ++end) {
                depth += text[end] == '(';
                if (text[end] == ')' && --depth == 0) break;
            }
            if (i == std::string::npos || end >= text.size())
                throw InputError("dot_dimension_numbers has no closing ')'");
            d.dot = parse_jaxpr_dimension_numbers(std::string_view(text).substr(i, end - i + 1));
        } else {
            d.dot = parse_stablehlo_dot_dims(text);
        }
        d.lhs_ragged = list_after(text, "lhs_ragged_dimensions");
        d.rhs_group = list_after(text, "rhs_group_dimensions");
    }
    return d;
}

DotShape ragged_dot_shape(const std::vector<std::int64_t>& lhs, const std::vector<std::int64_t>& rhs,
                          const RaggedDotDims& dims, std::int64_t groups) {
    if (dims.lhs_ragged.size() != 1)
        throw InputError("a ragged dot names one lhs ragged dim, not " + std::to_string(dims.lhs_ragged.size()));
    const std::int64_t ragged = dims.lhs_ragged.front();
    if (ragged < 0 || ragged >= static_cast<std::int64_t>(lhs.size()))
        throw InputError("lhs ragged dim " + std::to_string(ragged) + " is out of range for a rank-" +
                         std::to_string(lhs.size()) + " operand");
    const auto listed = [ragged](const std::vector<std::int64_t>& v) {
        return std::find(v.begin(), v.end(), ragged) != v.end();
    };
    const bool contracted = listed(dims.dot.lhs_contracting), batched = listed(dims.dot.lhs_batch);
    if (contracted || batched) {
        if (!dims.rhs_group.empty())
            throw InputError(std::string("the rhs has a group dim only when the ragged dim is free, not ") +
                             (contracted ? "contracted" : "a batch dim"));
        DotShape out = dot_general_shape(lhs, rhs, dims.dot);
        if (!contracted) return out;
        std::vector<std::int64_t> grouped{groups};
        for (const std::int64_t d : out.output) grouped.push_back(d);
        out.output = std::move(grouped);
        return out;
    }
    // Free: the rhs's group dim is set aside, and the other rhs dims renumbered.
    if (dims.rhs_group.size() != 1)
        throw InputError("a ragged dot over a free dim needs one rhs group dim, not " +
                         std::to_string(dims.rhs_group.size()));
    const std::int64_t g = dims.rhs_group.front();
    if (g < 0 || g >= static_cast<std::int64_t>(rhs.size()))
        throw InputError("rhs group dim " + std::to_string(g) + " is out of range for a rank-" +
                         std::to_string(rhs.size()) + " operand");
    if (rhs[static_cast<std::size_t>(g)] != groups)
        throw InputError("the rhs has " + std::to_string(rhs[static_cast<std::size_t>(g)]) +
                         " groups but the group sizes list " + std::to_string(groups));
    std::vector<std::int64_t> rest;
    for (std::size_t i = 0; i < rhs.size(); ++i)
        if (static_cast<std::int64_t>(i) != g) rest.push_back(rhs[i]);
    DotDims renumbered = dims.dot;
    for (auto* list : {&renumbered.rhs_contracting, &renumbered.rhs_batch})
        for (auto& d : *list) {
            if (d == g) throw InputError("rhs group dim " + std::to_string(g) + " is also a batch or contracting dim");
            if (d > g) --d;
        }
    return dot_general_shape(lhs, rest, renumbered);
}

}  // namespace tpusim::ir
