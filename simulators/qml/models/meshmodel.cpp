#include "meshmodel.h"
#include "variants.h"

#include <tpusim/collective.h>
#include <tpusim/error.h>
#include <tpusim/mesh.h>

#include <QtQml/qqml.h>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <limits>

using simqml::qs;

// One run of libtpusim: the mesh, what the collective did on it, or the error.
struct MeshRun
{
    tpusim::Mesh mesh;
    tpusim::CollectiveResult result;
    double bytes = 0; // V, as the collective was asked for it
    int axis = 0;     // the mesh axis it ran over
    QString error;
};

namespace {

// Up to this many chips the simulation runs inline: it takes well under a
// millisecond, and a thread hop would only make the scrub lag.
constexpr std::int64_t inlineChips = 64;

struct Inputs
{
    std::string chip;
    std::vector<std::int64_t> shape;
    tpusim::CollectiveSpec spec;
};

std::shared_ptr<MeshRun> simulate(const Inputs &in)
{
    auto run = std::make_shared<MeshRun>();
    run->bytes = in.spec.bytes;
    run->axis = in.spec.axes.empty() ? 0 : in.spec.axes.front();
    try {
        run->mesh = tpusim::make_mesh(tpusim::chip(in.chip), in.shape);
        tpusim::CollectiveOptions options;
        options.trace = true;
        options.max_trace_events = 20000;
        run->result = tpusim::collective(run->mesh, in.spec, options);
    } catch (const tpusim::InputError &e) {
        run->error = QString::fromUtf8(e.what());
    }
    return run;
}

// "(3,1) -> (4,1)" as two coordinate lists.
bool parseLink(const std::string &text, std::vector<std::int64_t> &from, std::vector<std::int64_t> &to)
{
    from.clear();
    to.clear();
    std::vector<std::int64_t> *into = &from;
    std::int64_t n = 0;
    bool inNumber = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            n = n * 10 + (c - '0');
            inNumber = true;
        } else {
            if (inNumber)
                into->push_back(n);
            n = 0;
            inNumber = false;
            if (c == ')')
                into = &to;
        }
    }
    return !from.empty() && from.size() == to.size();
}

QString text(double seconds)
{
    return qs(tpusim::format_time(seconds));
}

} // namespace

MeshModel::MeshModel(QObject *parent)
    : QObject(parent),
      m_run(
          this, simqml::LatestRun<std::shared_ptr<MeshRun>>::Stale::dropped, [this] { return launch(); },
          [this](std::shared_ptr<MeshRun> run) { finished(std::move(run)); }, [this] { emit busyChanged(); })
{
    connect(this, &MeshModel::inputsChanged, this, [this] { m_run.schedule(); });
    connect(this, &MeshModel::planeChanged, this, &MeshModel::rebuildView);
    m_run.schedule();
}

MeshModel::~MeshModel() = default;

int MeshModel::maxAxes(const QString &chipId) const
{
    try {
        return tpusim::torus_rank(tpusim::chip(chipId.toStdString()));
    } catch (const tpusim::InputError &) {
        return 2; // an unknown chip: the flat torus of most
    }
}

int MeshModel::largestAxis(const QString &chipId, const QVariantList &shape, int axis) const
{
    std::vector<std::int64_t> sizes;
    for (const QVariant &v : shape)
        sizes.push_back(v.toLongLong());
    try {
        const std::int64_t most = tpusim::largest_axis(tpusim::chip(chipId.toStdString()), sizes,
                                                       static_cast<std::size_t>(std::max(0, axis)));
        return static_cast<int>(std::min<std::int64_t>(most, std::numeric_limits<int>::max()));
    } catch (const tpusim::InputError &) {
        return 1;
    }
}

