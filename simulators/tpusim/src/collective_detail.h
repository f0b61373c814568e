#pragma once
// Internals of the collective models: the plan (which axis each part of
// the array crosses in which order, with how many bytes), the flows a ring
// or line phase sends, the closed form, and the event simulation.
#include <cstdint>
#include <string>
#include <vector>

#include "tpusim/collective.h"

namespace tpusim::detail {

// What one phase does on one axis.
enum class PhaseOp {
    gather,    // every device's block reaches every other device (forwarded as is)
    reduce,    // every device's piece collects a contribution from every other device
    exchange,  // every device sends a distinct piece to every other device (all-to-all)
    permute,   // every device sends its block to the device `shift` along the axis
};

struct Phase {
    int axis = 0;  // index into Plan::axes
    PhaseOp op = PhaseOp::gather;
    double block = 0;  // gather/exchange/permute: bytes each device sends;
                       // reduce: bytes each device ends with
};

// The array is cut into one part per axis; part p crosses the axes in
// rotated order so that every axis's links work at the same time.
struct Plan {
    CollectiveKind kind = CollectiveKind::all_gather;
    std::vector<int> mesh_axis;  // plan axis -> mesh axis
    std::vector<std::int64_t> n;
    std::vector<bool> wraps;
    bool bidirectional = true;
    int chunks = 1;
    std::int64_t shift = 1;
    double bandwidth = 0;  // B/s one way
    double latency = 0;    // s per hop
    std::int64_t group_size = 1;
    std::vector<std::vector<Phase>> parts;
    // all-reduce: phases before this index are the reduce-scatter half.
    std::size_t reduce_phases = 0;
};

Plan make_plan(const Mesh& mesh, const CollectiveSpec& spec);

// `count` chunks of `chunk_bytes` leaving `origin` in `direction` for `hops` hops.
struct Flow {
    std::int64_t origin = 0;
    int direction = +1;
    std::int64_t hops = 0;
    int count = 0;
    double chunk_bytes = 0;
};

// Every flow of one phase on one ring or line of n devices.
std::vector<Flow> phase_flows(const Plan& plan, const Phase& phase);

// Position reached from `origin` after `hops` hops in `direction`.
inline std::int64_t step_position(std::int64_t origin, int direction, std::int64_t hops, std::int64_t n) {
    return ((origin + direction * hops) % n + n) % n;
}

struct Analytic {
    double bandwidth_s = 0;
    double latency_s = 0;
    double total_s = 0;
    std::string formula;
};
Analytic closed_form(const Plan& plan);

struct Simulation {
    double time_s = 0;
    std::int64_t chunk_hops = 0;
    std::int64_t lines_simulated = 0;
    // Per plan axis: per representative line, per position, + then -: bytes and busy time.
    std::vector<std::vector<double>> link_bytes;
    std::vector<std::vector<double>> link_busy;
    std::vector<TraceEvent> trace;
    bool trace_truncated = false;
};
Simulation simulate_plan(const Mesh& mesh, const Plan& plan, const CollectiveOptions& options);

// Representative line along plan axis `a` for a device with these mesh coordinates.
std::int64_t line_index(const Plan& plan, int a, const std::vector<std::int64_t>& mesh_coords);
std::int64_t line_count(const Plan& plan, int a);

}  // namespace tpusim::detail
