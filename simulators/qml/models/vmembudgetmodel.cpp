#include "vmembudgetmodel.h"
#include "variants.h"

#include <tpusim/error.h>
#include <tpusim/layout.h>

#include <QtQml/qqml.h>
#include <QStringList>

using simqml::qs;

namespace {

QString bytesText(double bytes)
{
    return qs(tpusim::format_bytes(bytes));
}

QVariantList dimensions(const std::vector<tpusim::BudgetDimension> &dims)
{
    QVariantList out;
    for (const tpusim::BudgetDimension &d : dims)
        out.append(QVariantMap{{"name", qs(d.name)}, {"value", qlonglong(d.default_value)}, {"lanes", d.lanes}});
    return out;
}

QVariantMap infoMap(const tpusim::BudgetKernelInfo &k)
{
    return {{"id", qs(k.id)}, {"title", qs(k.title)}, {"sizes", dimensions(k.sizes)}, {"blocks", dimensions(k.blocks)}};
}

QVariantMap lineMap(const tpusim::BudgetLine &l)
{
    return {{"name", qs(l.name)},
            {"role", qs(std::string(tpusim::role_name(l.role)))},
            {"what", qs(l.what)},
            {"block", simqml::tupleText(l.block)},
            {"padded", simqml::tupleText(l.padded)},
            {"dtype", qs(std::string(tpusim::name(l.dtype)))},
            {"tile", QStringLiteral("(%1, %2)").arg(l.tile.rows).arg(l.tile.cols)},
            {"buffers", l.buffers},
            {"logical", l.logical_bytes},
            {"logicalText", bytesText(l.logical_bytes)},
            {"paddedBytes", l.padded_bytes},
            {"paddedText", bytesText(l.padded_bytes)},
            {"total", l.total_bytes},
            {"totalText", bytesText(l.total_bytes)},
            {"padding", (l.padded_bytes - l.logical_bytes) * l.buffers},
            {"paddingText", bytesText((l.padded_bytes - l.logical_bytes) * l.buffers)},
            {"legal", l.legality.legal},
            {"reason", qs(l.legality.reason)}};
}

QVariantMap budgetMap(const tpusim::VmemBudget &b)
{
    QVariantList lines;
    for (const tpusim::BudgetLine &l : b.lines)
        lines.append(lineMap(l));
    QVariantMap error;
    if (b.error)
        error = {{"stage", qs(b.error->stage)},
                 {"quoted", qs(b.error->quoted)},
                 {"source", qs(b.error->source)},
                 {"explanation", qs(b.error->explanation)}};
    return {{"lines", lines},
            {"total", b.total_bytes},
            {"totalText", bytesText(b.total_bytes)},
            {"logicalText", bytesText(b.logical_bytes)},
            {"paddingText", bytesText(b.total_bytes - b.logical_bytes)},
            {"limit", b.limit_bytes},
            {"limitText", bytesText(b.limit_bytes)},
            {"defaultLimit", b.default_limit_bytes},
            {"defaultLimitText", bytesText(b.default_limit_bytes)},
            {"physical", b.physical_bytes},
            {"physicalText", bytesText(b.physical_bytes)},
            {"limitRaised", b.limit_raised},
            {"legal", b.legal},
            {"fits", b.fits},
            {"fitsPhysical", b.fits_physical},
            {"limitNeeded", b.limit_needed_bytes},
            {"limitNeededText", b.limit_needed_bytes > 0 ? bytesText(b.limit_needed_bytes) : QString()},
            {"hbmText", bytesText(b.hbm_bytes)},
            {"steps", qlonglong(b.steps)},
            {"verdict", qs(b.verdict)},
            {"error", error},
            {"provenance", simqml::provenance(b.provenance)}};
}

QVariantMap suggestionMap(const tpusim::BlockSuggestion &s, const tpusim::BudgetKernelInfo &info,
                          const tpusim::Provenance &budgetProvenance)
{
    QVariantList blocks;
    QStringList named;
    for (std::size_t d = 0; d < s.blocks.size(); ++d) {
        blocks << qlonglong(s.blocks[d]);
        named << qs(info.blocks[d].name) + QLatin1Char('=') + QString::number(s.blocks[d]);
    }
    tpusim::Provenance p = budgetProvenance;
    p.model = "the largest legal blocks within the limit, by an exhaustive search over tile multiples";
    p.assumptions.push_back(
        "Candidates are power-of-two multiples of the tile that divide the size, and the whole size; "
        "the winner copies the fewest HBM bytes, then takes the fewest grid steps.");
    return {{"found", s.found},
            {"blocks", blocks},
            {"blocksText", named.join(QLatin1Char(' '))},
            {"total", s.total_bytes},
            {"totalText", s.found ? bytesText(s.total_bytes) : QString()},
            {"hbmText", s.found ? bytesText(s.hbm_bytes) : QString()},
            {"steps", qlonglong(s.steps)},
            {"reason", qs(s.reason)},
            {"provenance", simqml::provenance(p)}};
}

QVariantList toList(const std::vector<std::int64_t> &v)
{
    QVariantList out;
    for (std::int64_t x : v)
        out << qlonglong(x);
    return out;
}

} // namespace

