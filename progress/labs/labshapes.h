#pragma once
// A lab record's shapes as libtpusim takes them, for the labs whose runs
// the app prices (predictions) and bounds (plausibility) alike.
#include <tpusim/attention.h>

#include <QMap>
#include <QString>

#include <optional>

// The attention labs' (L09, L14) batch, heads, seq and head_dim; nullopt
// when the record lacks one.
inline std::optional<tpusim::AttentionSpec> attentionShape(const QMap<QString, qint64> &shapes, tpusim::DType dtype)
{
    for (const char *axis : {"batch", "heads", "seq", "head_dim"})
        if (!shapes.contains(QLatin1String(axis)))
            return std::nullopt;
    tpusim::AttentionSpec spec;
    spec.batch = shapes.value(QStringLiteral("batch"));
    spec.heads = shapes.value(QStringLiteral("heads"));
    spec.seq_q = spec.seq_kv = shapes.value(QStringLiteral("seq"));
    spec.head_dim = shapes.value(QStringLiteral("head_dim"));
    spec.dtype = dtype;
    return spec;
}
