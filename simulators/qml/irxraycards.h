#pragma once

#include <QString>
#include <QVariantMap>

#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>

// What the IR x-ray shows of one op, as QVariant maps: a dot_general
// decoded, and an optimized HLO's kernels costed. Thin: every figure is
// libtpusim's, on the chip named.
namespace simqml {

// {line, lastLine, op, lhs, rhs, output, contracting, batch, flops,
//  flopsText, formula, sizes, predicted (a roofline map)} or predictedError.
QVariantMap dotCard(const tpusim::ir::DotSite &dot, int lastLine, const QString &chipId);

// {kernels: [{name, kind, opcode, line, flops, flopsText, readText,
//  writtenText, engine, timeS, time, bound}], kernelOf: [kernel index or -1
//  per line], time, timeS, provenance} or {error}.
QVariantMap hloKernels(const tpusim::ir::Module &module, int lineCount, const QString &chipId);

} // namespace simqml
