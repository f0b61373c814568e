#include "fusionmapmodel.h"
#include "variants.h"

#include <tpusim/error.h>
#include <tpusim/ir.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QtQml/qqml.h>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

using simqml::qs;
namespace fu = tpusim::fusion;

// ---------------------------------------------------------------- layout

namespace {

std::mutex &graphvizLock() // Graphviz keeps global state: one layout at a time
{
    static std::mutex m;
    return m;
}

void set(void *obj, const char *name, const std::string &value)
{
    agsafeset(obj, const_cast<char *>(name), const_cast<char *>(value.c_str()), const_cast<char *>(""));
}

} // namespace

FusionLayout layoutFusionMap(const fu::FusionMap &map)
{
    const auto &nodes = map.graph().nodes();
    const std::size_t n = nodes.size();
    const bool big = n > 600;
    std::lock_guard<std::mutex> lock(graphvizLock());
    QElapsedTimer clock;
    clock.start();
    agseterr(AGERR); // warnings stay quiet; a failure is reported as one sentence
    GVC_t *gvc = gvContext();
    Agraph_t *g = agopen(const_cast<char *>("fusion"), Agdirected, nullptr);
    set(g, "rankdir", "TB");
    if (!big)
        set(g, "newrank", "true"); // ranks across clusters in one pass
    set(g, "nodesep", "0.15");
    set(g, "ranksep", big ? "0.3" : "0.4");
    set(g, "splines", big ? "false" : "spline"); // big: straight edges, no routing
    // Big graphs: the crossing minimization and the x placement bounded. The
    // ranking is left whole: cut short, it puts every parameter on the top
    // rank, and the long edges that makes cost far more than it saves.
    if (big) {
        set(g, "mclimit", "0.01");
        set(g, "remincross", "false");
        set(g, "nslimit", "0.1");
        set(g, "searchsize", "2");
    }
    // Small graphs keep each fusion together as a cluster; on big ones dot's
    // cluster ranking is slow and fragile, and a fusion's members are drawn
    // with a halo in its colour instead (boxes around spread members would
    // cover half the picture).
    std::vector<Agraph_t *> clusters(big ? 0 : map.groups().size(), nullptr);
    for (std::size_t gi = 0; gi < clusters.size(); ++gi) {
        const std::string name = "cluster_" + std::to_string(gi);
        clusters[gi] = agsubg(g, const_cast<char *>(name.c_str()), 1);
        set(clusters[gi], "margin", "6");
    }
    std::vector<Agnode_t *> gv(n, nullptr);
    for (std::size_t i = 0; i < n; ++i) {
        if (nodes[i].cls == fu::OpClass::constant)
            continue;
        const std::string name = "n" + std::to_string(i);
        const int grp = map.group_of()[i];
        Agraph_t *owner = grp >= 0 && !big ? clusters[static_cast<std::size_t>(grp)] : g;
        gv[i] = agnode(owner, const_cast<char *>(name.c_str()), 1);
        set(gv[i], "shape", "box");
        set(gv[i], "fixedsize", "true");
        set(gv[i], "width", "1.5");
        set(gv[i], "height", "0.36");
        set(gv[i], "label", "");
    }
    std::vector<std::pair<int, int>> edgeEnds;
    std::vector<Agedge_t *> gvEdges;
    for (std::size_t i = 0; i < n; ++i) {
        if (!gv[i])
            continue;
        for (int in : nodes[i].inputs) {
            if (!gv[static_cast<std::size_t>(in)])
                continue;
            gvEdges.push_back(agedge(g, gv[static_cast<std::size_t>(in)], gv[i], nullptr, 1));
            edgeEnds.emplace_back(in, static_cast<int>(i));
        }
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        gvFreeContext(gvc);
        throw std::runtime_error("Graphviz could not lay this graph out");
    }
    FusionLayout out;
    const boxf bb = GD_bb(g);
    const double top = bb.UR.y; // Graphviz's y runs up; the picture's runs down
    out.bounds = QRectF(bb.LL.x, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    out.nodes.assign(n, QRectF());
    for (std::size_t i = 0; i < n; ++i) {
        if (!gv[i])
            continue;
        const pointf c = ND_coord(gv[i]);
        const double w = ND_width(gv[i]) * 72.0, h = ND_height(gv[i]) * 72.0;
        out.nodes[i] = QRectF(c.x - w / 2, top - c.y - h / 2, w, h);
    }
    for (std::size_t e = 0; e < gvEdges.size(); ++e) {
        FusionLayout::Edge edge{edgeEnds[e].first, edgeEnds[e].second, {}};
        const splines *spl = ED_spl(gvEdges[e]);
        if (spl && spl->size > 0) {
            const bezier &b = spl->list[0];
            for (int k = 0; k < b.size; ++k)
                edge.path << QPointF(b.list[k].x, top - b.list[k].y);
            if (b.eflag)
                edge.path << QPointF(b.ep.x, top - b.ep.y);
        } else {
            edge.path << out.nodes[static_cast<std::size_t>(edge.from)].center()
                      << out.nodes[static_cast<std::size_t>(edge.to)].center();
        }
        out.edges.push_back(std::move(edge));
    }
    for (Agraph_t *c : clusters) {
        const boxf cb = GD_bb(c);
        out.groups.push_back(QRectF(cb.LL.x, top - cb.UR.y, cb.UR.x - cb.LL.x, cb.UR.y - cb.LL.y));
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    out.seconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    return out;
}

// ---------------------------------------------------------------- model

struct FusionLoad
{
    QString example;  // a built-in graph, or
    QString filePath; // a dump the learner opened
};

struct FusionMapModel::Result
{
    std::shared_ptr<const FusionLoad> request;
    QString program;
    QString problem;
    std::unique_ptr<fu::FusionMap> map;
    std::shared_ptr<const FusionLayout> layout;
};

namespace {

constexpr qint64 maxDumpBytes = 64LL * 1024 * 1024;

} // namespace

FusionMapModel::FusionMapModel(QObject *parent)
    : QObject(parent),
      // A finished load is shown even when a newer one waits: it is a whole
      // program, and the newer one follows it at once.
      m_run(
          this, simqml::LatestRun<std::shared_ptr<Result>>::Stale::shown, [this] { return launch(); },
          [this](std::shared_ptr<Result> res) { finished(std::move(res)); }, [this] { emit busyChanged(); })
{
}

FusionMapModel::~FusionMapModel() = default;

int FusionMapModel::opCount() const
{
    if (!m_map)
        return 0;
    int ops = 0;
    for (const auto &node : m_map->graph().nodes())
        ops += node.cls != fu::OpClass::constant ? 1 : 0;
    return ops;
}

void FusionMapModel::setChip(const QString &chip)
{
    if (chip == m_chip || chip.isEmpty())
        return;
    m_chip = chip;
    emit chipChanged();
    if (m_wanted)
        m_run.start(); // the newest program re-costed; one shown already keeps its layout
}

void FusionMapModel::loadExample(const QString &name)
{
    auto r = std::make_shared<FusionLoad>();
    r->example = name;
    start(std::move(r));
}

void FusionMapModel::loadFile(const QUrl &file)
{
    auto r = std::make_shared<FusionLoad>();
    r->filePath = file.isLocalFile() ? file.toLocalFile() : file.toString();
    start(std::move(r));
}

namespace {

std::shared_ptr<FusionMapModel::Result> runLoad(std::shared_ptr<const FusionLoad> request, const QString &chipId,
                                                std::shared_ptr<const FusionLayout> keepLayout)
{
    auto res = std::make_shared<FusionMapModel::Result>();
    res->request = request;
    try {
        const tpusim::Chip &chip = tpusim::chip(chipId.toStdString());
        if (!request->example.isEmpty()) {
            res->program = request->example;
            res->map = std::make_unique<fu::FusionMap>(fu::example(request->example.toStdString()), chip);
        } else {
            const QFileInfo info(request->filePath);
            res->program = info.fileName();
            QFile f(request->filePath);
            if (!f.open(QIODevice::ReadOnly))
                throw tpusim::InputError("'" + info.fileName().toStdString() + "' could not be read");
            if (f.size() > maxDumpBytes)
                throw tpusim::InputError("'" + info.fileName().toStdString() + "' is larger than 64 MB");
            const std::string text = f.readAll().toStdString();
            const tpusim::ir::Module module = tpusim::ir::parse(text, tpusim::ir::Format::hlo);
            res->map = std::make_unique<fu::FusionMap>(fu::graph_from_hlo(module), chip);
        }
        res->layout = keepLayout ? keepLayout : std::make_shared<const FusionLayout>(layoutFusionMap(*res->map));
    } catch (const std::exception &e) {
        std::string why = e.what();
        if (!why.empty() && why.back() != '.')
            why += '.';
        res->problem = QStringLiteral("This program cannot be mapped: ") + qs(why);
        res->map.reset();
        res->layout.reset();
    }
    return res;
}

} // namespace

void FusionMapModel::start(std::shared_ptr<const FusionLoad> request)
{
    m_wanted = std::move(request); // only the newest waiting request matters
    m_run.start();
}

std::variant<std::shared_ptr<FusionMapModel::Result>, QFuture<std::shared_ptr<FusionMapModel::Result>>>
FusionMapModel::launch()
{
    // The same program again (a chip change) keeps its layout.
    const bool same = m_request && m_wanted == m_request && m_layout;
    auto keep = same ? m_layout : std::shared_ptr<const FusionLayout>();
    return QtConcurrent::run(runLoad, m_wanted, m_chip, keep);
}

void FusionMapModel::finished(std::shared_ptr<Result> res)
{
    if (res) {
        if (!res->problem.isEmpty()) {
            m_problem = res->problem; // what was shown stays
            emit problemChanged();
        } else {
            const bool sameGraph = m_request == res->request && m_map;
            std::vector<char> toggles;
            if (sameGraph) // a chip change: the learner's toggles stay
                for (int g = 0; g < static_cast<int>(m_map->groups().size()); ++g)
                    toggles.push_back(m_map->enabled(g) ? 1 : 0);
            m_request = res->request;
            m_program = res->program;
            m_map = std::move(res->map);
            m_layout = res->layout;
            m_layoutRaw = m_layout.get();
            for (std::size_t g = 0; g < toggles.size() && g < m_map->groups().size(); ++g)
                m_map->set_enabled(static_cast<int>(g), toggles[g] != 0);
            m_notes.clear();
            for (const auto &note : m_map->result().notes)
                m_notes.append(qs(note));
            if (!m_problem.isEmpty()) {
                m_problem.clear();
                emit problemChanged();
            }
            if (!sameGraph) {
                m_selected = -1;
                m_matches.clear();
                emit matchesChanged();
            }
            updateTotals();
            emit loaded();
            emit selectionChanged();
            emit look();
        }
    }
}

namespace {

QVariantMap totalsMap(const fu::MapTotals &t)
{
    return {{"bytes", t.bytes},
            {"bytesText", qs(tpusim::format_bytes(t.bytes))},
            {"time", t.time_s},
            {"timeText", qs(tpusim::format_time(t.time_s))},
            {"kernels", t.kernels}};
}

} // namespace

void FusionMapModel::updateTotals()
{
    if (!m_map) {
        m_totals.clear();
        emit totalsChanged();
        return;
    }
    const fu::MapTotals cur = m_map->current(), none = m_map->unfused();
    m_totals = {{"unfused", totalsMap(none)},
                {"automatic", totalsMap(m_map->automatic())},
                {"current", totalsMap(cur)},
                {"savedBytesText", qs(tpusim::format_bytes(none.bytes - cur.bytes))},
                {"savedTimeText", qs(tpusim::format_time(none.time_s - cur.time_s))},
                {"enabled", m_map->enabled_count()},
                {"fusions", static_cast<int>(m_map->groups().size())},
                {"provenance", simqml::provenance(m_map->provenance())}};
    emit totalsChanged();
}

bool FusionMapModel::toggleGroup(int group)
{
    if (!m_map || group < 0 || group >= static_cast<int>(m_map->groups().size()))
        return false;
    m_map->set_enabled(group, !m_map->enabled(group));
    updateTotals();
    emit selectionChanged();
    emit look();
    return true;
}

void FusionMapModel::setAllGroups(bool on)
{
    if (!m_map)
        return;
    m_map->set_all(on);
    updateTotals();
    emit selectionChanged();
    emit look();
}

bool FusionMapModel::groupOn(int group) const
{
    return m_map && m_map->enabled(group);
}

int FusionMapModel::groupOf(int node) const
{
    if (!m_map || node < 0 || node >= static_cast<int>(m_map->group_of().size()))
        return -1;
    return m_map->group_of()[static_cast<std::size_t>(node)];
}

void FusionMapModel::select(int node)
{
    if (!m_map || node < 0 || node >= static_cast<int>(m_map->graph().nodes().size()))
        node = -1;
    if (node == m_selected)
        return;
    m_selected = node;
    emit selectionChanged();
    emit look();
}

QVariantMap FusionMapModel::selection() const
{
    if (!m_map || m_selected < 0)
        return {};
    const auto &node = m_map->graph().node(m_selected);
    QVariantMap out{{"id", m_selected},
                    {"name", qs(node.name)},
                    {"opcode", qs(node.opcode)},
                    {"shape", simqml::tupleText(node.shape)},
                    {"bytesText", qs(tpusim::format_bytes(node.bytes()))}};
    const int g = groupOf(m_selected);
    out.insert("group", g);
    if (g >= 0) {
        const auto &grp = m_map->groups()[static_cast<std::size_t>(g)];
        out.insert("groupName", qs(grp.name));
        out.insert("groupKind", qs(std::string(fu::kind_name(grp.kind))));
        out.insert("groupOps", static_cast<int>(grp.nodes.size()));
        out.insert("groupOn", m_map->enabled(g));
        out.insert("groupSavesBytesText", qs(tpusim::format_bytes(grp.bytes_split - grp.bytes_fused)));
        out.insert("groupSavesTimeText", qs(tpusim::format_time(grp.time_split - grp.time_fused)));
    }
    QVariantList blockers;
    for (const auto &b : m_map->blockers()) {
        if (b.producer != m_selected && b.consumer != m_selected)
            continue;
        const bool out_edge = b.producer == m_selected;
        blockers.append(QVariantMap{{"other", qs(m_map->graph().node(out_edge ? b.consumer : b.producer).name)},
                                    {"direction", out_edge ? "to" : "from"},
                                    {"why", qs(b.why)}});
    }
    out.insert("blockers", blockers);
    return out;
}

int FusionMapModel::find(const QString &text)
{
    const QString needle = text.trimmed();
    std::vector<int> found;
    if (m_map && !needle.isEmpty()) {
        const std::string n = needle.toLower().toStdString();
        const auto &nodes = m_map->graph().nodes();
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            if (nodes[i].cls == fu::OpClass::constant)
                continue;
            std::string a = nodes[i].name, b = nodes[i].opcode;
            std::transform(a.begin(), a.end(), a.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            std::transform(b.begin(), b.end(), b.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (a.find(n) != std::string::npos || b.find(n) != std::string::npos)
                found.push_back(static_cast<int>(i));
        }
    }
    m_matches = std::move(found);
    emit matchesChanged();
    if (m_matches.empty()) {
        emit look();
        return 0;
    }
    // Again the same text: the next match after the selected op.
    int next = m_matches.front();
    if (needle == m_lastFind)
        for (int id : m_matches)
            if (id > m_selected) {
                next = id;
                break;
            }
    m_lastFind = needle;
    select(next);
    emit look();
    return static_cast<int>(m_matches.size());
}

int FusionMapModel::nodeAt(QPointF p) const
{
    if (!m_layout)
        return -1;
    for (std::size_t i = 0; i < m_layout->nodes.size(); ++i)
        if (!m_layout->nodes[i].isNull() && m_layout->nodes[i].contains(p))
            return static_cast<int>(i);
    return -1;
}
