#pragma once
// A slice of chips joined by ICI links: a ring, a 2D or a 3D torus (or
// mesh, where an axis has no wraparound link). Which axes wrap follows the
// chip's rules in chips.h [SB-TPU][CL-v5p][MT-SPEC]:
//   2D chips (v5e, v6e): an axis wraps only when it spans the full pod side, 16;
//   3D chips (v4, v5p, 7x): every axis wraps when the slice is made of whole
//   4x4x4 cubes (three axes, each a multiple of 4); otherwise none does.
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/chips.h"

namespace tpusim {

struct MeshAxis {
    std::int64_t size = 1;
    bool wraps = false;
    std::string reason;  // "wraps: v5e wraps axes of 16 [SB-TPU]"
};

struct Mesh {
    std::string chip;              // "v5e"
    std::vector<MeshAxis> axes;    // axis 0 first; device ids are row-major, last axis fastest
    double link_bandwidth = 0;     // B/s, one direction of one link
    double hop_latency = 0;        // s per hop
    std::string bandwidth_source;  // the chip fact's source tag
    std::string latency_source;
    double hbm_bandwidth = 0;  // B/s per chip: what a collective's copies in and out of HBM share
    double vpu_flops = 0;      // FLOP/s per chip (every TensorCore's VPU): a reduction's adds
    std::string hbm_source, vpu_source;

    std::int64_t devices() const;
    std::string shape() const;  // "8x4"
    std::vector<std::int64_t> coords(std::int64_t device) const;
    std::int64_t device(const std::vector<std::int64_t>& coords) const;
    std::string device_name(std::int64_t device) const;  // "(3,1)"
};

// Throws InputError for an empty shape, an axis below 1, more axes than the
// chip's torus has, or more chips than its pod holds.
// The axes of the chip's torus: 2 for chips with four ICI ports (v5e, v6e), 3 otherwise.
int torus_rank(const Chip& chip);

Mesh make_mesh(const Chip& chip, const std::vector<std::int64_t>& shape);

// The most chips axis `axis` of `shape` can take, the other axes as they
// are, for make_mesh to accept it: a side of the pod on a flat torus, the
// pod's chips over the other axes' on a 3D one. At least 1; an axis outside
// the shape gives 1.
std::int64_t largest_axis(const Chip& chip, const std::vector<std::int64_t>& shape, std::size_t axis);

// A slice of `chips` chips as square as the chip's torus allows, shortest
// axis first: 2x4 for 8 v6e chips, 2x2x2 for 8 v5p chips.
std::vector<std::int64_t> squarest_slice(const Chip& chip, std::int64_t chips);

// Where the runtime's device `id` sits in a slice of `shape`: TPU device
// ids run along the first (shortest) axis first [JAX-37230], unlike
// Mesh::coords, whose last axis runs fastest.
std::vector<std::int64_t> runtime_device_coords(const std::vector<std::int64_t>& shape, std::int64_t id);

// One direction of one ICI link: from `from` to its neighbour along `axis`.
struct Link {
    std::int64_t from = 0;
    std::int64_t to = 0;
    int axis = 0;
    int direction = +1;  // +1: towards higher coordinates (through the wrap at the end)
};

// Every directed link of the mesh, device by device, axis by axis, + before -.
std::vector<Link> mesh_links(const Mesh& mesh);

}  // namespace tpusim
