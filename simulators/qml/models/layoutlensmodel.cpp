#include "layoutlensmodel.h"
#include "variants.h"

#include <coursework/lens_presets.h>
#include <tpusim/error.h>
#include <tpusim/layout.h>

#include <QtQml/qqml.h>
#include <QLocale>

using simqml::qs;

namespace {

QString bytesText(double bytes)
{
    return qs(tpusim::format_bytes(bytes));
}
QString percentText(double fraction)
{
    return qs(tpusim::format_fixed(100.0 * fraction, 1) + " %");
}
QString tileText(tpusim::Tiling t)
{
    return QStringLiteral("(%1, %2)").arg(t.rows).arg(t.cols);
}

std::vector<std::int64_t> toShape(const QVariantList &list)
{
    std::vector<std::int64_t> out;
    for (const QVariant &v : list)
        out.push_back(static_cast<std::int64_t>(v.toDouble()));
    return out;
}

QVariantList toList(const std::vector<std::int64_t> &v)
{
    QVariantList out;
    for (std::int64_t x : v)
        out << double(x);
    return out;
}

QVariantMap layoutMap(const tpusim::Layout &l)
{
    const tpusim::TileGrid g = tpusim::tile_grid(l);
    const QVariantMap grid{{"planes", double(g.planes)},
                           {"rows", double(g.rows)},
                           {"cols", double(g.cols)},
                           {"tileRows", double(g.tile_rows)},
                           {"tileCols", double(g.tile_cols)},
                           {"edgeRows", double(g.edge_rows)},
                           {"edgeCols", double(g.edge_cols)},
                           {"rowsPerTile", double(l.tile.rows)},
                           {"lanesPerTile", double(l.tile.cols)},
                           {"packing", tpusim::packing(l.dtype)}};
    return {{"shapeText", simqml::tupleText(l.shape)},
            {"paddedShapeText", simqml::tupleText(l.padded_shape)},
            {"dtype", qs(std::string(tpusim::name(l.dtype)))},
            {"tileText", tileText(l.tile)},
            {"packing", tpusim::packing(l.dtype)},
            {"tiles", double(l.tiles)},
            {"tilesText", QLocale::c().toString(qlonglong(l.tiles))},
            {"logicalText", bytesText(l.logical_bytes)},
            {"paddedText", bytesText(l.padded_bytes)},
            {"paddingText", bytesText(l.padded_bytes - l.logical_bytes)},
            {"waste", l.waste},
            {"wasteText", percentText(l.waste)},
            {"grid", grid},
            {"provenance", simqml::provenance(tpusim::layout_provenance(l))}};
}

QVariantMap changeMap(const tpusim::LayoutChange &c)
{
    return {{"kind", qs(std::string(tpusim::relayout_name(c.kind)))},
            {"moves", c.moves},
            {"inKernel", c.in_kernel},
            {"readText", bytesText(c.bytes_read)},
            {"writtenText", bytesText(c.bytes_written)},
            {"movedText", bytesText(c.bytes_moved)},
            {"bytesMoved", c.bytes_moved},
            {"timeText", qs(tpusim::format_time(c.time_s))},
            {"timeS", c.time_s},
            {"verdict", qs(c.verdict)},
            {"provenance", simqml::provenance(c.provenance)},
            {"to", layoutMap(c.to)}};
}

// The waste of one tiled dimension over four tiles' worth of sizes around
// its value: a window that moves by whole windows, so the saw stands still
// while the value is scrubbed inside it.
QVariantMap profileMap(const std::vector<std::int64_t> &shape, tpusim::DType dtype, int axisWanted)
{
    const std::size_t rank = shape.size();
    std::size_t axis = axisWanted >= 0 && std::size_t(axisWanted) < rank ? std::size_t(axisWanted) : rank - 1;
    if (rank >= 2 && axis + 2 < rank)
        axis = rank - 1; // an untiled dimension has no saw to show
    const bool rows = rank >= 2 && axis == rank - 2;
    const std::int64_t tile = rows ? tpusim::native_tiling(dtype).rows : 128;
    const std::int64_t span = 4 * tile;
    const std::int64_t current = shape[axis];
    const std::int64_t from = (current - 1) / span * span + 1;
    const std::int64_t to = from + span - 1;
    const std::vector<double> w = tpusim::waste_profile(shape, dtype, axis, from, to);
    return {{"axis", int(axis)},          {"rows", rows},         {"from", double(from)},     {"to", double(to)},
            {"current", double(current)}, {"tile", double(tile)}, {"values", simqml::list(w)}};
}

} // namespace

