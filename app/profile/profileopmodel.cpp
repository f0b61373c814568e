#include "profileopmodel.h"

#include <tpusim/provenance.h>

#include <algorithm>
#include <cmath>

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString rate(double value, const char *unit)
{
    return value > 0 ? qs(tpusim::format_rate(value, unit)) : QStringLiteral("–");
}

} // namespace

ProfileOpModel::ProfileOpModel(QObject *parent) : QAbstractListModel(parent) {}

int ProfileOpModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_shown.size());
}

int ProfileOpModel::total() const
{
    return m_table ? static_cast<int>(m_table->rows.size()) : 0;
}

int ProfileOpModel::tableRow(int shown) const
{
    return shown >= 0 && shown < static_cast<int>(m_shown.size()) ? m_shown[static_cast<std::size_t>(shown)] : -1;
}

QVariant ProfileOpModel::data(const QModelIndex &index, int role) const
{
    const int row = tableRow(index.row());
    if (!m_table || row < 0)
        return {};
    const tpuprofile::OpRow &r = m_table->rows[static_cast<std::size_t>(row)];
    const tpuprofile::Op &op = m_table->device->ops[static_cast<std::size_t>(r.op)];
    switch (role) {
        case NameRole:
            return qs(tpuprofile::display_name(op));
        case KindRole:
            return qs(r.kind);
        case FamilyRole:
            return static_cast<int>(r.family);
        case ProgramRole:
            return m_programs[static_cast<std::size_t>(row)];
        case CountRole:
            return QString::number(op.occurrences);
        case PerCallRole:
            return qs(tpusim::format_time(r.self_per_call_s));
        case TotalRole:
            return qs(tpusim::format_time(r.self_total_s));
        case ShareRole:
            return r.share;
        case ShareTextRole:
            return QString::number(100 * r.share, 'f', r.share < 0.1 ? 1 : 0) + QStringLiteral(" %");
        case FlopRateRole:
            return rate(r.flops_per_s, "FLOP/s");
        case ByteRateRole:
            return rate(r.bytes_per_s, "B/s");
        case PredictedRole:
            return r.predicted.available ? qs(tpusim::format_time(r.predicted.time_s)) : QStringLiteral("–");
        case PredictedKnownRole:
            return r.predicted.available;
        case ErrorRole:
            return std::isnan(r.error) ? QVariant() : QVariant(r.error);
        case ErrorTextRole:
            return qs(tpusim::format_error(r.error));
        case RowRole:
            return row;
        default:
            return {};
    }
}

QHash<int, QByteArray> ProfileOpModel::roleNames() const
{
    return {{NameRole, "name"},
            {KindRole, "kind"},
            {FamilyRole, "family"},
            {ProgramRole, "program"},
            {CountRole, "count"},
            {PerCallRole, "perCall"},
            {TotalRole, "selfTotal"},
            {ShareRole, "share"},
            {ShareTextRole, "shareText"},
            {FlopRateRole, "flopRate"},
            {ByteRateRole, "byteRate"},
            {PredictedRole, "predicted"},
            {PredictedKnownRole, "predictedKnown"},
            {ErrorRole, "error"},
            {ErrorTextRole, "errorText"},
            {RowRole, "tableRow"}};
}

void ProfileOpModel::reset(const tpuprofile::OpTable *table, std::vector<QString> programs)
{
    beginResetModel();
    m_table = table;
    m_programs = std::move(programs);
    m_program.clear();
    m_filter.clear();
    endResetModel();
    arrange();
}

void ProfileOpModel::setSortKey(const QString &key)
{
    if (key == m_sort)
        return;
    m_sort = key;
    arrange();
}

void ProfileOpModel::setFilter(const QString &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    arrange();
}

void ProfileOpModel::setProgram(const QString &program)
{
    if (program == m_program)
        return;
    m_program = program;
    arrange();
}

void ProfileOpModel::arrange()
{
    beginResetModel();
    m_shown.clear();
    if (m_table) {
        const QStringList words = m_filter.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (std::size_t i = 0; i < m_table->rows.size(); ++i) {
            const tpuprofile::OpRow &r = m_table->rows[i];
            const tpuprofile::Op &op = m_table->device->ops[static_cast<std::size_t>(r.op)];
            if (!m_program.isEmpty() && m_programs[i] != m_program)
                continue;
            const QString hay = (qs(op.name) + QLatin1Char(' ') + qs(op.hlo_op) + QLatin1Char(' ') + qs(r.kind) +
                                 QLatin1Char(' ') + m_programs[i] + QLatin1Char(' ') + qs(op.tf_op))
                                    .toLower();
            if (std::all_of(words.begin(), words.end(), [&](const QString &w) { return hay.contains(w); }))
                m_shown.push_back(static_cast<int>(i));
        }
        const auto &rows = m_table->rows;
        const auto &ops = m_table->device->ops;
        auto by = [&](auto key, bool descending) {
            std::stable_sort(m_shown.begin(), m_shown.end(), [&](int a, int b) {
                const auto ka = key(rows[static_cast<std::size_t>(a)]), kb = key(rows[static_cast<std::size_t>(b)]);
                return descending ? kb < ka : ka < kb;
            });
        };
        auto opOf = [&](const tpuprofile::OpRow &r) -> const tpuprofile::Op & {
            return ops[static_cast<std::size_t>(r.op)];
        };
        if (m_sort == QLatin1String("name"))
            by([&](const tpuprofile::OpRow &r) { return tpuprofile::display_name(opOf(r)); }, false);
        else if (m_sort == QLatin1String("kind"))
            by([](const tpuprofile::OpRow &r) { return r.kind; }, false);
        else if (m_sort == QLatin1String("count"))
            by([&](const tpuprofile::OpRow &r) { return opOf(r).occurrences; }, true);
        else if (m_sort == QLatin1String("perCall"))
            by([](const tpuprofile::OpRow &r) { return r.self_per_call_s; }, true);
        else if (m_sort == QLatin1String("error")) // the worst first; none last
            by([](const tpuprofile::OpRow &r) { return std::isnan(r.error) ? -1.0 : std::fabs(r.error); }, true);
        // "time": the table's own order, longest self time first.
    }
    endResetModel();
    emit arranged();
}