std::variant<std::shared_ptr<MeshRun>, QFuture<std::shared_ptr<MeshRun>>> MeshModel::launch() const
{
    Inputs in;
    in.chip = m_chip.toStdString();
    std::int64_t chips = 1;
    for (const QVariant &v : m_shape) {
        in.shape.push_back(v.toLongLong());
        chips *= std::max<std::int64_t>(1, v.toLongLong());
    }
    try {
        in.spec.kind = tpusim::parse_collective(m_kind.toStdString());
    } catch (const tpusim::InputError &e) {
        auto run = std::make_shared<MeshRun>();
        run->error = QString::fromUtf8(e.what());
        return run;
    }
    in.spec.axes = {m_axis};
    in.spec.bytes = m_bytes;
    in.spec.bidirectional = m_bidirectional;
    in.spec.chunks = m_chunks;
    if (chips <= inlineChips)
        return simulate(in);
    return QtConcurrent::run(simulate, in);
}

void MeshModel::finished(std::shared_ptr<MeshRun> run)
{
    m_shown = std::move(run);
    if (!m_shown->error.isEmpty()) {
        m_result = {{"error", m_shown->error}};
    } else {
        const tpusim::CollectiveResult &r = m_shown->result;
        const tpusim::Mesh &m = m_shown->mesh;
        QVariantList axes;
        for (const auto &a : m.axes)
            axes.append(QVariantMap{{"size", qlonglong(a.size)}, {"wraps", a.wraps}, {"reason", qs(a.reason)}});
        const tpusim::Chip &chip = tpusim::chip(m.chip);
        // What a real chip shows: the simulation at the share of the links'
        // peak that long published collectives reach on it, plus the least
        // time any collective takes to launch and synchronise (validation.h).
        const double ici = chip.ici_attainable.value > 0 ? chip.ici_attainable.value : 1;
        const double realS = r.time_s / ici + chip.collective_floor.value;
        tpusim::Provenance atChip = r.provenance;
        atChip.assumptions.push_back("The links reach " + tpusim::format_fact(chip.ici_attainable) +
                                     " of their peak, the share long published collectives reach on this chip " +
                                     chip.ici_attainable.source + ".");
        atChip.assumptions.push_back("Every collective first pays " + tpusim::format_fact(chip.collective_floor) +
                                     " to launch and synchronise the chips " + chip.collective_floor.source + ".");
        m_result = {
            {"timeS", r.time_s},
            {"attainableS", realS},
            {"attainable", text(realS)},
            {"attainableFraction", qs(tpusim::format_fact(chip.ici_attainable))},
            {"collectiveFloor", qs(tpusim::format_fact(chip.collective_floor))},
            {"attainableProvenance", simqml::provenance(atChip)},
            {"time", text(r.time_s)},
            {"simulatedS", r.simulated_s},
            {"simulated", text(r.simulated_s)},
            {"analyticS", r.analytic_s},
            {"analytic", text(r.analytic_s)},
            {"analyticBandwidth", text(r.analytic_bandwidth_s)},
            {"analyticLatency", text(r.analytic_latency_s)},
            {"difference", r.difference},
            {"differenceText", qs(tpusim::format_fixed(r.difference * 100, 1)) + QStringLiteral(" %")},
            {"agrees", r.agrees},
            {"formula", qs(r.formula)},
            {"explanation", qs(r.explanation)},
            {"memoryNote", qs(r.memory_note)},
            {"bytesText", qs(tpusim::format_bytes(m_shown->bytes))},
            {"groupSize", qlonglong(r.group_size)},
            {"groups", qlonglong(r.groups)},
            {"busiestLinkBytes", qs(tpusim::format_bytes(r.busiest_link_bytes))},
            {"totalLinkBytes", qs(tpusim::format_bytes(r.total_link_bytes))},
            {"chunkHops", qlonglong(r.chunk_hops)},
            {"linesSimulated", qlonglong(r.lines_simulated)},
            {"linesTotal", qlonglong(r.lines_total)},
            {"traceTruncated", r.trace_truncated},
            {"devices", qlonglong(m.devices())},
            {"shape", qs(m.shape())},
            {"axes", axes},
            {"wrapRule", qs(chip.wraparound.text)},
            {"wrapSource", qs(chip.wraparound.source)},
            {"topology", qs(chip.topology.text)},
            {"linkBandwidth", qs(tpusim::format_rate(m.link_bandwidth, "B/s"))},
            {"hopLatency", text(m.hop_latency)},
            {"provenance", simqml::provenance(tpusim::with_working(r.provenance, tpusim::collective_working(r)))}};
    }
    emit resultChanged();
    rebuildView();
}

