#include "tpusim/mesh.h"

#include <algorithm>
#include <cmath>

#include "tpusim/error.h"
#include "tpusim/provenance.h"

namespace tpusim {

namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
    return s;
}

}  // namespace

std::int64_t Mesh::devices() const {
    std::int64_t n = 1;
    for (const MeshAxis& a : axes) n *= a.size;
    return n;
}

std::string Mesh::shape() const {
    std::vector<std::int64_t> s;
    for (const MeshAxis& a : axes) s.push_back(a.size);
    return shape_text(s);
}

std::vector<std::int64_t> Mesh::coords(std::int64_t id) const {
    std::vector<std::int64_t> c(axes.size());
    for (std::size_t i = axes.size(); i-- > 0;) {
        c[i] = id % axes[i].size;
        id /= axes[i].size;
    }
    return c;
}

std::int64_t Mesh::device(const std::vector<std::int64_t>& c) const {
    std::int64_t id = 0;
    for (std::size_t i = 0; i < axes.size(); ++i) id = id * axes[i].size + c[i];
    return id;
}

std::string Mesh::device_name(std::int64_t id) const {
    const std::vector<std::int64_t> c = coords(id);
    std::string s = "(";
    for (std::size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
    return s + ")";
}

// Chips with 4 ICI ports form 2D tori, chips with 6 form 3D tori [SB-TPU].
int torus_rank(const Chip& chip) {
    return chip.ici_ports.value <= 4 ? 2 : 3;
}

std::vector<std::int64_t> squarest_slice(const Chip& chip, std::int64_t chips) {
    std::vector<std::int64_t> shape;
    std::int64_t left = std::max<std::int64_t>(1, chips);
    for (int d = torus_rank(chip); d >= 1; --d) {
        auto side = static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(left), 1.0 / d)));
        while (side > 1 && left % side) --side;
        side = std::max<std::int64_t>(1, side);
        shape.push_back(side);
        left /= side;
    }
    std::sort(shape.begin(), shape.end());
    return shape;
}

std::vector<std::int64_t> runtime_device_coords(const std::vector<std::int64_t>& shape, std::int64_t id) {
    std::vector<std::int64_t> c(shape.size());
    for (std::size_t i = 0; i < shape.size(); ++i) {
        c[i] = id % shape[i];
        id /= shape[i];
    }
    return c;
}

std::int64_t largest_axis(const Chip& chip, const std::vector<std::int64_t>& shape, std::size_t axis) {
    if (axis >= shape.size()) return 1;
    const double pod = chip.pod_chips.value;
    if (torus_rank(chip) == 2) return std::max<std::int64_t>(1, std::lround(std::sqrt(pod)));
    double others = 1;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (i != axis) others *= static_cast<double>(std::max<std::int64_t>(1, shape[i]));
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(pod / others)));
}

Mesh make_mesh(const Chip& chip, const std::vector<std::int64_t>& shape) {
    const int rank = torus_rank(chip);
    if (shape.empty()) throw InputError("a mesh needs at least one axis, like 8 or 8x4");
    if (static_cast<int>(shape.size()) > rank)
        throw InputError(chip.name + " chips form a " + std::to_string(rank) + "D torus: a mesh has at most " +
                         std::to_string(rank) + " axes, not " + std::to_string(shape.size()));
    double chips = 1;
    for (std::int64_t n : shape) {
        if (n < 1) throw InputError("every mesh axis needs at least one chip");
        chips *= static_cast<double>(n);
    }
    const double pod = chip.pod_chips.value;
    if (chips > pod)
        throw InputError("a " + shape_text(shape) + " mesh has " + format_fixed(chips, 0) + " chips, more than a " +
                         chip.name + " pod's " + format_fixed(pod, 0));
    const std::int64_t wrap_size = static_cast<std::int64_t>(chip.wraparound_min_axis.value);
    const std::string source = chip.wraparound.source;

    Mesh m;
    m.chip = chip.id;
    m.link_bandwidth = chip.ici_link_bandwidth.value;
    m.hop_latency = chip.ici_hop_latency.value;
    m.bandwidth_source = chip.ici_link_bandwidth.source;
    m.latency_source = chip.ici_hop_latency.source;
    m.hbm_bandwidth = chip.hbm_bandwidth.value;
    m.hbm_source = chip.hbm_bandwidth.source;
    m.vpu_flops = chip.vpu_flops_per_core.value * std::max(1.0, chip.tensorcores.value);
    m.vpu_source = chip.vpu_flops_per_core.source;
    if (rank == 2) {
        const std::int64_t side = largest_axis(chip, shape, 0);  // a flat torus: the pod's side, whatever the axis
        for (std::int64_t n : shape) {
            if (n > side)
                throw InputError(chip.name + " pods are " + std::to_string(side) + "x" + std::to_string(side) +
                                 ": an axis of " + std::to_string(n) + " does not fit");
            MeshAxis a;
            a.size = n;
            a.wraps = n == wrap_size;
            a.reason = (a.wraps ? "wraps: " : "no wraparound: ") + chip.id + " wraps only axes of " +
                       std::to_string(wrap_size) + " " + source;
            m.axes.push_back(a);
        }
        return m;
    }
    bool cubes = shape.size() == 3;
    for (std::int64_t n : shape) cubes = cubes && n % wrap_size == 0;
    for (std::int64_t n : shape) {
        MeshAxis a;
        a.size = n;
        a.wraps = cubes;
        a.reason = (cubes ? "wraps: " : "no wraparound: ") + chip.id +
                   " slices wrap on every axis only when built of whole " + std::to_string(wrap_size) + "x" +
                   std::to_string(wrap_size) + "x" + std::to_string(wrap_size) + " cubes " + source;
        m.axes.push_back(a);
    }
    return m;
}

std::vector<Link> mesh_links(const Mesh& mesh) {
    std::vector<Link> links;
    const std::int64_t n = mesh.devices();
    for (std::int64_t d = 0; d < n; ++d) {
        const std::vector<std::int64_t> c = mesh.coords(d);
        for (std::size_t a = 0; a < mesh.axes.size(); ++a) {
            const MeshAxis& ax = mesh.axes[a];
            if (ax.size < 2) continue;
            for (int dir : {+1, -1}) {
                std::int64_t to = c[a] + dir;
                if (to < 0 || to >= ax.size) {
                    if (!ax.wraps) continue;
                    to = (to + ax.size) % ax.size;
                }
                std::vector<std::int64_t> tc = c;
                tc[a] = to;
                links.push_back({d, mesh.device(tc), static_cast<int>(a), dir});
            }
        }
    }
    return links;
}

}  // namespace tpusim
