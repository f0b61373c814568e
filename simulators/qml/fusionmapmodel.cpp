#include "fusionmapmodel.h"
#include "variants.h"

#include <tpusim/error.h>
#include <tpusim/ir.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <QtQml/qqml.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

using simqml::qs;
namespace fu = tpusim::fusion;

// ---------------------------------------------------------------- layout

namespace {

std::mutex &graphvizLock()  // Graphviz keeps global state: one layout at a time
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
    agseterr(AGERR);  // warnings stay quiet; a failure is reported as one sentence
    GVC_t *gvc = gvContext();
    Agraph_t *g = agopen(const_cast<char *>("fusion"), Agdirected, nullptr);
    set(g, "rankdir", "TB");
    if (!big)
        set(g, "newrank", "true");  // ranks across clusters in one pass
    set(g, "nodesep", "0.15");
    set(g, "ranksep", big ? "0.3" : "0.4");
    set(g, "splines", big ? "false" : "spline");  // big: straight edges, no routing
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
    const double top = bb.UR.y;  // Graphviz's y runs up; the picture's runs down
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

struct FusionLoad {
    QString example;   // a built-in graph, or
    QString filePath;  // a dump the learner opened
};

struct FusionMapModel::Result {
    std::shared_ptr<const FusionLoad> request;
    QString program;
    QString problem;
    std::unique_ptr<fu::FusionMap> map;
    std::shared_ptr<const FusionLayout> layout;
};

namespace {

constexpr qint64 maxDumpBytes = 64LL * 1024 * 1024;

} // namespace

FusionMapModel::FusionMapModel(QObject *parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<void>::finished, this, &FusionMapModel::finished);
}

FusionMapModel::~FusionMapModel() { m_watcher.waitForFinished(); }

void FusionMapModel::registerType()
{
    qmlRegisterType<FusionMapModel>("TpuCourse.Sim", 1, 0, "FusionMapModel");
    FusionMapView::registerType();
}

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
    if (m_request)
        start(m_request);  // re-costed; the layout is kept
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
    if (m_watcher.isRunning()) {  // only the newest waiting request matters
        m_queued = std::move(request);
        return;
    }
    const bool same = m_request && request == m_request && m_layout;
    auto keep = same ? m_layout : std::shared_ptr<const FusionLayout>();
    auto slot = std::make_shared<std::shared_ptr<Result>>();
    m_pending = slot;
    m_watcher.setFuture(QtConcurrent::run([request, chip = m_chip, keep, slot] { *slot = runLoad(request, chip, keep); }));
    emit busyChanged();
}

