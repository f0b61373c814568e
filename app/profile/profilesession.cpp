#include "profilesession.h"
#include "profilesession_detail.h"

#include <progress/profiles.h>
#include <progress/store.h>
#include <tpuprofile/read.h>
#include <tpusim/provenance.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJSEngine>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace profiledetail {

progress::Store *g_store = nullptr;

QString capturedAt(const tpuprofile::Profile &p)
{
    if (p.start_ns <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(p.start_ns / 1000000, Qt::UTC).toString(Qt::ISODate);
}

QString programName(const tpuprofile::Profile &p, const tpuprofile::OpTable &t, const tpuprofile::Op &op)
{
    if (!op.has_program_id)
        return {};
    for (const auto &s : t.summary.programs)
        if (s.id == op.program_id && !s.name.empty())
            return qs(s.name);
    if (const tpuprofile::Program *prog = p.program(op.program_id))
        return qs(prog->name);
    return QString::number(op.program_id);
}

} // namespace profiledetail

using namespace profiledetail;

namespace {

ProfileSession *g_instance = nullptr;

QString timeText(std::int64_t ps)
{
    return qs(tpusim::format_time(static_cast<double>(ps) * 1e-12));
}

QString localPath(const QString &pathOrUrl)
{
    const QUrl url(pathOrUrl);
    return url.isLocalFile() ? url.toLocalFile() : pathOrUrl;
}

// The sha256 of the files a profile is read from, one after another.
QString sha256Of(const std::vector<std::string> &files)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const std::string &f : files) {
        QFile file(qs(f));
        if (!file.open(QIODevice::ReadOnly) || !hash.addData(&file))
            return {};
    }
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace

struct ProfileSession::Outcome
{
    std::shared_ptr<const tpuprofile::Profile> profile;
    std::vector<tpuprofile::OpTable> tables;
    QString sha256;
    QString problem;
};

ProfileSession::ProfileSession(QObject *parent) : QObject(parent)
{
    m_progressTimer.setInterval(50);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] {
        if (!m_done)
            return;
        const double p = m_done->load();
        if (p != m_progress) {
            m_progress = p;
            emit progressChanged();
        }
    });
    connect(&m_watcher, &QFutureWatcher<void>::finished, this, &ProfileSession::finish);
}

ProfileSession::~ProfileSession()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
    if (g_instance == this)
        g_instance = nullptr;
}

void ProfileSession::provide(progress::Store *store)
{
    g_store = store;
}

ProfileSession *ProfileSession::instance()
{
    if (!g_instance)
        g_instance = new ProfileSession;
    return g_instance;
}

ProfileSession *ProfileSession::create(QQmlEngine *, QJSEngine *engine)
{
    ProfileSession *s = instance();
    // One session for the whole run, whichever engine shows it.
    engine->setObjectOwnership(s, QJSEngine::CppOwnership);
    return s;
}

QString ProfileSession::fileName() const
{
    return QFileInfo(m_path).fileName();
}
QString ProfileSession::format() const
{
    return m_profile ? qs(m_profile->format) : QString();
}

QVariantList ProfileSession::devices() const
{
    QVariantList out;
    if (!m_profile)
        return out;
    for (const tpuprofile::Device &d : m_profile->devices) {
        QString label = qs(d.plane);
        label.remove(QStringLiteral("/device:"));
        out.append(QVariantMap{{"plane", qs(d.plane)},
                               {"kind", qs(std::string(tpuprofile::kind_name(d.kind)))},
                               {"deviceType", qs(d.device_type)},
                               {"chip", qs(d.chip)},
                               {"ops", static_cast<int>(d.ops.size())},
                               {"label", label}});
    }
    return out;
}

QStringList ProfileSession::notes() const
{
    QStringList out;
    if (m_profile)
        for (const std::string &n : m_profile->notes)
            out << qs(n);
    return out;
}

void ProfileSession::setState(const QString &state)
{
    m_state = state;
    emit stateChanged();
}

bool ProfileSession::looksLikeProfile(const QString &pathOrUrl)
{
    const QString path = localPath(pathOrUrl).toLower();
    return path.endsWith(QLatin1String(".xplane.pb")) || path.endsWith(QLatin1String(".trace.json")) ||
           path.endsWith(QLatin1String(".trace.json.gz")) || path.endsWith(QLatin1String("perfetto_trace.json.gz")) ||
           QFileInfo(localPath(pathOrUrl)).isDir();
}