// The plane on show: axes 0 and 1 (a 1D slice is one row), at index `plane`
// of axis 2. Links along axis 2 leave the plane and are not drawn.
void MeshModel::rebuildView()
{
    m_picture = {};
    if (!m_shown || !m_shown->error.isEmpty()) {
        m_view = {};
        emit viewChanged();
        return;
    }
    const tpusim::Mesh &mesh = m_shown->mesh;
    const std::size_t rank = mesh.axes.size();
    const std::int64_t planes = rank == 3 ? mesh.axes[2].size : 1;
    const std::int64_t plane = std::clamp<std::int64_t>(m_plane, 0, planes - 1);
    // (row, column) of a device in the plane, or false when it lies elsewhere.
    const auto place = [&](const std::vector<std::int64_t> &c, std::int64_t &row, std::int64_t &col) {
        if (rank == 3 && c[2] != plane)
            return false;
        row = rank == 1 ? 0 : c[0];
        col = rank == 1 ? c[0] : c[1];
        return true;
    };

    double maxBytes = 0;
    for (const tpusim::LinkLoad &l : m_shown->result.links) {
        if (l.link.axis > 1)
            continue;
        std::int64_t r0 = 0, c0 = 0, r1 = 0, c1 = 0;
        if (!place(mesh.coords(l.link.from), r0, c0) || !place(mesh.coords(l.link.to), r1, c1))
            continue;
        const bool wrap = std::abs(r1 - r0) + std::abs(c1 - c0) > 1;
        maxBytes = std::max(maxBytes, l.bytes);
        m_picture.links.push_back({int(r0), int(c0), int(r1), int(c1), l.link.direction, wrap, l.bytes});
    }

    // When one line stands for all (the model's stated assumption: the others
    // are its translations), MeshView repeats its chunks on every line of
    // the plane, whichever plane is shown.
    const tpusim::CollectiveResult &result = m_shown->result;
    const bool everyLine = result.lines_simulated == 1 && result.lines_total > 1 && rank > 1 && m_shown->axis < 2;
    double end = 0;
    std::vector<std::int64_t> from, to;
    for (const tpusim::TraceEvent &e : result.trace) {
        end = std::max(end, e.start_s + e.duration_s);
        if (e.category != "link" || !parseLink(e.thread, from, to))
            continue;
        if (everyLine && rank == 3)
            from[2] = to[2] = plane;
        std::int64_t r0 = 0, c0 = 0, r1 = 0, c1 = 0;
        if (!place(from, r0, c0) || !place(to, r1, c1))
            continue;
        if (std::abs(r1 - r0) + std::abs(c1 - c0) == 0)
            continue; // an axis-2 hop seen end on
        const bool wrap = std::abs(r1 - r0) + std::abs(c1 - c0) > 1;
        const bool up = r1 + c1 > r0 + c0;
        m_picture.hops.push_back(
            {int(r0), int(c0), int(r1), int(c1), up != wrap ? 1 : -1, wrap, e.start_s, e.duration_s});
    }
    end = std::max(end, result.simulated_s);
    m_picture.rows = static_cast<int>(rank == 1 ? 1 : mesh.axes[0].size);
    m_picture.cols = static_cast<int>(rank == 1 ? mesh.axes[0].size : mesh.axes[1].size);
    m_picture.maxBytes = maxBytes;
    m_picture.repeat = !everyLine           ? MeshPicture::Repeat::none
                       : m_shown->axis == 1 ? MeshPicture::Repeat::rows
                                            : MeshPicture::Repeat::cols;

    // The links and hops themselves stay in m_picture: turned into QVariants
    // they would be copied into JavaScript by every binding that reads `view`.
    m_view = {{"plane", qlonglong(plane)},
              {"planes", qlonglong(planes)},
              {"hopCount", qlonglong(m_picture.hops.size())},
              // "rows": draw each hop on every row; "cols": on every column
              {"repeatHops", everyLine ? QString::fromLatin1(m_shown->axis == 1 ? "rows" : "cols") : QString()},
              {"endS", end}};
    emit viewChanged();
}