void FusionMapModel::finished()
{
    std::shared_ptr<Result> res = m_pending ? *m_pending : nullptr;
    m_pending.reset();
    emit busyChanged();
    if (res) {
        if (!res->problem.isEmpty()) {
            m_problem = res->problem;  // what was shown stays
            emit problemChanged();
        } else {
            const bool sameGraph = m_request == res->request && m_map;
            std::vector<char> toggles;
            if (sameGraph)  // a chip change: the learner's toggles stay
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
    if (m_queued) {
        auto next = std::move(m_queued);
        m_queued.reset();
        start(std::move(next));
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

bool FusionMapModel::groupOn(int group) const { return m_map && m_map->enabled(group); }

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
            std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
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

// ---------------------------------------------------------------- view

FusionMapView::FusionMapView(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    setAcceptedMouseButtons(Qt::LeftButton);
    setFlag(QQuickItem::ItemIsFocusScope, false);
    setActiveFocusOnTab(true);
    setAntialiasing(true);
    connect(this, &FusionMapView::look, this, [this] { update(); });
}

void FusionMapView::registerType() { qmlRegisterType<FusionMapView>("TpuCourse.Sim", 1, 0, "FusionMapView"); }

void FusionMapView::setModel(FusionMapModel *model)
{
    if (m_model == model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (m_model) {
        connect(m_model, &FusionMapModel::look, this, [this] { update(); });
        connect(m_model, &FusionMapModel::loaded, this, [this] {
            m_fitted = false;
            fit();
        });
    }
    emit modelChanged();
    fit();
}

QPointF FusionMapView::toGraph(QPointF p) const { return (p - m_offset) / m_zoom; }

const FusionLayout *FusionMapView::currentLayout() const
{
    const FusionMapModel *model = m_model.data();
    return model != nullptr ? model->layout() : nullptr;
}

void FusionMapView::fit()
{
    const FusionLayout *layout = currentLayout();
    if (!layout || width() <= 0 || height() <= 0)
        return;
    const QRectF b = layout->bounds.adjusted(-12, -12, 12, 12);
    // Small graphs fit whole; a big one opens at a readable scale at its top.
    const double whole = std::min(width() / b.width(), height() / b.height());
    m_zoom = std::clamp(std::max(whole, 0.35), 0.05, 1.6);
    const double drawnW = b.width() * m_zoom;
    m_offset = QPointF(drawnW < width() ? (width() - drawnW) / 2 - b.left() * m_zoom : -b.left() * m_zoom + 12,
                       b.height() * m_zoom < height() ? (height() - b.height() * m_zoom) / 2 - b.top() * m_zoom
                                                      : -b.top() * m_zoom);
    m_fitted = true;
    emit viewChanged();
    update();
}

void FusionMapView::zoomBy(double factor)
{
    const QPointF c(width() / 2, height() / 2);
    const QPointF g = toGraph(c);
    m_zoom = std::clamp(m_zoom * factor, 0.03, 4.0);
    m_offset = c - g * m_zoom;
    emit viewChanged();
    update();
}

void FusionMapView::panBy(double dx, double dy)
{
    m_offset += QPointF(dx, dy);
    emit viewChanged();
    update();
}

void FusionMapView::centerOn(int node)
{
    const FusionLayout *layout = currentLayout();
    if (!layout || node < 0 || node >= static_cast<int>(layout->nodes.size()) || layout->nodes[static_cast<std::size_t>(node)].isNull())
        return;
    m_zoom = std::max(m_zoom, 0.6);
    m_offset = QPointF(width() / 2, height() / 2) - layout->nodes[static_cast<std::size_t>(node)].center() * m_zoom;
    emit viewChanged();
    update();
}

QPointF FusionMapView::nodeCenter(int node) const
{
    const FusionLayout *layout = currentLayout();
    if (!layout || node < 0 || node >= static_cast<int>(layout->nodes.size()))
        return {-1, -1};
    return m_offset + layout->nodes[static_cast<std::size_t>(node)].center() * m_zoom;
}

void FusionMapView::geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry)
{
    QQuickPaintedItem::geometryChange(newGeometry, oldGeometry);
    if (!m_fitted || newGeometry.size() != oldGeometry.size())
        fit();
}

void FusionMapView::paint(QPainter *p)
{
    p->fillRect(QRectF(0, 0, width(), height()), m_ground);
    const FusionMapModel *model = m_model.data();
    const FusionLayout *layout = model ? model->layout() : nullptr;
    const fu::FusionMap *map = model ? model->map() : nullptr;
    if (!layout || !map)
        return;
    p->setRenderHint(QPainter::Antialiasing, true);
    p->save();
    p->translate(m_offset);
    p->scale(m_zoom, m_zoom);
    const QRectF visible = QRectF(toGraph(QPointF(0, 0)), toGraph(QPointF(width(), height()))).adjusted(-40, -40, 40, 40);
    const double px = 1.0 / m_zoom;  // one device pixel in graph points

    // Fusion regions: filled when fused, a dashed outline when split.
    for (std::size_t gi = 0; gi < layout->groups.size(); ++gi) {
        const QRectF r = layout->groups[gi];
        if (!r.intersects(visible))
            continue;
        const bool on = map->enabled(static_cast<int>(gi));
        QColor fill = m_fused;
        fill.setAlphaF(on ? 0.22 : 0.0);
        QPen pen(m_fused, (on ? 1.5 : 1.2) * px, on ? Qt::SolidLine : Qt::DashLine);
        p->setPen(pen);
        p->setBrush(fill);
        p->drawRoundedRect(r, 6, 6);
    }
    if (layout->groups.empty()) {
        const auto &members = map->group_of();
        for (std::size_t i = 0; i < layout->nodes.size(); ++i) {
            const int g = members[i];
            const QRectF r = layout->nodes[i];
            if (g < 0 || r.isNull() || !r.intersects(visible))
                continue;
            const bool on = map->enabled(g);
            QColor fill = m_fused;
            fill.setAlphaF(on ? 0.35 : 0.0);
            p->setPen(QPen(m_fused, 1.5 * px, on ? Qt::SolidLine : Qt::DashLine));
            p->setBrush(fill);
            p->drawRoundedRect(r.adjusted(-4, -4, 4, 4), 5, 5);
        }
    }
    // Edges: inside an enabled fusion faint, through HBM bright.
    const auto &kernelOf = map->kernel_of();
    const auto &groupOf = map->group_of();
    QColor faint = m_muted;
    faint.setAlphaF(0.45);
    for (const auto &e : layout->edges) {
        if (!e.path.boundingRect().intersects(visible))
            continue;
        const int gf = groupOf[static_cast<std::size_t>(e.from)], gt = groupOf[static_cast<std::size_t>(e.to)];
        const bool fused = gf >= 0 && gf == gt && map->enabled(gf);
        const bool sameKernel = kernelOf[static_cast<std::size_t>(e.from)] >= 0 &&
                                kernelOf[static_cast<std::size_t>(e.from)] == kernelOf[static_cast<std::size_t>(e.to)];
        const bool hbm = !(fused && sameKernel);
        p->setPen(QPen(hbm ? m_hbm : faint, (hbm ? 1.4 : 1.0) * px));
        p->setBrush(Qt::NoBrush);
        if (e.path.size() >= 4 && (e.path.size() - 1) % 3 == 0) {
            QPainterPath curve(e.path[0]);
            for (int k = 1; k + 2 < e.path.size(); k += 3)
                curve.cubicTo(e.path[k], e.path[k + 1], e.path[k + 2]);
            p->drawPath(curve);
        } else {
            p->drawPolyline(e.path);
        }
    }
    // Ops.
    QFont font(m_font);
    font.setPixelSize(std::max(1, static_cast<int>(std::lround(m_fontSize * px))));
    p->setFont(font);
    const bool labels = m_zoom * 26.0 >= m_fontSize;  // a box tall enough for a line
    const auto &nodes = map->graph().nodes();
    std::vector<char> match(nodes.size(), 0);
    for (int id : model->matches())
        match[static_cast<std::size_t>(id)] = 1;
    for (std::size_t i = 0; i < layout->nodes.size(); ++i) {
        const QRectF r = layout->nodes[i];
        if (r.isNull() || !r.intersects(visible))
            continue;
        const bool selected = static_cast<int>(i) == model->selected();
        const bool param = nodes[i].cls == fu::OpClass::parameter;
        QPen pen(selected ? m_select : match[i] ? m_match : m_muted, (selected || match[i] ? 2.5 : 1.0) * px);
        p->setPen(pen);
        p->setBrush(param ? m_ground : m_op);
        p->drawRoundedRect(r, 3, 3);
        if (labels) {
            p->setPen(m_text);
            const QString label = qs(nodes[i].opcode == "parameter" ? nodes[i].name : nodes[i].opcode);
            const QFontMetricsF fm(font);
            p->drawText(r.adjusted(4, 0, -4, 0), Qt::AlignCenter, fm.elidedText(label, Qt::ElideRight, r.width() - 8));
        }
    }
    p->restore();
}

void FusionMapView::mousePressEvent(QMouseEvent *event)
{
    forceActiveFocus(Qt::MouseFocusReason);
    m_pressAt = event->position();
    m_pressOffset = m_offset;
    m_dragged = false;
    event->accept();
}

void FusionMapView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF moved = event->position() - m_pressAt;
    if (!m_dragged && std::hypot(moved.x(), moved.y()) < 4)
        return;
    m_dragged = true;
    m_offset = m_pressOffset + moved;
    emit viewChanged();
    update();
}

void FusionMapView::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_dragged && m_model)
        emit nodeClicked(m_model->nodeAt(toGraph(event->position())));
    m_dragged = false;
}

void FusionMapView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (m_model)
        emit nodeDoubleClicked(m_model->nodeAt(toGraph(event->position())));
}

