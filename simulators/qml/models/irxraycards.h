#pragma once

#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <string>
#include <vector>

#include <tpusim/fusion.h>
#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>
#include <tpusim/ir_sharding.h>

// What the IR x-ray shows of one op, as QVariant maps: a dot_general
// decoded, and an optimized HLO's kernels costed. Thin: every figure is
// libtpusim's, on the chip named.
namespace simqml {

// {line, lastLine, op, lhs, rhs, output, contracting, batch, flops,
//  flopsText, formula, sizes, predicted (a roofline map)} or predictedError.
QVariantMap dotCard(const tpusim::ir::DotSite &dot, int lastLine, const QString &chipId);

// An HLO dump's kernels, costed. The summary goes to QML as a property;
// the kernels stay here and are looked up one line at a time, since a large
// dump has tens of thousands and converting them all for QML stalls the window.
struct HloKernelTable
{
    // {kernelCount, time, timeS, lowerBound, optimized, provenance} or {error}
    QVariantMap summary;
    // As libtpusim costed them; kernelCard makes one QML's.
    std::vector<tpusim::fusion::HloKernel> kernels;
    std::vector<int> kernelOf; // per line: the index of the kernel it belongs to, or -1
    // Computations no op of the module calls (an unoptimized dump keeps
    // some), and per line the one it lies in, or -1: they never run.
    std::vector<std::string> uncalled;
    std::vector<int> uncalledOf;
};

// {name, kind, opcode, line, runs, loop, flops, flopsText, uncosted,
//  uncostedReason, readText, writtenText, engine, timeS, time, bound}.
QVariantMap kernelCard(const tpusim::fusion::HloKernel &kernel);

// {form ("sharding", "mhlo.sharding", "sdy.sharding", "replica_groups"),
//  text, decoded, meaning, line, column}: one attribute read out.
QVariantMap shardingCard(const tpusim::ir::ShardingSite &site);

HloKernelTable hloKernels(const tpusim::ir::Module &module, int lineCount, const QString &chipId);

} // namespace simqml