void ProfileSession::open(const QString &pathOrUrl)
{
    const QString given = localPath(pathOrUrl);
    if (given.isEmpty())
        return;
    // Whole, so the file can be opened again from wherever the app starts.
    const QString path = QFileInfo(given).absoluteFilePath();
    cancel();
    m_watcher.waitForFinished();
    auto outcome = std::make_shared<Outcome>();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_done = std::make_shared<std::atomic<double>>(0.0);
    m_pendingPath = path;
    m_progress = 0;
    emit progressChanged();
    m_problem.clear();
    setState(QStringLiteral("reading"));
    m_progressTimer.start();
    const auto cancelFlag = m_cancel;
    const auto done = m_done;
    m_pending = outcome;
    m_watcher.setFuture(QtConcurrent::run([outcome, cancelFlag, done, path] {
        tpuprofile::ReadOptions options;
        options.cancel = cancelFlag.get();
        options.progress = [done](std::uint64_t d, std::uint64_t total) {
            done->store(total > 0 ? static_cast<double>(d) / static_cast<double>(total) : 0);
        };
        try {
            const std::string file = path.toStdString();
            outcome->profile = std::make_shared<const tpuprofile::Profile>(tpuprofile::read_profile(file, options));
            // The tables too: costing a large program's HLO takes a while.
            for (std::size_t i = 0; i < outcome->profile->devices.size(); ++i)
                outcome->tables.push_back(tpuprofile::op_table(*outcome->profile, i));
            outcome->sha256 = sha256Of(tpuprofile::profile_files(file));
        } catch (const std::exception &e) {
            outcome->problem = QString::fromUtf8(e.what());
        }
    }));
}

QString ProfileSession::openNow(const QString &path)
{
    open(path);
    m_watcher.waitForFinished();
    finish();
    // The page keeps the last good profile when a read fails: the problem
    // says this one failed whatever is shown.
    return m_problem;
}

void ProfileSession::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void ProfileSession::finish()
{
    m_progressTimer.stop();
    const std::shared_ptr<Outcome> outcome = std::move(m_pending);
    if (!outcome)
        return;
    if (!outcome->problem.isEmpty() || !outcome->profile) {
        // What was shown before stays; the page says why this one was not read.
        m_problem = outcome->problem.isEmpty() ? QStringLiteral("The profile could not be read.") : outcome->problem;
        setState(m_profile ? QStringLiteral("ready") : QStringLiteral("failed"));
        if (m_profile)
            emit stateChanged();
        return;
    }
    m_ops.reset(nullptr, {});
    m_table = nullptr;
    m_profile = outcome->profile;
    m_tables = std::move(outcome->tables);
    m_path = m_pendingPath;
    m_sha256 = outcome->sha256;
    m_device = static_cast<int>(tpuprofile::first_device(*m_profile));
    emit loaded();
    rebuildTable();
    storeImport();
    m_progress = 1;
    emit progressChanged();
    setState(QStringLiteral("ready"));
}

void ProfileSession::setDevice(int device)
{
    if (!m_profile || device < 0 || device >= static_cast<int>(m_profile->devices.size()) || device == m_device)
        return;
    m_device = device;
    rebuildTable();
}

