#pragma once

#include <tpuprofile/op_table.h>

#include <QtQml/qqmlregistration.h>
#include <QAbstractListModel>

#include <vector>

// One device's op table for a ListView: each row an op, with its measured
// times and its prediction as display texts, sorted and filtered here.
class ProfileOpModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the op table comes from Profile.ops")
    // "time" (self time, longest first), "name", "count", "perCall", "error", "kind".
    Q_PROPERTY(QString sortKey READ sortKey WRITE setSortKey NOTIFY arranged)
    // Words every shown row's name, kind, program or JAX op contains.
    Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY arranged)
    // A program's name, or "" for all.
    Q_PROPERTY(QString program READ program WRITE setProgram NOTIFY arranged)
    Q_PROPERTY(int count READ rowCountShown NOTIFY arranged)
    Q_PROPERTY(int total READ total NOTIFY arranged)

public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        KindRole,
        FamilyRole,
        ProgramRole,
        CountRole,
        PerCallRole,
        TotalRole,
        ShareRole,
        ShareTextRole,
        FlopRateRole,
        ByteRateRole,
        PredictedRole,
        PredictedKnownRole,
        ErrorRole,
        ErrorTextRole,
        RowRole
    };

    explicit ProfileOpModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    // A new table (or none); `names` gives each op's program name.
    void reset(const tpuprofile::OpTable *table, std::vector<QString> programs);
    // The table row shown at `shown`, or -1.
    Q_INVOKABLE int tableRow(int shown) const;

    QString sortKey() const { return m_sort; }
    void setSortKey(const QString &key);
    QString filter() const { return m_filter; }
    void setFilter(const QString &filter);
    QString program() const { return m_program; }
    void setProgram(const QString &program);
    int rowCountShown() const { return static_cast<int>(m_shown.size()); }
    int total() const;

signals:
    void arranged();

private:
    void arrange();
    const tpuprofile::OpTable *m_table = nullptr;
    std::vector<QString> m_programs; // per table row
    std::vector<int> m_shown;        // table rows, in the order shown
    QString m_sort = QStringLiteral("time");
    QString m_filter;
    QString m_program;
};