void FusionMapView::wheelEvent(QWheelEvent *event)
{
    // The wheel zooms with Ctrl, or once the map has been clicked; before
    // that it goes on to the page, so the reader scrolls past an inline map.
    if (!(event->modifiers() & Qt::ControlModifier) && !hasActiveFocus()) {
        event->ignore();
        return;
    }
    const QPointF at = event->position();
    const QPointF g = toGraph(at);
    if (event->modifiers() & Qt::ControlModifier || event->angleDelta().x() == 0) {
        const double steps = event->angleDelta().y() / 120.0;
        m_zoom = std::clamp(m_zoom * std::pow(1.2, steps), 0.03, 4.0);
        m_offset = at - g * m_zoom;
    } else {
        m_offset += QPointF(event->angleDelta().x(), event->angleDelta().y()) / 2.0;
    }
    emit viewChanged();
    update();
    event->accept();
}

void FusionMapView::keyPressEvent(QKeyEvent *event)
{
    const double step = 60;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25); break;
    case Qt::Key_Minus: zoomBy(0.8); break;
    case Qt::Key_0: fit(); break;
    case Qt::Key_Left: panBy(step, 0); break;
    case Qt::Key_Right: panBy(-step, 0); break;
    case Qt::Key_Up: panBy(0, step); break;
    case Qt::Key_Down: panBy(0, -step); break;
    default: event->ignore(); return;
    }
    event->accept();
}
