#pragma once
// EX·04, the fusion map: the fusion pass's decisions (fusion.h) as groups the
// learner turns on and off one by one, with the program's HBM bytes and time
// on the chip recomputed for the current choice; and, for every dataflow edge
// that crosses from one kernel to another, the sentence saying why that
// producer and consumer were not fused. Plain C++: the drawing and the graph
// layout live in the Qt binding.
#include <string>
#include <vector>

#include "tpusim/chips.h"
#include "tpusim/fusion.h"
#include "tpusim/provenance.h"

namespace tpusim::fusion {

// One fusion the pass made (a kernel of two or more ops), which can be undone.
struct MapGroup {
    std::string name;  // "fusion.3"
    FusionKind kind = FusionKind::loop;
    std::vector<int> nodes;                  // members, the root last
    std::vector<int> recomputed;             // cheap producers copied into it
    double bytes_fused = 0, time_fused = 0;  // as one kernel
    double bytes_split = 0, time_split = 0;  // its members as separate kernels (recomputed producers excluded)
};

// A dataflow edge between two kernels of the pass's result: the producer's
// value goes through HBM. `why` is one sentence.
struct Blocker {
    int producer = -1, consumer = -1;
    std::string why;
};

struct MapTotals {
    double bytes = 0;   // HBM bytes read and written, every kernel
    double time_s = 0;  // roofline time of every kernel, one after another
    int kernels = 0;
};

class FusionMap {
public:
    // Runs the fusion pass once; throws InputError as fuse() does.
    FusionMap(Graph graph, const Chip& chip);

    const Graph& graph() const { return graph_; }
    const FusionResult& result() const { return result_; }
    const std::vector<MapGroup>& groups() const { return groups_; }
    // group_of()[node]: the fusion the node is a member of, -1 when it is none's.
    const std::vector<int>& group_of() const { return group_of_; }
    // kernel_of()[node]: the index in result().after of the kernel that
    // computes it; -1 for parameters, constants and recomputed-only ops.
    const std::vector<int>& kernel_of() const { return kernel_of_; }
    const std::vector<Blocker>& blockers() const { return blockers_; }

    bool enabled(int group) const;
    void set_enabled(int group, bool on);  // throws InputError for a group that does not exist
    void set_all(bool on);
    int enabled_count() const;

    MapTotals unfused() const;    // every op its own kernel
    MapTotals automatic() const;  // every fusion the pass made
    MapTotals current() const;    // with the fusions as toggled now
    // Recomputes current() from the toggles; what one click costs.
    void recompute();

    // Why `producer` is not fused into `consumer` ("" when they share a kernel).
    std::string why_not_fused(int producer, int consumer) const;

    Provenance provenance() const;  // predicted, on the chip

private:
    Graph graph_;
    Chip chip_;
    FusionResult result_;
    std::vector<MapGroup> groups_;
    std::vector<int> group_of_, kernel_of_;
    std::vector<char> between_dots_;  // downstream of a dot and upstream of another
    std::vector<Blocker> blockers_;
    std::vector<char> on_;
    std::vector<double> single_bytes_, single_time_;  // per node, as a kernel of its own
    std::vector<int> recompute_only_;                 // ops only ever recomputed, never a kernel
    std::vector<std::vector<int>> recomputed_by_;     // per entry of recompute_only_: the groups
    double lone_bytes_ = 0, lone_time_ = 0;           // the kernels of one op, never toggled
    int lone_kernels_ = 0;
    MapTotals current_;
};

}  // namespace tpusim::fusion