LayoutLensModel::LayoutLensModel(QObject *parent) : QObject(parent)
{
    const coursework::LensPreset &p = coursework::lens_presets().front();
    m_shape = toList(p.shape);
    m_dtype = qs(std::string(tpusim::name(p.dtype)));
    connect(this, &LayoutLensModel::inputsChanged, this, &LayoutLensModel::recompute);
    recompute();
    m_preset = qs(p.id);
}

void LayoutLensModel::setChip(const QString &chip)
{
    if (chip == m_chip)
        return;
    m_chip = chip;
    emit chipChanged();
    recompute();
}

QVariantList LayoutLensModel::presets() const
{
    QVariantList out;
    for (const coursework::LensPreset &p : coursework::lens_presets())
        out.append(QVariantMap{{"id", qs(p.id)}, {"title", qs(p.title)}, {"note", qs(p.note)}});
    return out;
}

int LayoutLensModel::tileRows() const
{
    try {
        return int(tpusim::native_tiling(tpusim::parse_dtype(m_dtype.toStdString())).rows);
    } catch (const tpusim::InputError &) {
        return 8;
    }
}

void LayoutLensModel::recompute()
{
    if (m_applying)
        return;
    if (!m_preset.isEmpty() && sender() == this)
        m_preset.clear(); // an input other than the chip changed after the preset
    try {
        const tpusim::Chip &chip = tpusim::chip(m_chip.toStdString());
        const std::vector<std::int64_t> shape = toShape(m_shape);
        const tpusim::DType dtype = tpusim::parse_dtype(m_dtype.toStdString());
        tpusim::LayoutChangeSpec spec;
        spec.kind = tpusim::parse_relayout(m_relayout.toStdString());
        spec.to_shape = toShape(m_reshapeTo);
        spec.to_dtype = tpusim::parse_dtype(m_castTo.toStdString());
        if (spec.kind == tpusim::RelayoutKind::reshape && spec.to_shape.empty())
            throw tpusim::InputError("give the shape to reshape to");
        const tpusim::LayoutChange c = tpusim::layout_change(chip, shape, dtype, spec);
        m_lens = {{"layout", layoutMap(c.from)},
                  {"change", changeMap(c)},
                  {"profile", profileMap(shape, dtype, m_profileAxis)}};
    } catch (const tpusim::InputError &e) {
        m_lens = {{"problem", QString::fromUtf8(e.what())}};
    }
    emit lensChanged();
}

bool LayoutLensModel::applyPreset(const QString &id)
{
    const coursework::LensPreset *p = nullptr;
    try {
        p = &coursework::lens_preset(id.toStdString());
    } catch (const tpusim::InputError &) {
        return false;
    }
    m_applying = true;
    m_shape = toList(p->shape);
    m_dtype = qs(std::string(tpusim::name(p->dtype)));
    m_relayout = qs(std::string(tpusim::relayout_name(p->change.kind)));
    m_reshapeTo = toList(p->change.to_shape);
    m_castTo = qs(std::string(tpusim::name(p->change.to_dtype)));
    m_profileAxis = -1;
    emit inputsChanged();
    m_applying = false;
    m_preset = id;
    recompute();
    return true;
}
