#include "tpusim/collective_matmul.h"

#include <algorithm>
#include <string>

#include "tpusim/collective.h"
#include "tpusim/error.h"
#include "tpusim/mesh.h"
#include "tpusim/roofline.h"

namespace tpusim {

namespace {

void check_spec(const CollectiveMatmulSpec& s) {
    if (s.m < 1 || s.k < 1 || s.n < 1) throw InputError("m, k and n must each be at least 1");
    if (s.devices < 2) throw InputError("a collective matmul needs at least 2 devices");
    if (s.directions != 1 && s.directions != 2)
        throw InputError("directions must be 1 (each chunk one way) or 2 (half each way)");
    if (s.m % s.devices != 0 || s.n % s.devices != 0)
        throw InputError("the " + std::to_string(s.devices) + " devices must divide both m (" + std::to_string(s.m) +
                         ") and n (" + std::to_string(s.n) + ")");
    if (s.directions == 2 && s.m / s.devices < 2)
        throw InputError("a chunk of one row cannot be split between two directions");
}

std::string shapes_text(const CollectiveMatmulSpec& s) {
    return "x[" + std::to_string(s.m) + "," + std::to_string(s.k) + "] by rows, w[" + std::to_string(s.k) + "," +
           std::to_string(s.n) + "] by columns, over " + std::to_string(s.devices) + " devices, " +
           (s.directions == 2 ? "half of each chunk each way" : "each chunk one way");
}

}  // namespace

CollectiveMatmulResult collective_matmul(const Chip& chip, const CollectiveMatmulSpec& s) {
    check_spec(s);
    const Mesh mesh = make_mesh(chip, {s.devices});
    CollectiveMatmulResult r;
    r.wraps = mesh.axes.front().wraps && s.devices > 2;

    MatmulSpec step;
    step.m = s.m / s.devices;
    step.k = s.k;
    step.n = s.n / s.devices;
    step.in = step.out = s.dtype;
    r.step_compute_s = roofline_time(chip, matmul_cost(step));

    r.chunk_bytes = static_cast<double>(step.m) * static_cast<double>(s.k) * bytes(s.dtype);
    // On a ring every link direction carries one neighbour's share. On a line
    // the wrap transfer runs back over every link; one way, it has the other
    // direction to itself, but with halves sent both ways it shares each
    // direction with a neighbour's half: a whole chunk per direction either way.
    const double link_bytes = r.wraps ? r.chunk_bytes / s.directions : r.chunk_bytes;
    r.hops = r.wraps ? 1 : s.devices - 1;
    r.step_transfer_s = link_bytes / mesh.link_bandwidth + static_cast<double>(r.hops) * mesh.hop_latency;

    const double steps = static_cast<double>(s.devices);
    r.time_s = (steps - 1) * std::max(r.step_compute_s, r.step_transfer_s) + r.step_compute_s;
    r.compute_only_s = steps * r.step_compute_s;
    r.exposed_s = r.time_s - r.compute_only_s;
    r.exposed_fraction = r.exposed_s / r.compute_only_s;

    CollectiveSpec gather;
    gather.kind = CollectiveKind::all_gather;
    gather.axes = {0};
    gather.bytes = static_cast<double>(s.m) * static_cast<double>(s.k) * bytes(s.dtype);
    gather.bidirectional = s.directions == 2;
    CollectiveOptions quiet;
    quiet.link_loads = false;
    r.gather_then_matmul_s = collective(mesh, gather, quiet).time_s + r.compute_only_s;

    Provenance& p = r.provenance;
    p.kind = Kind::predicted;
    p.chip = chip.id;
    p.dtype = std::string(name(s.dtype)) + " in and out, f32 accumulator";
    p.shapes = shapes_text(s);
    p.model = "collective matmul, all-gather form: (n - 1) × max(C, X) + C against n × C";
    p.assumptions = {
        "Each step's matmul is a roofline of the chunk times the local w columns; the transfer "
        "of step s overlaps the matmul of step s, so only the part of X above C is exposed.",
        "The compute-only baseline runs the same n local matmuls on an x already gathered, as "
        "gate G4 measures it; the last matmul is in both.",
        std::string("The ring runs along one mesh axis, which ") +
            (r.wraps
                 ? "wraps: each transfer crosses one link."
                 : "has no wraparound link: the transfer back to the first device crosses " + std::to_string(r.hops) +
                       " links the other way, and sending half of "
                       "each chunk each way saves nothing."),
        "Links run at the chip's effective one-way bandwidth; each hop adds the hop latency once "
        "per step.",
        "Grid-step and DMA-issue overheads are left out; they grow with the number of steps.",
    };
    return r;
}

}  // namespace tpusim
