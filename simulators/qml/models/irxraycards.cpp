#include "irxraycards.h"
#include "variants.h"

#include <tpusim/dtype.h>
#include <tpusim/error.h>
#include <tpusim/fusion.h>
#include <tpusim/roofline.h>

#include <QLocale>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

namespace ir = tpusim::ir;

namespace simqml {

namespace {

QString dimsList(const std::vector<std::int64_t> &dims)
{
    return QStringLiteral("[%1]").arg(qs(ir::dims_text(dims)));
}

// An IR element type as the roofline prices it; one it has no rate for
// says so (parse_dtype's refusal names the types it knows).
tpusim::DType priced(const std::string &element)
{
    if (const auto known = ir::element_dtype(element))
        return *known;
    return tpusim::parse_dtype(element);
}

QString typed(const std::string &element, const std::vector<std::int64_t> &dims)
{
    return qs(element + "[" + ir::dims_text(dims) + "]");
}

} // namespace

// One dot_general as the pane's hover card shows it, with its predicted
// time on `chip`: its operands read and multiplied at their own type, its
// result written at the result's.
QVariantMap dotCard(const ir::DotSite &dot, int lastLine, const QString &chipId)
{
    const QLocale grouped(QLocale::English, QLocale::UnitedStates); // 4,194,304
    QVariantMap card{{"line", dot.position.line},
                     {"lastLine", lastLine},
                     {"op", qs(dot.op)},
                     {"lhs", typed(dot.lhs_element, dot.lhs_shape)},
                     {"rhs", typed(dot.rhs_element, dot.rhs_shape)},
                     {"output", typed(dot.element, dot.output_shape)},
                     {"contracting", dimsList(dot.dims.lhs_contracting) + " × " + dimsList(dot.dims.rhs_contracting)},
                     {"batch", dimsList(dot.dims.lhs_batch) + " × " + dimsList(dot.dims.rhs_batch)},
                     {"flops", static_cast<double>(dot.flops)},
                     {"flopsText", grouped.toString(static_cast<qlonglong>(dot.flops))}};
    try {
        const ir::DotShape shape = ir::dot_general_shape(dot.lhs_shape, dot.rhs_shape, dot.dims);
        card["formula"] = QStringLiteral("2 × %1 × %2 × %3 × %4")
                              .arg(shape.batch)
                              .arg(shape.lhs_free)
                              .arg(shape.rhs_free)
                              .arg(shape.contracting);
        card["sizes"] = QVariantMap{{"batch", qlonglong(shape.batch)},
                                    {"m", qlonglong(shape.lhs_free)},
                                    {"n", qlonglong(shape.rhs_free)},
                                    {"k", qlonglong(shape.contracting)}};
        tpusim::MatmulSpec spec;
        spec.batch = shape.batch;
        spec.m = shape.lhs_free;
        spec.n = shape.rhs_free;
        spec.k = shape.contracting;
        // Each operand read at its own type, the product at the wider of
        // the two (int8 weights beside bf16 activations multiply at bf16).
        const tpusim::DType lhs = priced(dot.lhs_element.empty() ? dot.element : dot.lhs_element);
        const tpusim::DType rhs = priced(dot.rhs_element.empty() ? dot.element : dot.rhs_element);
        spec.in = tpusim::bytes(lhs) >= tpusim::bytes(rhs) ? lhs : rhs;
        spec.out = priced(dot.element);
        tpusim::OpCost cost = tpusim::matmul_cost(spec);
        if (lhs != rhs) {
            const double b = double(shape.batch), m = double(shape.lhs_free), n = double(shape.rhs_free),
                         k = double(shape.contracting);
            cost.bytes =
                b * (m * k * tpusim::bytes(lhs) + k * n * tpusim::bytes(rhs) + m * n * tpusim::bytes(spec.out));
            cost.dtype_text = std::string(tpusim::name(lhs)) + " × " + std::string(tpusim::name(rhs)) + " in, " +
                              std::string(tpusim::name(spec.out)) + " out";
        }
        card["predicted"] = simqml::roofline(tpusim::roofline(tpusim::chip(chipId.toStdString()), cost));
    } catch (const tpusim::InputError &e) {
        card["predictedError"] = QString::fromUtf8(e.what());
    }
    return card;
}

QVariantMap shardingCard(const tpusim::ir::ShardingSite &site)
{
    return {{"form", qs(std::string(tpusim::ir::sharding_form_name(site.form)))},
            {"text", qs(site.text)},
            {"decoded", site.decoded},
            {"meaning", qs(site.meaning)},
            {"line", site.position.line},
            {"column", site.position.column}};
}

QVariantMap kernelCard(const tpusim::fusion::HloKernel &k)
{
    return {{"name", qs(k.name)},
            {"kind", qs(k.kind)},
            {"opcode", qs(k.opcode)},
            {"line", k.position.line},
            {"runs", static_cast<qlonglong>(k.runs)},
            {"loop", qs(k.loop)},
            {"flops", k.flops},
            {"flopsText", k.uncosted ? QStringLiteral("FLOPs unknown") : qs(tpusim::format_rate(k.flops, "FLOP"))},
            {"uncosted", k.uncosted},
            {"uncostedReason", qs(k.uncosted_reason)},
            {"readText", qs(tpusim::format_bytes(k.bytes_read))},
            {"writtenText", qs(tpusim::format_bytes(k.bytes_written))},
            {"engine", !k.ici.empty()                    ? QStringLiteral("ICI")
                       : k.engine == tpusim::Engine::mxu ? QStringLiteral("MXU")
                                                         : QStringLiteral("VPU")},
            {"ici", qs(k.ici)},
            {"timeS", k.time_s},
            {"time", qs(tpusim::format_time(k.time_s))},
            {"bound", qs(std::string(tpusim::bound_name(k.bound)))}};
}

// The optimized HLO's kernels as XLA fused them, costed on `chipId`, and
// which kernel each line belongs to (its instruction, and the body of the
// computation it runs).
HloKernelTable hloKernels(const ir::Module &module, int lineCount, const QString &chipId)
{
    HloKernelTable out;
    try {
        const tpusim::fusion::HloCost cost =
            tpusim::fusion::cost_hlo_kernels(module, tpusim::chip(chipId.toStdString()));
        std::vector<int> kernelOf(static_cast<std::size_t>(std::max(lineCount, 0)), -1);
        const auto claim = [&](int first, int last, int index) {
            for (int line = std::max(first, 1); line <= std::min(last, lineCount); ++line)
                kernelOf[static_cast<std::size_t>(line - 1)] = index;
        };
        const auto lastLine = [](const ir::Computation &c) {
            int last = c.position.line;
            for (const ir::Op &op : c.ops)
                last = std::max({last, op.position.line, op.last_line});
            return last + 1; // through its closing brace
        };
        std::set<std::string> claimed; // computations whose lines are a kernel's
        for (std::size_t i = 0; i < cost.kernels.size(); ++i) {
            const tpusim::fusion::HloKernel &k = cost.kernels[i];
            claim(k.position.line, k.position.line, static_cast<int>(i));
            if (const ir::Computation *body = k.computation.empty() ? nullptr : module.find(k.computation)) {
                claim(body->position.line, lastLine(*body), static_cast<int>(i));
                claimed.insert(body->name);
            }
        }
        // A computation an op applies (a reduce's to_apply, a sort's
        // comparator) runs inside that op's kernel: its lines are the
        // kernel's, the first one's when several apply it. Lines some
        // kernel already holds (a loop body's own kernels) keep theirs.
        std::map<int, const ir::Op *> opAt;
        std::set<std::string> calledNames;
        for (const ir::Computation &c : module.computations)
            for (const ir::Op &op : c.ops) {
                opAt[op.position.line] = &op;
                calledNames.insert(op.called.begin(), op.called.end());
            }
        // Sets `target` over the lines of `c` that no kernel holds yet.
        const auto fillFree = [&](std::vector<int> &target, const ir::Computation &c, int value) {
            for (int line = std::max(c.position.line, 1); line <= std::min(lastLine(c), lineCount); ++line)
                if (kernelOf[static_cast<std::size_t>(line - 1)] < 0)
                    target[static_cast<std::size_t>(line - 1)] = value;
        };
        std::function<void(const ir::Op &, int)> claimApplied = [&](const ir::Op &op, int index) {
            for (const std::string &name : op.called) {
                const ir::Computation *c = module.find(name);
                if (!c || !claimed.insert(name).second)
                    continue;
                fillFree(kernelOf, *c, index);
                for (const ir::Op &inner : c->ops)
                    claimApplied(inner, index);
            }
        };
        for (std::size_t i = 0; i < cost.kernels.size(); ++i) {
            const tpusim::fusion::HloKernel &k = cost.kernels[i];
            if (const auto at = opAt.find(k.position.line); at != opAt.end())
                claimApplied(*at->second, static_cast<int>(i));
            if (const ir::Computation *body = k.computation.empty() ? nullptr : module.find(k.computation))
                for (const ir::Op &op : body->ops)
                    claimApplied(op, static_cast<int>(i));
        }
        // What is left of a computation nothing calls never runs.
        std::vector<int> uncalledOf(kernelOf.size(), -1);
        for (const ir::Computation &c : module.computations) {
            if (c.is_entry || c.name.empty() || calledNames.count(c.name))
                continue;
            const int index = static_cast<int>(out.uncalled.size());
            out.uncalled.push_back(c.name);
            fillFree(uncalledOf, c, index);
        }
        out.uncalledOf = std::move(uncalledOf);
        out.summary = {{"kernelCount", static_cast<qlonglong>(cost.kernels.size())},
                       {"module", qs(module.name)},
                       {"time", qs(tpusim::format_time(cost.time_s))},
                       {"timeS", cost.time_s},
                       {"lowerBound", cost.lower_bound},
                       {"optimized", cost.optimized},
                       {"uncosted", cost.uncosted},
                       {"provenance", simqml::provenance(cost.provenance)}};
        out.kernels = cost.kernels;
        out.kernelOf = std::move(kernelOf);
    } catch (const tpusim::InputError &e) {
        out.summary = {{"error", QString::fromUtf8(e.what())}};
    }
    return out;
}

} // namespace simqml