VmemBudgetModel::VmemBudgetModel(QObject *parent) : QObject(parent)
{
    const tpusim::BudgetKernelSpec preset = tpusim::budget_preset(tpusim::BudgetKernelKind::tiled_matmul);
    m_sizes = toList(preset.sizes);
    m_blocks = toList(preset.blocks);
    connect(this, &VmemBudgetModel::inputsChanged, this, &VmemBudgetModel::recompute);
    recompute();
}

QVariantList VmemBudgetModel::kernels() const
{
    QVariantList out;
    for (const tpusim::BudgetKernelInfo &k : tpusim::budget_kernels())
        out.append(infoMap(k));
    return out;
}

QVariantMap VmemBudgetModel::kernelInfo() const
{
    try {
        return infoMap(tpusim::budget_kernel_info(m_kernel.toStdString()));
    } catch (const tpusim::InputError &) {
        return {}; // the budget says why
    }
}

int VmemBudgetModel::tileRows() const
{
    try {
        return int(tpusim::native_tiling(tpusim::parse_dtype(m_dtype.toStdString())).rows);
    } catch (const tpusim::InputError &) {
        return 8; // an unknown dtype is refused by the budget; snap to f32's tile meanwhile
    }
}

QVariantMap VmemBudgetModel::physical() const
{
    try {
        return simqml::fact(tpusim::chip(m_chip.toStdString()).vmem_per_core);
    } catch (const tpusim::InputError &) {
        return {};
    }
}

QVariantMap VmemBudgetModel::scopedDefault() const
{
    try {
        return simqml::fact(tpusim::chip(m_chip.toStdString()).scoped_vmem_default);
    } catch (const tpusim::InputError &) {
        return {};
    }
}

double VmemBudgetModel::physicalOf(const QString &chipId) const
{
    try {
        return tpusim::chip(chipId.toStdString()).vmem_per_core.value;
    } catch (const tpusim::InputError &) {
        return 0;
    }
}

tpusim::BudgetKernelSpec VmemBudgetModel::currentSpec() const
{
    tpusim::BudgetKernelSpec spec;
    spec.kind = tpusim::budget_kernel_info(m_kernel.toStdString()).kind;
    spec.dtype = tpusim::parse_dtype(m_dtype.toStdString());
    for (const QVariant &v : m_sizes)
        spec.sizes.push_back(v.toLongLong());
    for (const QVariant &v : m_blocks)
        spec.blocks.push_back(v.toLongLong());
    spec.input_buffers = m_inputBuffers;
    return spec;
}

void VmemBudgetModel::recompute()
{
    try {
        const tpusim::Chip &chip = tpusim::chip(m_chip.toStdString());
        const tpusim::BudgetKernelSpec spec = currentSpec();
        const std::optional<double> limit = m_limitBytes > 0 ? std::optional<double>(m_limitBytes) : std::nullopt;
        const tpusim::VmemBudget b = tpusim::vmem_budget(chip, spec, limit);
        m_budget = budgetMap(b);
        m_suggestion = suggestionMap(tpusim::largest_fitting_blocks(chip, spec, limit),
                                     tpusim::budget_kernel_info(m_kernel.toStdString()), b.provenance);
    } catch (const tpusim::InputError &e) {
        m_budget = {{"problem", QString::fromUtf8(e.what())}};
        m_suggestion = {};
    }
    emit budgetChanged();
}

void VmemBudgetModel::applyPreset(const QString &kernelId)
{
    try {
        const tpusim::BudgetKernelInfo &info = tpusim::budget_kernel_info(kernelId.toStdString());
        const tpusim::BudgetKernelSpec preset = tpusim::budget_preset(info.kind);
        m_kernel = kernelId;
        m_dtype = qs(std::string(tpusim::name(preset.dtype)));
        m_sizes = toList(preset.sizes);
        m_blocks = toList(preset.blocks);
        m_inputBuffers = preset.input_buffers;
    } catch (const tpusim::InputError &e) {
        m_budget = {{"problem", QString::fromUtf8(e.what())}};
        m_suggestion = {};
        emit budgetChanged();
        return;
    }
    emit inputsChanged();
}

void VmemBudgetModel::applySuggestion()
{
    if (!m_suggestion.value(QStringLiteral("found")).toBool())
        return;
    m_blocks = m_suggestion.value(QStringLiteral("blocks")).toList();
    emit inputsChanged();
}
