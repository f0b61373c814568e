// Asynchronous transfers in the op table: each done set against what its
// start began, measured start to done, predicted on the host link in the
// order the transfers began.
#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "nesting.h"
#include "op_table_detail.h"
#include "tpusim/provenance.h"

namespace tpuprofile::op_detail {

namespace {

bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

bool to_host(const Op& op) {
    return contains(result_shape_of(op), "S(5)");
}

// One asynchronous transfer: from its start op's beginning to its done.
struct Transfer {
    std::int64_t begin_ps = 0, done_start_ps = 0, done_end_ps = 0;
    double bytes = 0;
    OpRow* row = nullptr;
    double alone_s = 0;       // predicted, on a link of its own
    double completion_s = 0;  // predicted
};

// Copies over the host link, one direction: each begins when the profile
// shows its start, and they cross the link one after another in the order
// they began, each taking its time alone (a profile of three copies
// issued together shows them completing a third of the way apart, not
// together). Sets each transfer's predicted completion.
void queue_on_link(std::vector<Transfer*>& transfers) {
    std::stable_sort(transfers.begin(), transfers.end(),
                     [](const Transfer* a, const Transfer* b) { return a->begin_ps < b->begin_ps; });
    double free_at = -std::numeric_limits<double>::infinity();
    for (Transfer* t : transfers) {
        const double begin = std::max(static_cast<double>(t->begin_ps) * 1e-12, free_at);
        t->completion_s = begin + t->alone_s;
        free_at = t->completion_s;
    }
}

// The time some transfer of `list` was in flight.
double union_s(const std::vector<Transfer*>& list) {
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    for (const Transfer* t : list) spans.emplace_back(t->begin_ps, t->done_end_ps);
    std::sort(spans.begin(), spans.end());
    std::int64_t total = 0, end = std::numeric_limits<std::int64_t>::min();
    for (const auto& [b, e] : spans) {
        if (b >= end) {
            total += e - b;
            end = e;
        } else if (e > end) {
            total += e - end;
            end = e;
        }
    }
    return static_cast<double>(total) * 1e-12;
}

}  // namespace

// An asynchronous done waits for what its start began. Measured, each
// transfer spans its start's beginning to its done's end. Predicted, a done
// waits for what is left of its transfer when the done is reached: on the
// host link, transfers in flight queue for it (queue_on_link); other
// transfers take their predicted time from their start.
void pair_async(const Device& d, OpTable& t) {
    std::map<std::string, std::int32_t> by_name;
    for (std::size_t i = 0; i < d.ops.size(); ++i)
        by_name.emplace(std::to_string(d.ops[i].program_id) + "/" + d.ops[i].name, static_cast<std::int32_t>(i));
    std::vector<OpRow*> row_of(d.ops.size(), nullptr);
    for (OpRow& r : t.rows) row_of[static_cast<std::size_t>(r.op)] = &r;
    bool any = false;
    for (OpRow& r : t.rows) {
        const Op& op = d.ops[static_cast<std::size_t>(r.op)];
        const std::string start = start_of(op);
        if (start.empty()) continue;
        const auto it = by_name.find(std::to_string(op.program_id) + "/" + start);
        if (it == by_name.end()) continue;
        r.start_op = it->second;
        any = true;
    }
    if (!any) return;
    std::vector<std::int64_t> last_start(d.ops.size(), -1);
    std::vector<Transfer> transfers;
    for (const OpEvent& e : d.timeline) {
        last_start[static_cast<std::size_t>(e.op)] = e.start_ps;
        OpRow* r = row_of[static_cast<std::size_t>(e.op)];
        if (!r || r->start_op < 0) continue;
        const std::int64_t began = last_start[static_cast<std::size_t>(r->start_op)];
        if (began < 0) continue;
        const Op& op = d.ops[static_cast<std::size_t>(r->op)];
        Transfer tr;
        tr.begin_ps = began;
        tr.done_start_ps = e.start_ps;
        tr.done_end_ps = e.start_ps + e.duration_ps;
        tr.bytes = op.bytes_accessed > 0 ? static_cast<double>(op.bytes_accessed) : shape_bytes(result_shape_of(op));
        tr.row = r;
        tr.alone_s = r->predicted.available ? r->predicted.time_s : 0;
        tr.completion_s = r->predicted.available ? static_cast<double>(began) * 1e-12 + tr.alone_s : 0;
        transfers.push_back(tr);
    }
    std::vector<Transfer*> directions[2];
    for (Transfer& tr : transfers)
        if (tr.row->family == Family::host_transfer)
            directions[to_host(d.ops[static_cast<std::size_t>(tr.row->op)]) ? 1 : 0].push_back(&tr);
    for (int dir = 0; dir < 2; ++dir) {
        if (directions[dir].empty()) continue;
        HostLinkUse use;
        use.direction = dir ? "HBM to host" : "host to HBM";
        use.transfers = static_cast<std::int64_t>(directions[dir].size());
        for (const Transfer* tr : directions[dir]) use.bytes += std::max(0.0, tr->bytes);
        use.busy_s = union_s(directions[dir]);
        t.summary.host_link.push_back(use);
        if (t.chip && t.chip->host_link_bandwidth.published()) queue_on_link(directions[dir]);
    }
    struct Sums {
        double span = 0, wait = 0;
        std::int64_t n = 0;
    };
    std::map<OpRow*, Sums> sums;
    for (const Transfer& tr : transfers) {
        Sums& s = sums[tr.row];
        s.span += static_cast<double>(tr.done_end_ps - tr.begin_ps) * 1e-12;
        s.wait += std::max(0.0, tr.completion_s - static_cast<double>(tr.done_start_ps) * 1e-12);
        ++s.n;
    }
    for (auto& [r, s] : sums) {
        const Op& op = d.ops[static_cast<std::size_t>(r->op)];
        r->transfer_s = s.span / static_cast<double>(s.n);
        const double bytes =
            op.bytes_accessed > 0 ? static_cast<double>(op.bytes_accessed) : shape_bytes(result_shape_of(op));
        r->bytes_per_s = bytes > 0 && r->transfer_s > 0 ? bytes / r->transfer_s : -1;
        r->flops_per_s = -1;
        if (!r->predicted.available) continue;
        const double alone = r->predicted.time_s;
        r->predicted.time_s = s.wait / static_cast<double>(s.n);
        const std::string& start = d.ops[static_cast<std::size_t>(r->start_op)].name;
        if (r->family == Family::host_transfer) {
            r->predicted.model = "host link, copies queued in the order they began";
            r->predicted.assumptions.insert(
                r->predicted.assumptions.begin(),
                "Each copy begins when the profile shows its " + start +
                    " and, behind any copy in the same "
                    "direction still under way, takes " +
                    tpusim::format_time(alone) +
                    " as it would alone. The done waits for what is left when it is reached (the mean of " +
                    std::to_string(s.n) + ").");
        } else {
            r->predicted.model += ", from its " + start;
            r->predicted.assumptions.insert(r->predicted.assumptions.begin(),
                                            "The transfer takes " + tpusim::format_time(alone) + " from its " + start +
                                                "; the done waits for what is left when it is reached (the mean of " +
                                                std::to_string(s.n) + ").");
        }
        r->error = relative_error(r->predicted.time_s, r->self_per_call_s);
    }
}

}  // namespace tpuprofile::op_detail
