// An HLO module's kernels, each costed on the roofline, loops multiplied out
// by their trip counts where the dump states them.
#include <cmath>
#include <map>

#include "fusion_hlo_detail.h"
#include "tpusim/error.h"
#include "tpusim/fusion.h"
#include "tpusim/hlo_loops.h"

namespace tpusim::fusion {

namespace {

// Sub-byte arrays are packed, so an array's bytes round up to whole bytes.
double type_bytes(const ir::TensorType& t) {
    if (t.is_tuple) {
        double total = 0;
        for (const auto& e : t.elements) total += type_bytes(e);
        return total;
    }
    const double elements = std::max<double>(0, static_cast<double>(t.element_count()));
    return std::ceil(elements * ir::element_bytes(t.element));
}

std::string fusion_kind(const ir::Op& op) {
    const std::string* kind = op.attribute("kind");
    if (!kind) return "fusion";
    if (*kind == "kLoop") return "loop";
    if (*kind == "kInput") return "input";
    if (*kind == "kOutput") return "output";
    if (*kind == "kCustom") return "custom";
    return *kind;
}

// What an instruction leaves behind: an asynchronous -start's result pairs
// its operands with its outputs, and only the outputs, the second half, are new.
double gathered_bytes(const ir::Op& op, double written) {
    const ir::TensorType& out = op.result_types.front();
    if (!op.name.ends_with("-start") || !out.is_tuple || out.elements.size() < 2) return written;
    double bytes = 0;
    for (std::size_t i = out.elements.size() / 2; i < out.elements.size(); ++i) bytes += type_bytes(out.elements[i]);
    return bytes;
}

bool free_instruction(const std::string& opcode) {
    return opcode == "parameter" || opcode == "constant" || opcode == "tuple" || opcode == "get-tuple-element" ||
           opcode == "bitcast";
}

std::string callee_name(const ir::Op& op, std::string_view key) {
    const std::string* name = op.attribute(key);
    if (!name) return "";
    return name->starts_with('%') ? name->substr(1) : *name;
}

std::int64_t checked_product(std::int64_t a, std::int64_t b) {
    if (a != 0 && b > INT64_MAX / a) throw InputError("the loops' trip counts multiply past 2^63");
    return a * b;
}

bool looks_optimized(const ir::Module& module) {
    for (const auto& a : module.attributes)
        if (a.name == "is_scheduled" && a.value == "true") return true;
    for (const auto& c : module.computations)
        for (const auto& op : c.ops)
            if (op.name == "fusion") return true;
    return false;
}

class Walker {
public:
    Walker(const ir::Module& module, const Chip& chip, HloCost& cost) : module_(module), chip_(chip), cost_(cost) {}

    void computation(const ir::Computation& c, std::int64_t runs, const std::string& loop, int depth) {
        if (depth > 32) throw InputError("computations call each other more than 32 deep");
        std::map<std::string, const ir::TensorType*, std::less<>> types;  // every value of `c`
        for (const auto& p : c.parameters) types[p.name] = &p.type;
        for (const auto& op : c.ops)
            if (!op.results.empty() && !op.result_types.empty()) types[op.results.front()] = &op.result_types.front();
        for (const ir::Op& op : c.ops) {
            if (free_instruction(op.name)) continue;
            if (op.name == "while") {
                while_loop(c, op, runs, depth);
            } else if (op.name == "call") {
                const ir::Computation* callee = module_.find(callee_name(op, "to_apply"));
                if (!callee)
                    throw InputError("line " + std::to_string(op.position.line) +
                                     ": the call's computation is not in the dump");
                computation(*callee, runs, loop, depth + 1);
            } else if (op.name == "conditional") {
                cost_.lower_bound = true;
                branches_left_out_ = true;
            } else {
                kernel(c, op, types, runs, loop);
            }
        }
    }

    bool branches_left_out() const { return branches_left_out_; }

private:
    void while_loop(const ir::Computation& c, const ir::Op& op, std::int64_t runs, int depth) {
        HloLoop l;
        l.name = op.results.empty() ? "while" : op.results.front();
        l.position = op.position;
        const ir::TripCount trips = ir::while_trip_count(module_, c, op);
        l.trips = trips.count;
        l.reason = trips.reason;
        if (trips.count < 0) cost_.lower_bound = true;
        cost_.loops.push_back(l);
        const ir::Computation* body = module_.find(callee_name(op, "body"));
        if (!body)
            throw InputError("line " + std::to_string(op.position.line) + ": the loop's body is not in the dump");
        computation(*body, checked_product(runs, trips.count < 0 ? 1 : trips.count), l.name, depth + 1);
    }