void ProfileSession::rebuildTable()
{
    m_ops.reset(nullptr, {});
    m_table = nullptr;
    m_summary.clear();
    if (!m_profile || m_device < 0 || m_device >= static_cast<int>(m_tables.size())) {
        emit deviceChanged();
        return;
    }
    m_table = &m_tables[static_cast<std::size_t>(m_device)];
    const tpuprofile::OpTable &t = *m_table;
    const tpuprofile::Device &d = *t.device;
    std::vector<QString> programs;
    QStringList programNames;
    for (const tpuprofile::OpRow &r : t.rows) {
        programs.push_back(programName(*m_profile, t, d.ops[static_cast<std::size_t>(r.op)]));
    }
    QVariantList programList;
    for (const auto &p : t.summary.programs) {
        const QString name = p.name.empty() ? QString::number(p.id) : qs(p.name);
        programNames << name;
        QString text = name + QStringLiteral(": ") + timeText(p.op_self_ps) + QStringLiteral(" in its ops");
        if (p.runs > 0)
            text += QStringLiteral(", %1 run%2 of %3 in all")
                        .arg(p.runs)
                        .arg(p.runs == 1 ? "" : "s")
                        .arg(timeText(p.total_ps));
        programList.append(QVariantMap{{"name", name}, {"text", text}});
    }
    QVariantList gaps;
    for (const tpuprofile::Gap &g : t.summary.largest_gaps) {
        const QString before = g.before >= 0 ? qs(d.ops[static_cast<std::size_t>(g.before)].name) : QString();
        const QString after = g.after >= 0 ? qs(d.ops[static_cast<std::size_t>(g.after)].name) : QString();
        gaps.append(QVariantMap{
            {"text", timeText(g.duration_ps) + QStringLiteral(" between ") + before + QStringLiteral(" and ") + after},
            {"start", static_cast<double>(g.start_ps)},
            {"duration", static_cast<double>(g.duration_ps)}});
    }
    QVariantList hostLink;
    for (const tpuprofile::HostLinkUse &u : t.summary.host_link) {
        QString text = qs(u.direction) + QStringLiteral(": ") + qs(tpusim::format_bytes(u.bytes)) +
                       QStringLiteral(" in ") + QString::number(u.transfers) + QStringLiteral(" copies");
        if (u.busy_s > 0)
            text +=
                QStringLiteral(", %1 while any was in flight").arg(qs(tpusim::format_rate(u.bytes / u.busy_s, "B/s")));
        hostLink.append(QVariantMap{{"text", text}});
    }
    QVariantList families;
    for (int f = 0; f <= static_cast<int>(tpuprofile::Family::other); ++f)
        if (std::any_of(t.rows.begin(), t.rows.end(),
                        [f](const tpuprofile::OpRow &r) { return static_cast<int>(r.family) == f; }))
            families.append(f);
    const QString when = capturedAt(*m_profile);
    QString details = qs(d.device_type.empty() ? std::string(tpuprofile::kind_name(d.kind)) : d.device_type);
    if (!d.chip.empty())
        details += QStringLiteral(" (") + qs(d.chip) + QLatin1Char(')');
    details += QStringLiteral(" · ") + qs(d.plane);
    if (!programNames.isEmpty())
        details += QStringLiteral(" · ") +
                   (programNames.size() == 1 ? QStringLiteral("program ") : QStringLiteral("programs ")) +
                   programNames.join(QStringLiteral(", "));
    details += QStringLiteral(" · ") + (when.isEmpty() ? QStringLiteral("the profile does not say when it was taken")
                                                       : QStringLiteral("taken ") + when);
    details += QStringLiteral(" · file ") + fileName();
    details += QStringLiteral("\nDevice times as the profiler recorded them on the chip (") +
               (m_profile->format == "xplane.pb" ? QStringLiteral("device_offset_ps and device_duration_ps")
                                                 : QStringLiteral("the trace's ts and dur")) +
               QStringLiteral("): no host dispatch is in them.");
    m_summary = {
        {"finding", qs(t.summary.finding)},
        {"busy", timeText(t.summary.busy_ps)},
        {"span", timeText(t.summary.span_ps)},
        {"idle", timeText(t.summary.idle_ps)},
        {"idleShare",
         t.summary.span_ps > 0 ? static_cast<double>(t.summary.idle_ps) / static_cast<double>(t.summary.span_ps) : 0.0},
        {"opEvents", static_cast<double>(t.summary.op_events)},
        {"opsLine", qs(d.ops_line)},
        {"gaps", gaps},
        {"families", families},
        {"hostLink", hostLink},
        {"programs", programList},
        {"programNames", programNames},
        {"chip", t.chip ? qs(t.chip->id) : QString()},
        {"chipName", t.chip ? qs(t.chip->name) : QString()},
        {"chipNote", qs(t.chip_note)},
        {"capturedAt", when},
        {"measuredDetails", details},
        {"plane", qs(d.plane)}};
    m_ops.reset(m_table, std::move(programs));
    emit deviceChanged();
}

