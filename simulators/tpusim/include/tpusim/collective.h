#pragma once
// Collectives over the axes of a mesh, costed two ways:
//  - the closed form of the scaling book [SB-SHARD],
//    with the exact (N-1)/N shard counts kept;
//  - a hop-by-hop discrete-event simulation: every message is cut into
//    chunks, each directed link sends one chunk at a time at the link's
//    one-way bandwidth, each hop adds the hop latency, and chunks wait
//    their turn on busy links.
// Where the two differ by more than 5%, the result says why in words.
//
// `bytes` (V) is always the whole array:
//   all-gather:      each device holds V / G and ends with all V (G devices in the group)
//   reduce-scatter:  each device holds a full V and ends with its V / G of the sum
//   all-reduce:      each device holds a full V and ends with the whole sum
//   all-to-all:      each device holds V / G and sends V / G^2 to every other device
//   permute:         each device sends its V / G to the device `shift` steps along the axis
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/mesh.h"
#include "tpusim/provenance.h"
#include "tpusim/trace.h"

namespace tpusim {

enum class CollectiveKind { all_gather, reduce_scatter, all_reduce, all_to_all, permute };

std::string_view collective_name(CollectiveKind kind);  // "all-gather", ...
// Accepts "all-gather", "all_gather", "allgather" and the like. Throws InputError.
CollectiveKind parse_collective(std::string_view text);

struct CollectiveSpec {
    CollectiveKind kind = CollectiveKind::all_gather;
    std::vector<int> axes;      // the mesh axes the collective spans (distinct)
    double bytes = 0;           // V, see above
    bool bidirectional = true;  // rings send both ways (needs wraparound to pay off)
    int chunks = 4;             // pieces each message is cut into, 1 to 256
    std::int64_t shift = 1;     // permute only
};

struct CollectiveOptions {
    bool link_loads = true;  // fill CollectiveResult::links
    bool trace = false;      // fill CollectiveResult::trace
    std::size_t max_trace_events = 50000;
};

// Bytes one directed link carried in the simulation, and how long it was busy.
struct LinkLoad {
    Link link;
    double bytes = 0;
    double busy_s = 0;
};

struct CollectiveResult {
    double time_s = 0;  // the simulated time: the headline
    double simulated_s = 0;
    double analytic_s = 0;
    double analytic_bandwidth_s = 0;  // busiest link's bytes / one-way bandwidth
    double analytic_latency_s = 0;    // hops on the longest path x hop latency
    double difference = 0;            // simulated / analytic - 1
    bool agrees = false;              // |difference| <= 5%
    std::string formula;              // the closed form used, in words
    std::string explanation;          // why the two agree or differ
    std::int64_t group_size = 0;      // devices in one collective
    std::int64_t groups = 0;          // independent copies (the other axes)
    double busiest_link_bytes = 0;
    double total_link_bytes = 0;  // summed over every directed link of the mesh
    // What each chip's HBM and VPU do meanwhile: every byte sent is read
    // from HBM, every byte received written to it, and a reduction also
    // reads the local chunk it adds to and writes the sum. time_s is the
    // largest of the links', HBM's and the adds' times.
    double hbm_bytes = 0;              // per chip
    double hbm_s = 0;                  // hbm_bytes at the chip's HBM peak
    double reduce_adds = 0;            // elements added per chip (bf16 taken: 2 bytes each)
    double reduce_s = 0;               // those adds at the VPU's peak
    std::string bound;                 // "the links", "HBM" or "the VPU's adds"
    std::string memory_note;           // those figures in words
    std::int64_t chunk_hops = 0;       // transmissions the simulation ran
    std::int64_t lines_simulated = 0;  // rings or lines simulated ...
    std::int64_t lines_total = 0;      // ... out of all the collective uses
    std::vector<LinkLoad> links;       // every directed link of the mesh (if asked)
    std::vector<TraceEvent> trace;     // links and devices over time (if asked)
    bool trace_truncated = false;
    Provenance provenance;
};

// Throws InputError for bad axes, bytes, chunks or shift.
CollectiveResult collective(const Mesh& mesh, const CollectiveSpec& spec, const CollectiveOptions& options = {});

// The arithmetic behind a collective's times, a step a line, for a card's
// working (Provenance::working): the closed form as the larger of its
// bandwidth and latency terms, the hop-by-hop simulation, and the time as
// the longest of the links', HBM's and the adds'.
std::vector<std::string> collective_working(const CollectiveResult& r);

// A collective among pairs of chips `stride` apart along axis `axis`, every
// pair of the axis at once, as XLA's strided replica groups ({i, i+s}) lay
// them. A gather or a scatter is one exchange with the partner, an
// all-reduce two (its reduce-scatter and its all-gather), each a permute by
// the stride in which the middle links carry several pairs' bytes. `bytes`
// is V as above: each chip sends its partner V / 2 per exchange.
struct PairExchange {
    CollectiveResult exchange;  // one exchange, simulated
    int exchanges = 1;
    double time_s = 0;  // exchanges x the exchange's time
};
// Throws InputError for an all-to-all or a permute, or an axis that is not
// 2 x stride chips long.
PairExchange pair_exchange(const Mesh& mesh, int axis, std::int64_t stride, CollectiveKind kind, double bytes,
                           const CollectiveOptions& options = {});

}  // namespace tpusim