    void kernel(const ir::Computation& c, const ir::Op& op,
                const std::map<std::string, const ir::TensorType*, std::less<>>& types, std::int64_t runs,
                const std::string& loop) {
        if (op.results.empty() || op.result_types.empty())
            throw InputError("line " + std::to_string(op.position.line) + ": '" + op.name +
                             "' has no result type to cost");
        HloKernel k;
        k.name = op.results.front();
        k.opcode = op.name;
        k.kind = op.name == "fusion" ? fusion_kind(op) : op.name;
        k.position = op.position;
        k.runs = runs;
        k.loop = loop;
        if (op.name == "fusion" && !op.called.empty()) k.computation = op.called.front();
        // The instruction alone in a computation of its own, its operands as
        // parameters: the importer then costs fusions and lone ops alike.
        ir::Computation wrap;
        wrap.name = k.name;
        for (std::size_t i = 0; i < op.operands.size(); ++i) {
            const std::string& operand = op.operands[i];
            if (operand.starts_with("constant(")) continue;
            const ir::TensorType* t = i < op.operand_types.size() ? &op.operand_types[i] : nullptr;
            if (!t) {
                const auto it = types.find(operand);
                if (it == types.end())
                    throw InputError("line " + std::to_string(op.position.line) + ": '" + k.name + "' reads '" +
                                     operand + "', which '" + c.name + "' does not define");
                t = it->second;
            }
            k.bytes_read += type_bytes(*t);
            ir::Op param;
            param.name = "parameter";
            param.results = {operand};
            param.result_types = {*t};
            param.attributes = {{"number", std::to_string(i)}};
            wrap.ops.push_back(std::move(param));
        }
        k.bytes_written = type_bytes(op.result_types.front());
        DType dtype = DType::f32;
        if (op.name == "custom-call") {
            const std::string* target = op.attribute("custom_call_target");
            const std::string name = target ? *target : std::string("?");
            k.uncosted = true;
            k.uncosted_reason = "custom call '" + name +
                                "': the work it does is not in the dump, so its FLOPs are unknown; "
                                "its bytes are counted and its time is the time to move them";
            ++cost_.uncosted;
        } else {
            wrap.ops.push_back(op);
            wrap.ops.back().is_root = true;
            const OpWork work = op_work(module_, wrap);
            k.flops = work.flops;
            k.engine = work.engine;
            dtype = work.dtype;
        }
        if (waits_for_collective(op.name)) {
            // Its -start moved the data and is timed; the -done only waits.
            k.bytes_read = k.bytes_written = 0;
            k.ici = "waits for its " + op.name.substr(0, op.name.size() - 5) + "-start, which is timed";
        } else if (const auto ici = ici_cost(op, chip_, k.bytes_read, gathered_bytes(op, k.bytes_written), priced_)) {
            k.time_s = ici->time_s;
            k.ici = ici->how;
            ++cost_.collectives;
        } else if (k.flops > 0 || k.bytes_read + k.bytes_written > 0) {
            const Roofline r = roofline(chip_, generic_cost(k.flops, k.bytes_read + k.bytes_written, dtype, k.engine));
            k.time_s = r.time_s;
            k.bound = r.bound;
        }
        cost_.time_s += k.time_s * static_cast<double>(runs);
        add(cost_.flops, k.flops, runs);
        add(cost_.bytes, k.bytes_read + k.bytes_written, runs);
        cost_.kernels.push_back(std::move(k));
    }

    static void add(std::int64_t& total, double whole, std::int64_t runs) {
        if (!(whole < 9.2e18)) throw InputError("a kernel's count passes 2^63");
        const std::int64_t part = checked_product(std::llround(whole), runs);
        if (part > INT64_MAX - total) throw InputError("the module's totals pass 2^63");
        total += part;
    }

    const ir::Module& module_;
    const Chip& chip_;
    HloCost& cost_;
    std::map<std::string, IciCost> priced_;  // collectives already simulated
    bool branches_left_out_ = false;
};

}  // namespace

HloCost cost_hlo_kernels(const ir::Module& module, const Chip& chip) {
    if (module.format != ir::Format::hlo) throw InputError("kernels are costed from HLO modules only");
    HloCost cost;
    cost.optimized = looks_optimized(module);
    Walker walker(module, chip, cost);
    walker.computation(module.entry(), 1, "", 0);

    Provenance& p = cost.provenance;
    p.chip = chip.id;
    p.dtype = "as the dump's types";
    p.shapes = module.name.empty() ? "the entry computation" : module.name;
    p.model =
        cost.optimized ? "roofline per kernel of the optimized HLO" : "roofline per op of HLO that was not optimized";
    p.assumptions = {
        "Each kernel reads every operand from HBM and writes its result once; nothing stays in VMEM between kernels.",
        "Kernels run one after another on one TensorCore: the program's time is their sum.",
        "A fusion's FLOPs are those of the ops it fuses; data movement (broadcast, reshape, copy) costs bytes only."};
    if (!cost.optimized)
        p.assumptions.push_back(
            "The dump has no fusions and is not marked is_scheduled=true, so it looks unoptimized: each op is costed "
            "as a kernel of its own, where XLA would fuse many of them and move fewer bytes than this says.");
    for (const HloLoop& l : cost.loops) {
        if (l.trips >= 0)
            p.assumptions.push_back("Loop '" + l.name + "' runs its body " + std::to_string(l.trips) + " times (" +
                                    l.reason + "); its condition, a scalar compare, is not costed.");
        else
            p.assumptions.push_back("Loop '" + l.name + "' runs its body an unknown number of times (" + l.reason +
                                    "); its body is counted once, so the totals are a lower bound.");
    }
    if (cost.uncosted > 0) {
        cost.lower_bound = true;
        p.assumptions.push_back(
            std::to_string(cost.uncosted) + " custom call" + (cost.uncosted == 1 ? "" : "s") +
            " left uncosted: the dump does not hold the work, so only the bytes moved are counted and "
            "the totals are a lower bound.");
    }
    if (cost.collectives > 0)
        p.assumptions.push_back(
            std::to_string(cost.collectives) + " collective" + (cost.collectives == 1 ? " is" : "s are") +
            " timed on the ICI by the collective model, each device group laid as one ring or line of the chip's "
            "torus (or the pod's side by the rest): the dump does not say how its devices are wired.");
    if (walker.branches_left_out())
        p.assumptions.push_back(
            "A conditional's branches are left out (the dump does not say which runs), so the totals are a lower "
            "bound.");
    return cost;
}

}  // namespace tpusim::fusion