QVariantMap ProfileSession::detail(int row) const
{
    if (!m_table || row < 0 || row >= static_cast<int>(m_table->rows.size()))
        return {};
    const tpuprofile::OpRow &r = m_table->rows[static_cast<std::size_t>(row)];
    const tpuprofile::Op &op = m_table->device->ops[static_cast<std::size_t>(r.op)];
    QStringList assumptions;
    for (const std::string &a : r.predicted.assumptions)
        assumptions << qs(a);
    QString measured = QStringLiteral("%1 × %2 = %3 self time")
                           .arg(op.occurrences)
                           .arg(qs(tpusim::format_time(r.self_per_call_s)), qs(tpusim::format_time(r.self_total_s)));
    if (op.total_ps > op.self_ps)
        measured += QStringLiteral(" (%1 with the ops inside it)").arg(timeText(op.total_ps));
    if (op.min_ps >= 0 && op.occurrences > 1)
        measured += QStringLiteral("; one run took %1 to %2").arg(timeText(op.min_ps), timeText(op.max_ps));
    QStringList cost;
    if (op.flops >= 0)
        cost << QString::number(static_cast<double>(op.flops), 'g', 4) + QStringLiteral(" FLOPs");
    if (op.bytes_accessed >= 0)
        cost << qs(tpusim::format_bytes(static_cast<double>(op.bytes_accessed)));
    if (r.intensity >= 0)
        cost << QString::number(r.intensity, 'g', 3) + QStringLiteral(" FLOP/B");
    QString hloCost;
    if (r.tpusim_cost.available)
        hloCost = QStringLiteral(
                      "libtpusim's own reading of the instruction in the program's HLO: %1 FLOPs and %2 a run, "
                      "%3 on the roofline (%4-bound)")
                      .arg(QString::number(r.tpusim_cost.flops, 'g', 4), qs(tpusim::format_bytes(r.tpusim_cost.bytes)),
                           qs(tpusim::format_time(r.tpusim_cost.time_s)), qs(r.tpusim_cost.bound));
    else if (!r.tpusim_cost.reason.empty())
        hloCost = QString::fromStdString(r.tpusim_cost.reason);
    QString transfer;
    if (r.transfer_s > 0 && r.start_op >= 0)
        transfer = QStringLiteral("From its %1 to its end the transfer took %2 on average.")
                       .arg(qs(m_table->device->ops[static_cast<std::size_t>(r.start_op)].name),
                            qs(tpusim::format_time(r.transfer_s)));
    return {{"name", qs(tpuprofile::display_name(op))},
            {"kernel", op.hlo_op.empty() ? QString() : qs(op.name)},
            {"kind", qs(r.kind)},
            {"hlo", qs(op.hlo_text)},
            {"tfOp", qs(op.tf_op)},
            {"source", qs(op.source)},
            {"measured", measured},
            {"cost", cost.join(QStringLiteral(" · "))},
            {"transfer", transfer},
            {"hloCost", hloCost},
            {"predictedKnown", r.predicted.available},
            {"predicted", r.predicted.available ? qs(tpusim::format_time(r.predicted.time_s)) : QString()},
            {"model", qs(r.predicted.model)},
            {"bound", qs(r.predicted.bound)},
            {"reason", qs(r.predicted.reason)},
            {"assumptions", assumptions},
            {"error", std::isnan(r.error) ? QVariant() : QVariant(r.error)},
            {"errorText", qs(tpusim::format_error(r.error))},
            {"hasHlo", !xrayTarget(row).isEmpty()}};
}

QVariantMap ProfileSession::xrayTarget(int row) const
{
    if (!m_table || !m_profile || row < 0 || row >= static_cast<int>(m_table->rows.size()))
        return {};
    const tpuprofile::Op &op =
        m_table->device->ops[static_cast<std::size_t>(m_table->rows[static_cast<std::size_t>(row)].op)];
    if (!op.has_program_id)
        return {};
    const tpuprofile::Program *program = m_profile->program(op.program_id);
    if (!program || program->hlo_text.empty())
        return {};
    const std::string instruction = op.hlo_op.empty() ? op.name : op.hlo_op;
    return {{"text", qs(program->hlo_text)},
            {"origin", QStringLiteral("%1, program %2 (from its Hlo Proto)").arg(fileName(), qs(program->name))},
            {"op", qs(instruction)}};
}
