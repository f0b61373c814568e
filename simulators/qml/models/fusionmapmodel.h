#pragma once

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QVariantList>
#include <QVariantMap>

#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include <tpusim/fusion_map.h>

#include "latestrun.h"

// EX·04's fusion map for QML (type TpuCourse.Sim/FusionMapModel): a program
// (a built-in graph, or an HLO dump the learner opens) is read, fused by
// libtpusim's XLA-like pass and laid out by Graphviz's dot off the GUI thread;
// the fusions are toggled on the GUI thread (one recompute, well under a
// millisecond), and FusionMapView paints the whole graph as one picture.
struct FusionLayout
{
    QRectF bounds;             // in points, y down
    std::vector<QRectF> nodes; // per graph node; empty rect: not drawn (constants)
    struct Edge
    {
        int from = -1, to = -1;
        QPolygonF path;
    };
    std::vector<Edge> edges;
    std::vector<QRectF> groups; // per fusion: its cluster's box; empty on big graphs,
                                // where each member is haloed instead
    double seconds = 0;         // Graphviz's time
};

// Lays the map's graph out with Graphviz (dot, top to bottom), each fusion a
// cluster. Throws std::runtime_error when Graphviz fails.
FusionLayout layoutFusionMap(const tpusim::fusion::FusionMap &map);

struct FusionLoad;

class FusionMapModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
public:
    struct Result;

private:
    Q_PROPERTY(QString chip READ chip WRITE setChip NOTIFY chipChanged)
    Q_PROPERTY(QString program READ program NOTIFY loaded) // "attention", or the file's name
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString problem READ problem NOTIFY problemChanged) // one sentence, or ""
    Q_PROPERTY(int opCount READ opCount NOTIFY loaded)
    Q_PROPERTY(double layoutMs READ layoutMs NOTIFY loaded)
    // {unfused: {bytes, bytesText, time, timeText, kernels}, automatic: {..}, current: {..},
    //  savedBytesText, savedTimeText, enabled, fusions, provenance}
    Q_PROPERTY(QVariantMap totals READ totals NOTIFY totalsChanged)
    Q_PROPERTY(QStringList notes READ notes NOTIFY loaded)
    Q_PROPERTY(int selected READ selected NOTIFY selectionChanged)
    // {id, name, opcode, shape, bytesText, group, groupName, groupKind, groupOn,
    //  groupSavesBytesText, groupSavesTimeText, blockers: [{other, direction, why}]}
    Q_PROPERTY(QVariantMap selection READ selection NOTIFY selectionChanged)
    Q_PROPERTY(int matchCount READ matchCount NOTIFY matchesChanged)

public:
    explicit FusionMapModel(QObject *parent = nullptr);
    ~FusionMapModel() override;

    QString chip() const { return m_chip; }
    void setChip(const QString &chip);
    QString program() const { return m_program; }
    bool busy() const { return m_run.busy(); }
    QString problem() const { return m_problem; }
    int opCount() const;
    double layoutMs() const { return m_layout ? m_layout->seconds * 1000.0 : 0.0; }
    QVariantMap totals() const { return m_totals; }
    QStringList notes() const { return m_notes; }
    int selected() const { return m_selected; }
    QVariantMap selection() const;
    int matchCount() const { return static_cast<int>(m_matches.size()); }

    Q_INVOKABLE void loadExample(const QString &name);
    Q_INVOKABLE void loadFile(const QUrl &file);
    Q_INVOKABLE bool toggleGroup(int group); // false when there is no such fusion
    Q_INVOKABLE void setAllGroups(bool on);
    Q_INVOKABLE bool groupOn(int group) const;
    Q_INVOKABLE void select(int node);         // -1: none
    Q_INVOKABLE int find(const QString &text); // selects the next op whose name or opcode contains text
    Q_INVOKABLE int groupOf(int node) const;

    // For the view.
    const tpusim::fusion::FusionMap *map() const { return m_map.get(); }
    const FusionLayout *layout() const { return m_layoutRaw; }
    const std::vector<int> &matches() const { return m_matches; }
    int nodeAt(QPointF graphPoint) const; // -1 for none

signals:
    void chipChanged();
    void busyChanged();
    void problemChanged();
    void loaded();
    void totalsChanged();
    void selectionChanged();
    void matchesChanged();
    void look(); // something the view paints changed

private:
    void start(std::shared_ptr<const FusionLoad> request);
    std::variant<std::shared_ptr<Result>, QFuture<std::shared_ptr<Result>>> launch();
    void finished(std::shared_ptr<Result> res);
    void updateTotals();

    QString m_chip = QStringLiteral("v5e");
    QString m_program, m_problem;
    std::shared_ptr<const FusionLoad> m_request; // what is shown (re-costed on a chip change)
    std::shared_ptr<const FusionLoad> m_wanted;  // what the next run loads
    std::unique_ptr<tpusim::fusion::FusionMap> m_map;
    std::shared_ptr<const FusionLayout> m_layout;
    const FusionLayout *m_layoutRaw = nullptr;
    QVariantMap m_totals;
    QStringList m_notes;
    int m_selected = -1;
    std::vector<int> m_matches;
    QString m_lastFind;
    simqml::LatestRun<std::shared_ptr<Result>> m_run;
};
